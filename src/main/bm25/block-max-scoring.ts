/**
 * Exact top-k with block-max MaxScore, document windows at a time (the scheme of Lucene 9.4+'s
 * MaxScoreBulkScorer: Turtle & Flood 1995, with per-block bounds as in Ding & Suel 2011).
 *
 * Bounds. A term t with weight w_t (query frequency × idf) adds to a document o
 *   c_t(o) = w_t · tf / (tf + norm(o))          (Lucene 8 BM25, ./scoring.ts)
 * Each term's postings are cut into blocks of BLOCK postings; per block we keep
 * m_b = max over the block of tf / (tf + norm(o)). A term's are computed in memory by the first search
 * that needs them after the norms change (one pass over its postings; see blockMaxima) — norm(o) moves with the
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
 *
 * Two threads. The windows can be split between threads (window w to part w mod parts): each part
 * keeps its own exact top k of its windows, and the parts' lists merged by score then doc number
 * are the exact top k of all. Each part publishes its current k-th score (θ) in shared memory and
 * prunes with the largest θ of any part — a sound bound for all, since that part already holds k
 * documents scoring at least θ. ./scan-helper.ts runs the second part on a helper thread; the
 * scan is therefore a self-contained factory (prunedScanKernel) over plain arrays (ScanIndex),
 * which the helper builds from this function's source text.
 */
import { TopK, topKFactory } from './top-k';
import type { Bm25Hit } from './bm25-types';

/** A query term with its id, df and weight (as ./scoring.ts sorts them: the query's order). */
export interface ScoredTerm {
  id: number;
  df: number;
  w: number;
}

/** What the pruned scan reads: plain arrays, the large ones in shared memory (see indexView). */
export interface ScanIndex {
  /** Packed postings (ordinal << TF_BITS | min(tf, TF_ESCAPE)) by term, CSR offsets `off`. */
  post: Int32Array;
  off: Int32Array;
  /** Per ordinal its length class; tfFactor / classNorm as in ./norms.ts. */
  normClass: Int32Array;
  tfFactor: Float64Array;
  classNorm: Float64Array;
  /** Doc number per ordinal (ties rank by doc number). */
  ordDoc: Float64Array;
  nOrd: number;
  /** Ordinals per window. */
  window: number;
  /** tf of escaped postings by term · 2^(31 − TF_BITS) + ordinal. */
  bigTf: Map<number, number>;
  /** Per term with escaped postings: those of live ordinals, ordinal ascending. */
  escaped: Map<number, { ords: Int32Array; tfs: Float64Array }>;
  /** Ordinals left out of this query's results (set by the caller around each scan). */
  excluded: Uint8Array;
  /** The block bounds of the terms with BLOCK postings or more, shared by the threads (see blockMaxima). */
  bounds: BlockBounds;
}

/**
 * Block bounds of a view, in shared memory so both threads read what either computed: per term
 * with BLOCK postings or more, its ceil(df / BLOCK) maxima at vals[start[term]…] (start −1 for a
 * rarer term), and its state: 0 not computed, 1 being stored by one thread, 2 stored.
 */
export interface BlockBounds {
  start: Int32Array;
  vals: Float64Array;
  state: Int32Array;
}

/** One part's exact top k: doc numbers and scores, best first; and the work it did. */
export interface ScanPart {
  docs: number[];
  scores: number[];
  counts: ScanCounts;
}

/** The work of one part of one search. */
export interface ScanCounts {
  /** Windows of `window` ordinals visited, skipped whole (every bound below θ), scored whole (no lookups). */
  windows: number;
  windowsSkipped: number;
  windowsWhole: number;
  /** Postings read term at a time. */
  postingsScored: number;
  /** Galloping lookups of a document in a non-essential term's postings. */
  lookups: number;
  /** Documents rescored in the query's order before being offered. */
  rescored: number;
  /** Postings read to compute block bounds (a term's once per view, see blockMaxima; a rare term's each time). */
  boundPostings: number;
}

/**
 * The pruned scan as a self-contained factory: its body refers only to its parameter and to
 * JavaScript's globals, so ./scan-helper.ts can start a thread from its source text
 * (`(${prunedScanKernel})((${topKFactory})())`) and both threads run this same code.
 */
