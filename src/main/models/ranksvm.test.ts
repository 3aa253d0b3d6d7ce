import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairwiseDifferences, rankSvmObjective, trainRankSvm } from './ranksvm';

const fixture = JSON.parse(readFileSync(path.resolve(__dirname, '../../../tests/fixtures/models/ranksvm.json'), 'utf8')) as {
  lists: Array<{ rows: number[][]; rel: number[] }>;
  C: number;
  pairs: number;
  weights: number[];
};

describe('RankSVM', () => {
  it('pair differences: every (more relevant, less relevant) pair of the same list', () => {
    const d = pairwiseDifferences([
      { rows: [[1, 0], [0, 1], [2, 2]], rel: [1, 0, 0] },
      { rows: [[5, 5]], rel: [1] },
    ]);
    expect(d.map((x) => Array.from(x))).toEqual([
      [1, -1],
      [-1, -2],
    ]);
  });

  it('separable toy case: every pair ordered with (nearly) the hard margin', () => {
    const lists = Array.from({ length: 5 }, (_, q) => ({
      rows: [
        [3 + q, q % 2],
        [1, (q + 1) % 2],
        [0, q % 2],
      ],
      rel: [1, 0, 0],
    }));
    const diffs = pairwiseDifferences(lists);
    const w = trainRankSvm(diffs, 2, { C: 100, tol: 1e-10 });
    for (const d of diffs) expect(w[0] * d[0] + w[1] * d[1]).toBeGreaterThan(0.99);
    expect(w[0]).toBeGreaterThan(0);
  });

  it('equals scikit-learn LinearSVC (squared hinge, no intercept) on the fixture pairs', () => {
    const diffs = pairwiseDifferences(fixture.lists);
    expect(diffs.length).toBe(fixture.pairs);
    const w = trainRankSvm(diffs, 4, { C: fixture.C, tol: 1e-12, maxSweeps: 100_000 });
    w.forEach((x, k) => expect(x).toBeCloseTo(fixture.weights[k], 6));
    // and it is the optimum: nudging any weight raises the objective
    const f = rankSvmObjective(w, diffs, fixture.C);
    for (let k = 0; k < 4; k++)
      for (const e of [-1e-3, 1e-3]) {
        const v = Float64Array.from(w);
        v[k] += e;
        expect(rankSvmObjective(v, diffs, fixture.C)).toBeGreaterThan(f);
      }
  });

  it('no pairs: zero weights', () => {
    expect(Array.from(trainRankSvm([], 3, { C: 1 }))).toEqual([0, 0, 0]);
  });
});
