import { describe, expect, it } from 'vitest';
import { QPairsError } from '../errors';
import { compareRankers } from './compare';
import { holm } from './holm';
import { pairedTTest } from './ttest';

const queries = Array.from({ length: 40 }, (_, i) => `q${i}`);
const base = queries.map((_, i) => ((i * 37) % 100) / 100);
const rankers = [
  { name: 'bm25', values: base },
  { name: 'rerank', values: base.map((v, i) => Math.min(1, v + 0.1 + ((i % 5) - 2) * 0.03)) },
  { name: 'noise', values: base.map((v, i) => Math.max(0, v + ((i % 7) - 3) * 0.02)) },
];

describe('compareRankers', () => {
  it('all pairs, Holm over the family, deterministic', () => {
    const r = compareRankers({ queries, rankers }, { resamples: 300, permutations: 500, seed: 3 });
    expect(r.pairs.map((p) => `${p.a}-${p.b}`)).toEqual(['bm25-rerank', 'bm25-noise', 'rerank-noise']);
    const ps = r.pairs.map((p) => p.tTest.p.value as number);
    const h = holm(ps);
    r.pairs.forEach((p, k) => {
      expect(p.holmT.value).toBe(h.adjusted[k]);
      expect(p.tTest).toEqual(pairedTTest(rankers.find((x) => x.name === p.a)!.values, rankers.find((x) => x.name === p.b)!.values));
      expect(p.ci.value![0]).toBeLessThanOrEqual(p.meanDiff.value!);
      expect(p.ci.value![1]).toBeGreaterThanOrEqual(p.meanDiff.value!);
    });
    expect(r.pairs[0].rejectT).toBe(true);
    expect(compareRankers({ queries, rankers }, { resamples: 300, permutations: 500, seed: 3 })).toEqual(r);
  });
  it('baseline mode', () => {
    const r = compareRankers({ queries, rankers }, { baseline: 'bm25', resamples: 50, permutations: 50 });
    expect(r.pairs.map((p) => `${p.a}-${p.b}`)).toEqual(['rerank-bm25', 'noise-bm25']);
  });
  it('undefined p-values are left out of the Holm family', () => {
    const r = compareRankers(
      { queries, rankers: [rankers[0], { name: 'copy', values: base }, rankers[1]] },
      { resamples: 50, permutations: 50 },
    );
    expect(r.pairs[0].tTest.p.value).toBeNull();
    expect(r.pairs[0].holmT.value).toBeNull();
    expect(r.pairs[0].rejectT).toBeNull();
    expect(r.pairs[1].holmT).toMatchObject({ note: 'Holm over 2 pairs' });
  });
  it('validation', () => {
    expect(() => compareRankers({ queries: ['a', 'a'], rankers: [] })).toThrow(QPairsError);
    expect(() => compareRankers({ queries, rankers: [{ name: 'x', values: [1] }] })).toThrow(/1 values for 40 queries/);
    expect(() => compareRankers({ queries, rankers }, { baseline: 'nope' })).toThrow(QPairsError);
  });
  it('zero queries', () => {
    const r = compareRankers({ queries: [], rankers: [{ name: 'a', values: [] }, { name: 'b', values: [] }] });
    expect(r.pairs[0].meanDiff.value).toBeNull();
    expect(r.pairs[0].holmT.value).toBeNull();
    expect(r.rankers[0].mean.value).toBeNull();
  });
});
