/**
 * Reading and writing persisted index segments (layout documented with the tables, migration 1 in src/main/workspace/migrations.ts).
 * Pure storage code: no BM25 logic here.
 */
import type { Database } from 'better-sqlite3';
import { QPairsError } from '../errors';

/** Bump when the segment encoding changes (loading an older format asks for a rebuild). */
export const SEGMENT_FORMAT = '1';

/** Postings chunks are cut at the first term boundary after this many bytes. */
export const CHUNK_BYTES = 8 << 20;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function assertLittleEndian(): void {
  if (!LITTLE_ENDIAN) throw new QPairsError('BM25 index persistence needs a little-endian CPU', { reason: 'big-endian host' });
}

/** One segment, ready to be written. */
export interface SegmentData {
  docs: Float64Array;
  lengths: Int32Array;
  removed: Float64Array;
  terms: string[];
  dfs: Int32Array;
  nPostings: number;
  chunks: PostingsChunk[];
}

export interface PostingsChunk {
  firstTerm: number;
  nTerms: number;
  data: Uint8Array;
}

/** A segment as read back; postings stay encoded until {@link decodePostings}. */
export interface StoredSegment {
  seg: number;
  docs: Float64Array;
  lengths: Int32Array;
  removed: Float64Array;
  /** The segment's terms (readSegments: decoded on every access — read it once). */
  readonly terms: string[];
  dfs: Int32Array;
  nPostings: number;
  /** Its postings (readSegments: read from the database on every access). */
  readonly chunks: PostingsChunk[];
}

/** Growable byte buffer with LEB128 varints. */
export class ByteWriter {
  buf = new Uint8Array(1 << 16);
  n = 0;

  ensure(extra: number): void {
    if (this.n + extra <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.n + extra) cap *= 2;
    const b = new Uint8Array(cap);
    b.set(this.buf.subarray(0, this.n));
    this.buf = b;
  }

