import { QPairsError } from '../errors';

export interface HolmResult {
  /** Holm-adjusted p-values, in the input order. */
  adjusted: number[];
  /** Whether each hypothesis is rejected at family-wise level `alpha`. */
  reject: boolean[];
}

/**
 * Holm–Bonferroni step-down correction for m p-values; matches
 * `statsmodels.stats.multitest.multipletests(p, alpha, method='holm')`.
 *
 * With the p-values sorted ascending p_(1) ≤ … ≤ p_(m):
 *   adjusted p_(j) = min(1, max_{i ≤ j} (m − i + 1)·p_(i)),
 *   reject H_(1..k−1) where k is the first j with p_(j) > alpha / (m − j + 1).
 * Throws QPairsError if a p-value is not in [0, 1].
 */
export function holm(pValues: readonly number[], alpha = 0.05): HolmResult {
  const m = pValues.length;
  pValues.forEach((p, i) => {
    if (!(p >= 0 && p <= 1)) {
      throw new QPairsError(`holm: p-value at index ${i} is not in [0, 1] (${p})`, { record: String(i), reason: 'bad p-value' });
    }
  });
  const order = pValues.map((_, i) => i).sort((x, y) => pValues[x] - pValues[y] || x - y);
  const adjusted = new Array<number>(m);
  const reject = new Array<boolean>(m).fill(false);
  let running = 0;
  let stillRejecting = true;
  order.forEach((idx, j) => {
    const p = pValues[idx];
    running = Math.max(running, (m - j) * p);
    adjusted[idx] = Math.min(1, running);
    if (stillRejecting && p > alpha / (m - j)) stillRejecting = false;
    reject[idx] = stillRejecting;
  });
  return { adjusted, reject };
}
