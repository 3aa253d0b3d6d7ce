import { describe, expect, it } from 'vitest';
import { QPairsError } from '../errors';
import {
  averagePrecision,
  dcgAt,
  firstRelevantRank,
  idealDcgAt,
  mean,
  meanAveragePrecision,
  meanReciprocalRank,
  ndcgAt,
  precisionAt,
  rPrecision,
  reciprocalRank,
  successAt,
} from './measures';

describe('averagePrecision', () => {
  it('follows (1/R) Σ P@rank over relevant retrieved', () => {
    expect(averagePrecision([1, 0, 1, 0], 2)).toBeCloseTo((1 + 2 / 3) / 2, 15);
    expect(averagePrecision([0, 1, 0, 1], 2)).toBe(0.5);
    expect(averagePrecision([true, false, true], 2)).toBeCloseTo((1 + 2 / 3) / 2, 15);
  });
  it('divides by R including relevant documents not retrieved', () => {
    expect(averagePrecision([1, 0], 3)).toBeCloseTo(1 / 3, 15);
  });
  it('is 0 for R = 0, an empty list, or no relevant retrieved', () => {
    expect(averagePrecision([0, 0], 0)).toBe(0);
    expect(averagePrecision([], 0)).toBe(0);
    expect(averagePrecision([], 2)).toBe(0);
    expect(averagePrecision([0, 0, 0], 1)).toBe(0);
  });
  it('rejects a bad R', () => {
    expect(() => averagePrecision([1], -1)).toThrow(QPairsError);
    expect(() => averagePrecision([1], 1.5)).toThrow(QPairsError);
    expect(() => averagePrecision([1], NaN)).toThrow(QPairsError);
  });
  it('never exceeds 1 even with an inconsistent R', () => {
    expect(averagePrecision([1, 1, 1], 1)).toBe(1);
  });
});

describe('reciprocalRank / firstRelevantRank', () => {
  it('is 1/rank of the first relevant, 0 if none', () => {
    expect(reciprocalRank([0, 0, 1, 1])).toBeCloseTo(1 / 3, 15);
    expect(firstRelevantRank([0, 0, 1, 1])).toBe(3);
    expect(reciprocalRank([0, 0])).toBe(0);
    expect(reciprocalRank([])).toBe(0);
    expect(firstRelevantRank([])).toBe(0);
  });
});

describe('precisionAt / successAt / rPrecision', () => {
  it('P@k divides by k, also beyond the list', () => {
    expect(precisionAt([1, 0, 1], 1)).toBe(1);
    expect(precisionAt([1, 0, 1], 2)).toBe(0.5);
    expect(precisionAt([1, 1, 1], 5)).toBeCloseTo(0.6, 15);
    expect(precisionAt([], 5)).toBe(0);
  });
  it('Success@k is 1 iff a relevant document is in the top k', () => {
    expect(successAt([0, 0, 1], 2)).toBe(0);
    expect(successAt([0, 0, 1], 3)).toBe(1);
    expect(successAt([0, 0, 1], 100)).toBe(1);
    expect(successAt([], 1)).toBe(0);
  });
  it('R-Prec is relevant in top R over R; 0 for R = 0', () => {
    expect(rPrecision([1, 0, 1, 1], 3)).toBeCloseTo(2 / 3, 15);
    expect(rPrecision([1], 3)).toBeCloseTo(1 / 3, 15);
    expect(rPrecision([0, 0], 0)).toBe(0);
  });
  it('rejects cutoffs that are not positive integers', () => {
    for (const k of [0, -1, 1.5, NaN, Infinity]) {
      expect(() => precisionAt([1], k)).toThrow(QPairsError);
      expect(() => successAt([1], k)).toThrow(QPairsError);
      expect(() => dcgAt([1], k)).toThrow(QPairsError);
    }
  });
});

describe('nDCG (gain = grade, discount log2(rank + 1))', () => {
  it('DCG sums gain / log2(rank + 1)', () => {
    expect(dcgAt([3, 2, 0, 1], 4)).toBeCloseTo(3 + 2 / Math.log2(3) + 1 / Math.log2(5), 14);
    expect(dcgAt([3, 2, 0, 1], 1)).toBe(3);
    expect(dcgAt([], 10)).toBe(0);
    expect(dcgAt([-1, NaN, 2], 3)).toBeCloseTo(2 / Math.log2(4), 15);
  });
  it('ideal DCG sorts the pool gains and does not modify its input', () => {
    const pool = [0, 1, 2, 1];
    expect(idealDcgAt(pool, 2)).toBeCloseTo(2 + 1 / Math.log2(3), 15);
    expect(pool).toEqual([0, 1, 2, 1]);
  });
  it('nDCG is DCG / IDCG, 1 for the ideal order, 0 without positive gains', () => {
    expect(ndcgAt([2, 1, 0], [0, 1, 2], 3)).toBe(1);
    expect(ndcgAt([0, 1, 2], [0, 1, 2], 3)).toBeCloseTo((1 / Math.log2(3) + 2 / 2) / (2 + 1 / Math.log2(3)), 15);
    expect(ndcgAt([0, 0], [0, 0], 5)).toBe(0);
    expect(ndcgAt([], [], 5)).toBe(0);
    // relevant not retrieved lowers nDCG
    expect(ndcgAt([1], [1, 1], 5)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 15);
  });
});

describe('means', () => {
  it('mean of nothing is 0, never NaN', () => {
    expect(mean([])).toBe(0);
    expect(meanAveragePrecision([])).toBe(0);
    expect(meanReciprocalRank([])).toBe(0);
  });
  it('MAP and MRR average the per-query values', () => {
    expect(meanAveragePrecision([{ rel: [1], R: 1 }, { rel: [0, 1], R: 1 }])).toBe(0.75);
    expect(meanReciprocalRank([[1], [0, 0, 0, 1]])).toBe(0.625);
    expect(mean(new Float64Array([0.2, 0.4]))).toBeCloseTo(0.3, 15);
  });
});
