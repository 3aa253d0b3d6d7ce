import { describe, expect, it } from 'vitest';
import { bestSplit, fitTree, lambdaGradients, lambdaMartScore, trainLambdaMart, treePredict } from './lambdamart';

describe('LambdaMART', () => {
  it('lambda gradients of a 3-item list, computed by hand', () => {
    // scores 0.5, 0.2, 0.0 → ranks 1, 2, 3; only item 1 is relevant; maxDCG = (2¹ − 1)/log2(2) = 1
    // pair (1, 0): |ΔZ| = |1/log2(3) − 1/log2(2)| = 0.369070, ρ = 1/(1 + e^{0.2 − 0.5}) = 0.574443
    // pair (1, 2): |ΔZ| = |1/log2(3) − 1/log2(4)| = 0.130930, ρ = 1/(1 + e^{0.2 − 0.0}) = 0.450166
    const { lambda, hess } = lambdaGradients([0.5, 0.2, 0.0], [0, 1, 0]);
    const l10 = 0.574443 * 0.36907;
    const l12 = 0.450166 * 0.13093;
    expect(lambda[0]).toBeCloseTo(-l10, 5); // −0.212010
    expect(lambda[1]).toBeCloseTo(l10 + l12, 5); // 0.270950
    expect(lambda[2]).toBeCloseTo(-l12, 5); // −0.058940
    expect(hess[0]).toBeCloseTo(0.574443 * 0.425557 * 0.36907, 5);
    expect(hess[1]).toBeCloseTo(0.574443 * 0.425557 * 0.36907 + 0.450166 * 0.549834 * 0.13093, 5);
    expect(hess[2]).toBeCloseTo(0.450166 * 0.549834 * 0.13093, 5);
  });

  it('lists without a relevance difference have zero gradients', () => {
    expect(Array.from(lambdaGradients([1, 2], [0, 0]).lambda)).toEqual([0, 0]);
    expect(Array.from(lambdaGradients([1, 2], [1, 1]).lambda)).toEqual([0, 0]);
  });

  it('one split: the threshold between the two target groups, Newton leaf values', () => {
    const x = [[0, 5], [1, 4], [2, 5], [3, 4]];
    const g = [-1, -1, 1, 1];
    const h = [1, 1, 1, 1];
    // feature 0 at 1.5: (−2)²/2 + 2²/2 − 0²/4 = 4; feature 1 separates nothing
    expect(bestSplit(x, g, [0, 1, 2, 3], 1)).toEqual({ feature: 0, threshold: 1.5, gain: 4 });
    const t = fitTree(x, g, h, { maxLeaves: 2, minLeaf: 1, eps: 0 });
    expect(t.feature[0]).toBe(0);
    expect(treePredict(t, [0.5, 0])).toBeCloseTo(-1, 12);
    expect(treePredict(t, [2.5, 0])).toBeCloseTo(1, 12);
    expect(bestSplit(x, g, [0, 1, 2, 3], 3)).toBeNull(); // minLeaf forbids every split
  });

  it('boosting ranks the relevant candidates first when one feature tells them apart', () => {
    const lists = Array.from({ length: 10 }, (_, q) => ({
      rows: Array.from({ length: 6 }, (_, i) => [i < 2 ? 1 + q * 0.01 : 0, ((q * 7 + i * 3) % 5) / 5]),
      rel: [1, 1, 0, 0, 0, 0],
    }));
    const trees = trainLambdaMart(lists, { trees: 10, minLeaf: 2, learningRate: 0.5 });
    for (const l of lists) {
      const s = l.rows.map((r) => lambdaMartScore(trees, r));
      expect(Math.min(s[0], s[1])).toBeGreaterThan(Math.max(...s.slice(2)));
    }
  });
});
