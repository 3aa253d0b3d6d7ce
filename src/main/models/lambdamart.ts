/**
 * LambdaMART (Burges 2010): gradient-boosted regression trees whose per-candidate targets are the
 * LambdaRank gradients of NDCG. For a list with scores s and relevance y (gain 2^y − 1, ranks r by
 * the current scores, descending), every pair with y_i > y_j contributes
 *
 *   ρ_ij = 1 / (1 + e^{σ (s_i − s_j)}),      |ΔZ_ij| = |(2^{y_i} − 2^{y_j}) (1/log2(1 + r_i) − 1/log2(1 + r_j))| / maxDCG
 *   λ_i += σ ρ_ij |ΔZ_ij|,   λ_j −= σ ρ_ij |ΔZ_ij|           (λ = the direction that raises NDCG)
 *   h_i += σ² ρ_ij (1 − ρ_ij) |ΔZ_ij|,   h_j += the same      (second-order weights)
 *
 * Each round fits a least-squares regression tree to λ (split gain = (Σλ_L)²/n_L + (Σλ_R)²/n_R −
 * (Σλ)²/n), leaf value = Σλ / (Σh + ε) (one Newton step), and adds lr × tree to the scores.
 */
import type { RankList } from './ranksvm';

/** λ and h of one list (formula in the file comment). Lists with no relevance difference give zeros. */
export function lambdaGradients(scores: ArrayLike<number>, rel: ArrayLike<number>, sigma = 1): { lambda: Float64Array; hess: Float64Array } {
  const n = scores.length;
  const lambda = new Float64Array(n);
  const hess = new Float64Array(n);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  const rank = new Int32Array(n);
  order.forEach((i, k) => (rank[i] = k + 1));
  const ideal = Array.from(rel).sort((a, b) => b - a);
  let maxDcg = 0;
  ideal.forEach((y, k) => (maxDcg += (2 ** y - 1) / Math.log2(k + 2)));
  if (maxDcg <= 0) return { lambda, hess };
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      if (!(rel[i] > rel[j])) continue;
      const dz = Math.abs((2 ** rel[i] - 2 ** rel[j]) * (1 / Math.log2(1 + rank[i]) - 1 / Math.log2(1 + rank[j]))) / maxDcg;
      const rho = 1 / (1 + Math.exp(sigma * (scores[i] - scores[j])));
      lambda[i] += sigma * rho * dz;
      lambda[j] -= sigma * rho * dz;
      const h = sigma * sigma * rho * (1 - rho) * dz;
      hess[i] += h;
      hess[j] += h;
    }
  return { lambda, hess };
}

/** A regression tree as flat arrays: internal nodes split on feature[f] ≤ threshold; leaves have feature −1. */
export interface Tree {
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  value: number[];
}

export function treePredict(t: Tree, x: ArrayLike<number>): number {
  let node = 0;
  while (t.feature[node] >= 0) node = x[t.feature[node]] <= t.threshold[node] ? t.left[node] : t.right[node];
  return t.value[node];
}

export interface Split {
  feature: number;
  threshold: number;
  gain: number;
}

/**
 * Best least-squares split of the samples `idx` on targets g: maximises
 * (Σ_L g)²/n_L + (Σ_R g)²/n_R − (Σ g)²/n with at least minLeaf samples each side; threshold is the
 * midpoint between the two neighbouring distinct values. null when no split has positive gain.
 */
export function bestSplit(x: ReadonlyArray<ArrayLike<number>>, g: ArrayLike<number>, idx: readonly number[], minLeaf: number): Split | null {
  const n = idx.length;
  if (n < 2 * minLeaf) return null;
  let total = 0;
  for (const i of idx) total += g[i];
  const base = (total * total) / n;
  let best: Split | null = null;
  const F = x.length ? x[idx[0]].length : 0;
  for (let f = 0; f < F; f++) {
    const sorted = [...idx].sort((a, b) => x[a][f] - x[b][f] || a - b);
    let sumL = 0;
    for (let k = 0; k < n - 1; k++) {
      sumL += g[sorted[k]];
      const nl = k + 1;
      if (nl < minLeaf || n - nl < minLeaf) continue;
      const a = x[sorted[k]][f];
      const b = x[sorted[k + 1]][f];
      if (!(b > a)) continue;
      const sumR = total - sumL;
      const gain = (sumL * sumL) / nl + (sumR * sumR) / (n - nl) - base;
      if (gain > 1e-12 && (!best || gain > best.gain)) best = { feature: f, threshold: (a + b) / 2, gain };
    }
  }
  return best;
}

