/**
 * Exact top-k with block-max MaxScore, document windows at a time (the scheme of Lucene 9.4+'s
 * MaxScoreBulkScorer: Turtle & Flood 1995, with per-block bounds as in Ding & Suel 2011).
 *
 * Bounds. A term t with weight w_t (query frequency × idf) adds to a document o
 *   c_t(o) = w_t · tf / (tf + norm(o))          (Lucene 8 BM25, ./scoring.ts)
 * Each term's postings are cut into blocks of BLOCK postings; per block we keep
 * m_b = max over the block of tf / (tf + norm(o)). They are computed in memory by the first search
 * after the norms change (one pass over the postings; see blockMaxima) — norm(o) moves with the
 * average length after every merge, so bounds stored with the segments would go stale (Lucene
 * stores (tf, norm) pairs per block for that reason). For a window of ordinals [lo, hi), U_t = w_t · max m_b over the blocks that can hold
 * postings in the window bounds c_t(o) for every o in it (0 when the term has none there).
 *
 * Per window: with θ = the current k-th best score (0 until k documents are in), the terms are
 * sorted by U_t ascending and the longest prefix whose bounds sum (inflated by a relative 1e-9
 * against rounding) stays below θ is *non-essential*: a document matching only those terms scores
 * strictly below θ and can never enter (even a doc-number tie-break needs an equal score). The
 * *essential* terms are scored term-at-a-time into a window buffer; each touched document is then
 * completed on the non-essential terms, strongest bound first — found in their postings by
 * galloping search, cursors only moving forward — and dropped as soon as its partial sum plus the
 * remaining bounds falls below θ. Those remaining bounds are per sub-window of 2^SUB_SHIFT
 * ordinals (the largest m_b of the blocks whose ordinal range reaches into it), tighter than U_t.
 * When every bound of the window together stays below θ, the window is skipped whole. When the
 * lookups the essential terms' documents would need (estimated from this query's earlier windows)
 * cost more than reading the non-essential postings, the window is scored whole, term at a time:
 * long queries of common words then cost what the dense scan costs, not more.
 *
 * Term frequencies of TF_ESCAPE or more (kept beside the packed postings) add 0 in the window loop
 * and their real contribution right after the term's other postings, as the dense scan does.
 *
 * Exactness. Exhaustive scoring sums each document's contributions in the query's term order
 * (rarest first, ./scoring.ts). Where a window has no non-essential term, its essential terms are
 * scored in that order, so each sum is the same floating-point sum. Otherwise the partial sums only
 * decide what to drop (with the 1e-9 slack); a document that may still enter the top k is rescored
 * in the query's order (one galloping search per term; about a hundred per query) before it is
 * offered. So the results are exactly the exhaustive ones, ties included; property tests compare
 * them on random corpora, and the Lucene parity fixtures go through this scan too.
 */
import { TF_BITS, TF_ESCAPE, type IndexState } from './index-state';
import { TopK } from './top-k';
import type { Bm25Hit } from './bm25-types';
import { tfFactorOf } from './norms';

/** A query term with its id, df and weight (as ./scoring.ts sorts them: the query's order). */
export interface ScoredTerm {
  id: number;
  df: number;
  w: number;
}

/** Postings per block bound. */
export const BLOCK = 128;
/** Sub-windows of 2^SUB_SHIFT ordinals get their own bounds of the non-essential terms (7–12 tried at 1M: 9 halved the lookups, no gain below). */
const SUB_SHIFT = 9;
/**
 * What one galloping lookup costs, in postings read term at a time: ~3 (about 30 vs 10 ns each at
 * 1M questions; 1–8 tried: 1 gave the best median on the synthetic corpus but a p99 1.5× the dense
 * scan's on the scale harness's, 3 a median 0.83× and a mean 0.88× the dense scan's there).
 */
const LOOKUP_COST = 3;
/** Relative inflation of the bounds, against floating-point rounding. */
const BOUND_SLACK = 1 + 1e-9;
/** θ / CUT_SLACK − rest ≥ s implies (s + rest) · BOUND_SLACK < θ, rounding included (the sweep's pre-test). */
const CUT_SLACK = 1 + 2e-9;

/**
 * The per-block maxima of tf / (tf + norm) of term `id`. Those of every term with BLOCK postings or
 * more are computed together (one pass over their postings) by the first search after the norms
 * change (st.normsVersion) and kept; a rarer term's single block is computed when asked (at most
 * BLOCK postings), so the cache holds no entry per rare term.
 */
export function blockMaxima(st: IndexState, id: number): Float64Array {
  if (st.blockMaxVersion !== st.normsVersion) {
    st.blockMaxVersion = st.normsVersion;
    st.blockMax.clear();
    const off = st.off;
    for (let t = 0, nT = off.length - 1; t < nT; t++) if (off[t + 1]! - off[t]! >= BLOCK) st.blockMax.set(t, computeBlockMaxima(st, t));
  }
  return st.blockMax.get(id) ?? computeBlockMaxima(st, id);
}

