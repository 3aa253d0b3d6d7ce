import { counted } from '../../shared/plural';
import { QPairsError, throwIfAborted } from '../errors';
import { type BootstrapOptions, bootstrapMeanDifference, bootstrapSettings } from './bootstrap';
import { holm } from './holm';
import { mean } from './paired';
import { type PermutationResult, pairedPermutationTest } from './permutation';
import { DEFAULT_ALPHA, DEFAULT_PERMUTATIONS, DEFAULT_RESAMPLES } from '../../shared/stat-defaults';
import { type LongWorkOptions } from './progress';
import { type Interval, type Stat, defined, undefinedStat } from './result';
import { type TTestResult, pairedTTest } from './ttest';

/** Per-query metric values of several rankers on the same queries (values[i] ↔ queries[i]). */
export interface RankerScores {
  queries: readonly string[];
  rankers: readonly { name: string; values: readonly number[] }[];
}

export interface CompareOptions extends LongWorkOptions {
  /** Compare every pair (default) or each ranker against one baseline. */
  baseline?: string;
  /** Bootstrap resamples for the CI of the mean difference (default 1000). */
  resamples?: number;
  /** Random sign flips for the permutation test (default 10000). */
  permutations?: number;
  /** Seed for both bootstrap and permutation test (default 1); each pair uses the same seed. */
  seed?: number;
  /** CI level (default 0.95). */
  level?: number;
  /** Family-wise level for Holm rejections (default 0.05). */
  alpha?: number;
}

export interface RankerPairComparison {
  a: string;
  b: string;
  n: number;
  meanA: Stat;
  meanB: Stat;
  /** mean(a − b). */
  meanDiff: Stat;
  /** Percentile bootstrap CI of mean(a − b), resampling queries. */
  ci: Interval;
  tTest: TTestResult;
  permutation: PermutationResult;
  /** Holm-adjusted t-test p over all compared pairs (pairs with undefined p are left out of the family). */
  holmT: Stat;
  holmPermutation: Stat;
  rejectT: boolean | null;
  rejectPermutation: boolean | null;
}

export interface RankerComparison {
  queries: number;
  rankers: { name: string; mean: Stat }[];
  pairs: RankerPairComparison[];
}

/**
 * Compares rankers' per-query metric values pairwise: difference of means with bootstrap CI,
 * paired t-test, paired sign-flip permutation test, and Holm–Bonferroni adjustment of both
 * families of p-values across the compared pairs. Throws QPairsError on mismatched lengths,
 * duplicate query ids or ranker names, non-finite values, or an unknown baseline.
 */
export function compareRankers(input: RankerScores, options: CompareOptions = {}): RankerComparison {
  const { queries, rankers } = input;
  const seen = new Set<string>();
  queries.forEach((q, i) => {
    if (seen.has(q)) throw new QPairsError(`compareRankers: duplicate query id "${q}" at index ${i}`, { record: q, reason: 'duplicate query' });
    seen.add(q);
  });
  const names = new Set<string>();
  for (const r of rankers) {
    if (names.has(r.name)) throw new QPairsError(`compareRankers: duplicate ranker "${r.name}"`, { record: r.name, reason: 'duplicate ranker' });
    names.add(r.name);
    if (r.values.length !== queries.length) {
      throw new QPairsError(
        `compareRankers: ranker "${r.name}" has ${r.values.length} values for ${queries.length} queries`,
        { record: r.name, reason: 'length mismatch' },
      );
    }
  }
  if (options.baseline !== undefined && !names.has(options.baseline)) {
    throw new QPairsError(`compareRankers: unknown baseline "${options.baseline}"`, { record: options.baseline, reason: 'unknown ranker' });
  }
  const boot: BootstrapOptions = { resamples: options.resamples, seed: options.seed, level: options.level };
  bootstrapSettings(boot);

  const pairIdx: [number, number][] = [];
  if (options.baseline !== undefined) {
    const base = rankers.findIndex((r) => r.name === options.baseline);
    rankers.forEach((_, i) => i !== base && pairIdx.push([i, base]));
  } else {
    for (let i = 0; i < rankers.length; i++) for (let j = i + 1; j < rankers.length; j++) pairIdx.push([i, j]);
  }

  const resamples = boot.resamples ?? DEFAULT_RESAMPLES;
  const perms = options.permutations ?? DEFAULT_PERMUTATIONS;
  const total = pairIdx.length * (resamples + perms);
  let done = 0;
  const meanOf = (v: readonly number[]): Stat => (v.length === 0 ? undefinedStat('no queries') : defined(mean(v)));

  const partial = pairIdx.map(([i, j]) => {
    throwIfAborted(options.signal);
    const A = rankers[i];
    const B = rankers[j];
    const md = bootstrapMeanDifference(A.values, B.values, {
      ...boot,
      signal: options.signal,
      onProgress: options.onProgress && ((d) => options.onProgress!(done + d, total)),
    });
    done += resamples;
    const permutation = pairedPermutationTest(A.values, B.values, {
      permutations: perms,
      seed: options.seed,
      signal: options.signal,
      onProgress: options.onProgress && ((d, t) => options.onProgress!(done + Math.round((d / t) * perms), total)),
    });
    done += perms;
    return {
      a: A.name,
      b: B.name,
      n: md.n,
      meanA: meanOf(A.values),
      meanB: meanOf(B.values),
      meanDiff: md.meanDiff,
      ci: md.ci,
      tTest: pairedTTest(A.values, B.values),
      permutation,
    };
  });

  const adjust = (ps: Stat[]): { adj: Stat[]; rej: (boolean | null)[] } => {
    const idx = ps.map((p, k) => (p.value === null ? -1 : k)).filter((k) => k >= 0);
    const h = holm(idx.map((k) => ps[k].value as number), options.alpha ?? DEFAULT_ALPHA);
    const adj: Stat[] = ps.map(() => undefinedStat('p-value undefined'));
    const rej: (boolean | null)[] = ps.map(() => null);
    idx.forEach((k, r) => {
      adj[k] = defined(h.adjusted[r], `Holm over ${counted(idx.length, 'pair')}`);
      rej[k] = h.reject[r];
    });
    return { adj, rej };
  };
  const ht = adjust(partial.map((p) => p.tTest.p));
  const hp = adjust(partial.map((p) => p.permutation.p));

  return {
    queries: queries.length,
    rankers: rankers.map((r) => ({ name: r.name, mean: meanOf(r.values) })),
    pairs: partial.map((p, k) => ({
      ...p,
      holmT: ht.adj[k],
      holmPermutation: hp.adj[k],
      rejectT: ht.rej[k],
      rejectPermutation: hp.rej[k],
    })),
  };
}
