import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../stats/random';
import { pairedTTest } from '../stats/ttest';
import { rankerStanding, type LabeledDraw } from './ranker-decision';

/** Draws of two rankers; `counts: false` on every third (a query without a relevant candidate: AP 0 for both). */
function draws(n: number, seed: number, probability: (t: number) => number | null): LabeledDraw[] {
  const rnd = mulberry32(seed);
  return Array.from({ length: n }, (_, t) => {
    const out = t % 3 === 2;
    const a = out ? 0 : 0.3 + 0.7 * rnd();
    const b = out ? 0 : 0.6 * rnd();
    return { aps: [a, b], p: probability(t), ...(out ? { counts: false } : {}) };
  });
}

describe('rankerStanding under convention skip (draws that do not count)', () => {
  it('random or fixed order: the plain mean and the paired t-test over the counted draws only', () => {
    const d = draws(12, 3, () => null);
    const counted = d.filter((x) => x.counts !== false);
    const s = rankerStanding(d, 40);
    for (const r of [0, 1]) expect(s.maps[r]!.mean).toBeCloseTo(counted.reduce((a, x) => a + x.aps[r]!, 0) / counted.length, 12);
    expect(s.maps[0]!.n).toBe(counted.length);
    const t = pairedTTest(
      counted.map((x) => x.aps[0]!),
      counted.map((x) => x.aps[1]!),
    );
    expect(s.adjustedP[1 - s.best]).toBeCloseTo(t.p.value!, 12);
    // Counting the left-out draws as 0 (convention zero) gives another mean and another test.
    const zero = rankerStanding(
      d.map((x) => ({ aps: x.aps, p: x.p })),
      40,
    );
    expect(zero.maps[0]!.mean).not.toBeCloseTo(s.maps[0]!.mean, 6);
  });

  it('every query labeled: the exact means over the queries that count', () => {
    const d = draws(9, 5, (t) => 1 / (9 - t));
    const counted = d.filter((x) => x.counts !== false);
    const s = rankerStanding(d, 9);
    for (const r of [0, 1]) {
      expect(s.maps[r]!.mean).toBeCloseTo(counted.reduce((a, x) => a + x.aps[r]!, 0) / counted.length, 12);
      expect(s.maps[r]!.se).toBe(0);
    }
  });

  it('adaptive order: the ratio of Des Raj estimates — exact when the counted values are all alike — with a finite standard error', () => {
    const d = draws(10, 7, (t) => 0.05 + 0.02 * t).map((x) => (x.counts === false ? x : { ...x, aps: [0.8, x.aps[1]!] }));
    const s = rankerStanding(d, 60);
    expect(s.maps[0]!.mean).toBeCloseTo(0.8, 12);
    expect(s.maps[0]!.se).toBeCloseTo(0, 12);
    expect(Number.isFinite(s.maps[1]!.se)).toBe(true);
    expect(s.maps[1]!.n).toBe(d.filter((x) => x.counts !== false).length);
  });

  it('every draw counting: the same standing as draws without the flag', () => {
    const d = draws(10, 9, (t) => 0.05 + 0.02 * t).map((x) => ({ aps: x.aps, p: x.p }));
    expect(rankerStanding(d, 60)).toEqual(rankerStanding(d.map((x) => ({ ...x, counts: true })), 60));
  });
});

describe('rankerStanding: a pair the paired test cannot judge', () => {
  it('has no p (not 1) and stays out of Holm, so the other p is the one eval --compare --baseline BEST gives', () => {
    // Ranker 1 equals the best on every query (every difference 0); ranker 2 is below it.
    const aps = [
      [1, 1, 0.5],
      [0.5, 0.5, 0.25],
      [1, 1, 0.2],
      [0.8, 0.8, 0.7],
    ];
    const s = rankerStanding(
      aps.map((a) => ({ aps: a, p: null })),
      4,
    );
    expect(s.best).toBe(0);
    expect(Number.isNaN(s.adjustedP[1]!)).toBe(true);
    const t = pairedTTest(
      aps.map((a) => a[0]!),
      aps.map((a) => a[2]!),
    );
    expect(s.adjustedP[2]).toBeCloseTo(t.p.value!, 12);
    expect(s.decided).toBe(false);
  });

  it('one query: no p for anyone, nothing decided', () => {
    const s = rankerStanding([{ aps: [1, 0.5], p: null }], 5);
    expect(Number.isNaN(s.adjustedP[1]!)).toBe(true);
    expect(s.decided).toBe(false);
  });
});

describe('rankerStanding when the best gains the same on every query (no spread)', () => {
  const same = (n: number): LabeledDraw[] => Array.from({ length: n }, () => ({ aps: [1, 0.5], p: null }));
  it('two queries: the t-test says p = 0 (a standard error of 0); the exact sign-flip test says 0.5 — not decided', () => {
    expect(pairedTTest([1, 1], [0.5, 0.5]).p.value).toBe(0);
    const s = rankerStanding(same(2), 40);
    expect(s.noSpread).toEqual([1]);
    expect(s.adjustedP[1]).toBe(0.5);
    expect(s.decided).toBe(false);
  });
  it('six such queries: p = 2/2⁶ = 0.03125 < 0.05 — decided; five: 0.0625 — not yet', () => {
    expect(rankerStanding(same(6), 40)).toMatchObject({ decided: true, noSpread: [1] });
    expect(rankerStanding(same(6), 40).adjustedP[1]).toBeCloseTo(1 / 32, 15);
    expect(rankerStanding(same(5), 40).decided).toBe(false);
  });
  it('differences that vary keep the paired t-test', () => {
    const d: LabeledDraw[] = [0.5, 0.4, 0.6].map((g) => ({ aps: [1, 1 - g], p: null }));
    const s = rankerStanding(d, 40);
    expect(s.noSpread).toEqual([]);
    expect(s.adjustedP[1]).toBeCloseTo(pairedTTest([1, 1, 1], [0.5, 0.6, 0.4]).p.value!, 12);
  });
});