/** Grows a tree best-first up to maxLeaves leaves; leaf value = Σg / (Σh + eps). */
export function fitTree(x: ReadonlyArray<ArrayLike<number>>, g: ArrayLike<number>, h: ArrayLike<number>, o: { maxLeaves: number; minLeaf: number; eps?: number }): Tree {
  const t: Tree = { feature: [], threshold: [], left: [], right: [], value: [] };
  const eps = o.eps ?? 1e-9;
  const leafValue = (idx: readonly number[]) => {
    let sg = 0;
    let sh = 0;
    for (const i of idx) {
      sg += g[i];
      sh += h[i];
    }
    return sg / (sh + eps);
  };
  const addNode = (idx: readonly number[]) => {
    t.feature.push(-1);
    t.threshold.push(0);
    t.left.push(-1);
    t.right.push(-1);
    t.value.push(leafValue(idx));
    return t.feature.length - 1;
  };
  const all = Array.from({ length: x.length }, (_, i) => i);
  const open: Array<{ node: number; idx: number[]; split: Split | null }> = [{ node: addNode(all), idx: all, split: bestSplit(x, g, all, o.minLeaf) }];
  let leaves = 1;
  while (leaves < o.maxLeaves) {
    let bi = -1;
    for (let k = 0; k < open.length; k++) if (open[k].split && (bi < 0 || open[k].split!.gain > open[bi].split!.gain)) bi = k;
    if (bi < 0) break;
    const { node, idx, split } = open.splice(bi, 1)[0];
    const li = idx.filter((i) => x[i][split!.feature] <= split!.threshold);
    const ri = idx.filter((i) => x[i][split!.feature] > split!.threshold);
    t.feature[node] = split!.feature;
    t.threshold[node] = split!.threshold;
    const l = addNode(li);
    const r = addNode(ri);
    t.left[node] = l;
    t.right[node] = r;
    open.push({ node: l, idx: li, split: bestSplit(x, g, li, o.minLeaf) }, { node: r, idx: ri, split: bestSplit(x, g, ri, o.minLeaf) });
    leaves++;
  }
  return t;
}

export interface LambdaMartOptions {
  trees: number;
  learningRate: number;
  maxLeaves: number;
  minLeaf: number;
  sigma: number;
}

export const LAMBDAMART_DEFAULTS: LambdaMartOptions = { trees: 100, learningRate: 0.05, maxLeaves: 8, minLeaf: 20, sigma: 1 };

/** Boosted trees on the lists (scores start at 0); `score(x) = lr Σ_t tree_t(x)`. */
export function trainLambdaMart(lists: readonly RankList[], opts: Partial<LambdaMartOptions> = {}): Tree[] {
  const o = { ...LAMBDAMART_DEFAULTS, ...opts };
  const x: Array<ArrayLike<number>> = [];
  const spans: Array<[number, number]> = [];
  for (const l of lists) {
    spans.push([x.length, x.length + l.rows.length]);
    x.push(...l.rows);
  }
  const scores = new Float64Array(x.length);
  const g = new Float64Array(x.length);
  const h = new Float64Array(x.length);
  const trees: Tree[] = [];
  for (let t = 0; t < o.trees; t++) {
    lists.forEach((l, q) => {
      const [a, b] = spans[q];
      const { lambda, hess } = lambdaGradients(scores.subarray(a, b), l.rel, o.sigma);
      g.set(lambda, a);
      h.set(hess, a);
    });
    const tree = fitTree(x, g, h, o);
    tree.value = tree.value.map((v) => v * o.learningRate);
    trees.push(tree);
    for (let i = 0; i < x.length; i++) scores[i] += treePredict(tree, x[i]);
  }
  return trees;
}

export function lambdaMartScore(trees: readonly Tree[], x: ArrayLike<number>): number {
  let s = 0;
  for (const t of trees) s += treePredict(t, x);
  return s;
}
