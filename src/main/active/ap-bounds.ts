/**
 * Bounds on each ranker's AP and on every pair's ΔAP = AP_r − AP_s for a partially judged query — the
 * bookkeeping of minimal test collections (Carterette, Allan & Sitaraman, SIGIR 2006): while some
 * candidates are unjudged, AP is only known to lie in an interval; a label narrows it.
 *
 * AP follows the SemEval convention used everywhere in src/main/active: with rel_k the relevance of
 * the candidate at rank k and R = Σ_c rel_c over all the query's candidates,
 *   AP = (1/R) Σ_k rel_k · (Σ_{j ≤ k} rel_j) / k,  and AP = 0 when R = 0.
 *
 * Exact bounds (u unjudged candidates, u ≤ EXACT_UNJUDGED): min and max over all 2^u completions of the
 * unjudged labels. Beyond that, valid but looser bounds by the number k of unjudged relevant candidates:
 * for a fixed k (so a fixed R), AP_r is largest with the k placed at r's highest unjudged ranks and
 * smallest at its lowest (moving a relevant candidate up past a non-relevant one never lowers AP), so
 *   ΔAP_rs ∈ [min_k (minAP_r(k) − maxAP_s(k)), max_k (maxAP_r(k) − minAP_s(k))].
 */
import type { ActiveQuery } from './pool-model';

/** Up to this many unjudged candidates the bounds are exact (2^u completions enumerated). */
export const EXACT_UNJUDGED = 12;

/** A candidate's label: true relevant, false not, null not judged yet. */
export type Judgment = boolean | null;

/** Ranker pairs r < s in a fixed order: index p ↔ pairs[p] = [r, s]. */
export function rankerPairs(R: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let r = 0; r < R; r++) for (let s = r + 1; s < R; s++) out.push([r, s]);
  return out;
}

export interface QueryBounds {
  /** apLo[r] ≤ AP_r ≤ apHi[r]. */
  apLo: Float64Array;
  apHi: Float64Array;
  /** dLo[p] ≤ AP_r − AP_s ≤ dHi[p] for pairs[p] = [r, s] (rankerPairs). */
  dLo: Float64Array;
  dHi: Float64Array;
}

/**
 * For each unjudged candidate c, the pair bounds once c is judged: with[c] = [bounds if c is not
 * relevant, bounds if relevant]; null for judged candidates.
 */
export type CandidateEffects = Array<[QueryBounds, QueryBounds] | null>;

function emptyBounds(R: number, P: number): QueryBounds {
  return {
    apLo: new Float64Array(R).fill(Infinity),
    apHi: new Float64Array(R).fill(-Infinity),
    dLo: new Float64Array(P).fill(Infinity),
    dHi: new Float64Array(P).fill(-Infinity),
  };
}

/** AP of `ranking` for relevance `rel` (SemEval convention), R the number of relevant candidates. */
function apFast(ranking: readonly number[], rel: Uint8Array, R: number): number {
  if (R === 0) return 0;
  let found = 0;
  let sum = 0;
  for (let k = 0; k < ranking.length; k++)
    if (rel[ranking[k]!]) {
      found++;
      sum += found / (k + 1);
    }
  return sum / R;
}

function widen(b: QueryBounds, aps: Float64Array, pairs: ReadonlyArray<[number, number]>): void {
  for (let r = 0; r < aps.length; r++) {
    if (aps[r]! < b.apLo[r]!) b.apLo[r] = aps[r]!;
    if (aps[r]! > b.apHi[r]!) b.apHi[r] = aps[r]!;
  }
  for (let p = 0; p < pairs.length; p++) {
    const d = aps[pairs[p]![0]]! - aps[pairs[p]![1]]!;
    if (d < b.dLo[p]!) b.dLo[p] = d;
    if (d > b.dHi[p]!) b.dHi[p] = d;
  }
}

