import { describe, expect, it } from 'vitest';
import { niceTicks } from './LineChart';

describe('niceTicks', () => {
  it('gives round ticks within the range', () => {
    expect(niceTicks(0, 1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0, 1, 4)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(niceTicks(1, 12, 6)).toEqual([2, 4, 6, 8, 10, 12]);
    expect(niceTicks(-3, 7)).toEqual([-2, 0, 2, 4, 6]);
    expect(niceTicks(0.61, 0.79)).toEqual([0.65, 0.7, 0.75]);
  });

  it('an empty or undefined range gives at most its one point', () => {
    expect(niceTicks(3, 3)).toEqual([3]);
    expect(niceTicks(3, 2)).toEqual([3]);
    expect(niceTicks(3, NaN)).toEqual([3]);
    expect(niceTicks(3, Infinity)).toEqual([3]);
    expect(niceTicks(NaN, 3)).toEqual([]);
  });

  it('ends on a range too narrow for its magnitude (the step is below the float spacing there)', () => {
    // ulp(1e9) ≈ 1.2e-7 > step 2e-8: adding the step to a running value never moved it (an endless loop)
    const t = niceTicks(1e9, 1e9 + 1e-7);
    expect(t.length).toBeGreaterThan(0);
    expect(t.length).toBeLessThanOrEqual(12);
    for (let i = 1; i < t.length; i++) expect(t[i]!).toBeGreaterThan(t[i - 1]!);
  });
});
