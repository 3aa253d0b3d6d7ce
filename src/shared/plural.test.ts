import { describe, expect, it } from 'vitest';
import { counted } from './plural';

describe('counted', () => {
  it('gives the noun in the number the count takes', () => {
    expect(counted(1, 'query', 'queries')).toBe('1 query');
    expect(counted(2, 'query', 'queries')).toBe('2 queries');
    expect(counted(0, 'pair')).toBe('0 pairs');
    expect(counted(12345, 'pair')).toBe('12,345 pairs');
  });
});
