/** A fused model's feature importance showed "-0.00" for a feature whose shuffle lowered MAP by less than 0.005 points (a tiny negative drop). */
import { describe, expect, it } from 'vitest';
import { importancePoints } from './FeatureImportance';

describe('feature importance in points', () => {
  it('reads 0.00 for a value that rounds to zero, whatever its sign', () => {
    expect(importancePoints(-0.00001)).toBe('0.00');
    expect(importancePoints(-0)).toBe('0.00');
    expect(importancePoints(0.00001)).toBe('0.00');
  });
  it('keeps the sign and two decimals otherwise', () => {
    expect(importancePoints(0.0123)).toBe('1.23');
    expect(importancePoints(-0.0005)).toBe('-0.05');
  });
});
