/**
 * BM25 length norms as a lookup table (see refreshNorms): what every scan of ./scoring.ts and
 * ./block-max-scoring.ts multiplies a term's weight by.
 */
import { sharedInt32, TF_BITS, TF_ESCAPE, type IndexState } from './index-state';
import { DECODED_LENGTHS, encodeLength } from './length-norm';

/**
 * Recomputes the length norms and sizes the scoring scratch. A document's BM25 norm
 * k1 · (1 - b + b · dl / avgdl) depends on its length class only (Lucene's one-byte norm: 256
 * classes; with exact lengths, one per distinct length), so scoring reads the table
 * st.tfFactor[class << TF_BITS | tf] = tf / (tf + norm) — one lookup per posting instead of a
 * division (Lucene 8 caches its 256 norms the same way). A term's contribution is w · that factor.
 */
export function refreshNorms(st: IndexState): void {
  const n = st.nOrd;
  if (st.normClass.length < n) {
    const cap = Math.max(n, Math.ceil(st.normClass.length * 1.5));
    st.normClass = sharedInt32(cap);
    st.excluded = new Uint8Array(cap);
  }
  const len = st.ordLen;
  const cls = st.normClass;
  let classLength: Float64Array;
  if (st.lengthNorm === 'exact') {
    const rank = new Map<number, number>();
    for (let o = 0; o < n; o++) {
      const l = len[o]!;
      let c = rank.get(l);
      if (c === undefined) rank.set(l, (c = rank.size));
      cls[o] = c;
    }
    classLength = new Float64Array(rank.size);
    for (const [l, c] of rank) classLength[c] = l;
  } else {
    for (let o = 0; o < n; o++) cls[o] = encodeLength(len[o]!);
    classLength = DECODED_LENGTHS;
  }
  const avgdl = st.nNonEmpty > 0 ? st.totalLen / st.nNonEmpty : 0;
  const { k1, b } = st;
  const nClass = classLength.length;
  const norm = new Float64Array(nClass);
  const factor = new Float64Array(nClass << TF_BITS);
  for (let c = 0; c < nClass; c++) {
    if (avgdl > 0) norm[c] = k1 * (1 - b + (b * classLength[c]!) / avgdl);
    for (let tf = 1; tf < TF_ESCAPE; tf++) factor[(c << TF_BITS) | tf] = tf / (tf + norm[c]!);
  }
  st.classNorm = norm;
  st.tfFactor = factor;
  st.normsDirty = false;
  st.normsVersion++;
}

/** tf / (tf + norm) of ordinal `o` for any tf (the table holds tf < TF_ESCAPE; escaped tfs come here). */
export function tfFactorOf(st: IndexState, tf: number, o: number): number {
  return tf < TF_ESCAPE ? st.tfFactor[(st.normClass[o]! << TF_BITS) | tf]! : tf / (tf + st.classNorm[st.normClass[o]!]!);
}
