/**
 * Who voted on a pair is no third judge of it: the pairs a judge labeled in a pool before judging it
 * (PoolState.judgeSince: a vote as one of its annotators, whatever that label is now; imported labels
 * are rulings brought back, not votes), and the pool's judges who may settle such a pair instead.
 * One reading for the refusal of her ruling (review.ts checkJudgeDidNotVote) and for the Review
 * queue's mark on those pairs (ReviewItem.votedByYou), so what Review shows is what is refused.
 */
import type { Workspace } from '../workspace/workspace';
import { pairKey, type PoolState } from './state';

/**
 * The pairs (pairKey) of the pool `judge` labeled before judging it; with `pair`, that pair only
 * (empty or holding it). Empty for a judge who never labeled the pool before judging it (no query).
 */
export function pairsVotedBeforeJudging(ws: Workspace, s: PoolState, judge: string, pair?: { queryId: string; candidateId: string }): Set<string> {
  const before = s.judgeSince.get(judge);
  if (before === undefined) return new Set();
  const sql = `SELECT DISTINCT l.query_id AS queryId, l.candidate_id AS candidateId FROM labels l JOIN annotators a ON a.id = l.annotator_id
     WHERE l.pool_id = ? AND a.name = ? AND l.seq <= ? AND l.value IS NOT NULL AND l.origin NOT LIKE 'import:%'`;
  const poolId = ws.poolId(s.pool.name);
  const rows = (
    pair
      ? ws.stmt(`${sql} AND l.query_id = ? AND l.candidate_id = ? LIMIT 1`).all(poolId, judge, before, pair.queryId, pair.candidateId)
      : ws.stmt(sql).all(poolId, judge, before)
  ) as Array<{ queryId: string; candidateId: string }>;
  return new Set(rows.map((r) => pairKey(r.queryId, r.candidateId)));
}

/**
 * Per pair `judge` voted on (pairsVotedBeforeJudging): the pool's other judges who did not vote on
 * it, who may settle it (empty: none does; the owner makes someone else a judge).
 */
export function judgesWhoMaySettle(ws: Workspace, s: PoolState, judge: string, pair?: { queryId: string; candidateId: string }): Map<string, string[]> {
  const voted = pairsVotedBeforeJudging(ws, s, judge, pair);
  const out = new Map<string, string[]>();
  if (voted.size === 0) return out;
  const others = s.judges.filter((j) => j !== judge).map((j) => ({ j, voted: pairsVotedBeforeJudging(ws, s, j, pair) }));
  for (const key of voted) out.set(key, others.filter((o) => !o.voted.has(key)).map((o) => o.j));
  return out;
}
