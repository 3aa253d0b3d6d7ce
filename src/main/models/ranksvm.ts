/**
 * RankSVM (Herbrich et al. 2000; Joachims 2002): a linear scorer s(x) = w · x trained on the
 * differences of feature rows of the same query, d = x_i − x_j for every relevant i and non-relevant j:
 *
 *   min_w  ½‖w‖² + C Σ_pairs max(0, 1 − w · d)²          (L2-regularised squared hinge, no bias)
 *
 * solved by dual coordinate descent (Hsieh et al. 2008; the LIBLINEAR solver scikit-learn's
 * LinearSVC(loss='squared_hinge', dual=True) uses): with Q_ii = d_i · d_i + 1/(2C),
 *   G = w · d_i − 1 + α_i/(2C),   α_i ← max(0, α_i − G / Q_ii),   w ← w + Δα_i d_i,
 * sweeping pairs in order until the projected gradients' spread is below tol.
 */
import { QPairsError } from '../errors';
import type { TrainingData } from './types';

export interface RankList {
  /** One feature row per candidate. */
  rows: ReadonlyArray<ArrayLike<number>>;
  /** Relevance per candidate (higher = more relevant). */
  rel: ReadonlyArray<number>;
}

/**
 * The training pairs as query → candidate → relevant (a pair both relevant and not counts as
 * relevant). With `model` (ltr, fused), a pair naming a question the training data lacks is a
 * QPairsError naming the model and the pair.
 */
export function labeledLists(data: Pick<TrainingData, 'positives' | 'negatives'> & { questions?: TrainingData['questions'] }, model?: string): Map<string, Map<string, boolean>> {
  const groups = new Map<string, Map<string, boolean>>();
  const add = (q: string, c: string, rel: boolean): void => {
    if (model !== undefined && data.questions && (!data.questions.has(q) || !data.questions.has(c))) {
      throw new QPairsError(`${model}: pair (${q}, ${c}) names a question missing from the training data`, { record: `${q}/${c}` });
    }
    let g = groups.get(q);
    if (!g) groups.set(q, (g = new Map()));
    if (rel || !g.has(c)) g.set(c, rel);
  };
  for (const [q, c] of data.positives) add(q, c, true);
  for (const [q, c] of data.negatives ?? []) add(q, c, false);
  return groups;
}

/**
 * Per-feature mean and standard deviation of `F`-wide feature rows (population σ; a σ of 0 is 1;
 * no rows: μ 0, σ 1). `float32`: both rounded to float32, so a saved and reloaded model scores identically.
 */
export function featureStandardisation(all: readonly (readonly number[])[], F: number, float32: boolean): { mu: Float64Array<ArrayBuffer>; sigma: Float64Array<ArrayBuffer> } {
  const mu = new Float64Array(F);
  const sigma = new Float64Array(F).fill(1);
  if (all.length === 0) return { mu, sigma };
  const round = float32 ? Math.fround : (x: number): number => x;
  for (let k = 0; k < F; k++) {
    let m = 0;
    for (const r of all) m += r[k];
    m /= all.length;
    let v = 0;
    for (const r of all) v += (r[k] - m) ** 2;
    mu[k] = round(m);
    sigma[k] = round(Math.sqrt(v / all.length)) || 1;
  }
  return { mu, sigma };
}

/**
 * A pairwise ranker (ltr, fused) learns from a query's labeled candidates only where some are
 * relevant and some not. Throws QPairsError when no labeled query has both (a pool labeled all
 * relevant, or only marked duplicates as training pairs): the weights would stay 0 and every
 * candidate score 0 — a model that ranks in pool order, stored and reported as trained.
 */
export function noOrderToLearn(model: string, groups: ReadonlyMap<string, ReadonlyMap<string, boolean>>): void {
  if (hasOrderToLearn(groups)) return;
  let pos = 0;
  let neg = 0;
  for (const g of groups.values()) for (const r of g.values()) r ? pos++ : neg++;
  throw new QPairsError(
    `${model}: none of the ${groups.size} labeled training quer${groups.size === 1 ? 'y has' : 'ies have'} both a similar and a not-similar candidate ` +
      `(${pos} similar, ${neg} not-similar pairs), so there is no order to learn (every score would be 0). ` +
      'Label some candidates of the training queries not similar (or similar), or train on a pool that has both',
    { reason: 'no order to learn' },
  );
}

