import { describe, expect, it } from 'vitest';
import { formatPaired, pairedVsPeer } from '../../scripts/bench/paired-vs-peer';

describe('pairedVsPeer (bench:semeval, a model against the peer query by query)', () => {
  it('matches queries by id, whatever order each run lists them in', () => {
    const peer = { ids: ['q1', 'q2', 'q3', 'q4', 'q5'], values: [0.5, 0.6, 0.7, 0.8, 0.9] };
    const model = { ids: ['q5', 'q4', 'q3', 'q2', 'q1'], values: [0.91, 0.82, 0.73, 0.64, 0.55] };
    const p = pairedVsPeer(model, peer);
    expect(p.n).toBe(5);
    // differences 0.05, 0.04, 0.03, 0.02, 0.01 (misaligned by position they would be −0.39 … +0.41)
    expect(p.meanDiff).toBeCloseTo(0.03, 12);
    expect(p.wins).toBe(5);
    expect(p.losses).toBe(0);
    // exact sign-flip test over 2^5 patterns: only all-positive and all-negative reach |d̄| ≥ 0.03 → 2/32
    expect(p.pPermutation).toBeCloseTo(2 / 32, 12);
    expect(p.ci![0]).toBeGreaterThanOrEqual(0.01 - 1e-12);
    expect(p.ci![1]).toBeLessThanOrEqual(0.05 + 1e-12);
    expect(p.ci![0]).toBeLessThan(p.meanDiff);
    expect(p.ci![1]).toBeGreaterThan(p.meanDiff);
  });

  it('swapping model and peer negates the difference and keeps the p-values', () => {
    const a = { ids: ['a', 'b', 'c', 'd', 'e', 'f'], values: [0.2, 0.9, 0.4, 1, 0.3, 0.7] };
    const b = { ids: ['a', 'b', 'c', 'd', 'e', 'f'], values: [0.5, 0.8, 0.4, 0.6, 0.1, 0.75] };
    const ab = pairedVsPeer(a, b);
    const ba = pairedVsPeer(b, a);
    expect(ba.meanDiff).toBeCloseTo(-ab.meanDiff, 12);
    expect(ba.pPermutation).toBeCloseTo(ab.pPermutation!, 12);
    expect(ba.pT).toBeCloseTo(ab.pT!, 12);
    expect([ab.wins, ab.losses]).toEqual([3, 2]); // c ties
    expect([ba.wins, ba.losses]).toEqual([2, 3]);
  });

  it('refuses runs over different queries, repeated ids or mismatched lengths', () => {
    const peer = { ids: ['q1', 'q2'], values: [0.5, 0.6] };
    expect(() => pairedVsPeer({ ids: ['q1', 'q3'], values: [0.5, 0.6] }, peer)).toThrow(/different queries \(2 not in both, e\.g\. q3, q2\)/);
    expect(() => pairedVsPeer({ ids: ['q1', 'q1'], values: [0.5, 0.6] }, peer)).toThrow(/model: query q1 appears twice/);
    expect(() => pairedVsPeer({ ids: ['q1', 'q2'], values: [0.5] }, peer)).toThrow(/2 query ids for 1 values/);
    expect(() => pairedVsPeer({ ids: [], values: [] }, { ids: [], values: [] })).toThrow(/no queries/);
  });

  it('formats the difference in MAP points', () => {
    expect(formatPaired({ n: 117, meanDiff: 0.0062, ci: [-0.011, 0.0231], pPermutation: 0.4812, pT: 0.47, wins: 40, losses: 35 })).toBe(
      '+0.62 (−1.10 to +2.31; permutation p 0.481, t p 0.470; ahead on 40, behind on 35 of 117 queries)',
    );
    expect(formatPaired({ n: 50, meanDiff: -0.0036, ci: null, pPermutation: 0.0004, pT: null, wins: 1, losses: 2 })).toBe(
      '−0.36 (no interval; permutation p < 0.001, t p undefined; ahead on 1, behind on 2 of 50 queries)',
    );
  });
});
