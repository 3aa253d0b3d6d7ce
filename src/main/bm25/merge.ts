/**
 * Merging the pending postings (./add-documents.ts) into the CSR, dropping retired ordinals, and
 * flushing an index before it is searched, counted or persisted.
 */
import { sharedInt32, TF_BITS, type IndexState } from './index-state';
import { refreshNorms } from './norms';

/** Merges pending postings into the CSR (dropping retired ordinals) and refreshes norms. */
export function flush(st: IndexState): void {
  if (st.nq > 0 || st.retiredSinceMerge) mergePending(st);
  if (st.normsDirty) refreshNorms(st);
}

/** Rebuilds the CSR from the merged postings (live ones only when ordinals were retired) and the pending blocks. */
export function mergePending(st: IndexState): void {
  const nT = st.termStr.length;
  const oldT = st.off.length - 1;
  const off = st.off;
  const post = st.post;
  const alive = st.alive;
  const filter = st.retiredSinceMerge;
  const blocks = st.qBlocks;
  // Count postings per term: base (live) + pending (live).
  const baseCnt = new Int32Array(nT);
  const newOff = new Int32Array(nT + 1);
  for (let t = 0; t < oldT; t++) {
    let c = off[t + 1]! - off[t]!;
    if (filter) {
      c = 0;
      for (let p = off[t]!; p < off[t + 1]!; p++) c += alive[post[p]! >>> TF_BITS]!;
    }
    baseCnt[t] = c;
    newOff[t + 1] = c;
  }
  for (const { term: qT, ord: qO, n } of blocks) for (let p = 0; p < n; p++) if (!filter || alive[qO[p]!]) newOff[qT[p]! + 1]!++;
  let nonEmpty = 0;
  for (let t = 0; t < nT; t++) {
    if (newOff[t + 1]! > 0) nonEmpty++;
    newOff[t + 1]! += newOff[t]!;
  }
  const total = newOff[nT]!;
  const nPost = sharedInt32(total);
  const cursor = new Int32Array(nT);
  for (let t = 0; t < nT; t++) {
    let w = newOff[t]!;
    if (t < oldT) {
      const a = off[t]!;
      const e = off[t + 1]!;
      if (!filter) {
        if (e > a) {
          nPost.set(post.subarray(a, e), w);
          w += e - a;
        }
      } else {
        for (let p = a; p < e; p++) {
          const v = post[p]!;
          if (alive[v >>> TF_BITS]) nPost[w++] = v;
        }
      }
    }
    cursor[t] = w;
  }
  for (const { term: qT, ord: qO, tf: qF, n } of blocks) {
    for (let p = 0; p < n; p++) {
      const o = qO[p]!;
      if (filter && !alive[o]) continue;
      const t = qT[p]!;
      nPost[cursor[t]!++] = st.pack(t, o, qF[p]!);
    }
  }
  st.off = newOff;
  st.post = nPost;
  st.nTermsWithPostings = nonEmpty;
  st.nq = 0;
  st.qBlocks = [];
  st.retiredSinceMerge = false;
  st.normsDirty = true;
}
