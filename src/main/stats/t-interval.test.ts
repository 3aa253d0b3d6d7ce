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

  it('meanInterval matches scipy t.interval with the standard error of the mean', () => {
    for (const c of fixture.intervals) {
      const r = meanInterval(c.values, c.level);
      expect(r.value).not.toBeNull();
      expect(r.value![0]).toBeCloseTo(c.lo, 10);
      expect(r.value![1]).toBeCloseTo(c.hi, 10);
    }
  });

  it('says why when it is undefined, and is a point when every value is equal', () => {
    expect(meanInterval([0.5])).toEqual({ value: null, reason: expect.stringMatching(/at least 2 queries \(1\)/) });
    expect(meanInterval([0.25, 0.25, 0.25]).value).toEqual([0.25, 0.25]);
    expect(() => studentTQuantile(1, 3)).toThrow(RangeError);
  });
});