/** Whether some labeled query (query → candidate → relevant) has both a relevant and a non-relevant candidate. */
export function hasOrderToLearn(groups: ReadonlyMap<string, ReadonlyMap<string, boolean>>): boolean {
  for (const g of groups.values()) {
    const rels = [...g.values()];
    if (rels.includes(true) && rels.includes(false)) return true;
  }
  return false;
}

/** Feature differences x_i − x_j for every pair of the same list with rel_i > rel_j. */
export function pairwiseDifferences(lists: readonly RankList[]): Float64Array[] {
  const out: Float64Array[] = [];
  for (const l of lists)
    for (let i = 0; i < l.rows.length; i++)
      for (let j = 0; j < l.rows.length; j++) {
        if (!(l.rel[i] > l.rel[j])) continue;
        const a = l.rows[i];
        const b = l.rows[j];
        out.push(Float64Array.from({ length: a.length }, (_, k) => a[k] - b[k]));
      }
  return out;
}

export interface LinearSvmOptions {
  C: number;
  tol?: number;
  maxSweeps?: number;
}

/** Dual coordinate descent on the RankSVM objective above, one sweep over the pairs at a time (labels all +1). */
export class RankSvmSolver {
  readonly w: Float64Array;
  private alpha: Float64Array;
  private qii: number[];
  private dii: number;

  constructor(
    private readonly diffs: readonly Float64Array[],
    private readonly dim: number,
    C: number,
  ) {
    this.w = new Float64Array(dim);
    this.alpha = new Float64Array(diffs.length);
    this.dii = 1 / (2 * C);
    this.qii = diffs.map((d) => d.reduce((s, x) => s + x * x, 0) + this.dii);
  }

  /** One pass over every pair; returns the spread (max − min) of the projected gradients seen. */
  sweep(): number {
    const { w, alpha, dim, dii } = this;
    let pgMax = -Infinity;
    let pgMin = Infinity;
    for (let i = 0; i < this.diffs.length; i++) {
      const d = this.diffs[i];
      let wd = 0;
      for (let k = 0; k < dim; k++) wd += w[k] * d[k];
      const g = wd - 1 + dii * alpha[i];
      const pg = alpha[i] === 0 ? Math.min(g, 0) : g;
      if (pg > pgMax) pgMax = pg;
      if (pg < pgMin) pgMin = pg;
      if (Math.abs(pg) > 1e-15) {
        const old = alpha[i];
        alpha[i] = Math.max(old - g / this.qii[i], 0);
        const delta = alpha[i] - old;
        for (let k = 0; k < dim; k++) w[k] += delta * d[k];
      }
    }
    return this.diffs.length ? pgMax - pgMin : 0;
  }
}

/** Weights minimising the squared-hinge RankSVM objective over the given pair differences: sweeps until the spread < tol. */
export function trainRankSvm(diffs: readonly Float64Array[], dim: number, o: LinearSvmOptions): Float64Array {
  const solver = new RankSvmSolver(diffs, dim, o.C);
  for (let sweep = 0; sweep < (o.maxSweeps ?? 1000); sweep++) if (solver.sweep() < (o.tol ?? 1e-4)) break;
  return solver.w;
}

/** The primal objective ½‖w‖² + C Σ max(0, 1 − w·d)² (for tests and diagnostics). */
export function rankSvmObjective(w: ArrayLike<number>, diffs: readonly Float64Array[], C: number): number {
  let reg = 0;
  for (let k = 0; k < w.length; k++) reg += w[k] * w[k];
  let loss = 0;
  for (const d of diffs) {
    let s = 0;
    for (let k = 0; k < w.length; k++) s += w[k] * d[k];
    loss += Math.max(0, 1 - s) ** 2;
  }
  return 0.5 * reg + C * loss;
}
