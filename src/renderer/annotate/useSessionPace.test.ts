import { describe, expect, it } from 'vitest';
import { completedHere, timePerQuery } from './useSessionPace';

describe("the Annotate screen's time per query", () => {
  it("is the mean of the pool's own timed queries (another pool's, or the same query id there, do not count)", () => {
    expect(timePerQuery(undefined)).toEqual({ avgMs: null, timedQueries: 0 });
    expect(timePerQuery(new Map([['q1', 60_000], ['q2', 120_000]]))).toEqual({ avgMs: 90_000, timedQueries: 2 });
  });
  it('times a query completed by this page\'s labels only: not one completed in another tab, nor one that arrived complete', () => {
    const arrival = { at: 1_000, complete: false };
    expect(completedHere(true, arrival, [500, 1_500])).toBe(true);
    expect(completedHere(false, arrival, [1_500])).toBe(false);
    expect(completedHere(true, arrival, [])).toBe(false); // the other tab labeled it all
    expect(completedHere(true, arrival, [500])).toBe(false); // this page's labels were on an earlier query
    expect(completedHere(true, { at: 1_000, complete: true }, [1_500])).toBe(false);
  });
});
