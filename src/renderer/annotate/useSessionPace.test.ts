import { describe, expect, it } from 'vitest';
import { timePerQuery } from './useSessionPace';

describe("the Annotate screen's time per query", () => {
  it("is the mean of the pool's own timed queries (another pool's, or the same query id there, do not count)", () => {
    expect(timePerQuery(undefined)).toEqual({ avgMs: null, timedQueries: 0 });
    expect(timePerQuery(new Map([['q1', 60_000], ['q2', 120_000]]))).toEqual({ avgMs: 90_000, timedQueries: 2 });
  });
});
