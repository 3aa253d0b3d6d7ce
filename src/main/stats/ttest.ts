import { pairedDifferences, mean } from './paired';
import { type Stat, defined, undefinedStat, finiteOr } from './result';
import { studentTTwoSidedP } from './special';

export interface TTestResult {
  /** Number of pairs. */
  n: number;
  /** Degrees of freedom, n − 1. */
  df: number;
  /** Mean of the differences d = a − b. */
  meanDiff: Stat;
  /** The t statistic. */
  t: Stat;
  /** Two-sided p-value. */
  p: Stat;
}

/**
 * Paired (dependent-samples) t-test of H0: E[a − b] = 0, two-sided; matches `scipy.stats.ttest_rel(a, b)`.
 *
 *   d_i = a_i − b_i,  d̄ = Σ d_i / n,  s² = Σ (d_i − d̄)² / (n − 1),
 *   t = d̄ / (s / √n),  df = n − 1,  p = P(|T_df| ≥ |t|) = I_{df/(df+t²)}(df/2, 1/2).
 *
 * Degenerate cases: n < 2 → t and p undefined; s = 0 and d̄ = 0 (identical samples) → t and p
 * undefined (scipy gives NaN); s = 0 and d̄ ≠ 0 → t undefined (infinite), p = 0 with a note.
 */
export function pairedTTest(a: readonly number[], b: readonly number[]): TTestResult {
  const d = pairedDifferences(a, b, 'paired t-test');
  const n = d.length;
  const df = Math.max(n - 1, 0);
  if (n === 0) {
    const r = 'no pairs';
    return { n, df, meanDiff: undefinedStat(r), t: undefinedStat(r), p: undefinedStat(r) };
  }
  const m = mean(d);
  const meanDiff = finiteOr(m, 'mean difference overflowed');
  if (n < 2) {
    const r = 'a paired t-test needs at least 2 pairs';
    return { n, df, meanDiff, t: undefinedStat(r), p: undefinedStat(r) };
  }
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (d[i] - m) * (d[i] - m);
  const sd = Math.sqrt(ss / (n - 1));
  if (sd === 0) {
    if (m === 0) {
      const r = 'all differences are zero: t = 0/0';
      return { n, df, meanDiff, t: undefinedStat(r), p: undefinedStat(r) };
    }
    return {
      n,
      df,
      meanDiff,
      t: undefinedStat('all differences are equal and non-zero: t is infinite'),
      p: defined(0, 'all differences are equal and non-zero (zero variance): p = 0 in the limit'),
    };
  }
  const t = m / (sd / Math.sqrt(n));
  return {
    n,
    df,
    meanDiff,
    t: finiteOr(t, 't statistic is not finite'),
    p: finiteOr(studentTTwoSidedP(t, df), 'incomplete beta did not converge'),
  };
}