  /** Writes v (0 <= v < 2^31) as a varint; the caller has ensured 5 free bytes. */
  varint(v: number): void {
    const b = this.buf;
    let n = this.n;
    while (v >= 0x80) {
      b[n++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[n++] = v;
    this.n = n;
  }

  /** The written bytes (a copy, so the writer can be reused). */
  take(): Uint8Array {
    const out = this.buf.slice(0, this.n);
    this.n = 0;
    return out;
  }
}

/**
 * Decodes a segment's postings into `ords` / `tfs` (n_postings long), in term order; each local
 * document number is mapped to `ordBase + local`.
 */
export function decodePostings(seg: StoredSegment, ordBase: number, ords: Int32Array, tfs: Uint16Array): void {
  let p = 0;
  const dfs = seg.dfs;
  for (const ch of seg.chunks) {
    const data = ch.data;
    let q = 0;
    const endTerm = ch.firstTerm + ch.nTerms;
    for (let t = ch.firstTerm; t < endTerm; t++) {
      const df = dfs[t]!;
      let local = -1;
      for (let j = 0; j < df; j++) {
        let b = data[q++]!;
        let v = b & 0x7f;
        let shift = 7;
        while (b & 0x80) {
          b = data[q++]!;
          v |= (b & 0x7f) << shift;
          shift += 7;
        }
        local += v >>> 1;
        ords[p] = ordBase + local;
        if (v & 1) tfs[p] = 1;
        else {
          b = data[q++]!;
          let tf = b & 0x7f;
          shift = 7;
          while (b & 0x80) {
            b = data[q++]!;
            tf |= (b & 0x7f) << shift;
            shift += 7;
          }
          tfs[p] = tf;
        }
        p++;
      }
    }
    if (q !== data.length) throw corrupt(seg.seg, `postings chunk starting at term ${ch.firstTerm} has ${data.length - q} stray bytes`);
  }
  if (p !== seg.nPostings) throw corrupt(seg.seg, `decoded ${p} postings, expected ${seg.nPostings}`);
}

function corrupt(seg: number, reason: string): QPairsError {
  return new QPairsError(`BM25 index segment ${seg} is corrupt: ${reason}; rebuild the index`, { record: `bm25_segments.seg=${seg}`, reason });
}

function bytes(a: ArrayBufferView): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/** Copies a BLOB into a fresh, aligned typed array. */
function f64(buf: Buffer, n: number, seg: number, what: string): Float64Array {
  if (buf.length !== n * 8) throw corrupt(seg, `${what} has ${buf.length} bytes, expected ${n * 8}`);
  const out = new Float64Array(n);
  new Uint8Array(out.buffer).set(buf);
  return out;
}

function i32(buf: Buffer, n: number, seg: number, what: string): Int32Array {
  if (buf.length !== n * 4) throw corrupt(seg, `${what} has ${buf.length} bytes, expected ${n * 4}`);
  const out = new Int32Array(n);
  new Uint8Array(out.buffer).set(buf);
  return out;
}

/** Writes one segment (and its postings chunks); returns its `seg` id. Call inside a transaction. */
export function writeSegment(db: Database, s: SegmentData): number {
  const info = db
    .prepare(
      `INSERT INTO bm25_segments (created, n_docs, n_removed, n_terms, n_postings, docs, lengths, removed, terms, dfs)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      new Date().toISOString(),
      s.docs.length,
      s.removed.length,
      s.terms.length,
      s.nPostings,
      bytes(s.docs),
      bytes(s.lengths),
      bytes(s.removed),
      Buffer.from(s.terms.join('\n'), 'utf8'),
      bytes(s.dfs),
    );
  const seg = Number(info.lastInsertRowid);
  const ins = db.prepare(`INSERT INTO bm25_postings (seg, chunk, first_term, n_terms, data) VALUES (?, ?, ?, ?, ?)`);
  s.chunks.forEach((c, i) => ins.run(seg, i, c.firstTerm, c.nTerms, bytes(c.data)));
  return seg;
}

/** Ids of the stored segments, ascending. */
export function segmentIds(db: Database): number[] {
  return db.prepare(`SELECT seg FROM bm25_segments ORDER BY seg`).pluck().all() as number[];
}

/**
 * Reads every stored segment (or those from `fromSeg` on) in `seg` order. Memory: the postings and
 * the term list of a segment are its largest parts, so they are read when asked for — `terms` and
 * `chunks` decode (and check) on every access, from the row kept / from the database — and a
 * reader that goes through the segments one by one never holds every segment's postings or terms
 * at once (at 1M questions: 123 segments, ~120 MB of postings, ~3.5M term strings). The database
 * must stay open and unchanged while they are read.
 */
export function readSegments(db: Database, fromSeg = 0): StoredSegment[] {
  const rows = db
    .prepare(
      `SELECT seg, n_docs, n_removed, n_terms, n_postings, docs, lengths, removed, terms, dfs FROM bm25_segments WHERE seg >= ? ORDER BY seg`,
    )
    .all(fromSeg) as Array<{
    seg: number;
    n_docs: number;
    n_removed: number;
    n_terms: number;
    n_postings: number;
    docs: Buffer;
    lengths: Buffer;
    removed: Buffer;
    terms: Buffer;
    dfs: Buffer;
  }>;
  const chunkStmt = db.prepare(`SELECT first_term, n_terms, data FROM bm25_postings WHERE seg = ? ORDER BY chunk`);
  return rows.map((r) => {
    const readTerms = (): string[] => {
      const terms = r.n_terms === 0 ? [] : r.terms.toString('utf8').split('\n');
      if (terms.length !== r.n_terms) throw corrupt(r.seg, `${terms.length} terms stored, expected ${r.n_terms}`);
      return terms;
    };
    const readChunks = (): PostingsChunk[] => {
      const chunks = (chunkStmt.all(r.seg) as Array<{ first_term: number; n_terms: number; data: Buffer }>).map((c) => ({
        firstTerm: c.first_term,
        nTerms: c.n_terms,
        // a plain Uint8Array view (element access on the Buffer subclass is slower)
        data: new Uint8Array(c.data.buffer, c.data.byteOffset, c.data.byteLength),
      }));
      let next = 0;
      for (const c of chunks) {
        if (c.firstTerm !== next) throw corrupt(r.seg, `postings chunk starts at term ${c.firstTerm}, expected ${next}`);
        next += c.nTerms;
      }
      if (next !== r.n_terms) throw corrupt(r.seg, `postings cover ${next} terms, expected ${r.n_terms}`);
      return chunks;
    };
    return {
      seg: r.seg,
      docs: f64(r.docs, r.n_docs, r.seg, 'docs'),
      lengths: i32(r.lengths, r.n_docs, r.seg, 'lengths'),
      removed: f64(r.removed, r.n_removed, r.seg, 'removed'),
      get terms() {
        return readTerms();
      },
      dfs: i32(r.dfs, r.n_terms, r.seg, 'dfs'),
      nPostings: r.n_postings,
      get chunks() {
        return readChunks();
      },
    };
  });
}

export function readMeta(db: Database): Map<string, string> {
  const rows = db.prepare(`SELECT key, value FROM bm25_meta`).all() as Array<{ key: string; value: string }>;
  return new Map(rows.map((r) => [r.key, r.value]));
}

export function writeMeta(db: Database, values: Record<string, string>): void {
  const st = db.prepare(`INSERT INTO bm25_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`);
  for (const [k, v] of Object.entries(values)) st.run(k, v);
}

/** Deletes the whole persisted index (segments, postings, doc list, meta). */
export function clearStored(db: Database): void {
  db.transaction(() => {
    db.exec(`DELETE FROM bm25_postings; DELETE FROM bm25_segments; DELETE FROM bm25_docs; DELETE FROM bm25_meta;`);
  })();
}
