/**
 * Exact top-k with dynamic pruning: term-at-a-time until no document the query has not touched yet
 * can enter the top k, then only the surviving candidates are scored on the remaining terms, each
 * found in the term's postings by galloping search instead of reading every posting (MaxScore's
 * essential / non-essential split, Turtle & Flood 1995, done term-at-a-time).
 *
 * Bounds. A term t with weight w_t (query frequency × idf) adds to a document o
 *   c_t(o) = w_t · tf / (tf + norm(o))          (Lucene 8 BM25, ./scoring.ts)
 * and c_t(o) ≤ U_t = w_t · max over t's postings of tf / (tf + norm(o)) — the term's largest
 * impact, computed once per term and index state (cached until the norms change) and inflated by a
 * relative 1e-9 so floating-point rounding can never make a real contribution exceed it.
 * With the terms in the exhaustive order (rarest first) and S_i = Σ_{j ≥ i} U_j, after the first i
 * terms every document's final score is at most acc(o) + S_i, and an untouched one's at most S_i.
 * θ = the k-th largest acc among the touched, not excluded documents is a lower bound of the final
 * k-th score (those k documents only gain). So once θ > S_i, no untouched document can enter the
 * top k, and a touched one with acc(o) + S_i < θ cannot either (its final score is strictly below
 * the final k-th, so even a tie-break by doc number cannot bring it in). The remaining terms are
 * then added to the survivors only, in the same order as the exhaustive scan, so every survivor's
 * score is the same sum of the same floating-point terms in the same order: results are identical
 * to exhaustive scoring, ties included (a property test compares them on random corpora).
 *
 * Cost: the postings of the terms scored before the switch (the rare ones), plus, per remaining
 * term, about C · log(df / C) for C survivors. When θ never exceeds the remaining bound (short
 * queries of common words), this is the sparse exhaustive scan with a check per term.
 */
import { TF_BITS, TF_ESCAPE, type IndexState } from './index-state';
import { TopK } from './top-k';
import type { Bm25Hit } from './bm25-types';

/** A query term with its posting range start id, df and weight (as ./scoring.ts sorts them). */
export interface ScoredTerm {
  id: number;
  df: number;
  w: number;
}

/** Relative inflation of the bounds, against floating-point rounding. */
const BOUND_SLACK = 1 + 1e-9;

/** max over t's postings of tf / (tf + norm(o)): cached per term until the norms or postings change (st.normsVersion). */
export function termMaxImpact(st: IndexState, id: number): number {
  if (st.boundsVersion !== st.normsVersion) {
    st.boundsVersion = st.normsVersion;
    st.termMaxImpact = new Float64Array(st.off.length);
    st.termMaxImpact.fill(-1);
  } else if (st.termMaxImpact.length < st.off.length) {
    const grown = new Float64Array(st.off.length).fill(-1);
    grown.set(st.termMaxImpact);
    st.termMaxImpact = grown;
  }
  const cached = st.termMaxImpact[id]!;
  if (cached >= 0) return cached;
  const off = st.off;
  const post = st.post;
  const norm = st.normK;
  let best = 0;
  for (let p = off[id]!, e = off[id + 1]!; p < e; p++) {
    const packed = post[p]!;
    let tf = packed & TF_ESCAPE;
    if (tf === TF_ESCAPE) tf = st.bigTfOf(id, packed);
    const v = tf / (tf + norm[packed >>> TF_BITS]!);
    if (v > best) best = v;
  }
  st.termMaxImpact[id] = best;
  return best;
}

/** The k-th largest of `values[0..n)` (n ≥ k ≥ 1), by quickselect on a scratch copy. */
function kthLargest(values: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  const want = k - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! > pivot) i++;
      while (values[j]! < pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (want <= j) hi = j;
    else if (want >= i) lo = i;
    else return values[want]!;
  }
  return values[want]!;
}

/**
 * First index p in [from, end) whose posting's ordinal is ≥ o (end when none), by galloping then
 * binary search. Packed postings order as their ordinals do, so `key` = o << TF_BITS compares whole.
 */
function advance(post: Int32Array, from: number, end: number, o: number): number {
  const key = o << TF_BITS;
  if (from >= end || post[from]! >= key) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < end && post[hi]! < key) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  if (hi > end) hi = end;
  // post[lo] < key; answer in (lo, hi]
  let a = lo + 1;
  let b = hi;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (post[m]! < key) a = m + 1;
    else b = m;
  }
  return a;
}

/** Statistics of one pruned search, for benchmarks and tests. */
export interface PruneStats {
  /** Terms scored over all their postings before the switch (all of them when it never came). */
  termsScanned: number;
  /** Candidates left when the switch came (0 when it never did). */
  candidates: number;
}

/** Running totals over every pruned search in this process (for benchmarks and tests). */
export const pruneTotals = { searches: 0, switched: 0, termsScanned: 0, terms: 0, candidates: 0 };

/**
 * The exact top k of the query terms (sorted as ./scoring.ts sorts them: rarest first), with
 * dynamic pruning (see the file comment). Excluded ordinals are marked in st.excluded.
 */
