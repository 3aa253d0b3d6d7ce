import { describe, expect, it } from 'vitest';
import { QPairsError } from '../errors';
import { readFixture, relClose } from './testing';
import { pairedTTest } from './ttest';

const fx = readFixture('stats', 'ttest.json');

describe('pairedTTest vs scipy.stats.ttest_rel', () => {
  for (const c of fx.cases as { name: string; a: number[]; b: number[]; statistic: number; pvalue: number; df: number }[]) {
    it(c.name, () => {
      const r = pairedTTest(c.a, c.b);
      expect(r.df).toBe(c.df);
      expect(r.t.value).not.toBeNull();
      expect(relClose(r.t.value!, c.statistic, 1e-9)).toBe(true);
      expect(relClose(r.p.value!, c.pvalue, 1e-9), `${r.p.value} vs ${c.pvalue}`).toBe(true);
    });
  }
});

describe('pairedTTest degenerate cases', () => {
  it('zero pairs, one pair', () => {
    expect(pairedTTest([], []).p).toEqual({ value: null, reason: 'no pairs' });
    const one = pairedTTest([1], [0]);
    expect(one.p.value).toBeNull();
    expect(one.meanDiff.value).toBe(1);
  });
  it('identical samples → undefined, constant non-zero difference → p = 0', () => {
    const same = pairedTTest([0.1, 0.2, 0.3], [0.1, 0.2, 0.3]);
    expect(same.t.value).toBeNull();
    expect(same.p.value).toBeNull();
    const shift = pairedTTest([1, 2, 3], [0, 1, 2]);
    expect(shift.t.value).toBeNull();
    expect(shift.p.value).toBe(0);
  });
  it('bad input throws QPairsError', () => {
    expect(() => pairedTTest([1, 2], [1])).toThrow(QPairsError);
    expect(() => pairedTTest([1, NaN], [1, 2])).toThrow(/index 1/);
  });
});
