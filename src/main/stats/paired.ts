import { QPairsError } from '../errors';

/**
 * Validates two paired samples (same length, finite values) and returns the differences
 * d_i = a_i − b_i. Throws QPairsError naming the offending index.
 */
export function pairedDifferences(a: readonly number[], b: readonly number[], what = 'paired samples'): Float64Array {
  if (a.length !== b.length) {
    throw new QPairsError(`${what}: lengths differ (${a.length} vs ${b.length})`, {
      reason: 'paired samples must have the same length',
    });
  }
  const d = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i]) || !Number.isFinite(b[i])) {
      throw new QPairsError(`${what}: value at index ${i} is not a finite number (${a[i]}, ${b[i]})`, {
        record: String(i),
        reason: 'non-finite value',
      });
    }
    d[i] = a[i] - b[i];
  }
  return d;
}

/** Arithmetic mean, summed left to right (the order the Python reference uses). */
export function mean(x: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return s / x.length;
}
