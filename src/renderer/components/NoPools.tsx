/**
 * The empty state of a screen that works on one pool when the workspace has none (or, for an
 * annotator, none open to them): what to do instead of an empty select and silent buttons.
 */
import type { ReactNode } from 'react';
import type { CallerRole } from '../../shared/roles';
import { mayCall } from '../lib/roles';

export function noPoolsText(role: CallerRole): string {
  if (mayCall(role, 'pool.create')) return 'No pools yet: create one on the Pools screen.';
  if (role === 'judge') return 'No pools yet: the workspace’s owner creates them on the Pools screen.';
  return 'No pool is open to you yet: the workspace’s owner assigns pools.';
}

export function NoPools({ role, title, testId, onOpenPools }: { role: CallerRole; title: string; testId: string; onOpenPools?: () => void }): ReactNode {
  const owner = mayCall(role, 'pool.create');
  return (
    <section className="card" data-testid={testId}>
      <h2>{title}</h2>
      <p data-testid={`${testId}-text`}>{noPoolsText(role)}</p>
      {owner && onOpenPools && (
        <button type="button" onClick={onOpenPools} data-testid={`${testId}-open-pools`}>
          Open the Pools screen
        </button>
      )}
    </section>
  );
}
