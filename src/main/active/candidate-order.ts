/**
 * The candidate-level labeling order `decide-rankers-mtc`, after minimal test collections (Carterette,
 * Allan & Sitaraman, SIGIR 2006): the next item is one (query, candidate) pair, the one whose label is
 * expected to narrow most the ΔAP intervals that still keep the decision open.
 *
 * Ledger: per query, each candidate's judgment and the bounds of every ranker's AP and every pair's
 * ΔAP (ap-bounds.ts), plus, per unjudged candidate, the bounds once it is judged 0 or 1. A label
 * recomputes only its own query's entries (incremental).
 *
 * Sample: queries are *opened* in a seeded random order (a random permutation of the pool), so the
 * opened queries are a simple random sample whatever the labels say, and the paired test over them
 * (certified-test.ts) speaks for queries like these; candidates are chosen adaptively only inside
 * opened queries. The decision is the paired test over the opened queries made certain by the bounds,
 * or the pool's full-label paired test made certain (every query, unopened ones at their zero-label
 * bounds).
 *
 * Score of an unjudged candidate c of an opened query q, with leader b and π_c = P(c relevant) from the
 * relevance model (pool-model.ts):
 *   score(q, c) = Σ_{r ≠ b, pair (b, r) not settled} [ W_q(b, r) − (π_c · W_q^{c=1}(b, r) + (1 − π_c) · W_q^{c=0}(b, r)) ],
 * W the width hi − lo of the ΔAP interval; a pair is settled when its certified t is beyond the
 * Bonferroni critical value (rejected for sure) or below the plain one (never rejected). The next query
 * is opened when no opened candidate scores at least `openThreshold` (default 0.005).
 */
import { queryBoundsWithEffects, rankerPairs, type CandidateEffects, type Judgment, type QueryBounds } from './ap-bounds';
import { certifiedStanding, type CertifiedStanding } from './certified-test';
import { meanRankPosition, RelevanceModel, type ActiveQuery } from './pool-model';
import { studentTQuantile } from '../stats/t-interval';

export const DEFAULT_OPEN_THRESHOLD = 0.005;

/** Per-query judgments and bounds, updated one label at a time. */
export class CandidateLedger {
  readonly judged: Judgment[][];
  readonly bounds: QueryBounds[];
  readonly effects: CandidateEffects[];
  readonly pairs: Array<[number, number]>;
  readonly R: number;
  private readonly positions: Float64Array[];
  readonly model = new RelevanceModel();

  /** `zeroLabel`: the queries' bounds and effects with nothing judged, to share between ledgers of the same pool (immutable). */
  constructor(
    readonly queries: readonly ActiveQuery[],
    zeroLabel?: { bounds: QueryBounds[]; effects: CandidateEffects[] },
  ) {
    this.R = queries[0]?.rankings.length ?? 0;
    this.pairs = rankerPairs(this.R);
    this.judged = queries.map((q) => new Array<Judgment>(q.size).fill(null));
    const z = zeroLabel ?? CandidateLedger.zeroLabel(queries);
    this.bounds = [...z.bounds];
    this.effects = [...z.effects];
    this.positions = queries.map((q) => meanRankPosition(q));
  }

  static zeroLabel(queries: readonly ActiveQuery[]): { bounds: QueryBounds[]; effects: CandidateEffects[] } {
    const all = queries.map((q) => queryBoundsWithEffects(q, new Array<Judgment>(q.size).fill(null)));
    return { bounds: all.map((x) => x.bounds), effects: all.map((x) => x.effects) };
  }

  /** Records a label and refreshes its query's bounds (and the relevance model). */
  judge(query: number, candidate: number, relevant: boolean): void {
    const j = this.judged[query]!;
    if (j[candidate] !== null) return;
    j[candidate] = relevant;
    const { bounds, effects } = queryBoundsWithEffects(this.queries[query]!, j);
    this.bounds[query] = bounds;
    this.effects[query] = effects;
    this.model.observeOne(this.queries[query]!, candidate, relevant, this.positions[query]!);
  }

