/**
 * What the labeling-order policies know about a pool: for each query, its candidates as each
 * ranker orders them, and (once labeled) which candidates are relevant. Plus the per-query
 * average precision of each ranker under the SemEval convention (a query without a relevant
 * candidate scores 0 for every ranker), and a small relevance model that guesses, for an
 * unlabeled candidate, the chance it is relevant from where the rankers put it.
 */
import { averagePrecision } from '../metrics/measures';

export interface ActiveQuery {
  id: string;
  /** Number of candidates (the labels the query costs). */
  size: number;
  /** rankings[r] = candidate indices 0..size−1 in ranker r's order, best first. */
  rankings: readonly (readonly number[])[];
}

export interface OrderedPool {
  /** Every query of the pool, in pool order, with each run's ranking of its candidates. */
  queries: readonly ActiveQuery[];
  /** The runs, in the order of `ActiveQuery.rankings`. */
  runs: readonly string[];
  /** Relevance of each candidate (index as in the rankings) of every fully labeled query. */
  relevance: ReadonlyMap<string, readonly boolean[]>;
}

/** AP of one ranking given the relevant candidate indices (0 when none is relevant). */
export function apOf(ranking: readonly number[], relevant: ReadonlySet<number> | readonly boolean[]): number {
  const isRel = (c: number) => (Array.isArray(relevant) ? Boolean((relevant as readonly boolean[])[c]) : (relevant as ReadonlySet<number>).has(c));
  const rel = ranking.map((c) => (isRel(c) ? 1 : 0));
  let R = 0;
  for (const x of rel) R += x;
  return averagePrecision(rel, R);
}

/** Each ranker's AP on a query with the given relevance (index = candidate). */
export function apsOf(q: ActiveQuery, relevant: readonly boolean[]): number[] {
  return q.rankings.map((r) => apOf(r, relevant));
}

/** Mean normalised rank of every candidate over the rankers: 0 = first everywhere, 1 = last everywhere. */
export function meanRankPosition(q: ActiveQuery): Float64Array {
  const out = new Float64Array(q.size);
  const denom = Math.max(1, q.size - 1);
  for (const r of q.rankings) r.forEach((c, pos) => (out[c]! += pos / denom));
  for (let c = 0; c < q.size; c++) out[c]! /= Math.max(1, q.rankings.length);
  return out;
}

export const RELEVANCE_BUCKETS = 5;

/**
 * P(relevant | bucket of mean rank position), five equal-width buckets, each a Beta-smoothed rate:
 * (relevant + α·prior_b) / (labeled + α) with α = 4 and a prior that falls with the position
 * (0.5 at the top bucket to 0.1 at the bottom) before there is data. Refitted from all labels so far.
 */
export class RelevanceModel implements RelevancePredictor {
  private readonly rel = new Float64Array(RELEVANCE_BUCKETS);
  private readonly seen = new Float64Array(RELEVANCE_BUCKETS);
  private static readonly ALPHA = 4;

  static bucketOf(position: number): number {
    return Math.min(RELEVANCE_BUCKETS - 1, Math.floor(position * RELEVANCE_BUCKETS));
  }

  observe(q: ActiveQuery, relevant: readonly boolean[]): void {
    const pos = meanRankPosition(q);
    for (let c = 0; c < q.size; c++) {
      const b = RelevanceModel.bucketOf(pos[c]!);
      this.seen[b]! += 1;
      if (relevant[c]) this.rel[b]! += 1;
    }
  }

  /** One labeled candidate (candidate-level orders): the same rates, one label at a time. */
  observeOne(q: ActiveQuery, candidate: number, relevant: boolean, positions: Float64Array = meanRankPosition(q)): void {
    const b = RelevanceModel.bucketOf(positions[candidate]!);
    this.seen[b]! += 1;
    if (relevant) this.rel[b]! += 1;
  }

  /** Probability that each candidate of q is relevant. */
  predict(q: ActiveQuery): Float64Array {
    const pos = meanRankPosition(q);
    const out = new Float64Array(q.size);
    for (let c = 0; c < q.size; c++) {
      const b = RelevanceModel.bucketOf(pos[c]!);
      const prior = 0.5 - (0.4 * b) / (RELEVANCE_BUCKETS - 1);
      out[c] = (this.rel[b]! + RelevanceModel.ALPHA * prior) / (this.seen[b]! + RelevanceModel.ALPHA);
    }
    return out;
  }
}

/** What the labeling orders need of a relevance model: refit on a labeled query, predict P(relevant) per candidate. */
export interface RelevancePredictor {
  observe(q: ActiveQuery, relevant: readonly boolean[]): void;
  predict(q: ActiveQuery): Float64Array;
}

