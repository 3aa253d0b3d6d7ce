import { QPairsError, throwIfAborted } from '../errors';
import { pairedDifferences, mean } from './paired';
import { type LongWorkOptions, PROGRESS_EVERY } from './progress';
import { percentileInterval } from './quantile';
import { mulberry32, randomIndex } from './random';
import { type Interval, type Stat, defined, undefinedStat } from './result';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../../shared/stat-defaults';

export interface BootstrapOptions extends LongWorkOptions {
  /** Number of bootstrap resamples B (default 1000). */
  resamples?: number;
  /** Seed of the mulberry32 generator (default 1). Same seed, same data → same interval. */
  seed?: number;
  /** Confidence level (default 0.95). */
  level?: number;
}

export const DEFAULT_LEVEL = 0.95;

/** Validates and fills bootstrap options. */
export function bootstrapSettings(o: BootstrapOptions = {}): { resamples: number; seed: number; level: number } {
  const resamples = o.resamples ?? DEFAULT_RESAMPLES;
  const seed = o.seed ?? DEFAULT_SEED;
  const level = o.level ?? DEFAULT_LEVEL;
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new QPairsError(`bootstrap: resamples must be a positive integer (got ${resamples})`, { reason: 'bad option' });
  }
  if (!Number.isFinite(seed)) throw new QPairsError(`bootstrap: seed must be a number (got ${seed})`, { reason: 'bad option' });
  if (!(level > 0 && level < 1)) {
    throw new QPairsError(`bootstrap: level must be in (0, 1) (got ${level})`, { reason: 'bad option' });
  }
  return { resamples, seed, level };
}

/**
 * Generic cluster bootstrap over G groups (e.g. queries). Each resample draws G group indices
 * j = ⌊u·G⌋ with replacement from mulberry32(seed) and evaluates `statistic` on the drawn
 * groups (in draw order). Returns the percentile interval (type-7 quantiles at (1∓level)/2)
 * of the defined replicates; undefined replicates are dropped and counted in the note.
 */
export function bootstrapGroups(
  groupCount: number,
  statistic: (drawn: Int32Array) => Stat,
  options: BootstrapOptions = {},
): Interval {
  const { resamples, seed, level } = bootstrapSettings(options);
  if (groupCount === 0) return undefinedStat('nothing to resample (zero queries)');
  const rng = mulberry32(seed);
  const drawn = new Int32Array(groupCount);
  const values: number[] = [];
  let undef = 0;
  for (let r = 0; r < resamples; r++) {
    if (r % PROGRESS_EVERY === 0) {
      throwIfAborted(options.signal);
      options.onProgress?.(r, resamples);
    }
    for (let g = 0; g < groupCount; g++) drawn[g] = randomIndex(rng, groupCount);
    const s = statistic(drawn);
    if (s.value === null || !Number.isFinite(s.value)) undef++;
    else values.push(s.value);
  }
  options.onProgress?.(resamples, resamples);
  const ci = percentileInterval(values, level, undef);
  if (ci.value !== null && groupCount === 1) {
    return defined(ci.value, `${ci.note}; only one query, so every resample is the original sample`);
  }
  return ci;
}

export interface MeanDifferenceResult {
  n: number;
  /** Mean of d = a − b. */
  meanDiff: Stat;
  /** Percentile bootstrap interval of the mean difference (resampling queries with replacement). */
  ci: Interval;
}

/**
 * Difference of means of paired per-query values with a bootstrap CI:
 *   d̄ = (1/n) Σ (a_i − b_i); each resample draws n query indices with replacement and takes the
 *   mean of their d; the interval is the percentile interval of the B resampled means.
 */
export function bootstrapMeanDifference(
  a: readonly number[],
  b: readonly number[],
  options: BootstrapOptions = {},
): MeanDifferenceResult {
  const d = pairedDifferences(a, b, 'mean difference');
  const n = d.length;
  if (n === 0) return { n, meanDiff: undefinedStat('no pairs'), ci: undefinedStat('no pairs') };
  const ci = bootstrapGroups(
    n,
    (drawn) => {
      let s = 0;
      for (let i = 0; i < n; i++) s += d[drawn[i]];
      return defined(s / n);
    },
    options,
  );
  return { n, meanDiff: defined(mean(d)), ci };
}
