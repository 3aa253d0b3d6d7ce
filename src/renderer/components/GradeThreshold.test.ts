import { describe, expect, it } from 'vitest';
import { readThreshold } from './GradeThreshold';

describe('the "similar from grade" field', () => {
  it('reads grades, negative and fractional ones too (Likert, mean thresholds)', () => {
    expect(readThreshold('2')).toBe(2);
    expect(readThreshold(' -1 ')).toBe(-1);
    expect(readThreshold('0.5')).toBe(0.5);
  });
  it('passes on nothing while the text is no number (empty, a lone minus sign)', () => {
    for (const t of ['', ' ', '-', 'abc', 'Infinity']) expect(readThreshold(t), t).toBeNull();
  });
});
