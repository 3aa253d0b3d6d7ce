import { counted } from '../../shared/plural';
import { type Interval, defined, undefinedStat } from './result';

/**
 * Sample quantile by linear interpolation between order statistics (Hyndman & Fan type 7, the
 * default of R `quantile` and numpy `percentile`): with the sorted sample x_(1..n) and
 * h = (n − 1)·p, Q(p) = x_(⌊h⌋+1) + (h − ⌊h⌋)·(x_(⌊h⌋+2) − x_(⌊h⌋+1)).
 * `sorted` must be sorted ascending and non-empty.
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  const f = h - lo;
  return f === 0 ? sorted[lo] : sorted[lo] + f * (sorted[hi] - sorted[lo]);
}

/**
 * The fewest replicates a percentile interval at `level` is read from: 2 / (1 − level), 40 at 95%,
 * so that each tail, (1 − level)/2 of them, holds at least one. With fewer, the interval's ends are
 * the extreme replicates, or one replicate (a single resample gives [x, x], which can miss the
 * estimate itself): no interval at that level.
 */
export function minPercentileReplicates(level: number): number {
  return Math.ceil(2 / (1 - level) - 1e-9);
}

/**
 * Percentile bootstrap interval at confidence `level`: [Q((1−level)/2), Q((1+level)/2)] of the
 * replicate values (type-7 quantiles). Undefined replicates are passed in `undefinedCount` and
 * reported in the note; they are excluded from the quantiles. Fewer defined replicates than
 * minPercentileReplicates(level) give no interval (undefined, saying why).
 */
export function percentileInterval(values: number[], level: number, undefinedCount = 0): Interval {
  const total = values.length + undefinedCount;
  if (values.length === 0) {
    return undefinedStat(
      total === 0 ? 'no bootstrap resamples' : `the statistic was undefined in all ${total} bootstrap resamples`,
    );
  }
  const least = minPercentileReplicates(level);
  if (values.length < least) {
    const had = undefinedCount > 0 ? `${values.length} of ${total} resamples had a defined statistic` : `only ${counted(total, 'resample')}`;
    return undefinedStat(
      `${had}: a ${Math.round(level * 1000) / 10}% percentile bootstrap interval needs at least ${least}, so that each tail holds one`,
    );
  }
  const sorted = Float64Array.from(values).sort();
  const lo = quantileSorted(sorted, (1 - level) / 2);
  const hi = quantileSorted(sorted, (1 + level) / 2);
  const note =
    `percentile bootstrap, ${values.length} resamples` +
    (undefinedCount > 0 ? ` (${undefinedCount} of ${total} resamples had an undefined statistic and were dropped)` : '');
  return defined<[number, number]>([lo, hi], note);
}
