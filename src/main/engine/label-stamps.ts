/**
 * A page's label outbox stamps each label it queues: the page's own id (new on every page load) and the
 * label's place in its order. The outbox gives up on a request that gets no answer (a stall) and sends it
 * again, then the labels after it; the first request may still reach the server late. The engine therefore
 * takes each stamped label at most once, and never one older than a label the same page gave on the same pair
 * and the engine took: a late duplicate changes nothing. Kept in memory, per open workspace (a page's
 * requests do not outlive the server they were sent to; a proxy that holds one across a restart is not covered).
 */
import { LABEL_SUPERSEDED } from '../../shared/labels';
import { QPairsError } from '../errors';
import type { Workspace } from '../workspace/workspace';

export interface LabelStamp {
  tab: string;
  n: number;
}

/** What the engine took for a stamp: its place, and the pair's latest event after it (null: none). */
interface Taken {
  n: number;
  latest: number | null;
}

/** Enough for every pair a day's pages touch; the oldest entries go first. */
const MAX_ENTRIES = 100_000;
const logs = new WeakMap<Workspace, Map<string, Taken>>();

function logOf(ws: Workspace): Map<string, Taken> {
  let log = logs.get(ws);
  if (!log) logs.set(ws, (log = new Map()));
  return log;
}

const keyOf = (stamp: LabelStamp, pool: string, a: { queryId: string; candidateId: string; annotator: string }): string =>
  [stamp.tab, pool, a.annotator, a.queryId, a.candidateId].join('\u0000');

/**
 * Before a stamped label is saved: the event it was saved as when the engine took this very label already
 * (answer with it, save nothing), undefined when it is new; refused when the same page's later label on the
 * pair was taken first.
 */
export function takenBefore(ws: Workspace, stamp: LabelStamp, pool: string, a: { queryId: string; candidateId: string; annotator: string }): { latest: number | null } | undefined {
  const taken = logOf(ws).get(keyOf(stamp, pool, a));
  if (!taken || stamp.n > taken.n) return undefined;
  if (stamp.n === taken.n) return { latest: taken.latest };
  throw new QPairsError(
    `not saved: a label given after this one on ${a.queryId} → ${a.candidateId} (from the same page) was saved first; this one arrived late and is outdated`,
    { reason: LABEL_SUPERSEDED },
  );
}

/** After a stamped label was saved (or found unchanged): `latest` is the pair's latest event now. */
export function recordTaken(ws: Workspace, stamp: LabelStamp, pool: string, a: { queryId: string; candidateId: string; annotator: string }, latest: number | null): void {
  const log = logOf(ws);
  const key = keyOf(stamp, pool, a);
  log.delete(key);
  log.set(key, { n: stamp.n, latest });
  if (log.size > MAX_ENTRIES) log.delete(log.keys().next().value!);
}
