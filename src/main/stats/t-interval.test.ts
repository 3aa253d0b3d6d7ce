import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { meanInterval, studentTQuantile } from './t-interval';

interface Fixture {
  quantiles: Array<{ p: number; df: number; x: number }>;
  intervals: Array<{ values: number[]; level: number; lo: number; hi: number }>;
}
const fixture = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/stats/t-interval.json'), 'utf8')) as Fixture;

describe('Student t quantile and mean interval (scipy fixtures, tests/reference/t_interval_fixtures.py)', () => {
  it('studentTQuantile matches scipy t.ppf', () => {
    for (const q of fixture.quantiles) expect(studentTQuantile(q.p, q.df), `p=${q.p} df=${q.df}`).toBeCloseTo(q.x, 9);
  });

  it('meanInterval unclipped (range null) matches scipy t.interval with the standard error of the mean', () => {
    for (const c of fixture.intervals) {
      const r = meanInterval(c.values, c.level, null);
      expect(r.value).not.toBeNull();
      expect(r.value![0]).toBeCloseTo(c.lo, 10);
      expect(r.value![1]).toBeCloseTo(c.hi, 10);
    }
  });

  it("is scipy's interval clipped to the metric's range [0, 1] by default", () => {
    let clipped = 0;
    for (const c of fixture.intervals) {
      const r = meanInterval(c.values, c.level);
      if (r.value === null) throw new Error('expected an interval');
      // Inside the range: scipy's numbers exactly; outside: cut at 0 and 1.
      expect(r.value[0]).toBeCloseTo(Math.max(0, c.lo), 10);
      expect(r.value[1]).toBeCloseTo(Math.min(1, c.hi), 10);
      expect(r.value[0]).toBeGreaterThanOrEqual(0);
      expect(r.value[1]).toBeLessThanOrEqual(1);
      expect(r.clipped).toBe(c.lo < 0 || c.hi > 1);
      if (r.clipped) clipped++;
    }
    expect(clipped).toBeGreaterThan(0); // the fixtures include intervals that leave [0, 1]
    // Three queries' AP 0, 1/3, 1: mean ± t·s/√n runs far below 0 and above 1.
    const few = meanInterval([0, 1 / 3, 1]);
    expect(meanInterval([0, 1 / 3, 1], 0.95, null).value![0]).toBeLessThan(0);
    expect(few).toEqual({ value: [0, 1], clipped: true });
    // Only one side out: the other stays the t interval's.
    const one = meanInterval([0.9, 1, 1, 0.6], 0.95, null).value!;
    expect(one[1]).toBeGreaterThan(1);
    expect(meanInterval([0.9, 1, 1, 0.6]).value).toEqual([one[0], 1]);
  });

  it('says why when it is undefined: below 2 queries, and when every value is equal (scipy: nan, never a zero-width interval)', () => {
    expect(meanInterval([0.5])).toEqual({ value: null, reason: expect.stringMatching(/at least 2 queries \(1\)/) });
    expect(meanInterval([0.25, 0.25, 0.25])).toEqual({ value: null, reason: 'all 3 queries score 0.25: no spread, so no interval' });
    expect(meanInterval([0.1, 0.1, 0.1]).value).toBeNull(); // its mean is 0.10000000000000002, its s not 0
    expect(meanInterval([1, 1], 0.95, null)).toEqual({ value: null, reason: 'all 2 queries score 1: no spread, so no interval' });
    // The smallest spread still gives an interval around the mean.
    const near = meanInterval([0.25, 0.25, 0.2500001]).value!;
    expect(near[0]).toBeLessThan(near[1]);
    expect(() => studentTQuantile(1, 3)).toThrow(RangeError);
  });
});