export function scoreTermsPruned(st: IndexState, terms: readonly ScoredTerm[], k: number, stats?: PruneStats): Bm25Hit[] {
  const acc = st.acc;
  const norm = st.normK;
  const post = st.post;
  const off = st.off;
  const excl = st.excluded;
  const ordDoc = st.ordDoc;
  const touched = st.touched;
  const top = new TopK(k);
  if (k === 0 || terms.length === 0) return top.sorted();
  // Remaining bounds S_i (S_n = 0).
  const n = terms.length;
  const suffix = new Float64Array(n + 1);
  for (let i = n - 1; i >= 0; i--) suffix[i] = suffix[i + 1]! + terms[i]!.w * termMaxImpact(st, terms[i]!.id) * BOUND_SLACK;
  let nTouched = 0;
  let maxAcc = 0;
  let i = 0;
  let theta = -Infinity;
  let lastTry = Infinity;
  /** Past a quarter of the index touched: no more selections, every term scored whole. */
  let exhaustive = false;
  let scratch: Float64Array | null = null;
  for (; i < n; i++) {
    const { id, w } = terms[i]!;
    for (let p = off[id]!, e = off[id + 1]!; p < e; p++) {
      const v = post[p]!;
      const o = v >>> TF_BITS;
      let tf = v & TF_ESCAPE;
      if (tf === TF_ESCAPE) tf = st.bigTfOf(id, v);
      const a = acc[o]!;
      if (a === 0) touched[nTouched++] = o;
      const s = a + (w * tf) / (tf + norm[o]!);
      acc[o] = s;
      if (s > maxAcc) maxAcc = s;
    }
    const rest = suffix[i + 1]!;
    // θ ≤ maxAcc, so the switch needs maxAcc > rest first (a cheap test before the selection), and
    // the selection (O(touched)) runs again only once the remaining bound fell by a fifth since the
    // last one failed. Past a quarter of the index touched, scoring the rest exhaustively is cheaper.
    if (nTouched * 4 > st.nOrd) exhaustive = true;
    if (!exhaustive && i + 1 < n && nTouched >= k && maxAcc > rest && rest <= lastTry * 0.8) {
      lastTry = rest;
      if (!scratch || scratch.length < nTouched) scratch = new Float64Array(Math.max(nTouched, 1024));
      let m = 0;
      for (let t = 0; t < nTouched; t++) {
        const o = touched[t]!;
        if (!excl[o]) scratch[m++] = acc[o]!;
      }
      if (m >= k) {
        theta = kthLargest(scratch, m, k);
        if (theta > rest) {
          i++;
          break;
        }
      }
    }
  }
  pruneTotals.searches++;
  pruneTotals.terms += n;
  if (i >= n) {
    // No switch: every term was scored exhaustively.
    pruneTotals.termsScanned += n;
    if (stats) {
      stats.termsScanned = n;
      stats.candidates = 0;
    }
    for (let t = 0; t < nTouched; t++) {
      const o = touched[t]!;
      const s = acc[o]!;
      acc[o] = 0;
      if (excl[o]) continue;
      if (s >= top.threshold) top.offer(ordDoc[o]!, s);
    }
    return top.sorted();
  }
  // Survivors: touched, not excluded, acc + S_i ≥ θ; in ordinal order for the galloping merges.
  let cand = new Int32Array(nTouched);
  let nc = 0;
  const rest = suffix[i]!;
  for (let t = 0; t < nTouched; t++) {
    const o = touched[t]!;
    if (!excl[o] && acc[o]! + rest >= theta) cand[nc++] = o;
    else acc[o] = 0;
  }
  cand = cand.subarray(0, nc).sort();
  pruneTotals.switched++;
  pruneTotals.termsScanned += i;
  pruneTotals.candidates += nc;
  if (stats) {
    stats.termsScanned = i;
    stats.candidates = nc;
  }
  for (; i < n; i++) {
    const { id, w } = terms[i]!;
    const e = off[id + 1]!;
    let p = off[id]!;
    for (let c = 0; c < nc && p < e; c++) {
      const o = cand[c]!;
      p = advance(post, p, e, o);
      if (p < e && post[p]! >>> TF_BITS === o) {
        const v = post[p]!;
        let tf = v & TF_ESCAPE;
        if (tf === TF_ESCAPE) tf = st.bigTfOf(id, v);
        acc[o] = acc[o]! + (w * tf) / (tf + norm[o]!);
        p++;
      }
    }
    // Fewer survivors as θ rises and the remaining bound falls.
    if (i + 1 < n && nc > k) {
      const restNext = suffix[i + 1]!;
      if (!scratch || scratch.length < nc) scratch = new Float64Array(nc);
      for (let c = 0; c < nc; c++) scratch[c] = acc[cand[c]!]!;
      theta = kthLargest(scratch, nc, k);
      let m = 0;
      for (let c = 0; c < nc; c++) {
        const o = cand[c]!;
        if (acc[o]! + restNext >= theta) cand[m++] = o;
        else acc[o] = 0;
      }
      nc = m;
    }
  }
  for (let c = 0; c < nc; c++) {
    const o = cand[c]!;
    const s = acc[o]!;
    acc[o] = 0;
    if (s >= top.threshold) top.offer(ordDoc[o]!, s);
  }
  return top.sorted();
}
