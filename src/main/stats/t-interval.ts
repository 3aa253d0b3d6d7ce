/**
 * Confidence interval of a mean from the Student t distribution — the interval the live metrics
 * panel and Evaluate show for MAP, MRR, P@1, P@5 and R-Prec over the labeled queries (each query's
 * AP, RR, … is one observation), clipped to the metric's range [0, 1].
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
 * The `level` (default 95%) confidence interval of the mean of `values`, clipped to the metric's
 * range [0, 1]:
 *   [max(lo, mean − h), min(hi, mean + h)],  h = t_{(1+level)/2, n−1} · s / √n,
 *   s² = Σ(x − mean)² / (n − 1),  [lo, hi] = `range` (default [0, 1])
 * Unclipped, mean ± h is scipy's `t.interval(level, n−1, loc=mean, scale=sem)`. Every metric it is
 * used for (AP, RR, P@k, R-Prec per query, so MAP, MRR, P@k, R-Prec) lies in [0, 1], and with few
 * queries or spread-out values mean ± h leaves it (MAP 27.78 [−44.92, 100.48] before clipping):
 * the part outside [0, 1] holds no possible value, so it is cut off (`clipped` says whether it
 * was). `range` null gives the plain t interval. Null with the reason when n < 2, and when every
 * value is equal (s = 0): the sample shows no spread, which is not evidence of none — three queries
 * that each score AP 1 do not make MAP exactly 100 — so there is no interval to give, as scipy's
 * `t.interval(level, n−1, loc=mean, scale=0)` gives (nan, nan).
 */
export function meanInterval(
  values: ArrayLike<number>,
  level = 0.95,
  range: readonly [number, number] | null = [0, 1],
): { value: [number, number]; clipped: boolean } | { value: null; reason: string } {
  const n = values.length;
  if (n < 2) return { value: null, reason: `a confidence interval needs at least 2 queries (${n})` };
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i]!;
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (values[i]! - mean) ** 2;
  const sem = Math.sqrt(ss / (n - 1) / n);
  // Equal values, not s = 0: their mean need not be exactly one of them (0.1 × 3 → 0.10000000000000002).
  if (allEqual(values)) return { value: null, reason: `all ${n} queries score ${values[0]}: no spread, so no interval` };
  const half = studentTQuantile((1 + level) / 2, n - 1) * sem;
  const lo = mean - half;
  const hi = mean + half;
  if (range === null) return { value: [lo, hi], clipped: false };
  const value: [number, number] = [Math.max(range[0], lo), Math.min(range[1], hi)];
  return { value, clipped: value[0] !== lo || value[1] !== hi };
}

function allEqual(values: ArrayLike<number>): boolean {
  for (let i = 1; i < values.length; i++) if (values[i] !== values[0]) return false;
  return true;
}
