/**
 * The top bar's connection chip: the event stream's state (client/types.ts ConnectionState). When
 * the server refused this page's token (revoked, or a link that no longer works) it says so —
 * reconnecting cannot help, a new link from the owner does.
 */
import type { ReactNode } from 'react';
import type { ConnectionState } from '../client/types';

const TEXT: Record<ConnectionState, string> = {
  open: 'connected',
  connecting: 'connecting…',
  closed: 'offline — reconnecting',
  ended: 'access ended',
};

const TITLE: Record<ConnectionState, string> = {
  open: 'Live updates from the engine',
  connecting: 'Live updates from the engine',
  closed: 'The server cannot be reached; labels wait and are sent once it answers',
  ended: 'This link no longer works (access revoked, or a newer link was made): ask the workspace’s owner for a new one',
};

export function ConnectionChip({ state }: { state: ConnectionState }): ReactNode {
  return (
    <span className={`conn conn-${state}`} data-testid="connection" data-state={state} title={TITLE[state]} role={state === 'ended' ? 'alert' : undefined}>
      {TEXT[state]}
    </span>
  );
}