export function prunedScanKernel(TopKClass: ReturnType<typeof topKFactory>) {
  /** Packed postings: as ./index-state.ts (checked by a test). */
  const TF_BITS = 5;
  const TF_ESCAPE = (1 << TF_BITS) - 1;
  const MAX_ORDINALS = 2 ** (31 - TF_BITS);
  /** Postings per block bound. */
  const BLOCK = 128;
  /** Sub-windows of 2^SUB_SHIFT ordinals get their own bounds of the non-essential terms (7–12 tried at 1M: 9 halved the lookups, no gain below). */
  const SUB_SHIFT = 9;
  /**
   * What one galloping lookup costs, in postings read term at a time: ~3 (about 30 vs 10 ns each at
   * 1M questions; 1–8 tried: 1 gave the best median on the synthetic corpus but a p99 1.5× the dense
   * scan's on the scale harness's, 3 a median 0.83× and a mean 0.88× the dense scan's there; with
   * windows of 32768, 2 and 4 measured within 4% of 3).
   */
  const LOOKUP_COST = 3;
  /** Relative inflation of the bounds, against floating-point rounding. */
  const BOUND_SLACK = 1 + 1e-9;
  /** θ / CUT_SLACK − rest ≥ s implies (s + rest) · BOUND_SLACK < θ, rounding included (the sweep's pre-test). */
  const CUT_SLACK = 1 + 2e-9;

  /** Postings read by computeBlockMaxima on this thread (each scan reports its own share). */
  let boundPostingsRead = 0;

  /** tf / (tf + norm) of ordinal `o` for any tf (./norms.ts tfFactorOf). */
  function factorOf(ix: ScanIndex, tf: number, o: number): number {
    return tf < TF_ESCAPE ? ix.tfFactor[(ix.normClass[o]! << TF_BITS) | tf]! : tf / (tf + ix.classNorm[ix.normClass[o]!]!);
  }

  /** The tf of packed posting `v` of term `id`. */
  function tfOf(ix: ScanIndex, id: number, v: number): number {
    const tf = v & TF_ESCAPE;
    return tf === TF_ESCAPE ? ix.bigTf.get(id * MAX_ORDINALS + (v >>> TF_BITS))! : tf;
  }

  /**
   * The per-block maxima of tf / (tf + norm) of term `id`. A term with BLOCK postings or more has
   * them computed once per view — by the first search that needs them, on either thread, or ahead
   * of searches by warmBounds — and stored in ix.bounds; a rarer term's single block is computed
   * each time (at most BLOCK postings). A thread that finds a term not stored computes it itself
   * and stores it unless the other thread is storing it (never two writers, never a half-read).
   */
  function blockMaxima(ix: ScanIndex, id: number): Float64Array {
    const { start, vals, state } = ix.bounds;
    const at = start[id]!;
    if (at < 0) return computeBlockMaxima(ix, id);
    if (Atomics.load(state, id) === 2) return vals.subarray(at, at + Math.ceil((ix.off[id + 1]! - ix.off[id]!) / BLOCK));
    const out = computeBlockMaxima(ix, id);
    if (Atomics.compareExchange(state, id, 0, 1) === 0) {
      vals.set(out, at);
      Atomics.store(state, id, 2);
    }
    return out;
  }

  /**
   * Stores the bounds of the terms from `from` on that are not stored yet, until about `budget`
   * postings were read; returns the next term to look at (the vocabulary's size once all are)
   * and the postings read.
   */
  function warmBounds(ix: ScanIndex, from: number, budget: number): { next: number; read: number } {
    const nT = ix.off.length - 1;
    let read = 0;
    let t = from;
    for (; t < nT && read < budget; t++) {
      if (ix.bounds.start[t]! < 0 || Atomics.load(ix.bounds.state, t) === 2) continue;
      read += ix.off[t + 1]! - ix.off[t]!;
      blockMaxima(ix, t);
    }
    return { next: t, read };
  }

  function computeBlockMaxima(ix: ScanIndex, id: number): Float64Array {
    const post = ix.post;
    const start = ix.off[id]!;
    const end = ix.off[id + 1]!;
    const out = new Float64Array(Math.ceil((end - start) / BLOCK));
    boundPostingsRead += end - start;
    for (let b = 0; b < out.length; b++) {
      let best = 0;
      const e = Math.min(end, start + (b + 1) * BLOCK);
      for (let p = start + b * BLOCK; p < e; p++) {
        const v = post[p]!;
        const x = factorOf(ix, tfOf(ix, id, v), v >>> TF_BITS);
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

  /**
   * Adds w · tf / (tf + norm(o)) (the table tfFactor) to acc[o - lo] for the postings [p, pe) — an
   * escaped posting (tf stored as TF_ESCAPE) adds exactly 0 (see addEscaped).
   */
  function scoreRange(post: Int32Array, cls: Int32Array, factor: Float64Array, acc: Float64Array, p: number, pe: number, w: number, lo: number): void {
    for (; p < pe; p++) {
      const v = post[p]!;
      const o = v >>> TF_BITS;
      acc[o - lo] += w * factor[(cls[o]! << TF_BITS) | (v & TF_ESCAPE)]!;
    }
  }

  /** Adds the real contributions of a term's escaped postings in [lo, hi) from cursor `at`; returns the new cursor. */
  function addEscaped(ix: ScanIndex, x: { ords: Int32Array; tfs: Float64Array }, at: number, w: number, acc: Float64Array, lo: number, hi: number): number {
    const { ords, tfs } = x;
    let j = at;
    for (; j < ords.length && ords[j]! < hi; j++) {
      const o = ords[j]!;
      if (o < lo) continue;
      acc[o - lo] += w * factorOf(ix, tfs[j]!, o);
    }
    return j;
  }

  // θ published per part as the bits of a float64 (Atomics work on integers only).
  const f64 = new Float64Array(1);
  const i64 = new BigInt64Array(f64.buffer);
  function otherTheta(shared: BigInt64Array, part: number): number {
    let m = 0;
    for (let q = 0; q < shared.length; q++) {
      if (q === part) continue;
      i64[0] = Atomics.load(shared, q);
      if (f64[0]! > m) m = f64[0]!;
    }
    return m;
  }
  function publishTheta(shared: BigInt64Array, part: number, theta: number): void {
    f64[0] = theta;
    Atomics.store(shared, part, i64[0]!);
  }

  /**
   * The exact top k of the query terms `ids` (weights `ws`, in the query's order as ./scoring.ts
   * sorts them) over the windows of part `part` of `parts`; excluded ordinals are marked in
   * ix.excluded. `shared` (one slot per part, or null for one part) carries each part's θ.
   */
  function scan(ix: ScanIndex, ids: Int32Array, ws: Float64Array, k: number, part: number, parts: number, shared: BigInt64Array | null): ScanPart {
    const top = new TopKClass(k);
    const n = ids.length;
    const done = (counts: ScanCounts): ScanPart => {
      const hits = top.sorted();
      return { docs: hits.map((h) => h.doc), scores: hits.map((h) => h.score), counts };
    };
    if (k === 0 || n === 0) return done({ windows: 0, windowsSkipped: 0, windowsWhole: 0, postingsScored: 0, lookups: 0, rescored: 0, boundPostings: 0 });
    const post = ix.post;
    const cls = ix.normClass;
    const factor = ix.tfFactor;
    const excl = ix.excluded;
    const ordDoc = ix.ordDoc;
    const nOrd = ix.nOrd;
    const start = new Int32Array(n);
    const end = new Int32Array(n);
    /** Per term: its first posting not yet passed (cursors only move forward). */
    const pos = new Int32Array(n);
    const maxima: Float64Array[] = [];
    const boundsBefore = boundPostingsRead;
    for (let i = 0; i < n; i++) {
      start[i] = pos[i] = ix.off[ids[i]!]!;
      end[i] = ix.off[ids[i]! + 1]!;
      maxima.push(blockMaxima(ix, ids[i]!));
    }
    const escaped: ({ ords: Int32Array; tfs: Float64Array } | null)[] = [];
    const escapedAt = new Int32Array(n);
    for (let i = 0; i < n; i++) escaped.push(ix.escaped.get(ids[i]!) ?? null);
    const bound = new Float64Array(n); // per window: U_t
    const inWindow = new Float64Array(n); // per window: postings the window may hold (whole blocks)
    // Term indexes, weakest first: by w_t · (largest block bound of the term), ascending.
    const strength = maxima.map((bm, i) => ws[i]! * bm.reduce((a, b) => (b > a ? b : a), 0));
    const byBound = Int32Array.from(strength.keys()).sort((a, b) => strength[a]! - strength[b]! || a - b);
    const essential = new Uint8Array(n);
    const nonEss = new Int32Array(n); // non-essential term indexes, bound descending
    const WINDOW = ix.window;
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
    /** After an offer: the local k-th score, published, and θ = the largest known. */
    const raiseTheta = (): void => {
      if (top.size < k) return;
      const t = top.threshold;
      if (shared) publishTheta(shared, part, t);
      if (t > theta) theta = t;
    };
    for (let lo = part * WINDOW; lo < nOrd; lo += parts * WINDOW) {
      const hi = Math.min(nOrd, lo + WINDOW);
      const hiKey = hi * (1 << TF_BITS);
      windows++;
      if (shared) {
        const t = otherTheta(shared, part);
        if (t > theta) theta = t;
      }
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
      // every window's bounds measured no faster) while their window bounds together stay below θ;
      // a term absent from the window costs nothing.
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
        if (x) escapedAt[i] = addEscaped(ix, x, escapedAt[i]!, ws[i]!, acc, lo, hi);
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
            if (p < e && post[p]! >>> TF_BITS === o) s += ws[i]! * factorOf(ix, tfOf(ix, ids[i]!, post[p]!), o);
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
              if (p < end[i]! && post[p]! >>> TF_BITS === o) s += ws[i]! * factorOf(ix, tfOf(ix, ids[i]!, post[p]!), o);
            }
          }
          if (s >= top.threshold) {
            top.offer(ordDoc[o]!, s);
            raiseTheta();
            cut = Math.max(0, theta / CUT_SLACK - subRestSw);
          }
        }
      }
      acc.fill(0, 0, width);
      scored += windowScored;
      if (nNon > 0 && windowScored > 0) lookupsPerPosting = 0.5 * lookupsPerPosting + (0.5 * (lookups - windowLookupsBefore)) / windowScored;
    }
    return done({ windows, windowsSkipped: skipped, windowsWhole: whole, postingsScored: scored, lookups, rescored, boundPostings: boundPostingsRead - boundsBefore });
  }

  return { scan, blockMaxima, warmBounds, constants: { TF_BITS, TF_ESCAPE, MAX_ORDINALS, BLOCK } };
}

