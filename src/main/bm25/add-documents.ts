/**
 * Building the index in memory: tokenizing documents into pending postings (all or nothing, with
 * rollback on error or abort), re-indexing and removing documents. The pending postings are
 * merged into the CSR by ./merge.ts.
 */
import { QPairsError, throwIfAborted } from '../errors';
import { grow, type IndexState } from './index-state';
import type { AddOptions, Bm25Document } from './bm25-types';

const TF_MAX = 65535;
/** Entries per pending-postings block. */
const BLOCK = 1 << 18;

/**
 * Indexes documents (title + body). A doc number that is already indexed is re-indexed: its
 * new text replaces the old one (also when it occurs twice in `docs`: the last one wins).
 * All or nothing: on error or abort (CancelledError) the index is left as it was.
 * Returns the number of documents read.
 */
export function addDocuments(st: IndexState, docs: Iterable<Bm25Document>, opts: AddOptions = {}): number {
  const { onProgress, signal } = opts;
  throwIfAborted(signal);
  const total = opts.total ?? (Array.isArray(docs) ? docs.length : 0);
  const startOrd = st.nOrd;
  const startQ = st.nq;
  const startBlocks = st.qBlocks.length;
  const startBlockN = startBlocks > 0 ? st.qBlocks[startBlocks - 1]!.n : 0;
  const startTerms = st.termStr.length;
  const ids = st.ids;
  const tok = st.tokenizer;
  const dict = st.dict;
  let count = 0;
  try {
    for (const d of docs) {
      if (d === null || typeof d !== 'object' || !Number.isSafeInteger(d.doc))
        throw new QPairsError(`addDocuments: record ${count}: doc must be a safe integer, got ${d === null || typeof d !== 'object' ? String(d) : String(d.doc)}`, {
          record: String(count),
          reason: 'bad doc number',
        });
      if (typeof d.title !== 'string' || typeof d.body !== 'string')
        throw new QPairsError(`addDocuments: record ${count} (doc ${d.doc}): title and body must be strings`, {
          record: String(d.doc),
          reason: 'bad text',
        });
      ids.length = 0;
      tok.tokenizeToIds(d.title, dict, true, ids);
      tok.tokenizeToIds(d.body, dict, true, ids);
      const ord = st.nOrd++;
      if (ord >= st.ordDoc.length) {
        st.ordDoc = grow(st.ordDoc, ord + 1);
        st.ordLen = grow(st.ordLen, ord + 1);
        st.alive = grow(st.alive, ord + 1);
      }
      st.ordDoc[ord] = d.doc;
      st.ordLen[ord] = ids.length;
      st.alive[ord] = 0;
      let tfs = st.tfScratch;
      let dt = st.termScratch;
      if (dt.length < ids.length) dt = st.termScratch = grow(dt, ids.length);
      if (tfs.length < dict.size) tfs = st.tfScratch = grow(tfs, dict.size);
      let nd = 0;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        if (tfs[id]++ === 0) dt[nd++] = id;
      }
      let blk = st.qBlocks[st.qBlocks.length - 1];
      if (blk === undefined || blk.n + nd > blk.term.length) {
        const cap = Math.max(BLOCK, nd);
        blk = { term: new Int32Array(cap), ord: new Int32Array(cap), tf: new Uint16Array(cap), n: 0 };
        st.qBlocks.push(blk);
      }
      const qT = blk.term;
      const qO = blk.ord;
      const qF = blk.tf;
      let q = blk.n;
      for (let j = 0; j < nd; j++) {
        const id = dt[j]!;
        const f = tfs[id]!;
        qT[q] = id;
        qO[q] = ord;
        qF[q] = f > TF_MAX ? TF_MAX : f;
        tfs[id] = 0;
        q++;
      }
      st.nq += q - blk.n;
      blk.n = q;
      count++;
      if ((count & 1023) === 0) {
        throwIfAborted(signal);
        onProgress?.(count, total);
      }
    }
    throwIfAborted(signal);
  } catch (e) {
    // Roll back: forget the new ordinals, postings and terms.
    dict.truncate(startTerms);
    st.nOrd = startOrd;
    st.nq = startQ;
    st.qBlocks.length = startBlocks;
    if (startBlocks > 0) st.qBlocks[startBlocks - 1]!.n = startBlockN;
    st.tfScratch.fill(0);
    throw e;
  }
  // Commit: later versions retire earlier ones.
  for (let ord = startOrd; ord < st.nOrd; ord++) {
    const doc = st.ordDoc[ord]!;
    const old = st.docOrd.get(doc);
    if (old !== undefined) st.retire(old);
    st.docOrd.set(doc, ord);
    st.alive[ord] = 1;
    const len = st.ordLen[ord]!;
    st.nLive++;
    st.totalLen += len;
    if (len > 0) st.nNonEmpty++;
    st.removedSincePersist.delete(doc);
  }
  st.changesSincePersist += count;
  st.normsDirty = true;
  onProgress?.(count, total);
  return count;
}

/** Removes documents from the index; unknown doc numbers are ignored. Returns how many were removed. */
export function removeDocuments(st: IndexState, docs: Iterable<number>): number {
  let n = 0;
  for (const doc of docs) {
    const ord = st.docOrd.get(doc);
    if (ord === undefined) continue;
    st.retire(ord);
    st.docOrd.delete(doc);
    st.removedSincePersist.add(doc);
    st.changesSincePersist++;
    n++;
  }
  if (n > 0) st.normsDirty = true;
  return n;
}
