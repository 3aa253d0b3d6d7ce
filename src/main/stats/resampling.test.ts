import { describe, expect, it } from 'vitest';
import { CancelledError } from '../errors';
import { bootstrapMeanDifference } from './bootstrap';
import { pairedPermutationTest } from './permutation';
import { minPercentileReplicates, percentileInterval } from './quantile';
import { mulberry32 } from './random';
import { readFixture } from './testing';

const fx = readFixture('stats', 'resampling.json');

describe('mulberry32', () => {
  for (const s of fx.streams as { seed: number; values: number[] }[]) {
    it(`seed ${s.seed} matches the Python port`, () => {
      const g = mulberry32(s.seed);
      expect(s.values.map(() => g())).toEqual(s.values);
    });
  }
});

describe('bootstrap CI and permutation test replayed in Python', () => {
  for (const c of fx.cases as any[]) {
    it(c.name, () => {
      const b = bootstrapMeanDifference(c.a, c.b, { resamples: c.resamples, seed: c.seed, level: c.level });
      expect(b.meanDiff.value).toBeCloseTo(c.bootstrap.meanDiff, 12);
      expect(b.ci.value).not.toBeNull();
      expect(b.ci.value![0]).toBeCloseTo(c.bootstrap.ci[0], 12);
      expect(b.ci.value![1]).toBeCloseTo(c.bootstrap.ci[1], 12);
      const p = pairedPermutationTest(c.a, c.b, { permutations: c.permutations, seed: c.seed });
      expect(p.method).toBe(c.permutation.method);
      expect(p.p.value).toBeCloseTo(c.permutation.p, 12);
    });
  }
});

describe('determinism and degenerate cases', () => {
  const a = [0.2, 0.5, 0.9, 0.4, 0.3, 0.8, 0.1, 0.6, 0.7, 0.55, 0.45, 0.35, 0.25, 0.15, 0.05];
  const b = a.map((x, i) => x - 0.05 + (i % 3) * 0.04);
  it('same seed → same interval and p; different seed → (almost surely) different', () => {
    const r1 = bootstrapMeanDifference(a, b, { seed: 5, resamples: 500 });
    const r2 = bootstrapMeanDifference(a, b, { seed: 5, resamples: 500 });
    const r3 = bootstrapMeanDifference(a, b, { seed: 6, resamples: 500 });
    expect(r1).toEqual(r2);
    expect(r1.ci.value).not.toEqual(r3.ci.value);
    const p1 = pairedPermutationTest(a, b, { seed: 9, permutations: 1000 });
    expect(p1).toEqual(pairedPermutationTest(a, b, { seed: 9, permutations: 1000 }));
    expect(p1.method).toBe('monte-carlo');
    expect(p1.p.value! * 1001).toBeCloseTo(Math.round(p1.p.value! * 1001), 9);
  });
  it('all-zero differences: p = 1, CI = [0, 0]', () => {
    expect(pairedPermutationTest(a, a).p.value).toBe(1);
    expect(pairedPermutationTest(a, a, { permutations: 100 }).p.value).toBe(1);
    expect(bootstrapMeanDifference(a, a).ci.value).toEqual([0, 0]);
  });
  it('no pairs', () => {
    expect(pairedPermutationTest([], []).p.value).toBeNull();
    expect(bootstrapMeanDifference([], []).ci.value).toBeNull();
  });
  it('too few resamples for the level give no interval, saying why (one resample gave [x, x] away from the estimate)', () => {
    // The seeded draw of one resample: its mean difference, not the sample's, was both ends of the "95% CI".
    const one = bootstrapMeanDifference(a, b, { resamples: 1 });
    expect(one.meanDiff.value).not.toBeNull();
    expect(one.ci.value).toBeNull();
    expect(one.ci).toEqual({ value: null, reason: 'only 1 resample: a 95% percentile bootstrap interval needs at least 40, so that each tail holds one' });
    expect(bootstrapMeanDifference(a, b, { resamples: 39 }).ci.value).toBeNull();
    expect(bootstrapMeanDifference(a, b, { resamples: 40 }).ci.value).not.toBeNull();
    expect(bootstrapMeanDifference(a, b, { resamples: 19, level: 0.9 }).ci.value).toBeNull();
    expect(bootstrapMeanDifference(a, b, { resamples: 20, level: 0.9 }).ci.value).not.toBeNull();
    expect(minPercentileReplicates(0.95)).toBe(40);
    expect(minPercentileReplicates(0.99)).toBe(200);
    // Counted over the resamples with a value: 30 defined of 1000 is no interval either.
    const few = percentileInterval(Array.from({ length: 30 }, (_, i) => i / 30), 0.95, 970);
    expect(few.value).toBeNull();
    expect(few).toEqual({ value: null, reason: '30 of 1000 resamples had a defined statistic: a 95% percentile bootstrap interval needs at least 40, so that each tail holds one' });
    expect(percentileInterval(Array.from({ length: 40 }, (_, i) => i / 40), 0.95, 960).value).not.toBeNull();
  });
  it('exact test minimum p is 2/2^n', () => {
    const r = pairedPermutationTest([1, 2, 3, 4], [0, 0, 0, 0]);
    expect(r.method).toBe('exact');
    expect(r.p.value).toBe(2 / 16);
  });
  it('progress and cancellation', () => {
    const seen: number[] = [];
    bootstrapMeanDifference(a, b, { resamples: 600, onProgress: (d) => seen.push(d) });
    expect(seen.at(-1)).toBe(600);
    const ac = new AbortController();
    ac.abort();
    expect(() => pairedPermutationTest(a, b, { permutations: 100, signal: ac.signal })).toThrow(CancelledError);
  });
});
