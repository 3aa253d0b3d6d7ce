import { QPairsError, throwIfAborted } from '../errors';
import { pairedDifferences } from './paired';
import { type LongWorkOptions, PROGRESS_EVERY } from './progress';
import { mulberry32 } from './random';
import { type Stat, defined, undefinedStat } from './result';
import { DEFAULT_PERMUTATIONS } from '../../shared/stat-defaults';

export interface PermutationOptions extends LongWorkOptions {
  /** Number of random sign-flip permutations N (default 10000). */
  permutations?: number;
  /** Seed of the mulberry32 generator (default 1). */
  seed?: number;
}

export interface PermutationResult {
  n: number;
  /** Observed mean difference d̄ = mean(a − b). */
  meanDiff: Stat;
  /** Two-sided p-value. */
  p: Stat;
  /** 'exact' when all 2^n sign patterns were enumerated (2^n ≤ N), else 'monte-carlo'. */
  method: 'exact' | 'monte-carlo';
  /** Sign patterns evaluated (N, or 2^n when exact). */
  permutations: number;
}

/** Relative tolerance when comparing a permuted |mean| with the observed one (float ties). */
const TIE_TOLERANCE = 1e-12;

/**
 * Paired randomization (sign-flip permutation) test of H0: the distribution of d = a − b is
 * symmetric about 0, two-sided, statistic T = |Σ d_i| / n.
 *
 * Monte Carlo (2^n > N): for k = 1..N draw s_i = −1 if u < 0.5 else +1 (mulberry32(seed), one
 * draw per query in order) and T_k = |Σ s_i d_i| / n. With c = #{k : T_k ≥ T_obs·(1 − 1e-12)}
 *   p = (c + 1) / (N + 1)
 * (the observed labelling counts as one of the permutations, so p is never 0 and the test is
 * valid at its nominal level; Phipson & Smyth 2010).
 * Exact (2^n ≤ N): all 2^n sign patterns, identity included, p = c / 2^n.
 * All differences zero → p = 1. n = 0 → p undefined.
 */
export function pairedPermutationTest(
  a: readonly number[],
  b: readonly number[],
  options: PermutationOptions = {},
): PermutationResult {
  const N = options.permutations ?? DEFAULT_PERMUTATIONS;
  const seed = options.seed ?? 1;
  if (!Number.isInteger(N) || N < 1) {
    throw new QPairsError(`permutation test: permutations must be a positive integer (got ${N})`, { reason: 'bad option' });
  }
  const d = pairedDifferences(a, b, 'permutation test');
  const n = d.length;
  if (n === 0) return { n, meanDiff: undefinedStat('no pairs'), p: undefinedStat('no pairs'), method: 'exact', permutations: 0 };
  let sum = 0;
  for (let i = 0; i < n; i++) sum += d[i];
  const observed = Math.abs(sum / n);
  const threshold = observed * (1 - TIE_TOLERANCE);
  const meanDiff = defined(sum / n);

  if (n < 31 && 2 ** n <= N) {
    const total = 2 ** n;
    let c = 0;
    for (let mask = 0; mask < total; mask++) {
      if (mask % (PROGRESS_EVERY * 16) === 0) {
        throwIfAborted(options.signal);
        options.onProgress?.(mask, total);
      }
      let s = 0;
      for (let i = 0; i < n; i++) s += (mask >>> i) & 1 ? -d[i] : d[i];
      if (Math.abs(s / n) >= threshold) c++;
    }
    options.onProgress?.(total, total);
    return { n, meanDiff, p: defined(c / total, `exact: all ${total} sign patterns`), method: 'exact', permutations: total };
  }

  const rng = mulberry32(seed);
  let c = 0;
  for (let k = 0; k < N; k++) {
    if (k % PROGRESS_EVERY === 0) {
      throwIfAborted(options.signal);
      options.onProgress?.(k, N);
    }
    let s = 0;
    for (let i = 0; i < n; i++) s += rng() < 0.5 ? -d[i] : d[i];
    if (Math.abs(s / n) >= threshold) c++;
  }
  options.onProgress?.(N, N);
  return {
    n,
    meanDiff,
    p: defined((c + 1) / (N + 1), `monte carlo: ${N} random sign flips, p = (count + 1)/(N + 1)`),
    method: 'monte-carlo',
    permutations: N,
  };
}
