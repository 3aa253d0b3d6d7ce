/**
 * Labeling orders for a pool's queries. `pool` keeps the pool's order; `random` draws uniformly
 * (seeded); the two adaptive orders draw the next query at random with unequal probabilities, so
 * that the figures stay unbiased (des-raj.ts) while labels go where they tell the most:
 *
 * - `uncertainty`: weight = Σ_c p_c (1 − p_c) over the query's candidates, p_c the relevance model's
 *   probability (pool-model.ts): queries whose labels the current model is least sure about. With
 *   fewer than two runs every weight is 1 (the model tells queries apart only by their size).
 * - `decide-rankers`: weight = √(Σ_{r<s} w_rs · E[(AP_r − AP_s)²]) / √(candidates), the expectation over
 *   relevance drawn from the relevance model (Monte Carlo, `samples` draws), w_rs the weight of the pair
 *   (1 / (1 + z_rs²), z_rs = |MAP difference| / SE so far: pairs still undecided count most; 1 before
 *   there is an estimate). In the spirit of minimal test collections (Carterette, Allan & Sitaraman,
 *   SIGIR 2006): a query on which the rankers order the likely-relevant candidates alike cannot change
 *   which ranker is better, so it is rarely drawn; with probability proportional to the root of the
 *   expected squared difference per label, the draws approximate the variance-optimal design
 *   (probability ∝ |y| / √cost) for estimating the differences.
 *
 * Both adaptive orders mix in a uniform share `epsilon` (default 0.1), so every query keeps a
 * positive probability (the estimator's condition) and a wrong model cannot starve a query.
 */
import { QPairsError } from '../errors';
import { apsOf, type ActiveQuery, type RelevancePredictor } from './pool-model';

import { QUERY_ORDERS, type QueryOrder } from '../../shared/label-order';

export { QUERY_ORDERS, isQueryOrder, type QueryOrder } from '../../shared/label-order';

export interface WeightOptions {
  /** Monte Carlo draws per query for decide-rankers (default 32). */
  samples?: number;
  /** pairWeight[r][s] (r < s) for decide-rankers; null = all pairs weigh 1. */
  pairWeight?: readonly (readonly number[])[] | null;
}

/** Un-normalised weights of the remaining queries under an adaptive order (pool/random: all 1). */
export function orderWeights(order: QueryOrder, remaining: readonly ActiveQuery[], model: RelevancePredictor, rng: () => number, opts: WeightOptions = {}): Float64Array {
  const w = new Float64Array(remaining.length);
  if (order === 'pool' || order === 'random') return w.fill(1);
  if (order === 'uncertainty') {
    // With fewer than two runs the relevance model knows a candidate only by its one position, so
    // the queries differ only in their number of candidates: no reason to prefer the larger ones.
    // Uniform, as the pool list and Annotate say (shared/label-order.ts orderAtRandomReason).
    if (remaining.every((q) => q.rankings.length < 2)) return w.fill(1);
    remaining.forEach((q, i) => {
      const p = model.predict(q);
      let s = 0;
      for (const x of p) s += x * (1 - x);
      w[i] = s;
    });
    return w;
  }
  if (order !== 'decide-rankers') throw new QPairsError(`unknown labeling order "${String(order)}" (known: ${QUERY_ORDERS.join(', ')})`);
  const samples = opts.samples ?? 32;
  remaining.forEach((q, i) => {
    const p = model.predict(q);
    const R = q.rankings.length;
    let acc = 0;
    const rel = new Array<boolean>(q.size);
    for (let m = 0; m < samples; m++) {
      for (let c = 0; c < q.size; c++) rel[c] = rng() < p[c]!;
      const ap = apsOf(q, rel);
      for (let r = 0; r < R; r++)
        for (let s = r + 1; s < R; s++) {
          const d = ap[r]! - ap[s]!;
          acc += (opts.pairWeight ? opts.pairWeight[r]![s]! : 1) * d * d;
        }
    }
    w[i] = Math.sqrt(acc / samples) / Math.sqrt(Math.max(1, q.size));
  });
  return w;
}

/** Selection probabilities: (1 − ε)·w/Σw + ε/n (uniform when every weight is 0). */
export function selectionProbabilities(weights: Float64Array, epsilon = 0.1): Float64Array {
  const n = weights.length;
  const out = new Float64Array(n);
  let sum = 0;
  for (const x of weights) sum += x;
  for (let i = 0; i < n; i++) out[i] = sum > 0 ? (1 - epsilon) * (weights[i]! / sum) + epsilon / n : 1 / n;
  return out;
}

/** Index drawn from `probs` (which sum to 1) with one uniform number. */
export function drawIndex(probs: Float64Array, u: number): number {
  let acc = 0;
  for (let i = 0; i < probs.length; i++) {
    acc += probs[i]!;
    if (u < acc) return i;
  }
  return probs.length - 1;
}
