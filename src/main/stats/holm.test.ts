import { describe, expect, it } from 'vitest';
import { QPairsError } from '../errors';
import { holm } from './holm';
import { readFixture } from './testing';

const fx = readFixture('stats', 'holm.json');

describe('holm vs statsmodels multipletests(method="holm")', () => {
  for (const c of fx.cases as { name: string; p: number[]; alpha: number; reject: boolean[]; adjusted: number[] }[]) {
    it(c.name, () => {
      const r = holm(c.p, c.alpha);
      expect(r.reject).toEqual(c.reject);
      r.adjusted.forEach((v, i) => expect(Math.abs(v - c.adjusted[i])).toBeLessThanOrEqual(1e-12));
    });
  }
  it('empty input and bad p-values', () => {
    expect(holm([])).toEqual({ adjusted: [], reject: [] });
    expect(() => holm([0.1, 1.2])).toThrow(QPairsError);
    expect(() => holm([NaN])).toThrow(QPairsError);
  });
});
