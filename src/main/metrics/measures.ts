/**
 * Per-query IR measures on one ranked list, in trec_eval's definitions (trec_eval 9.x).
 *
 * Inputs, shared by every function here:
 * - `rel`: the ranked list's binary relevance, best rank first; `rel[i]` truthy iff the
 *   document at rank i+1 is relevant. Its length is the number of documents retrieved (n).
 *   Unjudged documents must be passed as non-relevant (trec_eval convention).
 * - `R`: the number of relevant documents for the query, retrieved or not. It may exceed the
 *   number of relevant documents in `rel` (relevant documents that were not retrieved: they
 *   lower AP and R-Prec exactly as in trec_eval, which divides by the qrels' count).
 * - `k`: a cutoff, a positive integer (otherwise a QPairsError). A cutoff beyond the list is
 *   allowed: the missing ranks count as non-relevant (P@k still divides by k, as trec_eval's P_k).
 *
 * Every function returns a finite number in [0, 1]; the degenerate cases (R = 0, empty list,
 * no relevant retrieved) return 0, never NaN.
 */
import { QPairsError } from '../errors';

/** Ranked binary relevance: 1/true = relevant, 0/false = not relevant or unjudged. */
export type RelevanceList = ArrayLike<number | boolean>;

function checkCutoff(k: number, fn: string): void {
  if (!Number.isInteger(k) || k < 1) {
    throw new QPairsError(`${fn}: cutoff k must be a positive integer, got ${String(k)}`, { reason: 'bad cutoff' });
  }
}

function checkR(R: number, fn: string): void {
  if (!Number.isInteger(R) || R < 0) {
    throw new QPairsError(`${fn}: R (number of relevant documents) must be a non-negative integer, got ${String(R)}`, {
      reason: 'bad R',
    });
  }
}

/**
 * Average precision (trec_eval `map` per query):
 *
 *   AP = (1/R) · Σ_{i : rel_i} P@i,   P@i = (# relevant in ranks 1..i) / i
 *
 * The sum runs over the ranks of the relevant documents retrieved; relevant documents not
 * retrieved contribute 0 but still count in R. R = 0 → 0.
 */
export function averagePrecision(rel: RelevanceList, R: number): number {
  checkR(R, 'averagePrecision');
  if (R === 0) return 0;
  let found = 0;
  let sum = 0;
  for (let i = 0; i < rel.length; i++) {
    if (rel[i]) {
      found++;
      sum += found / (i + 1);
    }
  }
  // found ≤ R when the caller is consistent; clamp so a bad R cannot push AP above 1.
  return Math.min(1, sum / Math.max(R, found));
}

/** Rank (1-based) of the first relevant document, or 0 when none is retrieved. */
export function firstRelevantRank(rel: RelevanceList): number {
  for (let i = 0; i < rel.length; i++) if (rel[i]) return i + 1;
  return 0;
}

/**
 * Reciprocal rank (trec_eval `recip_rank`): RR = 1 / rank of the first relevant document;
 * 0 when no relevant document is retrieved.
 */
export function reciprocalRank(rel: RelevanceList): number {
  const r = firstRelevantRank(rel);
  return r === 0 ? 0 : 1 / r;
}

/** Number of relevant documents in ranks 1..min(k, n). */
export function relevantInTop(rel: RelevanceList, k: number): number {
  const end = Math.min(k, rel.length);
  let c = 0;
  for (let i = 0; i < end; i++) if (rel[i]) c++;
  return c;
}

/**
 * Precision at k (trec_eval `P_k`): P@k = (# relevant in ranks 1..k) / k.
 * The denominator is always k, even when fewer than k documents are retrieved
 * (so 3 relevant out of 3 retrieved gives P@5 = 0.6).
 */
export function precisionAt(rel: RelevanceList, k: number): number {
  checkCutoff(k, 'precisionAt');
  return relevantInTop(rel, k) / k;
}

