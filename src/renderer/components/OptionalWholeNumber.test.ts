import { describe, expect, it } from 'vitest';
import { readOptionalWholeNumber } from './OptionalWholeNumber';

describe('an optional whole number field', () => {
  it('reads empty as the default, a whole number within bounds as itself, and says what fits otherwise', () => {
    expect(readOptionalWholeNumber(' ', 2, 100, 'no cross-validation')).toEqual({ error: null });
    expect(readOptionalWholeNumber('5', 2, 100, 'no cross-validation')).toEqual({ value: 5, error: null });
    for (const bad of ['1', '101', '2.5', 'x']) {
      expect(readOptionalWholeNumber(bad, 2, 100, 'no cross-validation')).toEqual({ error: 'a whole number from 2 to 100, or empty for no cross-validation' });
    }
  });
});
