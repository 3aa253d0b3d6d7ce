import { describe, expect, it } from 'vitest';
import { readWholeNumber } from './WholeNumberInput';

describe('a whole number field', () => {
  it('reads a whole number within bounds, and nothing else', () => {
    expect(readWholeNumber('50', 1, 1000)).toBe(50);
    expect(readWholeNumber(' 7 ', 1, 1000)).toBe(7);
    expect(readWholeNumber('1000', 1, 1000)).toBe(1000);
    expect(readWholeNumber('-3', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).toBe(-3);
    // Empty while retyping, out of range, a fraction, not a number, beyond safe integers: no value.
    for (const bad of ['', ' ', '0', '1001', '2.5', 'x', '1e400']) expect(readWholeNumber(bad, 1, 1000), bad).toBeNull();
    expect(readWholeNumber('9007199254740993', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).toBeNull();
  });
});