/**
 * P(relevant | where each ranker puts the candidate): an L2-regularised logistic regression on, per
 * ranker, the normalised position pos/(n − 1) and the reciprocal rank 1/(1 + pos), refitted by Newton
 * steps on every labeled candidate so far. Unlike the bucket model (one mean position for all rankers)
 * it learns which rankers to trust. Until it has seen both a relevant and a non-relevant candidate
 * it answers as the bucket model.
 */
export class RankLogitModel implements RelevancePredictor {
  private readonly rows: number[][] = [];
  private readonly ys: number[] = [];
  private w: Float64Array | null = null;
  private readonly fallback = new RelevanceModel();
  constructor(private readonly lambda = 1) {}

  private features(q: ActiveQuery): number[][] {
    const out = Array.from({ length: q.size }, () => [1]);
    const denom = Math.max(1, q.size - 1);
    for (const r of q.rankings) r.forEach((c, pos) => out[c]!.push(pos / denom, 1 / (1 + pos)));
    return out;
  }

  observe(q: ActiveQuery, relevant: readonly boolean[]): void {
    this.fallback.observe(q, relevant);
    this.features(q).forEach((x, c) => {
      this.rows.push(x);
      this.ys.push(relevant[c] ? 1 : 0);
    });
    const pos = this.ys.reduce((s, y) => s + y, 0);
    this.w = pos > 0 && pos < this.ys.length ? fitLogistic(this.rows, this.ys, this.lambda, this.w) : null;
  }

  predict(q: ActiveQuery): Float64Array {
    if (!this.w) return this.fallback.predict(q);
    const w = this.w;
    return Float64Array.from(this.features(q), (x) => 1 / (1 + Math.exp(-x.reduce((s, v, k) => s + v * w[k]!, 0))));
  }
}

/** Newton's method for L2-regularised logistic regression (intercept not penalised), from `start` when given. */
function fitLogistic(X: readonly number[][], y: readonly number[], lambda: number, start: Float64Array | null): Float64Array {
  const d = X[0]!.length;
  const w = start && start.length === d ? Float64Array.from(start) : new Float64Array(d);
  for (let it = 0; it < 25; it++) {
    const g = new Float64Array(d);
    const H = Array.from({ length: d }, () => new Float64Array(d));
    for (let i = 0; i < X.length; i++) {
      const x = X[i]!;
      let z = 0;
      for (let k = 0; k < d; k++) z += w[k]! * x[k]!;
      const p = 1 / (1 + Math.exp(-z));
      const r = p - y[i]!;
      const v = p * (1 - p);
      for (let a = 0; a < d; a++) {
        g[a]! += r * x[a]!;
        for (let b = 0; b < d; b++) H[a]![b]! += v * x[a]! * x[b]!;
      }
    }
    for (let a = 1; a < d; a++) {
      g[a]! += lambda * w[a]!;
      H[a]![a]! += lambda;
    }
    H[0]![0]! += 1e-6;
    const step = solve(H, g);
    let max = 0;
    for (let k = 0; k < d; k++) {
      w[k]! -= step[k]!;
      max = Math.max(max, Math.abs(step[k]!));
    }
    if (max < 1e-8) break;
  }
  return w;
}

/** Solves A x = b (A symmetric positive definite) by Gaussian elimination with partial pivoting. */
function solve(A: Float64Array[], b: Float64Array): Float64Array {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[piv]![c]!)) piv = r;
    [M[c], M[piv]] = [M[piv]!, M[c]!];
    const p = M[c]![c]! || 1e-12;
    for (let r = c + 1; r < n; r++) {
      const f = M[r]![c]! / p;
      for (let k = c; k <= n; k++) M[r]![k]! -= f * M[c]![k]!;
    }
  }
  const x = new Float64Array(n);
  for (let r = n - 1; r >= 0; r--) {
    let s = M[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= M[r]![k]! * x[k]!;
    x[r] = s / (M[r]![r]! || 1e-12);
  }
  return x;
}

/**
 * Each ranker's expected AP on a query under the relevance model: the mean over `samples` relevance
 * draws (candidates independent, P(relevant) from `model`). The predictions of the model-assisted
 * estimator (des-raj.ts assistedMean). A query on which every ranker orders the candidates alike gets
 * the same prediction for all, and the AP differences there are exactly 0 whatever the labels.
 */
export function predictedAps(q: ActiveQuery, model: RelevancePredictor, rng: () => number, samples = 32): number[] {
  const p = model.predict(q);
  const sums = new Array<number>(q.rankings.length).fill(0);
  const rel = new Array<boolean>(q.size);
  for (let m = 0; m < samples; m++) {
    for (let c = 0; c < q.size; c++) rel[c] = rng() < p[c]!;
    apsOf(q, rel).forEach((ap, r) => (sums[r]! += ap));
  }
  return sums.map((x) => x / samples);
}
