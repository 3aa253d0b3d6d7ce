/**
 * Ranking quality of a ranker on a dev set (for picking the best epoch). Kept local to models/
 * so training does not depend on the metrics module's API.
 *
 * Candidates are sorted by score, descending; equal scores keep their given order.
 * RR = 1 / rank of the first relevant candidate; AP = (1/R) Σ_{k relevant} P@k with R the number of
 * relevant candidates in the list. Queries without a relevant candidate count 0 for both
 * (SemEval convention), so every query weighs the same.
 */
import type { DevSet, Ranker } from './types';

export function rankOrder(scores: readonly number[]): number[] {
  const idx = scores.map((_, i) => i);
  idx.sort((a, b) => {
    const sa = Number.isFinite(scores[a]) ? scores[a] : -Infinity;
    const sb = Number.isFinite(scores[b]) ? scores[b] : -Infinity;
    return sb - sa || a - b;
  });
  return idx;
}

/** AP and RR of one ranked list given per-position relevance (in ranked order). */
export function apRr(relevantInRankOrder: readonly boolean[]): { ap: number; rr: number } {
  let hits = 0;
  let sum = 0;
  let rr = 0;
  for (let k = 0; k < relevantInRankOrder.length; k++) {
    if (!relevantInRankOrder[k]) continue;
    hits++;
    sum += hits / (k + 1);
    if (rr === 0) rr = 1 / (k + 1);
  }
  return { ap: hits ? sum / hits : 0, rr };
}

export function evaluateScores(
  lists: ReadonlyArray<{ candidateIds: readonly string[]; scores: readonly number[]; relevant: ReadonlySet<string> }>,
): { mrr: number; map: number } {
  if (lists.length === 0) return { mrr: 0, map: 0 };
  let mrr = 0;
  let map = 0;
  for (const l of lists) {
    const order = rankOrder(l.scores);
    const { ap, rr } = apRr(order.map((i) => l.relevant.has(l.candidateIds[i])));
    mrr += rr;
    map += ap;
  }
  return { mrr: mrr / lists.length, map: map / lists.length };
}

export function evaluateRanker(ranker: Pick<Ranker, 'score'>, dev: DevSet): { mrr: number; map: number } {
  return evaluateScores(
    dev.queries.map((q) => ({
      candidateIds: q.candidates.map((c) => c.id),
      scores: ranker.score(q.query, q.candidates, q.context),
      relevant: q.relevant,
    })),
  );
}
