/**
 * An adaptive order on a pool with one run (say only BM25, no model yet) draws uniformly at random,
 * and says so (orderAtRandomReason: the pool list, Annotate, `qpairs pool list`/`pool set`); from a
 * second run on it is adaptive and says nothing of the kind.
 */
import { describe, expect, it } from 'vitest';
import { orderAtRandomReason, orderLabel } from '../../shared/label-order';
import { mulberry32 } from '../stats/random';
import { nextDraw } from './draw-next';
import type { ActiveQuery, OrderedPool } from './pool-model';

/** n queries of `size` candidates, each ranked by `runs` seeded random permutations; q0 fully labeled. */
function pool(n: number, size: number, runs: number): OrderedPool {
  const rnd = mulberry32(5);
  const perm = (): number[] => {
    const a = Array.from({ length: size }, (_, i) => i);
    for (let i = size - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [a[i], a[j]] = [a[j]!, a[i]!];
    }
    return a;
  };
  const queries: ActiveQuery[] = Array.from({ length: n }, (_, i) => ({ id: `q${i}`, size, rankings: Array.from({ length: runs }, perm) }));
  const relevance = new Map([['q0', Array.from({ length: size }, (_, c) => c === queries[0]!.rankings[0]![0])]]);
  return { queries, runs: Array.from({ length: runs }, (_, r) => `r${r}`), relevance };
}

const draw = (order: 'uncertainty' | 'decide-rankers', p: OrderedPool) =>
  nextDraw(order, 3, p, [{ seq: 1, queryId: 'q0', probability: 1 / p.queries.length, remaining: p.queries.length, predictions: null }])!;

describe('an adaptive order with fewer than two runs', () => {
  it('draws uniformly at random, and says so', () => {
    for (const order of ['uncertainty', 'decide-rankers'] as const) {
      const d = draw(order, pool(12, 10, 1));
      expect(d.probability).toBeCloseTo(1 / 11, 12);
      expect(orderAtRandomReason(order, 1)).toMatch(/^drawn uniformly at random for now: the pool has one run/);
      expect(orderAtRandomReason(order, 0)).toMatch(/^drawn uniformly at random for now: the pool has no run/);
      expect(orderLabel(order, 1)).toBe(`${order} (at random for now)`);
    }
  });

  it('draws uniformly when the queries have different numbers of candidates (one run)', () => {
    // Queries of 20 and of 5 candidates: the relevance model, knowing only positions, sums more
    // uncertainty over 20 candidates; the draw must not prefer them (the message says uniform).
    const big = pool(6, 20, 1);
    const small = pool(6, 5, 1);
    const mixed: OrderedPool = { queries: [...big.queries, ...small.queries.map((q) => ({ ...q, id: `s${q.id}` }))], runs: big.runs, relevance: big.relevance };
    for (let s = 1; s <= 8; s++) expect(nextDraw('uncertainty', s, mixed, [])!.probability).toBeCloseTo(1 / 12, 12);
  });

  it('with a second run it is adaptive (unequal probabilities), and says nothing of the kind', () => {
    const probs = new Set(Array.from({ length: 6 }, (_, s) => nextDraw('uncertainty', s + 1, pool(12, 10, 2), [])!.probability.toFixed(9)));
    expect(probs.size).toBeGreaterThan(1);
    expect(orderAtRandomReason('uncertainty', 2)).toBeNull();
    expect(orderLabel('uncertainty', 2)).toBe('uncertainty');
    // Orders that are not adaptive never carry the remark.
    expect(orderAtRandomReason('random', 1)).toBeNull();
    expect(orderAtRandomReason('pool', 0)).toBeNull();
  });
});
