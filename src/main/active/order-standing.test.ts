/**
 * The labeling-order panel's pool MAP estimate is a MAP: Des Raj's estimator is unbiased but can land
 * outside [0, 1] (two labeled queries with AP 1 that the model predicted at 0.2 gave 101.42 in Evaluate
 * and `qpairs eval`, above its own 95% interval 28.07–100.00). The figure shown is clipped to [0, 1], as
 * the interval is.
 */
import { describe, expect, it } from 'vitest';
import type { DrawRecord } from './draw-log';
import { labelOrderStanding } from './order-standing';
import type { OrderedPool } from './pool-model';

const counting = { annotator: 'gold', convention: 'zero' as const, ties: 'pool-order' as const, threshold: 1, partial: false };

describe('labelOrderStanding', () => {
  it('never estimates a MAP above 1 (nor below 0), and the estimate lies within its interval', () => {
    // Four queries of two candidates, one run ranking the first first; q0 and q1 labeled: first candidate relevant (AP 1).
    const pool: OrderedPool = {
      queries: ['q0', 'q1', 'q2', 'q3'].map((id) => ({ id, size: 2, rankings: [[0, 1]] })),
      runs: ['r'],
      relevance: new Map([
        ['q0', [true, false]],
        ['q1', [true, false]],
      ]),
    };
    // When drawing, the model predicted AP 0.2 for the query it drew and 0.9 for the others.
    const draws: DrawRecord[] = [
      { seq: 1, queryId: 'q0', probability: 0.25, remaining: 4, predictions: { runs: ['r'], predicted: [0.2], predictedRemaining: [2.9] } },
      { seq: 2, queryId: 'q1', probability: 1 / 3, remaining: 3, predictions: { runs: ['r'], predicted: [0.2], predictedRemaining: [2.0] } },
    ];
    const s = labelOrderStanding('uncertainty', pool, draws, counting);
    expect(s.estimator).toBe('Des Raj (model-assisted)');
    const r = s.rankers[0]!;
    expect(r.map).not.toBeNull();
    expect(r.map!).toBeLessThanOrEqual(1);
    expect(r.map!).toBeGreaterThanOrEqual(0);
    expect(r.ci).not.toBeNull();
    expect(r.map!).toBeGreaterThanOrEqual(r.ci![0]);
    expect(r.map!).toBeLessThanOrEqual(r.ci![1]);
    // The clipped estimate is 1 here: the unclipped one was above.
    expect(r.map).toBe(1);
  });
});
