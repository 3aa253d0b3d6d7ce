/**
 * Who voted on a pair is no third judge of it: the pairs a judge labeled in a pool before judging it
 * (PoolState.judgeSpans: a vote as one of its annotators, whatever that label is now; imported labels
 * are rulings brought back, not votes), and the pool's judges who may settle such a pair instead.
 * One reading for the refusal of her ruling (review.ts checkJudgeDidNotVote) and for the Review
 * queue's mark on those pairs (ReviewItem.votedByYou), so what Review shows is what is refused.
 */
import type { Workspace } from '../workspace/workspace';
import { OUTSIDE_JUDGING_SQL } from './judge-spans';
import { pairKey, type PoolState } from './state';

/** Which pairs to read: one pair (review.settle's check), the pairs of some queries (a partial read of the queue), else all. */
export type VotedScope = { pair: { queryId: string; candidateId: string } } | { queries: Iterable<string> } | undefined;

/**
 * The pairs (pairKey) of the pool `judge` labeled while not judging it (before, or between two spans
 * of judging it: judge-spans.ts), within `scope`. Empty for a judge with no span recorded (no query).
 */
export function pairsVotedBeforeJudging(ws: Workspace, s: PoolState, judge: string, scope?: VotedScope): Set<string> {
  if (!s.judgeSpans.has(judge)) return new Set();
  return pairsVotedOutsideJudging(ws, s.pool.name, judge, scope);
}

/**
 * pairsVotedBeforeJudging without a PoolState (the role and assignment notes: gold/../team): every pair of `pool` `judge`
 * labeled while not judging it — a vote cleared since included, as it still bars her ruling on that pair.
 */
export function pairsVotedOutsideJudging(ws: Workspace, pool: string, judge: string, scope?: VotedScope): Set<string> {
  const sql = `SELECT DISTINCT l.query_id AS queryId, l.candidate_id AS candidateId FROM labels l JOIN annotators a ON a.id = l.annotator_id
     WHERE l.pool_id = ? AND a.name = ? AND l.value IS NOT NULL AND l.origin NOT LIKE 'import:%' AND ${OUTSIDE_JUDGING_SQL}`;
  const poolId = ws.poolId(pool);
  type Row = { queryId: string; candidateId: string };
  let rows: Row[];
  if (scope === undefined) rows = ws.stmt(sql).all(poolId, judge) as Row[];
  else if ('pair' in scope) rows = ws.stmt(`${sql} AND l.query_id = ? AND l.candidate_id = ? LIMIT 1`).all(poolId, judge, scope.pair.queryId, scope.pair.candidateId) as Row[];
  else {
    const one = ws.stmt(`${sql} AND l.query_id = ?`);
    rows = [...new Set(scope.queries)].flatMap((q) => one.all(poolId, judge, q) as Row[]);
  }
  return new Set(rows.map((r) => pairKey(r.queryId, r.candidateId)));
}

/**
 * Whether `judge` labeled pair (queryId, candidateId) before she first judged the pool ('before') or
 * only between two spans of judging it ('between'), for a pair pairsVotedBeforeJudging holds: the
 * refusal of her ruling says which (it said "before judging the pool" of a vote she gave between spans).
 */
export function whenJudgeVoted(ws: Workspace, s: PoolState, judge: string, queryId: string, candidateId: string): 'before' | 'between' {
  const first = s.judgeSpans.get(judge)?.[0];
  const r = ws
    .stmt(
      `SELECT min(l.seq) AS seq FROM labels l JOIN annotators a ON a.id = l.annotator_id
       WHERE l.pool_id = ? AND a.name = ? AND l.query_id = ? AND l.candidate_id = ? AND l.value IS NOT NULL AND l.origin NOT LIKE 'import:%' AND ${OUTSIDE_JUDGING_SQL}`,
    )
    .get(ws.poolId(s.pool.name), judge, queryId, candidateId) as { seq: number | null };
  return first === undefined || r.seq === null || r.seq <= first.after ? 'before' : 'between';
}

/**
 * Per pair `judge` voted on (pairsVotedBeforeJudging, within `scope`): the pool's other judges who
 * did not vote on it, who may settle it (empty: none does; the owner makes someone else a judge).
 */
export function judgesWhoMaySettle(ws: Workspace, s: PoolState, judge: string, scope?: VotedScope): Map<string, string[]> {
  const voted = pairsVotedBeforeJudging(ws, s, judge, scope);
  const out = new Map<string, string[]>();
  if (voted.size === 0) return out;
  const others = s.judges.filter((j) => j !== judge).map((j) => ({ j, voted: pairsVotedBeforeJudging(ws, s, j, scope) }));
  for (const key of voted) out.set(key, others.filter((o) => !o.voted.has(key)).map((o) => o.j));
  return out;
}

/**
 * The pool's judges, those who voted on fewer of `pairs` first (pairsVotedBeforeJudging; ties in the
 * pool's order): who voted on a pair may not rule on it, so `qpairs adjudicate`'s hint names first a
 * judge who may settle the pairs it lists. One query per judge with a span recorded, none for the others.
 */
export function judgesByVotesOn(ws: Workspace, s: PoolState, pairs: ReadonlyArray<{ queryId: string; candidateId: string }>): string[] {
  const votedOn = new Map(
    s.judges.map((j) => {
      const voted = pairsVotedBeforeJudging(ws, s, j);
      return [j, voted.size === 0 ? 0 : pairs.filter((p) => voted.has(pairKey(p.queryId, p.candidateId))).length];
    }),
  );
  return [...s.judges].sort((a, b) => votedOn.get(a)! - votedOn.get(b)!);
}
