/**
 * Confidence interval of a mean from the Student t distribution — the interval the live metrics
 * panel and Evaluate show for MAP and MRR over the labeled queries (each query's AP or RR is one
 * observation).
 */
import { studentTCdf } from './special';

/**
 * The Student t quantile: the x with P(T ≤ x) = p for `df` degrees of freedom (scipy's
 * `t.ppf(p, df)`), found by bisection on studentTCdf to |Δx| < 1e-12.
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`p must be in (0, 1), got ${p}`);
  if (!(df > 0)) throw new RangeError(`df must be positive, got ${df}`);
  if (p === 0.5) return 0;
  let lo = -1;
  let hi = 1;
  while (studentTCdf(lo, df) > p) lo *= 2;
  while (studentTCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The `level` (default 95%) confidence interval of the mean of `values`:
 *   mean ± t_{(1+level)/2, n−1} · s / √n,  s² = Σ(x − mean)² / (n − 1)
 * (scipy's `t.interval(level, n−1, loc=mean, scale=sem)`). Null with the reason when n < 2. When
 * every value is equal the interval is the point [mean, mean].
 */
export function meanInterval(values: ArrayLike<number>, level = 0.95): { value: [number, number] } | { value: null; reason: string } {
  const n = values.length;
  if (n < 2) return { value: null, reason: `a confidence interval needs at least 2 queries (${n})` };
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i]!;
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (values[i]! - mean) ** 2;
  const sem = Math.sqrt(ss / (n - 1) / n);
  if (sem === 0) return { value: [mean, mean] };
  const half = studentTQuantile((1 + level) / 2, n - 1) * sem;
  return { value: [mean - half, mean + half] };
}
