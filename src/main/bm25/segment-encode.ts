/**
 * Encoding: turns the in-memory CSR (all live documents, or those indexed since the last persist)
 * into a segment ready for ./segments.ts writeSegment — documents, lengths, removals, terms,
 * document frequencies and delta/varint postings cut into chunks — and mirrors a written
 * segment's documents into bm25_docs.
 */
import type { Database } from 'better-sqlite3';
import { TF_BITS, TF_ESCAPE, type IndexState } from './index-state';
import { ByteWriter, type PostingsChunk, type SegmentData } from './segments';

/** Encodes live ordinals >= fromOrd as one segment (after a flush, so the CSR holds only live postings). */
export function segmentData(st: IndexState, fromOrd: number, removed: number[]): SegmentData {
  const alive = st.alive;
  const local = new Int32Array(Math.max(0, st.nOrd - fromOrd));
  const docsList: number[] = [];
  const lens: number[] = [];
  for (let o = fromOrd; o < st.nOrd; o++) {
    if (!alive[o]) {
      local[o - fromOrd] = -1;
      continue;
    }
    local[o - fromOrd] = docsList.length;
    docsList.push(st.ordDoc[o]!);
    lens.push(st.ordLen[o]!);
  }
  const terms: string[] = [];
  const dfs: number[] = [];
  const chunks: PostingsChunk[] = [];
  const w = new ByteWriter();
  let chunkFirst = 0;
  let nPostings = 0;
  const off = st.off;
  const post = st.post;
  const fromKey = fromOrd << TF_BITS;
  const nT = off.length - 1;
  for (let t = 0; t < nT; t++) {
    const a = off[t]!;
    const e = off[t + 1]!;
    let s = e;
    while (s > a && post[s - 1]! >= fromKey) s--;
    if (s === e) continue;
    terms.push(st.termStr[t]!);
    dfs.push(e - s);
    nPostings += e - s;
    w.ensure((e - s) * 10);
    let prev = -1;
    for (let p = s; p < e; p++) {
      const v = post[p]!;
      const l = local[(v >>> TF_BITS) - fromOrd]!;
      let tf = v & TF_ESCAPE;
      if (tf === TF_ESCAPE) tf = st.bigTfOf(t, v);
      w.varint((l - prev) * 2 + (tf === 1 ? 1 : 0));
      if (tf !== 1) w.varint(tf);
      prev = l;
    }
    if (w.n >= st.chunkBytes) {
      chunks.push({ firstTerm: chunkFirst, nTerms: terms.length - chunkFirst, data: w.take() });
      chunkFirst = terms.length;
    }
  }
  if (terms.length > chunkFirst) chunks.push({ firstTerm: chunkFirst, nTerms: terms.length - chunkFirst, data: w.take() });
  return {
    docs: Float64Array.from(docsList),
    lengths: Int32Array.from(lens),
    removed: Float64Array.from(removed),
    terms,
    dfs: Int32Array.from(dfs),
    nPostings,
    chunks,
  };
}

/** Bytes of BLOB data a segment takes. */
export function segmentBytes(d: SegmentData): number {
  let n = d.docs.byteLength + d.lengths.byteLength + d.removed.byteLength + d.dfs.byteLength;
  for (const t of d.terms) n += t.length + 1;
  for (const c of d.chunks) n += c.data.byteLength;
  return n;
}

/** Mirrors the segment's documents into bm25_docs (multi-row inserts, 500 rows a statement). */
export function insertDocs(db: Database, seg: number, docs: Float64Array, lens: Int32Array, replace: boolean): void {
  const verb = replace ? 'INSERT OR REPLACE' : 'INSERT';
  const ROWS = 500;
  const big = db.prepare(`${verb} INTO bm25_docs (doc, seg, len) VALUES ${Array.from({ length: ROWS }, () => `(?, ${seg}, ?)`).join(',')}`);
  const one = db.prepare(`${verb} INTO bm25_docs (doc, seg, len) VALUES (?, ${seg}, ?)`);
  const args: number[] = new Array(ROWS * 2);
  let i = 0;
  for (; i + ROWS <= docs.length; i += ROWS) {
    for (let j = 0; j < ROWS; j++) {
      args[2 * j] = docs[i + j]!;
      args[2 * j + 1] = lens[i + j]!;
    }
    big.run(args);
  }
  for (; i < docs.length; i++) one.run(docs[i]!, lens[i]!);
}

/**
 * Points the bm25_docs rows of a merge's documents at the merged segment: an UPDATE each (their
 * rows exist; one that does not is inserted), which leaves the same rows as insertDocs with
 * replace would, without deleting and re-inserting every row (and journaling it again).
 */
export function moveDocs(db: Database, seg: number, docs: Float64Array, lens: Int32Array): void {
  const upd = db.prepare(`UPDATE bm25_docs SET seg = ?, len = ? WHERE doc = ?`);
  const ins = db.prepare(`INSERT INTO bm25_docs (doc, seg, len) VALUES (?, ?, ?)`);
  for (let i = 0; i < docs.length; i++) if (upd.run(seg, lens[i]!, docs[i]!).changes === 0) ins.run(docs[i]!, seg, lens[i]!);
}
