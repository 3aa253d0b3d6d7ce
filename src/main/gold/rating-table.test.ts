import { describe, expect, it } from 'vitest';
import { schemeCategories } from './rating-table';

describe('schemeCategories', () => {
  it("gives each scheme's values from the lowest grade to the highest, with their grades", () => {
    expect(schemeCategories('binary')).toEqual({ categories: ['0', '1'], scale: [0, 1] });
    expect(schemeCategories('semeval3')).toEqual({ categories: ['Irrelevant', 'Relevant', 'PerfectMatch'], scale: [0, 1, 2] });
    expect(schemeCategories('likert5')).toEqual({ categories: ['-2', '-1', '0', '1', '2'], scale: [-2, -1, 0, 1, 2] });
  });
  it('graded: the integer values that occur, sorted, without "?" or repeats', () => {
    expect(schemeCategories('graded', ['3', '?', '0', '10', '3'])).toEqual({ categories: ['0', '3', '10'], scale: [0, 3, 10] });
    expect(schemeCategories('graded')).toEqual({ categories: [], scale: [] });
  });
});