/**
 * R-precision (trec_eval `Rprec`): R-Prec = (# relevant in ranks 1..R) / R.
 * Divides by R even when fewer than R documents are retrieved. R = 0 → 0.
 */
export function rPrecision(rel: RelevanceList, R: number): number {
  checkR(R, 'rPrecision');
  if (R === 0) return 0;
  return Math.min(1, relevantInTop(rel, R) / R);
}

/**
 * Success at k, the Accuracy@k of dos Santos et al. 2015 (trec_eval `success_k`):
 * 1 if at least one relevant document is in ranks 1..k, else 0.
 */
export function successAt(rel: RelevanceList, k: number): number {
  checkCutoff(k, 'successAt');
  return relevantInTop(rel, k) > 0 ? 1 : 0;
}

/**
 * Discounted cumulative gain at k, trec_eval's `ndcg_cut` form:
 *
 *   DCG@k = Σ_{i=1}^{min(k,n)} gain_i / log2(i + 1)
 *
 * (rank 1 has discount log2 2 = 1, rank 2 log2 3, ...). `gains` is the ranked list's gains.
 * Non-positive and non-finite gains contribute 0.
 */
export function dcgAt(gains: ArrayLike<number>, k: number): number {
  checkCutoff(k, 'dcgAt');
  const end = Math.min(k, gains.length);
  let s = 0;
  for (let i = 0; i < end; i++) {
    const g = gains[i];
    if (g > 0 && g !== Infinity) s += g / Math.log2(i + 2);
  }
  return s;
}

/**
 * Ideal DCG at k: DCG@k of `poolGains` sorted in decreasing order. `poolGains` holds the gain of
 * every judged document of the query, retrieved or not (trec_eval builds the ideal ranking from
 * all qrels of the query). The input is not modified.
 */
export function idealDcgAt(poolGains: ArrayLike<number>, k: number): number {
  checkCutoff(k, 'idealDcgAt');
  const pos: number[] = [];
  for (let i = 0; i < poolGains.length; i++) {
    const g = poolGains[i];
    if (g > 0 && g !== Infinity) pos.push(g);
  }
  pos.sort((a, b) => b - a);
  return dcgAt(pos, k);
}

/**
 * Normalised DCG at k (trec_eval `ndcg_cut_k`):
 *
 *   nDCG@k = DCG@k(ranked gains) / IDCG@k(pool gains),   gain = grade (grade > 0), else 0,
 *   discount = log2(rank + 1).
 *
 * 0 when the ideal DCG is 0 (no document with positive gain). Relevant documents not retrieved
 * raise the ideal DCG and so lower nDCG. The result is clamped to [0, 1] (it can only exceed 1 if
 * `ranked` holds gains absent from `poolGains`, an inconsistent call).
 */
export function ndcgAt(rankedGains: ArrayLike<number>, poolGains: ArrayLike<number>, k: number): number {
  const ideal = idealDcgAt(poolGains, k);
  if (!(ideal > 0)) return 0;
  return Math.min(1, dcgAt(rankedGains, k) / ideal);
}

/**
 * Arithmetic mean of per-query values (MAP = mean of AP, MRR = mean of RR, ...).
 * An empty list gives 0 (never NaN); callers report the number of queries alongside.
 */
export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) return 0;
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i];
  return s / values.length;
}

/** Mean average precision over queries given as (rel, R) pairs; 0 for no query. See averagePrecision. */
export function meanAveragePrecision(queries: ReadonlyArray<{ rel: RelevanceList; R: number }>): number {
  return mean(queries.map((q) => averagePrecision(q.rel, q.R)));
}

/** Mean reciprocal rank over ranked lists; 0 for no query. See reciprocalRank. */
export function meanReciprocalRank(lists: ReadonlyArray<RelevanceList>): number {
  return mean(lists.map((rel) => reciprocalRank(rel)));
}
