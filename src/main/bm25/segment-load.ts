/**
 * Loading: replays stored segments (./segments.ts) into an empty in-memory index — documents,
 * removals and superseded versions first, then the postings decoded segment by segment into the
 * CSR with global term ids.
 */
import { grow, sharedInt32, sharedWithRoom, type IndexState } from './index-state';
import { refreshNorms } from './norms';
import { decodePostings, type StoredSegment } from './segments';
import { runSteps } from './steps';

/**
 * Replays stored segments (in `seg` order) into an empty index. Memory: the documents of every segment are
 * read first (so which ordinals stay alive is known), then each segment's postings are decoded
 * twice, one segment at a time — once to count the live postings per term, once to copy them into
 * the merged CSR — so the peak is the CSR plus one segment's decoded postings, not every segment's
 * decoded postings beside the CSR (at 1M questions that halved the postings' share of the peak).
 * A single segment with nothing superseded is decoded once, straight into the CSR.
 */
export function loadSegments(st: IndexState, segs: StoredSegment[]): void {
  runSteps(loadSegmentSteps(st, segs));
}

/**
 * loadSegments in steps: it yields after each segment of each pass, so a caller that loads in the
 * background (Bm25Index.loadInSlices) lets other work run between them; the same state at the end.
 */
export function* loadSegmentSteps(st: IndexState, segs: StoredSegment[]): Generator<void, void> {
  // Doc numbers in shared memory from the start, sized once (the pruned scan's helper thread reads them).
  let nDocs = st.nOrd;
  for (const s of segs) nDocs += s.docs.length;
  st.ordDoc = sharedWithRoom(st.ordDoc, nDocs);
  const bases: number[] = [];
  const gidsOf: Int32Array[] = [];
  for (const s of segs) {
    for (let i = 0; i < s.removed.length; i++) {
      const doc = s.removed[i]!;
      const o = st.docOrd.get(doc);
      if (o !== undefined) {
        st.retire(o);
        st.docOrd.delete(doc);
      }
    }
    const base = st.nOrd;
    const nd = s.docs.length;
    st.ordDoc = grow(st.ordDoc, base + nd);
    st.ordLen = grow(st.ordLen, base + nd);
    st.alive = grow(st.alive, base + nd);
    st.ordDoc.set(s.docs, base);
    st.ordLen.set(s.lengths, base);
    for (let i = 0; i < nd; i++) {
      const ord = base + i;
      const doc = s.docs[i]!;
      const old = st.docOrd.get(doc);
      if (old !== undefined) st.retire(old);
      st.docOrd.set(doc, ord);
      st.alive[ord] = 1;
      const len = s.lengths[i]!;
      st.nLive++;
      st.totalLen += len;
      if (len > 0) st.nNonEmpty++;
    }
    st.nOrd = base + nd;
    const terms = s.terms; // (decoded once, dropped after interning)
    const gids = new Int32Array(terms.length);
    for (let t = 0; t < terms.length; t++) gids[t] = st.dict.intern(terms[t]!);
    bases.push(base);
    gidsOf.push(gids);
    yield;
  }
  yield* buildFromSegments(st, segs, bases, gidsOf);
  st.persistedMark = st.nOrd;
  st.persistedSuperseded = st.nOrd - st.nLive;
  st.knownSegs = segs.map((s) => s.seg);
  st.changesSincePersist = 0;
  st.retiredSinceMerge = false;
  refreshNorms(st);
}

/** Builds the CSR from stored segments (in segment order, so ordinals ascend per term); see loadSegments. */
function* buildFromSegments(st: IndexState, segs: readonly StoredSegment[], bases: readonly number[], gidsOf: readonly Int32Array[]): Generator<void, void> {
  const nT = st.termStr.length;
  const alive = st.alive;
  // One scratch pair for every segment's decoded postings (allocating a pair per segment and pass
  // left ~100 MB of freed memory in the process at 1M questions).
  let maxPostings = 0;
  for (const s of segs) maxPostings = Math.max(maxPostings, s.nPostings);
  let scratchOrds = new Int32Array(0);
  let scratchTfs = new Uint16Array(0);
  const decode = (k: number) => {
    const s = segs[k]!;
    if (scratchOrds.length < s.nPostings) {
      scratchOrds = new Int32Array(maxPostings);
      scratchTfs = new Uint16Array(maxPostings);
    }
    const ords = scratchOrds.subarray(0, s.nPostings);
    const tfs = scratchTfs.subarray(0, s.nPostings);
    decodePostings(s, bases[k]!, ords, tfs);
    return { dfs: s.dfs, ords, tfs };
  };
  if (segs.length === 1 && st.nLive === st.nOrd) {
    // One segment, nothing superseded: its postings are the CSR (term ids = segment order).
    const s = segs[0]!;
    const dfs = s.dfs;
    const { ords, tfs } = decode(0);
    const post = sharedInt32(s.nPostings);
    const off = new Int32Array(nT + 1);
    let ne = 0;
    let p = 0;
    for (let t = 0; t < nT; t++) {
      off[t + 1] = off[t]! + dfs[t]!;
      if (dfs[t]! > 0) ne++;
      for (const e = off[t + 1]!; p < e; p++) post[p] = st.pack(t, ords[p]!, tfs[p]!);
    }
    st.off = off;
    st.post = post;
    st.nTermsWithPostings = ne;
    return;
  }
  const off = new Int32Array(nT + 1);
  for (let k = 0; k < segs.length; k++) {
    const { dfs, ords } = decode(k);
    const gids = gidsOf[k]!;
    let p = 0;
    for (let t = 0; t < gids.length; t++) {
      const df = dfs[t]!;
      let c = 0;
      for (let j = 0; j < df; j++) c += alive[ords[p + j]!]!;
      off[gids[t]! + 1]! += c;
      p += df;
    }
    yield;
  }
  let ne = 0;
  for (let t = 0; t < nT; t++) {
    if (off[t + 1]! > 0) ne++;
    off[t + 1]! += off[t]!;
  }
  const post = sharedInt32(off[nT]!);
  const cursor = off.slice(0, nT);
  for (let k = 0; k < segs.length; k++) {
    const { dfs, ords, tfs } = decode(k);
    const gids = gidsOf[k]!;
    let p = 0;
    for (let t = 0; t < gids.length; t++) {
      const df = dfs[t]!;
      const g = gids[t]!;
      let w = cursor[g]!;
      for (let j = 0; j < df; j++, p++) {
        const o = ords[p]!;
        if (alive[o]) post[w++] = st.pack(g, o, tfs[p]!);
      }
      cursor[g] = w;
    }
    yield;
  }
  st.off = off;
  st.post = post;
  st.nTermsWithPostings = ne;
}
