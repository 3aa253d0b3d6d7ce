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

/**
 * The Pools screen's own empty state: what the next step is, given the workspace's questions
 * (null: not known yet). After an import, "import a corpus" would send the user back to do it again.
 */
export function poolsEmptyText(questions: number | null): string {
  if (questions === null) return 'No pools yet: create one below from the workspace’s questions (import a corpus on the Workspace screen first if it has none).';
  if (questions === 0) return 'No pools yet, and no questions to draw one from: import a corpus on the Workspace screen first (Alt+1), then create a pool below.';
  return `No pools yet: create one below from the workspace’s ${questions.toLocaleString('en-US')} question${questions === 1 ? '' : 's'}.`;
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