function computeBlockMaxima(st: IndexState, id: number): Float64Array {
  const post = st.post;
  const start = st.off[id]!;
  const end = st.off[id + 1]!;
  const out = new Float64Array(Math.ceil((end - start) / BLOCK));
  for (let b = 0; b < out.length; b++) {
    let best = 0;
    const e = Math.min(end, start + (b + 1) * BLOCK);
    for (let p = start + b * BLOCK; p < e; p++) {
      const v = post[p]!;
      let tf = v & TF_ESCAPE;
      if (tf === TF_ESCAPE) tf = st.bigTfOf(id, v);
      const x = tfFactorOf(st, tf, v >>> TF_BITS);
      if (x > best) best = x;
    }
    out[b] = best;
  }
  return out;
}

/**
 * First index p in [from, end) whose posting's ordinal is ≥ o (end when none), by galloping then
 * binary search. Packed postings order as their ordinals do, so `key` = o · 2^TF_BITS compares whole.
 */
function advance(post: Int32Array, from: number, end: number, o: number): number {
  const key = o * (1 << TF_BITS);
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

/** The contribution of term `id` (weight w) to the ordinal of its packed posting `v`. */
function contribution(st: IndexState, id: number, w: number, v: number): number {
  let tf = v & TF_ESCAPE;
  if (tf === TF_ESCAPE) tf = st.bigTfOf(id, v);
  return w * tfFactorOf(st, tf, v >>> TF_BITS);
}

/**
 * Adds w · tf / (tf + norm(o)) (the table st.tfFactor, see ./scoring.ts) to acc[o - lo] for the
 * postings [p, pe) — an escaped posting (tf stored as TF_ESCAPE) adds exactly 0 (see addEscaped).
 */
function scoreRange(post: Int32Array, cls: Int32Array, factor: Float64Array, acc: Float64Array, p: number, pe: number, w: number, lo: number): void {
  for (; p < pe; p++) {
    const v = post[p]!;
    const o = v >>> TF_BITS;
    acc[o - lo] += w * factor[(cls[o]! << TF_BITS) | (v & TF_ESCAPE)]!;
  }
}

/** A term's escaped postings (tf ≥ TF_ESCAPE) of live ordinals, ordinal ascending, with a cursor. */
interface Escaped {
  ords: Int32Array;
  tfs: Float64Array;
  at: number;
}

function escapedOf(st: IndexState, id: number): Escaped | null {
  const big = st.bigTfByTerm.get(id);
  if (!big) return null;
  const order = big.ords.map((_, j) => j).filter((j) => st.alive[big.ords[j]!]);
  order.sort((a, b) => big.ords[a]! - big.ords[b]!);
  return { ords: Int32Array.from(order, (j) => big.ords[j]!), tfs: Float64Array.from(order, (j) => big.tfs[j]!), at: 0 };
}

/** Adds the real contributions of a term's escaped postings in [lo, hi) (scoreRange added 0 for them). */
function addEscaped(st: IndexState, x: Escaped, w: number, acc: Float64Array, lo: number, hi: number): void {
  const { ords, tfs } = x;
  let j = x.at;
  for (; j < ords.length && ords[j]! < hi; j++) {
    const o = ords[j]!;
    if (o < lo) continue;
    const tf = tfs[j]!;
    acc[o - lo] += w * tfFactorOf(st, tf, o);
  }
  x.at = j;
}

/** Counts over every block-max search in this process (for benchmarks and tests). */
export const blockMaxTotals = {
  searches: 0,
  /** Windows of st.pruneWindow ordinals visited, skipped whole (every bound below θ), scored whole (no lookups). */
  windows: 0,
  windowsSkipped: 0,
  windowsWhole: 0,
  /** Postings of the query terms, and those read term at a time. */
  postings: 0,
  postingsScored: 0,
  /** Galloping lookups of a document in a non-essential term's postings. */
  lookups: 0,
  /** Documents rescored in the query's order before being offered. */
  rescored: 0,
};

/**
 * The exact top k of the query terms (in the query's order, as ./scoring.ts sorts them); excluded
 * ordinals are marked in st.excluded. See the file comment.
 */
export function scoreTermsBlockMax(st: IndexState, terms: readonly ScoredTerm[], k: number): Bm25Hit[] {
  const top = new TopK(k);
  const n = terms.length;
  if (k === 0 || n === 0) return top.sorted();
  const post = st.post;
  const cls = st.normClass;
  const factor = st.tfFactor;
  const excl = st.excluded;
  const ordDoc = st.ordDoc;
  const nOrd = st.nOrd;
  const ids = new Int32Array(n);
  const ws = new Float64Array(n);
  const start = new Int32Array(n);
  const end = new Int32Array(n);
  /** Per term: its first posting not yet passed (cursors only move forward). */
  const pos = new Int32Array(n);
  const maxima: Float64Array[] = [];
  let postings = 0;
  for (let i = 0; i < n; i++) {
    const t = terms[i]!;
    ids[i] = t.id;
    ws[i] = t.w;
    start[i] = pos[i] = st.off[t.id]!;
    end[i] = st.off[t.id + 1]!;
    maxima.push(blockMaxima(st, t.id));
    postings += end[i]! - start[i]!;
  }
  const escaped = terms.map((t) => escapedOf(st, t.id));
  const bound = new Float64Array(n); // per window: U_t
  const inWindow = new Float64Array(n); // per window: postings the window may hold (whole blocks)
  // Term indexes, weakest first: by w_t · (largest block bound of the term), ascending.
  const strength = maxima.map((bm, i) => ws[i]! * bm.reduce((a, b) => (b > a ? b : a), 0));
  const byBound = Int32Array.from(strength.keys()).sort((a, b) => strength[a]! - strength[b]! || a - b);
  const essential = new Uint8Array(n);
  const nonEss = new Int32Array(n); // non-essential term indexes, bound descending
  const WINDOW = st.pruneWindow;
  const acc = new Float64Array(WINDOW);
  const maxSubs = ((WINDOW - 1) >> SUB_SHIFT) + 1;
  const subBound = new Float64Array(n * maxSubs); // per window: bound of non-essential term i in sub-window sw at i * maxSubs + sw
  const subRest = new Float64Array(maxSubs); // per window: their sums per sub-window
  let theta = 0;
  /** Non-essential lookups per essential posting, as measured in this query's windows so far. */
  let lookupsPerPosting = 1;
  let windows = 0;
  let skipped = 0;
  let whole = 0;
  let scored = 0;
  let lookups = 0;
  let rescored = 0;
  for (let lo = 0; lo < nOrd; lo += WINDOW) {
    const hi = Math.min(nOrd, lo + WINDOW);
    const hiKey = hi * (1 << TF_BITS);
    windows++;
    // The window's bounds U_t from the blocks that can hold its postings.
    let total = 0;
    for (let i = 0; i < n; i++) {
      const e = end[i]!;
      const p = advance(post, pos[i]!, e, lo);
      pos[i] = p;
      let m = 0;
      let nBlocks = 0;
      if (p < e && post[p]! < hiKey) {
        const s = start[i]!;
        const bm = maxima[i]!;
        const b0 = ((p - s) / BLOCK) | 0;
        let b = b0;
        for (; b < bm.length && post[s + b * BLOCK]! < hiKey; b++) if (bm[b]! > m) m = bm[b]!;
        nBlocks = b - b0;
      }
      bound[i] = ws[i]! * m;
      inWindow[i] = nBlocks * BLOCK;
      total += bound[i]!;
    }
    if (total * BOUND_SLACK < theta) {
      skipped++;
      continue;
    }
    // Non-essential: weak terms, taken in the query's weakest-first order (fixed per query: sorting
    // every window's bounds costs O(n log n) per window, too much for queries of hundreds of terms)
    // while their window bounds together stay below θ; a term absent from the window costs nothing.
    let nonEssSum = 0;
    for (let j = 0; j < n; j++) {
      const i = byBound[j]!;
      const next = nonEssSum + bound[i]!;
      if (next * BOUND_SLACK < theta) {
        nonEssSum = next;
        essential[i] = 0;
      } else essential[i] = 1;
    }
    // When the lookups expected for the essential terms' documents cost more than reading the
    // non-essential postings, the window is scored whole, term at a time (no lookups at all).
    let essentialPostings = 0;
    let otherPostings = 0;
    for (let i = 0; i < n; i++) {
      if (essential[i]) essentialPostings += inWindow[i]!;
      else otherPostings += inWindow[i]!;
    }
    if (otherPostings > 0 && essentialPostings * lookupsPerPosting * LOOKUP_COST > otherPostings) {
      essential.fill(1);
      nonEssSum = 0;
      whole++;
      // Lookups are only measured in windows that make them: let the estimate decay, so a few
      // costly windows early on cannot keep the rest of the query from pruning.
      lookupsPerPosting *= 0.9;
    }
    let nNon = 0;
    for (let j = n - 1; j >= 0; j--) if (!essential[byBound[j]!]) nonEss[nNon++] = byBound[j]!;
    // Sums come out in the query's order when there is no non-essential term.
    const inOrder = nNon === 0;
    // Tighter bounds of the non-essential terms per sub-window of 2^SUB_SHIFT ordinals, from the
    // blocks whose ordinal range reaches into each.
    const nSub = ((hi - lo - 1) >> SUB_SHIFT) + 1;
    if (nNon > 0) {
      subRest.fill(0, 0, nSub);
      for (let j = 0; j < nNon; j++) {
        const i = nonEss[j]!;
        const base = i * maxSubs;
        subBound.fill(0, base, base + nSub);
        const s0 = start[i]!;
        const e = end[i]!;
        const bm = maxima[i]!;
        const w = ws[i]!;
        const p0 = pos[i]!; // its first posting in the window, if any
        if (p0 >= e || post[p0]! >= hiKey) continue;
        for (let b = ((p0 - s0) / BLOCK) | 0; b < bm.length; b++) {
          const first = Math.max(p0, s0 + b * BLOCK);
          if (post[first]! >= hiKey) break;
          const last = Math.min(s0 + (b + 1) * BLOCK, e) - 1;
          const a = (post[first]! >>> TF_BITS) - lo;
          const z = Math.min(hi - 1, post[last]! >>> TF_BITS) - lo;
          const v = w * bm[b]!;
          for (let sw = a >> SUB_SHIFT; sw <= z >> SUB_SHIFT; sw++) if (v > subBound[base + sw]!) subBound[base + sw] = v;
        }
        for (let sw = 0; sw < nSub; sw++) subRest[sw] += subBound[base + sw]!;
      }
    }
    // Essential terms, term at a time, in the query's order.
    let windowScored = 0;
    for (let i = 0; i < n; i++) {
      if (!essential[i]) continue;
      const p0 = pos[i]!;
      const pe = advance(post, p0, end[i]!, hi);
      scoreRange(post, cls, factor, acc, p0, pe, ws[i]!, lo);
      const x = escaped[i];
      if (x) addEscaped(st, x, ws[i]!, acc, lo, hi);
      windowScored += pe - p0;
      pos[i] = pe;
    }
    // The touched documents, completed on the non-essential terms. Per sub-window, `cut` is a
    // stricter form of the first test below ((s + rest) · slack < θ with rest = subRest[sw]): a sum
    // at most cut is dropped by that test too, so the sweep reads most accumulators with one
    // comparison; untouched ones (0) never pass (cut ≥ 0). The accumulators are cleared after.
    const windowLookupsBefore = lookups;
    const width = hi - lo;
    for (let sw = 0, x0 = 0; x0 < width; sw++, x0 += 1 << SUB_SHIFT) {
      const x1 = Math.min(width, x0 + (1 << SUB_SHIFT));
      const subRestSw = nNon > 0 ? subRest[sw]! : 0;
      let cut = Math.max(0, theta / CUT_SLACK - subRestSw);
      for (let x = x0; x < x1; x++) {
        let s = acc[x]!;
        if (s <= cut) continue;
        const o = lo + x;
        let rest = subRestSw;
        if ((s + rest) * BOUND_SLACK < theta || excl[o]) continue;
        let dropped = false;
        for (let j = 0; j < nNon; j++) {
          const i = nonEss[j]!;
          rest -= subBound[i * maxSubs + sw]!;
          lookups++;
          const e = end[i]!;
          const p = advance(post, pos[i]!, e, o);
          pos[i] = p;
          if (p < e && post[p]! >>> TF_BITS === o) s += contribution(st, ids[i]!, ws[i]!, post[p]!);
          if ((s + rest) * BOUND_SLACK < theta) {
            dropped = true;
            break;
          }
        }
        if (dropped || s * BOUND_SLACK < theta) continue;
        if (!inOrder) {
          rescored++;
          s = 0;
          for (let i = 0; i < n; i++) {
            const p = advance(post, start[i]!, end[i]!, o);
            if (p < end[i]! && post[p]! >>> TF_BITS === o) s += contribution(st, ids[i]!, ws[i]!, post[p]!);
          }
        }
        if (s >= top.threshold) {
          top.offer(ordDoc[o]!, s);
          if (top.size === k) {
            theta = top.threshold;
            cut = Math.max(0, theta / CUT_SLACK - subRestSw);
          }
        }
      }
    }
    acc.fill(0, 0, width);
    scored += windowScored;
    if (nNon > 0 && windowScored > 0) lookupsPerPosting = 0.5 * lookupsPerPosting + (0.5 * (lookups - windowLookupsBefore)) / windowScored;
  }
  const t = blockMaxTotals;
  t.searches++;
  t.windows += windows;
  t.windowsSkipped += skipped;
  t.windowsWhole += whole;
  t.postings += postings;
  t.postingsScored += scored;
  t.lookups += lookups;
  t.rescored += rescored;
  return top.sorted();
}
