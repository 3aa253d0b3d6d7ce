/**
 * The labels the pool's last live retrain did not train on (live-store.ts labelsNotTrainedOn), kept
 * per pool and brought forward over the label events appended since, rather than read again from the
 * mark on every label and every live.status: a pool never retrained has its mark at 0, and each read
 * went through all of its events (42 ms at 148,000). The kept answer holds while the retrain's mark is
 * the same and nothing but label events was written since it was read (label-history.ts: a retrain
 * replacing the pool's list of pairs left out, a label deleted, any other write, and it is read afresh).
 */
import { historyMark, onlyLabelsAppended, type HistoryMark } from '../workspace/label-history';
import type { Workspace } from '../workspace/workspace';

interface Kept {
  afterSeq: number;
  mark: HistoryMark;
  /** The answer over the pool's events after afterSeq and up to this seq. */
  upTo: number;
  fresh: number;
  pairs: number;
}

/** Workspace events (any pool's) past the kept answer beyond which the pool's are read whole rather than one by one. */
const BRING_FORWARD_MAX = 5000;

/** Per workspace, per pool id. */
const kept = new WeakMap<Workspace, Map<number, Kept>>();

/** The answer over the pool's events after `afterSeq` and up to `upTo`, read whole (a CTE read once, through labels_pool_seq). */
function readWhole(ws: Workspace, poolId: number, afterSeq: number, upTo: number): { fresh: number; pairs: number } {
  return ws
    .stmt(
      `WITH fresh AS MATERIALIZED (SELECT query_id AS q, candidate_id AS c FROM labels WHERE pool_id = :pool AND seq > :after AND seq <= :upTo)
       SELECT (SELECT count(*) FROM fresh) AS fresh,
         (SELECT count(*) FROM (
           SELECT q, c FROM fresh
           UNION SELECT query_id, candidate_id FROM live_uncovered WHERE pool_id = :pool AND query_id IN (SELECT q FROM fresh)
         )) AS pairs`,
    )
    .get({ pool: poolId, after: afterSeq, upTo }) as { fresh: number; pairs: number };
}

/** Adds the pool's events after k.upTo and up to `upTo`, one by one, each looked up in the pool's earlier events after the mark. */
function bringForward(ws: Workspace, poolId: number, from: Kept, upTo: number): Kept {
  const k = { ...from };
  const events = ws.stmt(`SELECT seq, query_id AS q, candidate_id AS c FROM labels WHERE pool_id = ? AND seq > ? AND seq <= ? ORDER BY seq`).all(poolId, k.upTo, upTo) as Array<{ seq: number; q: string; c: string }>;
  const pairBefore = ws.stmt(`SELECT 1 FROM labels WHERE pool_id = ? AND query_id = ? AND candidate_id = ? AND seq > ? AND seq < ? LIMIT 1`);
  const queryBefore = ws.stmt(`SELECT 1 FROM labels WHERE pool_id = ? AND query_id = ? AND seq > ? AND seq < ? LIMIT 1`);
  const leftOut = ws.stmt(`SELECT candidate_id AS c FROM live_uncovered WHERE pool_id = ? AND query_id = ?`);
  for (const e of events) {
    k.fresh++;
    if (pairBefore.get(poolId, e.q, e.c, k.afterSeq, e.seq)) continue; // the pair counted already
    const left = new Set((leftOut.all(poolId, e.q) as Array<{ c: string }>).map((r) => r.c));
    if (queryBefore.get(poolId, e.q, k.afterSeq, e.seq)) {
      // Its query's pairs left out were counted with the query's first event since the mark.
      if (!left.has(e.c)) k.pairs++;
    } else k.pairs += left.size + (left.has(e.c) ? 0 : 1);
  }
  k.upTo = upTo;
  return k;
}

export function labelsNotTrainedOnSince(ws: Workspace, poolId: number, afterSeq: number): { pairs: number; fresh: number } {
  const mark = historyMark(ws);
  const pools = kept.get(ws) ?? new Map<number, Kept>();
  const last = pools.get(poolId);
  let k: Kept;
  // Many events since (an import of labels): one read of them all costs less than a few lookups each.
  if (mark && last && last.afterSeq === afterSeq && onlyLabelsAppended(last.mark, mark) && mark.newest - last.upTo <= BRING_FORWARD_MAX) k = { ...bringForward(ws, poolId, last, mark.newest), mark };
  else k = { afterSeq, mark: mark ?? { dataVersion: -1, changes: -1, newest: -1 }, upTo: mark?.newest ?? Number.MAX_SAFE_INTEGER, ...readWhole(ws, poolId, afterSeq, mark?.newest ?? Number.MAX_SAFE_INTEGER) };
  if (mark) {
    pools.set(poolId, k);
    kept.set(ws, pools);
  } else pools.delete(poolId);
  return { pairs: k.pairs, fresh: k.fresh };
}
