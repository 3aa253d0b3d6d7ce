import { describe, expect, it } from 'vitest';
import type { ReviewItem } from '../../shared/gold';
import { focusIndex, itemKey, mergeOrder, nextUnsettled } from './order';

const item = (queryId: string, candidateId: string): ReviewItem => ({
  queryId,
  candidateId,
  queryTitle: null,
  candidateTitle: null,
  labels: [],
  impact: 0,
  settled: null,
});

describe('review order', () => {
  it('keeps the shown order across refreshes, drops gone items and appends new ones in engine order', () => {
    const first = [item('q1', 'a'), item('q1', 'b'), item('q2', 'c')];
    const order = first.map(itemKey);
    // The engine re-sorted by impact, q1/a is no longer a disagreement, q3/d is new.
    const refreshed = [item('q3', 'd'), item('q2', 'c'), item('q1', 'b')];
    expect(mergeOrder(order, refreshed)).toEqual([itemKey(item('q1', 'b')), itemKey(item('q2', 'c')), itemKey(item('q3', 'd'))]);
    expect(mergeOrder([], refreshed)).toEqual(refreshed.map(itemKey));
  });

  it('finds the next unsettled item after the cursor, wrapping, the cursor itself last', () => {
    const settled = [true, false, true, false];
    expect(nextUnsettled(4, 1, (i) => settled[i]!)).toBe(3);
    expect(nextUnsettled(4, 3, (i) => settled[i]!)).toBe(1);
    expect(nextUnsettled(4, 3, (i) => i !== 3)).toBe(3);
    expect(nextUnsettled(4, 0, () => true)).toBe(-1);
    expect(nextUnsettled(0, 0, () => false)).toBe(-1);
  });

  it('focuses a pair, or the first item of a query', () => {
    const items = [item('q1', 'a'), item('q2', 'b'), item('q2', 'c')];
    expect(focusIndex(items, 'q2', 'c')).toBe(2);
    expect(focusIndex(items, 'q2')).toBe(1);
    expect(focusIndex(items, 'q2', 'zz')).toBe(1);
    expect(focusIndex(items, 'q9')).toBe(-1);
  });
});