/** The kernel this thread runs. */
export const scanKernel = prunedScanKernel(TopK);

/**
 * Counts over every block-max search in this process, helper threads' parts included (for
 * benchmarks and tests): searches, the postings of their query terms, and the parts' work; and
 * the postings read to compute bounds ahead of searches (./pruned-search.ts warmPrunedScanSteps).
 */
export const blockMaxTotals: ScanCounts & { searches: number; postings: number; boundPostingsWarmed: number } = {
  boundPostingsWarmed: 0,
  searches: 0,
  postings: 0,
  windows: 0,
  windowsSkipped: 0,
  windowsWhole: 0,
  postingsScored: 0,
  lookups: 0,
  rescored: 0,
  boundPostings: 0,
};

export function addCounts(into: ScanCounts, c: ScanCounts): void {
  into.windows += c.windows;
  into.windowsSkipped += c.windowsSkipped;
  into.windowsWhole += c.windowsWhole;
  into.postingsScored += c.postingsScored;
  into.lookups += c.lookups;
  into.rescored += c.rescored;
  into.boundPostings += c.boundPostings;
}

/** Merges parts' exact top-k lists into the exact top k of all (score descending, doc ascending). */
export function mergeParts(parts: readonly ScanPart[], k: number): Bm25Hit[] {
  const top = new TopK(k);
  for (const p of parts) for (let i = 0; i < p.docs.length; i++) top.offer(p.docs[i]!, p.scores[i]!);
  return top.sorted();
}

/** Query terms as the kernel takes them. */
export function termArrays(terms: readonly ScoredTerm[]): { ids: Int32Array; ws: Float64Array } {
  return { ids: Int32Array.from(terms, (t) => t.id), ws: Float64Array.from(terms, (t) => t.w) };
}