/** Exact bounds by enumerating every completion; with `effects`, also each unjudged candidate's bounds when fixed to 0 / 1. */
function enumerate(q: ActiveQuery, judged: readonly Judgment[], withEffects: boolean): { bounds: QueryBounds; effects: CandidateEffects } {
  const R = q.rankings.length;
  const pairs = rankerPairs(R);
  const unjudged: number[] = [];
  const rel = new Uint8Array(q.size);
  let base = 0;
  for (let c = 0; c < q.size; c++) {
    const j = judged[c] ?? null;
    if (j === null) unjudged.push(c);
    else if (j) {
      rel[c] = 1;
      base++;
    }
  }
  const bounds = emptyBounds(R, pairs.length);
  const effects: CandidateEffects = new Array(q.size).fill(null);
  if (withEffects) for (const c of unjudged) effects[c] = [emptyBounds(R, pairs.length), emptyBounds(R, pairs.length)];
  const aps = new Float64Array(R);
  const u = unjudged.length;
  for (let mask = 0; mask < 1 << u; mask++) {
    let count = base;
    for (let i = 0; i < u; i++) {
      const bit = (mask >>> i) & 1;
      rel[unjudged[i]!] = bit;
      count += bit;
    }
    for (let r = 0; r < R; r++) aps[r] = apFast(q.rankings[r]!, rel, count);
    widen(bounds, aps, pairs);
    if (withEffects) for (let i = 0; i < u; i++) widen(effects[unjudged[i]!]![(mask >>> i) & 1]!, aps, pairs);
  }
  return { bounds, effects };
}

/** Looser bounds by the number of unjudged relevant candidates (see the module comment), for many unjudged candidates. */
function boundsByCount(q: ActiveQuery, judged: readonly Judgment[]): QueryBounds {
  const R = q.rankings.length;
  const pairs = rankerPairs(R);
  const b = emptyBounds(R, pairs.length);
  let base = 0;
  let u = 0;
  for (let c = 0; c < q.size; c++) {
    const j = judged[c] ?? null;
    if (j === null) u++;
    else if (j) base++;
  }
  const rel = new Uint8Array(q.size);
  const maxAp = new Float64Array(R);
  const minAp = new Float64Array(R);
  for (let k = 0; k <= u; k++) {
    for (let r = 0; r < R; r++) {
      const ranking = q.rankings[r]!;
      // Highest: the k unjudged candidates r ranks first are relevant; lowest: the k it ranks last.
      for (const top of [true, false]) {
        let left = k;
        for (let i = 0; i < ranking.length; i++) {
          const c = ranking[top ? i : ranking.length - 1 - i]!;
          const j = judged[c] ?? null;
          if (j === null) {
            rel[c] = left > 0 ? 1 : 0;
            if (left > 0) left--;
          } else rel[c] = j ? 1 : 0;
        }
        const ap = apFast(ranking, rel, base + k);
        if (top) maxAp[r] = ap;
        else minAp[r] = ap;
      }
      b.apLo[r] = Math.min(b.apLo[r]!, minAp[r]!);
      b.apHi[r] = Math.max(b.apHi[r]!, maxAp[r]!);
    }
    pairs.forEach(([r, s], p) => {
      b.dLo[p] = Math.min(b.dLo[p]!, minAp[r]! - maxAp[s]!);
      b.dHi[p] = Math.max(b.dHi[p]!, maxAp[r]! - minAp[s]!);
    });
  }
  return b;
}

/** Bounds of every ranker's AP and every pair's ΔAP on q given the judgments so far (exact when every candidate is judged). */
export function queryBounds(q: ActiveQuery, judged: readonly Judgment[]): QueryBounds {
  const u = judged.reduce((n, j, c) => (c < q.size && (j ?? null) === null ? n + 1 : n), 0) + Math.max(0, q.size - judged.length);
  return u <= EXACT_UNJUDGED ? enumerate(q, judged, false).bounds : boundsByCount(q, judged);
}

/**
 * The bounds now and, for each unjudged candidate, the bounds once it is judged not relevant / relevant
 * — what a label can do to every pair's ΔAP interval (recomputed only for the query that got a label).
 */
export function queryBoundsWithEffects(q: ActiveQuery, judged: readonly Judgment[]): { bounds: QueryBounds; effects: CandidateEffects } {
  const unjudged = [...Array(q.size).keys()].filter((c) => (judged[c] ?? null) === null);
  if (unjudged.length <= EXACT_UNJUDGED) return enumerate(q, judged, true);
  const effects: CandidateEffects = new Array(q.size).fill(null);
  const j = [...Array(q.size).keys()].map((c) => judged[c] ?? null);
  for (const c of unjudged) {
    const as = (v: boolean) => boundsByCount(q, j.map((x, i) => (i === c ? v : x)));
    effects[c] = [as(false), as(true)];
  }
  return { bounds: boundsByCount(q, judged), effects };
}
