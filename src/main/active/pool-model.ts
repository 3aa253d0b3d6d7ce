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
export class RelevanceModel {
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

/**
 * Each ranker's expected AP on a query under the relevance model: the mean over `samples` relevance
 * draws (candidates independent, P(relevant) from `model`). The predictions of the model-assisted
 * estimator (des-raj.ts assistedMean). A query on which every ranker orders the candidates alike gets
 * the same prediction for all, and the AP differences there are exactly 0 whatever the labels.
 */
export function predictedAps(q: ActiveQuery, model: RelevanceModel, rng: () => number, samples = 32): number[] {
  const p = model.predict(q);
  const sums = new Array<number>(q.rankings.length).fill(0);
  const rel = new Array<boolean>(q.size);
  for (let m = 0; m < samples; m++) {
    for (let c = 0; c < q.size; c++) rel[c] = rng() < p[c]!;
    apsOf(q, rel).forEach((ap, r) => (sums[r]! += ap));
  }
  return sums.map((x) => x / samples);
}