  /**
   * Records the labels of one query's judged candidates (`row`: null = not judged; the ones already
   * judged are left as they are) and refreshes its bounds once — what judge() gives for each of them
   * in turn (its bounds follow from the query's final judgments, and the relevance model counts).
   */
  judgeQuery(query: number, row: readonly Judgment[]): void {
    const j = this.judged[query]!;
    let changed = false;
    row.forEach((relevant, c) => {
      if (relevant === null || j[c] !== null) return;
      j[c] = relevant;
      changed = true;
      this.model.observeOne(this.queries[query]!, c, relevant, this.positions[query]!);
    });
    if (!changed) return;
    const { bounds, effects } = queryBoundsWithEffects(this.queries[query]!, j);
    this.bounds[query] = bounds;
    this.effects[query] = effects;
  }

  unjudged(query: number): number[] {
    const out: number[] = [];
    this.judged[query]!.forEach((j, c) => j === null && out.push(c));
    return out;
  }

  /** The certified paired test over the given queries (certified-test.ts). */
  standing(queries: readonly number[], alpha = 0.05): CertifiedStanding {
    return certifiedStanding(
      queries.map((i) => this.bounds[i]!),
      this.R,
      alpha,
    );
  }
}

export interface CandidatePick {
  query: number;
  candidate: number;
  score: number;
}

/** Index of pair (r, s) in ledger.pairs and the sign of AP_r − AP_s in it. */
function pairOf(pairs: ReadonlyArray<[number, number]>, r: number, s: number): { p: number; sign: number } {
  const p = pairs.findIndex(([a, b]) => (a === r && b === s) || (a === s && b === r));
  return { p, sign: pairs[p]![0] === r ? 1 : -1 };
}

/**
 * The best-scoring unjudged candidate among the `among` queries (module comment), or null when none
 * scores at least `openThreshold` (then the next query should be opened) or none is left.
 */
export function bestCandidate(
  ledger: CandidateLedger,
  among: readonly number[],
  standing: CertifiedStanding,
  opts: { openThreshold?: number; alpha?: number; eligible?: (query: number, candidate: number) => boolean } = {},
): CandidatePick | null {
  const alpha = opts.alpha ?? 0.05;
  const threshold = opts.openThreshold ?? DEFAULT_OPEN_THRESHOLD;
  const R = ledger.R;
  const n = among.length;
  const b = standing.best;
  const bonferroni = n >= 2 ? studentTQuantile(1 - alpha / (2 * Math.max(1, R - 1)), n - 1) : 3;
  const crit = n >= 2 ? studentTQuantile(1 - alpha / 2, n - 1) : 2;
  // Which way each best-vs-r pair still has to go, and how far (in t units): a pair whose t could still
  // reach the Bonferroni value needs its lower bound raised ("up"); otherwise its upper bound lowered
  // below the plain critical value ("down", the pair that keeps the best undecided).
  const terms: Array<{ p: number; sign: number; up: boolean; w: number }> = [];
  const cap = (x: number) => (Number.isFinite(x) ? x : Math.sign(x) * 10);
  for (let r = 0; r < R; r++) {
    if (r === b) continue;
    const t = standing.t[r];
    const { p, sign } = pairOf(ledger.pairs, b, r);
    if (!t) {
      terms.push({ p, sign, up: true, w: 1 });
      continue;
    }
    if (t.tMid >= crit || t.tHi >= bonferroni) {
      const deficit = bonferroni - t.tLo;
      if (deficit > 0) terms.push({ p, sign, up: true, w: cap(deficit) });
    } else {
      const deficit = t.tHi - crit;
      if (deficit > 0) terms.push({ p, sign, up: false, w: cap(deficit) });
    }
  }
  if (terms.length === 0) for (let r = 0; r < R; r++) if (r !== b) terms.push({ ...pairOf(ledger.pairs, b, r), up: true, w: 1 });
  // An "undecided" conclusion needs one pair kept below the critical value: weigh only the closest such pair.
  const downs = terms.filter((x) => !x.up);
  const ups = terms.filter((x) => x.up);
  const used = ups.length ? ups : downs;
  const wSum = used.reduce((s, x) => s + x.w, 0) || 1;
  let pick: CandidatePick | null = null;
  for (const qi of among) {
    const eff = ledger.effects[qi]!;
    const cur = ledger.bounds[qi]!;
    let probs: Float64Array | null = null;
    for (let c = 0; c < eff.length; c++) {
      const e = eff[c];
      if (!e || (opts.eligible && !opts.eligible(qi, c))) continue;
      probs ??= ledger.model.predict(ledger.queries[qi]!);
      const pi = probs[c]!;
      let score = 0;
      for (const { p, sign, up, w } of used) {
        // Bounds of d = AP_b − AP_r: [lo, hi] of the stored pair, flipped when the pair is (r, b).
        const lo = (x: QueryBounds) => (sign === 1 ? x.dLo[p]! : -x.dHi[p]!);
        const hi = (x: QueryBounds) => (sign === 1 ? x.dHi[p]! : -x.dLo[p]!);
        // Raising the lower bound for a pair headed for rejection; narrowing the whole interval otherwise.
        const gain = up
          ? pi * lo(e[1]) + (1 - pi) * lo(e[0]) - lo(cur)
          : hi(cur) - lo(cur) - (pi * (hi(e[1]) - lo(e[1])) + (1 - pi) * (hi(e[0]) - lo(e[0])));
        score += (w / wSum) * gain;
      }
      if (!pick || score > pick.score) pick = { query: qi, candidate: c, score };
    }
  }
  return pick && pick.score >= threshold ? pick : null;
}

