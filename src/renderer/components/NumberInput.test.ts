import { describe, expect, it } from 'vitest';
import { readNumber } from './NumberInput';

describe('a whole number field', () => {
  it('reads a whole number within bounds, and nothing else', () => {
    expect(readNumber('50', 1, 1000)).toBe(50);
    expect(readNumber(' 7 ', 1, 1000)).toBe(7);
    expect(readNumber('1000', 1, 1000)).toBe(1000);
    expect(readNumber('-3', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).toBe(-3);
    // Empty while retyping, out of range, a fraction, not a number, beyond safe integers: no value.
    for (const bad of ['', ' ', '0', '1001', '2.5', 'x', '1e400']) expect(readNumber(bad, 1, 1000), bad).toBeNull();
    expect(readNumber('9007199254740993', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).toBeNull();
  });

  it('a decimal field reads decimals within bounds, and nothing else', () => {
    expect(readNumber('0.01', 0.001, 0.5, false)).toBe(0.01);
    expect(readNumber('.5', 0.001, 0.5, false)).toBe(0.5);
    for (const bad of ['', '0', '0.0001', '0.6', 'x', 'Infinity']) expect(readNumber(bad, 0.001, 0.5, false), bad).toBeNull();
  });
});
