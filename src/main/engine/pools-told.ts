/**
 * Which pools each annotator was last known to have open (pool-access.ts), for access.ts canSee: a
 * change that names no pool of hers — an import, a pool made, an assignment, an import undone — is
 * hers only when it opened or closed a pool to her (her pool list must follow: a pool newly assigned
 * appears, one taken back or taken away by an undo goes). Any other such change is the owner's
 * business: her socket would tell her when the owner imports or makes a pool closed to her.
 *
 * "Last known" is what her last pool.list answered (`noteShownPools`) or the last such change
 * decided for her. One change is decided once per annotator (`openPoolsChangedFor`, by the payload:
 * each of her sockets is asked about the same object) so that every tab of hers is told alike — and
 * as it is emitted, for everyone known, sockets or none (`followOpenPools`): a change made while she
 * had no socket open would otherwise be found later, and a change about a pool closed to her told.
 */
import type { Workspace } from '../workspace/workspace';
import type { EventHub } from './events';
import { usablePools } from './pool-access';

const known = new WeakMap<Workspace, Map<string, string>>();
const decided = new WeakMap<object, Map<string, boolean>>();

const signature = (pools: ReadonlySet<string>): string => [...pools].sort().join('\u0000');

function knownOf(ws: Workspace): Map<string, string> {
  let m = known.get(ws);
  if (!m) known.set(ws, (m = new Map()));
  return m;
}

/** Records the pools an annotator's pool.list answered: what her screens show now. */
export function noteShownPools(ws: Workspace, annotator: string, pools: ReadonlySet<string>): void {
  knownOf(ws).set(annotator, signature(pools));
}

/**
 * Whether the pools open to an annotator differ from those she was last known to have, for this
 * change (`change`: the event's payload, decided once per annotator). Nothing known of her yet
 * (no pool.list of hers since the engine started): what is open now is taken as known, unchanged.
 */
export function openPoolsChangedFor(ws: Workspace, annotator: string, change: object): boolean {
  let byPerson = decided.get(change);
  if (!byPerson) decided.set(change, (byPerson = new Map()));
  const earlier = byPerson.get(annotator);
  if (earlier !== undefined) return earlier;
  const now = signature(usablePools(ws, annotator));
  const m = knownOf(ws);
  const before = m.get(annotator);
  m.set(annotator, now);
  const changed = before !== undefined && before !== now;
  byPerson.set(annotator, changed);
  return changed;
}

/**
 * Decides each such change for every annotator known here as the engine emits it, before any
 * transport asks (the hub calls its own listeners before those of every event, onAny).
 */
export function followOpenPools(ws: Workspace, hub: EventHub): () => void {
  return hub.on('workspace.changed', (change) => {
    if ((change.what !== 'import' && change.what !== 'pool') || !ws.db.open) return;
    for (const annotator of knownOf(ws).keys()) openPoolsChangedFor(ws, annotator, change);
  });
}