/**
 * Whether the opened sample (n of the pool's N queries) is headed for "undecided": some best-vs-r pair's
 * t, projected to the whole pool (t grows like √n: t_mid · √(N/n), t_mid the t of the intervals' middles),
 * stays below `below` (default 1, well under the critical value ≈ 2). Then no sample is likely to settle the question sooner than the pool's
 * own full-label test, so every query is opened (the sample becomes the pool).
 */
export function headedUndecided(standing: CertifiedStanding, n: number, N: number, below = 1): boolean {
  if (n < 2) return false;
  return standing.t.some((t, r) => r !== standing.best && t !== null && t.tMid * Math.sqrt(N / n) < below);
}

export interface ChooseOptions {
  /** Queries opened before any candidate is chosen (default 5, the paired test's smallest sample here). */
  minQueries?: number;
  openThreshold?: number;
  alpha?: number;
  /** Pairs the caller may be given (an annotator's assigned queries, pairs they have not labeled yet). */
  eligible?: (query: number, candidate: number) => boolean;
}

/**
 * The next pair under decide-rankers-mtc: the best-scoring eligible candidate among the `opened` first
 * queries of `openOrder`; when none scores at least the threshold, the next query is opened, and so on;
 * with every query open, the best eligible candidate whatever its score. Returns the pick (null: no
 * eligible unjudged pair is left) and how many queries are open now.
 */
export function choosePair(ledger: CandidateLedger, openOrder: readonly number[], opened: number, opts: ChooseOptions = {}): { pick: CandidatePick | null; opened: number } {
  const N = openOrder.length;
  const minQueries = Math.min(N, opts.minQueries ?? 5);
  const alpha = opts.alpha ?? 0.05;
  const threshold = opts.openThreshold ?? DEFAULT_OPEN_THRESHOLD;
  let k = Math.max(opened, minQueries);
  for (;;) {
    const S = openOrder.slice(0, k);
    const pick = bestCandidate(ledger, S, ledger.standing(S, alpha), { openThreshold: k < N ? threshold : -Infinity, alpha, eligible: opts.eligible });
    if (pick || k >= N) return { pick, opened: k };
    k++;
  }
}

/** Seeded random permutation of 0..n−1 (Fisher–Yates with `rng`). */
export function permutation(n: number, rng: () => number): number[] {
  const out = [...Array(n).keys()];
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export { pairOf };
