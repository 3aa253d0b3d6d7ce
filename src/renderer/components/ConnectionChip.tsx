/**
 * The top bar's connection chip: the event stream's state (client/types.ts ConnectionState). When
 * the server refused this page's token (revoked, or a link that no longer works) it says so —
 * reconnecting cannot help, a new link from the owner does. While reads the server refused as busy
 * wait to be sent again (client/busy-retry.ts: `waiting` of them), a connected page says it is
 * waiting for the server.
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

const WAITING_TEXT = 'waiting for the server…';
const WAITING_TITLE = 'The server is still busy with this page’s earlier requests (or those of a page reloaded a moment ago): what this screen asked is sent again in a moment';

export function ConnectionChip({ state, waiting = 0 }: { state: ConnectionState; waiting?: number }): ReactNode {
  const busy = waiting > 0 && (state === 'open' || state === 'connecting');
  return (
    <span
      className={`conn conn-${state}`}
      data-testid="connection"
      data-state={state}
      data-waiting={busy ? waiting : undefined}
      title={busy ? WAITING_TITLE : TITLE[state]}
      role={state === 'ended' ? 'alert' : undefined}
    >
      {busy ? WAITING_TEXT : TEXT[state]}
    </span>
  );
}
