/**
 * The queries a labeling-order verdict is over, in the one phrase the CLI's verdict (`qpairs eval`)
 * and the app's Label order panel both take: they said "without a relevant candidate" and "without a
 * similar candidate" for the same thing. "Similar", as every other line of `qpairs eval` and the app's
 * Evaluate screen say it.
 */
import { describe, expect, it } from 'vitest';
import { countedQueries } from './label-order';

describe('countedQueries', () => {
  it('the counted queries, with those left out under convention skip', () => {
    expect(countedQueries({ estimator: 'exact', used: 8, order: 'pool', leftOut: 1 })).toBe('8 queries counted (1 without a similar candidate left out: convention skip)');
    expect(countedQueries({ estimator: 'exact', used: 1, order: 'pool', leftOut: 0 })).toBe('1 query counted');
  });
  it('drawn queries under an adaptive order; opened queries under AP bounds (nothing left out there)', () => {
    expect(countedQueries({ estimator: 'Des Raj', used: 3, order: 'uncertainty', leftOut: 2 })).toBe('3 drawn queries counted (2 without a similar candidate left out: convention skip)');
    expect(countedQueries({ estimator: 'bounds', used: 5, order: 'decide-rankers-mtc', leftOut: 0 })).toBe('5 opened queries');
  });
});
