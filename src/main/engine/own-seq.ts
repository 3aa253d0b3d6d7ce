/**
 * An annotator's label events are numbered by her own count (her 1st, 2nd… event), never by the
 * workspace's sequence: the gap between two of her global numbers counted everyone else's label
 * events (blind pools included), which workspace.stats deliberately hides from her. Undo, redo
 * (ifLatest) and the screens only ever use the numbers of her own events, so her count serves them
 * as well (access.ts translates in both directions; the events of others she may see carry 0).
 */
import { historyMark, onlyLabelsAppended, type HistoryMark } from '../workspace/label-history';
import type { Workspace } from '../workspace/workspace';

// No pluck(): statements are cached by their text, and pluck would change the shared one for everyone.
const annotatorId = (ws: Workspace, name: string): number | null => (ws.stmt(`SELECT id FROM annotators WHERE name = ?`).get(name) as { id: number } | undefined)?.id ?? null;

/** Per workspace, per annotator id: how many of her events are at or before `upTo`, read at `mark`. */
const kept = new WeakMap<Workspace, Map<number, { mark: HistoryMark; upTo: number; count: number }>>();

/** Her events after `after` and up to `upTo` (in pools that exist), from her entries of labels_annotator_seq between them. */
const countBetween = (ws: Workspace, id: number, after: number, upTo: number): number =>
  (ws.stmt(`SELECT count(*) AS n FROM labels WHERE pool_id IN (SELECT id FROM pools) AND annotator_id = ? AND seq > ? AND seq <= ?`).get(id, after, upTo) as { n: number }).n;

/** Her kept count, when the label history up to it is as it was read (label-history.ts). */
function keptCount(ws: Workspace, id: number, mark: HistoryMark | null): { upTo: number; count: number } | null {
  const k = kept.get(ws)?.get(id);
  return k && mark !== null && onlyLabelsAppended(k.mark, mark) ? k : null;
}

/**
 * Her number for global event `seq` (how many of her events are at or before it). Reads her entries of index labels_annotator_seq
 * alone (migration 16); those since the count kept at an event of hers read before (or up to it, for an earlier event nearer it
 * than the first), while only label events were written since (label-history.ts): on the label path (her newest event) a few entries, not all of hers
 * (4-9 ms at 148,000 of hers).
 */
export function ownSeq(ws: Workspace, annotator: string, seq: number): number {
  const id = annotatorId(ws, annotator);
  if (id === null) return 0;
  const mark = historyMark(ws);
  const k = keptCount(ws, id, mark);
  if (k && seq < k.upTo && seq >= k.upTo / 2) return k.count - countBetween(ws, id, seq, k.upTo);
  const n = k && seq >= k.upTo ? k.count + countBetween(ws, id, k.upTo, seq) : (ws.stmt(`SELECT count(*) AS n FROM labels WHERE pool_id IN (SELECT id FROM pools) AND annotator_id = ? AND seq <= ?`).get(id, seq) as { n: number }).n;
  // Kept only up to an event that had been written when it was read: a later one could still come below `seq`.
  if (mark !== null && seq <= mark.newest) {
    let mine = kept.get(ws);
    if (!mine) kept.set(ws, (mine = new Map()));
    mine.set(id, { mark, upTo: seq, count: n });
  }
  return n;
}

/** The global sequence number of her `n`-th event, or null when she has none such (by its position in labels_annotator_seq; counted back from her kept count when nearer it). */
export function globalSeq(ws: Workspace, annotator: string, n: number): number | null {
  const id = annotatorId(ws, annotator);
  if (id === null || !Number.isInteger(n) || n < 1) return null;
  const k = keptCount(ws, id, historyMark(ws));
  const found =
    k && n > k.count
      ? ws.stmt(`SELECT seq FROM labels WHERE pool_id IN (SELECT id FROM pools) AND annotator_id = ? AND seq > ? ORDER BY seq LIMIT 1 OFFSET ?`).get(id, k.upTo, n - k.count - 1)
      : k && k.count - n < n - 1
        ? ws.stmt(`SELECT seq FROM labels WHERE pool_id IN (SELECT id FROM pools) AND annotator_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1 OFFSET ?`).get(id, k.upTo, k.count - n)
        : ws.stmt(`SELECT seq FROM labels WHERE pool_id IN (SELECT id FROM pools) AND annotator_id = ? ORDER BY seq LIMIT 1 OFFSET ?`).get(id, n - 1);
  return (found as { seq: number } | undefined)?.seq ?? null;
}

/** A message naming her events ("label event 1234 …", "event 1240, from another tab") with her own numbers. */
export function ownSeqsInMessage(ws: Workspace, annotator: string, message: string): string {
  return message.replace(/\bevent (\d+)/g, (_, n: string) => `event ${ownSeq(ws, annotator, Number(n))}`);
}

/** A label event of hers with her numbers: its seq, and the event an undo took back (origin `undo:N`). */
export function ownRecord<R extends { seq: number; origin: string }>(ws: Workspace, annotator: string, rec: R): R {
  const undone = /^undo:(\d+)$/.exec(rec.origin);
  return { ...rec, seq: ownSeq(ws, annotator, rec.seq), ...(undone ? { origin: `undo:${ownSeq(ws, annotator, Number(undone[1]))}` } : {}) };
}
