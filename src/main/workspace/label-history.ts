/**
 * Where a count over the label history may be kept and brought forward. Labels are append-only and
 * their seq autoincrements, so the events up to a seq stay as they were read while nothing but label
 * events was written since: no other connection committed (externalVersion: another process, the
 * import connection) and this connection's row changes (visibleChanges) are exactly the label
 * sequence's growth, one new label per number. Anything else — a label deleted (an import undone, a
 * pool deleted), one put back below the newest, a transaction rolled back, any other row — and the
 * count is read afresh (as live-metrics.ts keeps its evaluations). Inside a transaction, which may yet
 * roll back what it read, nothing is kept.
 */
import type { Workspace } from './workspace';

export interface HistoryMark {
  dataVersion: number;
  changes: number;
  /** The label sequence (sqlite_sequence): every label event up to it had been written when read. */
  newest: number;
}

/** The workspace's marks now, or null inside a transaction (nothing read then may be kept). */
export function historyMark(ws: Workspace): HistoryMark | null {
  if (ws.db.inTransaction) return null;
  const newest = (ws.stmt(`SELECT seq FROM sqlite_sequence WHERE name = 'labels'`).get() as { seq: number } | undefined)?.seq ?? 0;
  return { dataVersion: ws.externalVersion(), changes: ws.visibleChanges(), newest };
}

/** Whether between the marks `then` and `now` only label events were appended (or nothing written): the events up to then.newest are unchanged. */
export function onlyLabelsAppended(then: HistoryMark, now: HistoryMark): boolean {
  return now.dataVersion === then.dataVersion && now.changes - then.changes === now.newest - then.newest && now.newest >= then.newest;
}
