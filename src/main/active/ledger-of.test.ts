/**
 * ledgerOf (candidate-standing.ts) builds the candidate order's ledger from every judged pair of a
 * pool: each query's bounds once from its judged pairs (CandidateLedger.judgeQuery), the same ledger
 * as judging the pairs one by one.
 */
import { describe, expect, it, vi } from 'vitest';
import * as apBounds from './ap-bounds';
import type { Judgment } from './ap-bounds';
import { CandidateLedger } from './candidate-order';
import { ledgerOf } from './candidate-standing';
import type { ActiveQuery } from './pool-model';
import { mulberry32 } from '../stats/random';

vi.mock('./ap-bounds', async (original) => {
  const real = await original<typeof import('./ap-bounds')>();
  return { ...real, queryBoundsWithEffects: vi.fn(real.queryBoundsWithEffects) };
});

function pool(): { queries: ActiveQuery[]; judged: Judgment[][] } {
  const rnd = mulberry32(11);
  const queries: ActiveQuery[] = [];
  const judged: Judgment[][] = [];
  for (let i = 0; i < 12; i++) {
    const size = 6 + (i % 9); // 6-14 candidates: exact bounds and, past 12 unjudged, bounds by count
    const order = [...Array(size).keys()];
    const shuffled = [...order].sort(() => rnd() - 0.5);
    queries.push({ id: `q${i}`, size, rankings: [order, shuffled, [...order].reverse()] });
    // Query 0 and every fourth have no judged pair; the others several.
    judged.push(order.map(() => (i % 4 === 0 || rnd() < 0.5 ? null : rnd() < 0.4)));
  }
  return { queries, judged };
}

describe('ledgerOf', () => {
  it("computes each judged query's bounds once, and gives the ledger that judging its pairs one by one gives", () => {
    const { queries, judged } = pool();
    const zero = CandidateLedger.zeroLabel(queries);
    const bounds = vi.mocked(apBounds.queryBoundsWithEffects);
    bounds.mockClear();
    const ledger = ledgerOf(queries, judged, zero);
    const withJudgments = judged.filter((row) => row.some((j) => j !== null)).length;
    const pairs = judged.flat().filter((j) => j !== null).length;
    expect(pairs).toBeGreaterThan(withJudgments); // several pairs per query: one by one would compute more
    expect(bounds).toHaveBeenCalledTimes(withJudgments);
    const oneByOne = new CandidateLedger(queries, zero);
    judged.forEach((row, i) => row.forEach((j, c) => j !== null && oneByOne.judge(i, c, j)));
    expect(ledger.judged).toEqual(oneByOne.judged);
    expect(ledger.bounds).toEqual(oneByOne.bounds);
    expect(ledger.effects).toEqual(oneByOne.effects);
    queries.forEach((q, i) => expect([...ledger.model.predict(q)], `predictions for q${i}`).toEqual([...oneByOne.model.predict(q)]));
    const all = [...queries.keys()];
    expect(ledger.standing(all)).toEqual(oneByOne.standing(all));
  });
});
