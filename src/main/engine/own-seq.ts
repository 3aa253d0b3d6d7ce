/**
 * An annotator's label events are numbered by her own count (her 1st, 2nd… event), never by the
 * workspace's sequence: the gap between two of her global numbers counted everyone else's label
 * events (blind pools included), which workspace.stats deliberately hides from her. Undo, redo
 * (ifLatest) and the screens only ever use the numbers of her own events, so her count serves them
 * as well (access.ts translates in both directions; the events of others she may see carry 0).
 */
import type { Workspace } from '../workspace/workspace';

// No pluck(): statements are cached by their text, and pluck would change the shared one for everyone.
const annotatorId = (ws: Workspace, name: string): number | null => (ws.stmt(`SELECT id FROM annotators WHERE name = ?`).get(name) as { id: number } | undefined)?.id ?? null;

/** Her number for global event `seq` (how many of her events are at or before it). Reads her entries of index labels_annotator_seq alone (migration 16). */
export function ownSeq(ws: Workspace, annotator: string, seq: number): number {
  const id = annotatorId(ws, annotator);
  if (id === null) return 0;
  return (ws.stmt(`SELECT count(*) AS n FROM labels WHERE pool_id IN (SELECT id FROM pools) AND annotator_id = ? AND seq <= ?`).get(id, seq) as { n: number }).n;
}

/** The global sequence number of her `n`-th event, or null when she has none such (by its position in labels_annotator_seq). */
export function globalSeq(ws: Workspace, annotator: string, n: number): number | null {
  const id = annotatorId(ws, annotator);
  if (id === null || !Number.isInteger(n) || n < 1) return null;
  return (ws.stmt(`SELECT seq FROM labels WHERE pool_id IN (SELECT id FROM pools) AND annotator_id = ? ORDER BY seq LIMIT 1 OFFSET ?`).get(id, n - 1) as { seq: number } | undefined)?.seq ?? null;
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
