/**
 * Query evaluation: BM25 scoring of the query terms (Lucene's BM25Similarity, see
 * ./bm25-index.ts) term-at-a-time into a Float64Array of accumulators with precomputed
 * per-document length norms, then a bounded heap for the top k (see scoreTerms).
 */
import { TF_BITS, TF_ESCAPE, type IndexState } from './index-state';
import { tfFactorOf } from './norms';
import { TopK } from './top-k';
import { scoreTermsBlockMax } from './pruned-search';
import type { Bm25Hit } from './bm25-types';

/** The top `k` documents for the query term ids `ids` (st flushed), leaving out the docs in `exclude`. */
export function searchIds(st: IndexState, ids: number[], k: number, exclude: Iterable<number> | undefined, scan: IndexState['scanMode'] = st.scanMode): Bm25Hit[] {
  // Distinct known query terms with their query frequency.
  const qtf = new Map<number, number>();
  const nT = st.off.length - 1;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (id >= nT) continue;
    qtf.set(id, (qtf.get(id) ?? 0) + 1);
  }
  const off = st.off;
  const terms: { id: number; df: number; w: number; str: string }[] = [];
  const N = st.nNonEmpty;
  for (const [id, f] of qtf) {
    const df = off[id + 1]! - off[id]!;
    if (df === 0) continue;
    const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5));
    terms.push({ id, df, w: f * idf, str: st.termStr[id]! });
  }
  if (terms.length === 0) return [];
  // Fixed accumulation order: rarest first, then by term text (independent of term ids).
  terms.sort((a, b) => a.df - b.df || (a.str < b.str ? -1 : a.str > b.str ? 1 : 0));

  const excl = st.excluded;
  const exOrds: number[] = [];
  if (exclude) {
    for (const doc of exclude) {
      const o = st.docOrd.get(doc);
      if (o !== undefined && !excl[o]) {
        excl[o] = 1;
        exOrds.push(o);
      }
    }
  }
  try {
    return scoreTerms(st, terms, k, scan, exOrds);
  } finally {
    for (const o of exOrds) excl[o] = 0;
  }
}

/**
 * Adds a term's escaped postings (tf ≥ TF_ESCAPE, skipped by the scan) of live ordinals, right after
 * the term's other postings: each document still gets its terms' contributions in the same order.
 * With `touched`, records newly touched ordinals there; returns the new count.
 */
function addBigTfs(st: IndexState, big: { ords: number[]; tfs: number[] }, w: number, touched: Int32Array | null, nTouched: number): number {
  const acc = st.acc;
  const alive = st.alive;
  for (let i = 0; i < big.ords.length; i++) {
    const o = big.ords[i]!;
    if (!alive[o]) continue;
    const tf = big.tfs[i]!;
    const a = acc[o]!;
    if (touched && a === 0) touched[nTouched++] = o;
    acc[o] = a + w * tfFactorOf(st, tf, o);
  }
  return nTouched;
}

/**
 * Term-at-a-time, exhaustive: every posting of every query term is added to a Float64Array
 * accumulator (rarest term first). Two ways to find the touched documents afterwards, chosen
 * per query: *sparse* keeps a touched list (best when the query's postings are few compared to
 * the number of documents); *dense* skips that bookkeeping in the hot loop and scans all
 * accumulators once at the end, then clears them with a memset (about 2x faster for long
 * queries full of common words, which is what question-as-query retrieval is). Both compute
 * the same sums in the same order, so results are identical. 'auto' takes the dense scan's
 * queries to the exact block-max pruning of ./block-max-scoring.ts on indexes of
 * st.pruneFromDocs document versions or more (same results, fewer postings read).
 */
function scoreTerms(st: IndexState, terms: { id: number; df: number; w: number }[], k: number, scan: IndexState['scanMode'], exOrds: readonly number[]): Bm25Hit[] {
  if (scan === 'pruned') return scoreTermsBlockMax(st, terms, k, exOrds);
  let totalDf = 0;
  for (const t of terms) totalDf += t.df;
  const nOrd = st.nOrd;
  const dense = scan === 'dense' || (scan === 'auto' && totalDf * 4 > nOrd);
  if (dense && scan === 'auto' && nOrd >= st.pruneFromDocs) return scoreTermsBlockMax(st, terms, k, exOrds);
  // The accumulators of these scans (one per document: 12 MB at 1M) exist only once one ran.
  if (st.acc.length < nOrd) {
    const cap = Math.max(nOrd, Math.ceil(st.acc.length * 1.5));
    st.acc = new Float64Array(cap);
    st.touched = new Int32Array(cap);
  }
  const acc = st.acc;
  const factor = st.tfFactor;
  const cls = st.normClass;
  const post = st.post;
  const bigTf = st.bigTfByTerm;
  const off = st.off;
  const excl = st.excluded;
  const ordDoc = st.ordDoc;
  const top = new TopK(k);
  if (dense) {
    for (const { id, w } of terms) {
      const e = off[id + 1]!;
      for (let p = off[id]!; p < e; p++) {
        const v = post[p]!;
        const o = v >> TF_BITS;
        // An escaped posting (tf = TF_ESCAPE) adds exactly 0 here (its factor is 0), its real tf below.
        acc[o] = acc[o]! + w * factor[(cls[o]! << TF_BITS) | (v & TF_ESCAPE)]!;
      }
      const big = bigTf.get(id);
      if (big) addBigTfs(st, big, w, null, 0);
    }
    // Scores are > 0 for matching documents and exactly 0 otherwise.
    let thr = Number.MIN_VALUE;
    for (let o = 0; o < nOrd; o++) {
      const s = acc[o]!;
      if (s >= thr && !excl[o]) {
        top.offer(ordDoc[o]!, s);
        if (top.size === k) thr = top.threshold;
      }
    }
    acc.fill(0, 0, nOrd);
    return top.sorted();
  }
  const touched = st.touched;
  let nTouched = 0;
  for (const { id, w } of terms) {
    const e = off[id + 1]!;
    for (let p = off[id]!; p < e; p++) {
      const v = post[p]!;
      const tf = v & TF_ESCAPE;
      if (tf !== TF_ESCAPE) {
        const o = v >> TF_BITS;
        const a = acc[o]!;
        if (a === 0) touched[nTouched++] = o;
        acc[o] = a + w * factor[(cls[o]! << TF_BITS) | tf]!;
      }
    }
    const big = bigTf.get(id);
    if (big) nTouched = addBigTfs(st, big, w, touched, nTouched);
  }
  for (let i = 0; i < nTouched; i++) {
    const o = touched[i]!;
    const s = acc[o]!;
    acc[o] = 0;
    if (excl[o]) continue;
    if (s >= top.threshold) top.offer(ordDoc[o]!, s);
  }
  return top.sorted();
}
