/**
 * In-memory BM25 inverted index over question title + body, persisted in the workspace database
 * as append-only segments (tables and layout: src/main/workspace/migrations.ts, migration 1).
 *
 * Scoring is Lucene's BM25Similarity (Lucene >= 8), with these parameters (defaults k1 = 1.2,
 * b = 0.75), for a query q and document d:
 *
 *   N      = number of indexed documents with at least one token (Lucene's docCount)
 *   n(t)   = number of those documents containing t (docFreq)
 *   len(d) = number of tokens of d (title + body, after stop-word removal)
 *   dl(d)  = len(d) as Lucene 8 stores it, in one byte (./length-norm.ts: exact up to 40 tokens,
 *            then rounded down to 4 significant bits, up to ~11% shorter); with
 *            `lengthNorm: 'exact'`, len(d) itself
 *   avgdl  = sum of len over indexed documents / N (exact, as Lucene's sumTotalTermFreq / docCount)
 *   idf(t) = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))
 *   tf(t,d)= occurrences of t in d
 *   score(q, d) = Σ_{t in q} qtf(t) · idf(t) · tf(t,d) / (tf(t,d) + k1 · (1 - b + b · dl(d) / avgdl))
 *
 * - Lucene >= 8 dropped the constant (k1 + 1) factor of classic BM25 from the numerator: it does
 *   not change rankings, and we drop it too, so scores equal Lucene's.
 * - qtf(t) is how often t occurs in the query: a repeated query term counts again, as with
 *   Lucene's QueryParser, which turns "foo foo bar" into a BooleanQuery with two SHOULD clauses
 *   for foo, summed (newer Lucene versions rewrite duplicate SHOULD clauses into one clause with
 *   the summed boost: same score). Tested.
 * - Tokens: the analyzer's (./analyzers.ts, default `lucene-standard-stop`), the same as
 *   Lucene 8's analysis chain gives.
 * - Differences from Lucene: (1) we compute in float64 (Lucene in float32: scores agree to about
 *   1e-6 relative, and documents whose float32 scores tie may come in another order); (2) a term
 *   repeated more than 65,535 times in one document counts as 65,535 (tf is stored in 16 bits;
 *   the tf part is then within 2e-5 of 1 anyway). Checked against real Lucene 8.8.1 on the shared
 *   corpora (lucene-parity.test.ts).
 * - Documents with no token at all (empty, or only stop words) are indexed (`has` is true) but
 *   never match and do not count in N or avgdl (as in Lucene, where such a doc has no field).
 * - Results: documents matching at least one query term (their score is > 0), best first;
 *   equal scores are ordered by doc number ascending. Query terms are accumulated in a fixed
 *   order (by n(t), then the term), so results do not depend on how the index was built.
 *
 * Internals: every indexed document version gets an *ordinal* (0, 1, 2, ... in indexing order;
 * re-indexing a document gives it a new ordinal and retires the old one). Postings are kept as
 * one CSR structure (per term, ascending ordinals in an Int32Array plus tfs in a Uint16Array);
 * documents added since the last merge sit in a pending list (blocks of flat typed arrays) that
 * is merged (dropping retired ordinals) lazily before the next search, persist or stats — so
 * adding documents one at a time is cheap, but alternating single adds with searches costs a
 * merge, O(postings), each. Terms get dense ids from a TermDict, looked up straight from the
 * tokenizer's scan (no substring per token). Search is term-at-a-time into a Float64Array of
 * accumulators with precomputed per-document length norms, then a bounded heap for the top k
 * (see scoreTerms).
 *
 * Memory: about 6 bytes per posting plus ~40 bytes per document and the term strings (200k
 * questions of ~50 tokens: ~9M postings, ~70 MB).
 */
import type { Database } from 'better-sqlite3';
import { QPairsError, throwIfAborted } from '../errors';
import { Tokenizer, type TokenizerOptions } from './tokenizer';
import { DEFAULT_ANALYZER, type AnalyzerName } from './analyzers';
import { storedSettings, withStoredSettings } from './stored-settings';
import { scoredLength } from './length-norm';
import { TermDict } from './term-dict';
import { TopK } from './top-k';
import {
  assertLittleEndian,
  ByteWriter,
  CHUNK_BYTES,
  clearStored,
  decodePostings,
  readMeta,
  readSegments,
  SEGMENT_FORMAT,
  segmentIds,
  writeMeta,
  writeSegment,
  type PostingsChunk,
  type SegmentData,
  type StoredSegment,
} from './segments';

export interface Bm25Document {
  /** `questions.doc`: any safe integer. */
  doc: number;
  title: string;
  body: string;
}

export interface Bm25Hit {
  doc: number;
  score: number;
}

export interface Bm25Options {
  /** Term-frequency saturation, default 1.2 (must be finite and >= 0). */
  k1?: number;
  /** Length normalisation, default 0.75 (0..1). */
  b?: number;
  tokenizer?: TokenizerOptions;
  /** The analyzer (./analyzers.ts); shorthand for `tokenizer.analyzer`. */
  analyzer?: AnalyzerName;
  /**
   * Document lengths as BM25 scores them: 'lucene' (default) rounds them as Lucene 8's one-byte
   * norm does (./length-norm.ts); 'exact' uses the exact token counts. Search-time only.
   */
  lengthNorm?: 'lucene' | 'exact';
  /** `persist` compacts into one segment instead of appending an (n+1)-th. Default 10. */
  maxSegments?: number;
  /** Persisted postings are cut into BLOB chunks of about this many bytes. Default 8 MiB. */
  chunkBytes?: number;
  /**
   * How search finds the matching documents (see scoreTerms): 'auto' (default) picks per query;
   * 'dense' / 'sparse' force one (for tests and benchmarks; results are identical).
   */
  scanMode?: 'auto' | 'dense' | 'sparse';
}

export interface ProgressOptions {
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface AddOptions extends ProgressOptions {
  /** Number of documents, for progress when `docs` is not an array (0 = unknown). */
  total?: number;
}

export interface SearchOptions {
  /** Doc numbers never to return (e.g. the query question itself). */
  exclude?: Iterable<number>;
}

export interface Bm25Stats {
  /** Indexed documents. */
  docs: number;
  /** Indexed documents with at least one token (N in the idf). */
  nonEmptyDocs: number;
  /** Distinct terms with at least one posting. */
  terms: number;
  postings: number;
  /** Total tokens over indexed documents. */
  tokens: number;
  /** Average document length over non-empty documents (0 when there are none). */
  avgdl: number;
  /** Segments in the database this index was loaded from / last persisted to. */
  segments: number;
  /** Documents added, re-indexed or removed since the last persist (or load). */
  unpersistedChanges: number;
  k1: number;
  b: number;
  analyzer: AnalyzerName;
  lengthNorm: 'lucene' | 'exact';
}

export interface PersistResult {
  /** 'append': one new segment; 'rewrite': everything as one segment; 'unchanged': nothing to do. */
  mode: 'append' | 'rewrite' | 'unchanged';
  /** Documents written (live docs of the new segment). */
  docs: number;
  /** Bytes of BLOB data written. */
  bytes: number;
}

const TF_MAX = 65535;
/** Entries per pending-postings block. */
const BLOCK = 1 << 18;

interface PendingBlock {
  term: Int32Array;
  ord: Int32Array;
  tf: Uint16Array;
  n: number;
}

function grow<T extends Int32Array | Float64Array | Uint8Array | Uint16Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  let cap = Math.max(16, a.length * 2);
  while (cap < need) cap *= 2;
  const b = new (a.constructor as { new (n: number): T })(cap);
  b.set(a as never);
  return b;
}

export class Bm25Index {
  readonly k1: number;
  readonly b: number;
  readonly tokenizer: Tokenizer;
  readonly lengthNorm: 'lucene' | 'exact';
  /**
   * True when the workspace held an index this version cannot use (built by an older QPairs, or
   * in an older format): this index was loaded empty instead, and syncing it with the questions
   * and persisting it rebuilds the stored one.
   */
  outdated = false;
  readonly maxSegments: number;
  private readonly chunkBytes: number;
  private readonly scanMode: 'auto' | 'dense' | 'sparse';

  // Term dictionary.
  private readonly dict = new TermDict();
  private readonly termStr: string[] = this.dict.terms;

  // Per ordinal.
  private nOrd = 0;
  private ordDoc: Float64Array = new Float64Array(1024);
  private ordLen: Int32Array = new Int32Array(1024);
  private alive: Uint8Array = new Uint8Array(1024);
  private readonly docOrd = new Map<number, number>();
  private nLive = 0;
  private nNonEmpty = 0;
  private totalLen = 0;

  // Merged postings (CSR over term ids < off.length - 1).
  private off: Int32Array = new Int32Array(1);
  private pOrd: Int32Array = new Int32Array(0);
  private pTf: Uint16Array = new Uint16Array(0);
  private nTermsWithPostings = 0;

  // Pending postings (added since the last merge), in ordinal order.
  // Stored in fixed-size blocks so that growing never copies.
  private qBlocks: PendingBlock[] = [];
  private nq = 0;
  private retiredSinceMerge = false;

  // Scoring state, valid for normsFor === nOrd and normsDirty false.
  private normK: Float64Array = new Float64Array(0);
  private acc: Float64Array = new Float64Array(0);
  private excluded: Uint8Array = new Uint8Array(0);
  private touched: Int32Array = new Int32Array(0);
  private normsDirty = true;

  // Scratch for counting term frequencies.
  private tfScratch: Int32Array = new Int32Array(1024);
  private termScratch: Int32Array = new Int32Array(1024);
  private readonly ids: number[] = [];

  // Persistence state.
  private persistedMark = 0; // ordinals < mark are in the database
  private readonly removedSincePersist = new Set<number>();
  private knownSegs: number[] = [];
  private persistedSuperseded = 0; // retired ordinals still stored in segments
  private changesSincePersist = 0;

  constructor(opts: Bm25Options = {}) {
    const k1 = opts.k1 ?? 1.2;
    const b = opts.b ?? 0.75;
    if (!Number.isFinite(k1) || k1 < 0) throw new QPairsError(`BM25 k1 must be a finite number >= 0, got ${k1}`, { reason: 'bad k1' });
    if (!Number.isFinite(b) || b < 0 || b > 1) throw new QPairsError(`BM25 b must be in [0, 1], got ${b}`, { reason: 'bad b' });
    const ms = opts.maxSegments ?? 10;
    if (!Number.isInteger(ms) || ms < 1) throw new QPairsError(`maxSegments must be a positive integer, got ${ms}`, { reason: 'bad maxSegments' });
    this.k1 = k1;
    this.b = b;
    this.maxSegments = ms;
    this.chunkBytes = Math.max(1, opts.chunkBytes ?? CHUNK_BYTES);
    this.scanMode = opts.scanMode ?? 'auto';
    this.tokenizer = new Tokenizer(opts.analyzer !== undefined ? { ...opts.tokenizer, analyzer: opts.analyzer } : opts.tokenizer);
    const ln = opts.lengthNorm ?? 'lucene';
    if (ln !== 'lucene' && ln !== 'exact') throw new QPairsError(`lengthNorm must be 'lucene' or 'exact', got ${String(ln)}`, { reason: 'bad lengthNorm' });
    this.lengthNorm = ln;
  }

  // ---------------------------------------------------------------- building

  /**
   * Indexes documents (title + body). A doc number that is already indexed is re-indexed: its
   * new text replaces the old one (also when it occurs twice in `docs`: the last one wins).
   * All or nothing: on error or abort (CancelledError) the index is left as it was.
   * Returns the number of documents read.
   */
  addDocuments(docs: Iterable<Bm25Document>, opts: AddOptions = {}): number {
    const { onProgress, signal } = opts;
    throwIfAborted(signal);
    const total = opts.total ?? (Array.isArray(docs) ? docs.length : 0);
    const startOrd = this.nOrd;
    const startQ = this.nq;
    const startBlocks = this.qBlocks.length;
    const startBlockN = startBlocks > 0 ? this.qBlocks[startBlocks - 1]!.n : 0;
    const startTerms = this.termStr.length;
    const ids = this.ids;
    const tok = this.tokenizer;
    const dict = this.dict;
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
        const ord = this.nOrd++;
        if (ord >= this.ordDoc.length) {
          this.ordDoc = grow(this.ordDoc, ord + 1);
          this.ordLen = grow(this.ordLen, ord + 1);
          this.alive = grow(this.alive, ord + 1);
        }
        this.ordDoc[ord] = d.doc;
        this.ordLen[ord] = ids.length;
        this.alive[ord] = 0;
        let tfs = this.tfScratch;
        let dt = this.termScratch;
        if (dt.length < ids.length) dt = this.termScratch = grow(dt, ids.length);
        if (tfs.length < dict.size) tfs = this.tfScratch = grow(tfs, dict.size);
        let nd = 0;
        for (let i = 0; i < ids.length; i++) {
          const id = ids[i]!;
          if (tfs[id]++ === 0) dt[nd++] = id;
        }
        let blk = this.qBlocks[this.qBlocks.length - 1];
        if (blk === undefined || blk.n + nd > blk.term.length) {
          const cap = Math.max(BLOCK, nd);
          blk = { term: new Int32Array(cap), ord: new Int32Array(cap), tf: new Uint16Array(cap), n: 0 };
          this.qBlocks.push(blk);
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
        this.nq += q - blk.n;
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
      this.nOrd = startOrd;
      this.nq = startQ;
      this.qBlocks.length = startBlocks;
      if (startBlocks > 0) this.qBlocks[startBlocks - 1]!.n = startBlockN;
      this.tfScratch.fill(0);
      throw e;
    }
    // Commit: later versions retire earlier ones.
    for (let ord = startOrd; ord < this.nOrd; ord++) {
      const doc = this.ordDoc[ord]!;
      const old = this.docOrd.get(doc);
      if (old !== undefined) this.retire(old);
      this.docOrd.set(doc, ord);
      this.alive[ord] = 1;
      const len = this.ordLen[ord]!;
      this.nLive++;
      this.totalLen += len;
      if (len > 0) this.nNonEmpty++;
      this.removedSincePersist.delete(doc);
    }
    this.changesSincePersist += count;
    this.normsDirty = true;
    onProgress?.(count, total);
    return count;
  }

  /** Removes documents from the index; unknown doc numbers are ignored. Returns how many were removed. */
  removeDocuments(docs: Iterable<number>): number {
    let n = 0;
    for (const doc of docs) {
      const ord = this.docOrd.get(doc);
      if (ord === undefined) continue;
      this.retire(ord);
      this.docOrd.delete(doc);
      this.removedSincePersist.add(doc);
      this.changesSincePersist++;
      n++;
    }
    if (n > 0) this.normsDirty = true;
    return n;
  }

  /** True when `doc` is indexed. */
  has(doc: number): boolean {
    return this.docOrd.has(doc);
  }

  /** Doc numbers of all indexed documents, in indexing order. */
  docs(): number[] {
    return [...this.docOrd.keys()];
  }

  private retire(ord: number): void {
    this.alive[ord] = 0;
    const len = this.ordLen[ord]!;
    this.nLive--;
    this.totalLen -= len;
    if (len > 0) {
      this.nNonEmpty--;
      this.retiredSinceMerge = true;
    }
    if (ord < this.persistedMark) this.persistedSuperseded++;
  }

  /** Merges pending postings into the CSR (dropping retired ordinals) and refreshes norms. */
  private flush(): void {
    if (this.nq > 0 || this.retiredSinceMerge) this.merge();
    if (this.normsDirty) this.refreshNorms();
  }

  private merge(): void {
    const nT = this.termStr.length;
    const oldT = this.off.length - 1;
    const off = this.off;
    const pOrd = this.pOrd;
    const pTf = this.pTf;
    const alive = this.alive;
    const filter = this.retiredSinceMerge;
    const blocks = this.qBlocks;
    // Count postings per term: base (live) + pending (live).
    const baseCnt = new Int32Array(nT);
    const newOff = new Int32Array(nT + 1);
    for (let t = 0; t < oldT; t++) {
      let c = off[t + 1]! - off[t]!;
      if (filter) {
        c = 0;
        for (let p = off[t]!; p < off[t + 1]!; p++) c += alive[pOrd[p]!]!;
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
    const nOrd = new Int32Array(total);
    const nTf = new Uint16Array(total);
    const cursor = new Int32Array(nT);
    for (let t = 0; t < nT; t++) {
      let w = newOff[t]!;
      if (t < oldT) {
        const a = off[t]!;
        const e = off[t + 1]!;
        if (!filter) {
          if (e > a) {
            nOrd.set(pOrd.subarray(a, e), w);
            nTf.set(pTf.subarray(a, e), w);
            w += e - a;
          }
        } else {
          for (let p = a; p < e; p++) {
            const o = pOrd[p]!;
            if (alive[o]) {
              nOrd[w] = o;
              nTf[w] = pTf[p]!;
              w++;
            }
          }
        }
      }
      cursor[t] = w;
    }
    for (const { term: qT, ord: qO, tf: qF, n } of blocks) {
      for (let p = 0; p < n; p++) {
        const o = qO[p]!;
        if (filter && !alive[o]) continue;
        const w = cursor[qT[p]!]!++;
        nOrd[w] = o;
        nTf[w] = qF[p]!;
      }
    }
    this.off = newOff;
    this.pOrd = nOrd;
    this.pTf = nTf;
    this.nTermsWithPostings = nonEmpty;
    this.nq = 0;
    this.qBlocks = [];
    this.retiredSinceMerge = false;
    this.normsDirty = true;
  }

  private refreshNorms(): void {
    const n = this.nOrd;
    if (this.normK.length < n) {
      const cap = Math.max(n, Math.ceil(this.normK.length * 1.5));
      this.normK = new Float64Array(cap);
      this.acc = new Float64Array(cap);
      this.excluded = new Uint8Array(cap);
      this.touched = new Int32Array(cap);
    }
    const avgdl = this.nNonEmpty > 0 ? this.totalLen / this.nNonEmpty : 0;
    const { k1, b } = this;
    const len = this.ordLen;
    const norm = this.normK;
    const exact = this.lengthNorm === 'exact';
    if (avgdl > 0) for (let o = 0; o < n; o++) norm[o] = k1 * (1 - b + (b * scoredLength(len[o]!, exact)) / avgdl);
    this.normsDirty = false;
  }

  // ---------------------------------------------------------------- searching

  /**
   * The top `k` documents for a free-text query (tokenized like the documents), best first;
   * see the module comment for the score and the tie order. Returns fewer than k when fewer
   * documents match a query term; [] for an empty query or index.
   */
  search(text: string, k: number, opts: SearchOptions = {}): Bm25Hit[] {
    if (!Number.isInteger(k) || k < 0) throw new QPairsError(`search: k must be a non-negative integer, got ${k}`, { reason: 'bad k' });
    if (typeof text !== 'string') throw new QPairsError(`search: query text must be a string`, { reason: 'bad query' });
    this.flush();
    if (k === 0 || this.nNonEmpty === 0) return [];
    const ids = this.ids;
    ids.length = 0;
    this.tokenizer.tokenizeToIds(text, this.dict, false, ids);
    return this.searchIds(ids, k, opts.exclude);
  }

  /**
   * The top `k` OTHER documents for an indexed (or any) question used as the query: its title
   * and body are tokenized exactly as when indexing, and `q.doc` itself is excluded.
   */
  searchDocument(q: Bm25Document, k: number): Bm25Hit[] {
    if (!Number.isInteger(k) || k < 0) throw new QPairsError(`search: k must be a non-negative integer, got ${k}`, { reason: 'bad k' });
    this.flush();
    if (k === 0 || this.nNonEmpty === 0) return [];
    const ids = this.ids;
    ids.length = 0;
    this.tokenizer.tokenizeToIds(q.title, this.dict, false, ids);
    this.tokenizer.tokenizeToIds(q.body, this.dict, false, ids);
    return this.searchIds(ids, k, [q.doc]);
  }

  private searchIds(ids: number[], k: number, exclude: Iterable<number> | undefined): Bm25Hit[] {
    // Distinct known query terms with their query frequency.
    const qtf = new Map<number, number>();
    const nT = this.off.length - 1;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (id >= nT) continue;
      qtf.set(id, (qtf.get(id) ?? 0) + 1);
    }
    const off = this.off;
    const terms: { id: number; df: number; w: number; str: string }[] = [];
    const N = this.nNonEmpty;
    for (const [id, f] of qtf) {
      const df = off[id + 1]! - off[id]!;
      if (df === 0) continue;
      const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5));
      terms.push({ id, df, w: f * idf, str: this.termStr[id]! });
    }
    if (terms.length === 0) return [];
    // Fixed accumulation order: rarest first, then by term text (independent of term ids).
    terms.sort((a, b) => a.df - b.df || (a.str < b.str ? -1 : a.str > b.str ? 1 : 0));

    const excl = this.excluded;
    const exOrds: number[] = [];
    if (exclude) {
      for (const doc of exclude) {
        const o = this.docOrd.get(doc);
        if (o !== undefined && !excl[o]) {
          excl[o] = 1;
          exOrds.push(o);
        }
      }
    }
    try {
      return this.scoreTerms(terms, k);
    } finally {
      for (const o of exOrds) excl[o] = 0;
    }
  }

  /**
   * Term-at-a-time, exhaustive: every posting of every query term is added to a Float64Array
   * accumulator (rarest term first). Two ways to find the touched documents afterwards, chosen
   * per query: *sparse* keeps a touched list (best when the query's postings are few compared to
   * the number of documents); *dense* skips that bookkeeping in the hot loop and scans all
   * accumulators once at the end, then clears them with a memset (about 2x faster for long
   * queries full of common words, which is what question-as-query retrieval is). Both compute
   * the same sums in the same order, so results are identical. (Exact MaxScore pruning was tried
   * and dropped: on verbose question queries the candidate sets stay large and it was slower.)
   */
  private scoreTerms(terms: { id: number; df: number; w: number }[], k: number): Bm25Hit[] {
    const acc = this.acc;
    const norm = this.normK;
    const pOrd = this.pOrd;
    const pTf = this.pTf;
    const off = this.off;
    const excl = this.excluded;
    const ordDoc = this.ordDoc;
    const nOrd = this.nOrd;
    let totalDf = 0;
    for (const t of terms) totalDf += t.df;
    const dense = this.scanMode === 'dense' || (this.scanMode === 'auto' && totalDf * 4 > nOrd);
    const top = new TopK(k);
    if (dense) {
      for (const { id, w } of terms) {
        const e = off[id + 1]!;
        for (let p = off[id]!; p < e; p++) {
          const o = pOrd[p]!;
          const tf = pTf[p]!;
          acc[o] = acc[o]! + (w * tf) / (tf + norm[o]!);
        }
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
    const touched = this.touched;
    let nTouched = 0;
    for (const { id, w } of terms) {
      const e = off[id + 1]!;
      for (let p = off[id]!; p < e; p++) {
        const o = pOrd[p]!;
        const tf = pTf[p]!;
        const a = acc[o]!;
        if (a === 0) touched[nTouched++] = o;
        acc[o] = a + (w * tf) / (tf + norm[o]!);
      }
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

  /** Number of indexed documents containing `term` (a token as the tokenizer produces it). */
  docFreq(term: string): number {
    this.flush();
    const id = this.dict.get(term);
    if (id < 0 || id >= this.off.length - 1) return 0;
    return this.off[id + 1]! - this.off[id]!;
  }

  /** Index statistics (merges pending additions first). */
  get stats(): Bm25Stats {
    this.flush();
    return {
      docs: this.nLive,
      nonEmptyDocs: this.nNonEmpty,
      terms: this.nTermsWithPostings,
      postings: this.pOrd.length,
      tokens: this.totalLen,
      avgdl: this.nNonEmpty > 0 ? this.totalLen / this.nNonEmpty : 0,
      segments: this.knownSegs.length,
      unpersistedChanges: this.changesSincePersist,
      k1: this.k1,
      b: this.b,
      analyzer: this.tokenizer.analyzer,
      lengthNorm: this.lengthNorm,
    };
  }

  // ---------------------------------------------------------------- persistence

  /**
   * Loads the index persisted in a workspace database (an empty index when there is none), with
   * the analyzer and tokenizer settings it was built with unless `opts` names them. An index
   * built by an older QPairs (other tokens, older format) loads as an empty index marked
   * {@link outdated}: sync it with the questions and persist it to rebuild. Throws QPairsError
   * when `opts` names tokenizer settings other than those of a current stored index.
   */
  static load(db: Database, opts: Bm25Options = {}): Bm25Index {
    assertLittleEndian();
    const stored = storedSettings(readMeta(db));
    const segs = stored.outdated ? [] : readSegments(db);
    const idx = new Bm25Index(withStoredSettings(opts, stored));
    if (stored.outdated && segmentIds(db).length > 0) {
      idx.outdated = true;
      return idx;
    }
    if (segs.length === 0) return idx;
    idx.checkStored(readMeta(db));
    idx.loadSegments(segs);
    return idx;
  }

  /** The analyzer of the workspace's stored index (the default when there is none). */
  static storedAnalyzer(db: Database): AnalyzerName {
    return storedSettings(readMeta(db)).analyzer ?? DEFAULT_ANALYZER;
  }

  /** Throws unless the persisted index was written in this format with this index's tokenizer. */
  private checkStored(meta: Map<string, string>): void {
    if (meta.get('format') !== SEGMENT_FORMAT)
      throw new QPairsError(`the BM25 index in this workspace has format ${meta.get('format') ?? '(none)'}, this version reads ${SEGMENT_FORMAT}; rebuild the index`, {
        record: 'bm25_meta.format',
        reason: 'format mismatch',
      });
    if (meta.get('tokenizer') !== this.tokenizer.signature)
      throw new QPairsError(`the BM25 index in this workspace was built with other tokenizer settings (${meta.get('tokenizer') ?? '(none)'}); rebuild the index`, {
        record: 'bm25_meta.tokenizer',
        reason: 'tokenizer mismatch',
      });
  }

  /** What bm25_meta records of this index. */
  private metaValues(): Record<string, string> {
    return { format: SEGMENT_FORMAT, tokenizer: this.tokenizer.signature, analyzer: this.tokenizer.analyzer };
  }

  /**
   * Adds documents to the index persisted in `db` as ONE new segment, without loading that index:
   * the work is proportional to `docs` alone, so an import indexes its questions in bounded
   * chunks. A document already indexed gets its new version (a later segment wins when loading).
   * Call inside the caller's transaction. An index loaded from `db` earlier is stale afterwards
   * (its next persist would rewrite everything): load it again.
   */
  static appendSegment(db: Database, docs: Iterable<Bm25Document>, opts: Bm25Options = {}): PersistResult {
    assertLittleEndian();
    const stored = storedSettings(readMeta(db));
    const idx = new Bm25Index(withStoredSettings(opts, stored));
    let fresh = !db.prepare(`SELECT 1 FROM bm25_segments LIMIT 1`).get();
    if (!fresh && stored.outdated) {
      // An index of an older QPairs: start over (questions not in this segment are indexed by
      // the next sync, see queries.ts syncWithQuestions).
      clearStored(db);
      fresh = true;
    }
    if (!fresh) idx.checkStored(readMeta(db));
    idx.addDocuments(docs);
    if (idx.nLive === 0) return { mode: 'unchanged', docs: 0, bytes: 0 };
    idx.flush();
    const data = idx.segmentData(0, []);
    db.transaction(() => {
      if (fresh) writeMeta(db, idx.metaValues());
      const seg = writeSegment(db, data);
      insertDocs(db, seg, data.docs, data.lengths, true);
    })();
    return { mode: 'append', docs: data.docs.length, bytes: segmentBytes(data) };
  }

  /**
   * Merges the trailing run of small segments (at most `smallDocs` documents each, no removals)
   * into one segment when the run has `minSegments` or more: only those segments are read and
   * written, so the work is bounded (about minSegments × smallDocs documents), and appending
   * segment after segment keeps their number logarithmic-ish instead of growing with every
   * chunk. Call inside the caller's transaction. Returns what was merged, or null.
   */
  static mergeTail(db: Database, opts: Bm25Options & { minSegments?: number; smallDocs?: number } = {}): { segments: number; docs: number } | null {
    assertLittleEndian();
    const min = Math.max(2, opts.minSegments ?? 8);
    const small = opts.smallDocs ?? 4096;
    const tail = db.prepare(`SELECT seg, n_docs, n_removed FROM bm25_segments ORDER BY seg DESC LIMIT 256`).all() as Array<{
      seg: number;
      n_docs: number;
      n_removed: number;
    }>;
    let k = 0;
    while (k < tail.length && tail[k]!.n_docs <= small && tail[k]!.n_removed === 0) k++;
    if (k < min) return null;
    const from = tail[k - 1]!.seg;
    const stored = storedSettings(readMeta(db));
    if (stored.outdated) return null;
    const idx = new Bm25Index(withStoredSettings(opts, stored));
    idx.checkStored(readMeta(db));
    idx.loadSegments(readSegments(db, from));
    idx.flush();
    const data = idx.segmentData(0, []);
    db.transaction(() => {
      const seg = writeSegment(db, data);
      db.prepare(`DELETE FROM bm25_postings WHERE seg >= ? AND seg < ?`).run(from, seg);
      db.prepare(`DELETE FROM bm25_segments WHERE seg >= ? AND seg < ?`).run(from, seg);
      insertDocs(db, seg, data.docs, data.lengths, true);
    })();
    return { segments: k, docs: data.docs.length };
  }

  /** Replays stored segments (in `seg` order) into this empty index. */
  /**
   * Replays stored segments into this (empty) index. Memory: the documents of every segment are
   * read first (so which ordinals stay alive is known), then each segment's postings are decoded
   * twice, one segment at a time — once to count the live postings per term, once to copy them into
   * the merged CSR — so the peak is the CSR plus one segment's decoded postings, not every segment's
   * decoded postings beside the CSR (at 1M questions that halved the postings' share of the peak).
   * A single segment with nothing superseded is decoded once, straight into the CSR.
   */
  private loadSegments(segs: StoredSegment[]): void {
    const idx = this;
    const bases: number[] = [];
    const gidsOf: Int32Array[] = [];
    for (const s of segs) {
      for (let i = 0; i < s.removed.length; i++) {
        const doc = s.removed[i]!;
        const o = idx.docOrd.get(doc);
        if (o !== undefined) {
          idx.retire(o);
          idx.docOrd.delete(doc);
        }
      }
      const base = idx.nOrd;
      const nd = s.docs.length;
      idx.ordDoc = grow(idx.ordDoc, base + nd);
      idx.ordLen = grow(idx.ordLen, base + nd);
      idx.alive = grow(idx.alive, base + nd);
      idx.ordDoc.set(s.docs, base);
      idx.ordLen.set(s.lengths, base);
      for (let i = 0; i < nd; i++) {
        const ord = base + i;
        const doc = s.docs[i]!;
        const old = idx.docOrd.get(doc);
        if (old !== undefined) idx.retire(old);
        idx.docOrd.set(doc, ord);
        idx.alive[ord] = 1;
        const len = s.lengths[i]!;
        idx.nLive++;
        idx.totalLen += len;
        if (len > 0) idx.nNonEmpty++;
      }
      idx.nOrd = base + nd;
      const gids = new Int32Array(s.terms.length);
      for (let t = 0; t < s.terms.length; t++) gids[t] = idx.dict.intern(s.terms[t]!);
      bases.push(base);
      gidsOf.push(gids);
    }
    idx.buildFromSegments(segs, bases, gidsOf);
    idx.persistedMark = idx.nOrd;
    idx.persistedSuperseded = idx.nOrd - idx.nLive;
    idx.knownSegs = segs.map((s) => s.seg);
    idx.changesSincePersist = 0;
    idx.retiredSinceMerge = false;
    idx.refreshNorms();
  }

  /** Builds the CSR from stored segments (in segment order, so ordinals ascend per term); see loadSegments. */
  private buildFromSegments(segs: readonly StoredSegment[], bases: readonly number[], gidsOf: readonly Int32Array[]): void {
    const nT = this.termStr.length;
    const alive = this.alive;
    const decode = (k: number) => {
      const s = segs[k]!;
      const ords = new Int32Array(s.nPostings);
      const tfs = new Uint16Array(s.nPostings);
      decodePostings(s, bases[k]!, ords, tfs);
      return { dfs: s.dfs, ords, tfs };
    };
    if (segs.length === 1 && this.nLive === this.nOrd) {
      // One segment, nothing superseded: its postings are the CSR (term ids = segment order).
      const { dfs, ords, tfs } = decode(0);
      const off = new Int32Array(nT + 1);
      let ne = 0;
      for (let t = 0; t < nT; t++) {
        off[t + 1] = off[t]! + dfs[t]!;
        if (dfs[t]! > 0) ne++;
      }
      this.off = off;
      this.pOrd = ords;
      this.pTf = tfs;
      this.nTermsWithPostings = ne;
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
    }
    let ne = 0;
    for (let t = 0; t < nT; t++) {
      if (off[t + 1]! > 0) ne++;
      off[t + 1]! += off[t]!;
    }
    const pOrd = new Int32Array(off[nT]!);
    const pTf = new Uint16Array(off[nT]!);
    const cursor = off.slice(0, nT);
    for (let k = 0; k < segs.length; k++) {
      const { dfs, ords, tfs } = decode(k);
      const gids = gidsOf[k]!;
      let p = 0;
      for (let t = 0; t < gids.length; t++) {
        const df = dfs[t]!;
        let w = cursor[gids[t]!]!;
        for (let j = 0; j < df; j++, p++) {
          const o = ords[p]!;
          if (alive[o]) {
            pOrd[w] = o;
            pTf[w] = tfs[p]!;
            w++;
          }
        }
        cursor[gids[t]!] = w;
      }
    }
    this.off = off;
    this.pOrd = pOrd;
    this.pTf = pTf;
    this.nTermsWithPostings = ne;
  }

  /**
   * Saves changes to the workspace database in one transaction. Normally appends one segment
   * with the documents added or re-indexed since the last persist/load (plus removals); rewrites
   * everything as a single segment when the database does not hold exactly the segments this
   * index was loaded from / last wrote (e.g. a fresh index), when there would be more than
   * `maxSegments` segments, or when over half of the stored documents are superseded.
   */
  persist(db: Database, opts: { compact?: boolean } = {}): PersistResult {
    assertLittleEndian();
    this.flush();
    const result = db.transaction((): { res: PersistResult; segs: number[] } => {
      const segs = segmentIds(db);
      const meta = readMeta(db);
      const sameBase =
        segs.length > 0 &&
        segs.length === this.knownSegs.length &&
        segs.every((s, i) => s === this.knownSegs[i]) &&
        meta.get('tokenizer') === this.tokenizer.signature &&
        meta.get('format') === SEGMENT_FORMAT;
      const hasNew = this.changesSincePersist > 0;
      if (sameBase && !hasNew && !opts.compact) return { res: { mode: 'unchanged', docs: 0, bytes: 0 }, segs };
      const append =
        sameBase &&
        !opts.compact &&
        segs.length + 1 <= this.maxSegments &&
        this.persistedSuperseded + this.removedSincePersist.size <= this.nLive;
      if (append) {
        const data = this.segmentData(this.persistedMark, [...this.removedSincePersist]);
        const seg = writeSegment(db, data);
        const del = db.prepare(`DELETE FROM bm25_docs WHERE doc = ?`);
        for (const doc of this.removedSincePersist) del.run(doc);
        insertDocs(db, seg, data.docs, data.lengths, true);
        return { res: { mode: 'append', docs: data.docs.length, bytes: segmentBytes(data) }, segs: [...segs, seg] };
      }
      db.exec(`DELETE FROM bm25_postings; DELETE FROM bm25_segments; DELETE FROM bm25_docs;`);
      db.exec(`DELETE FROM bm25_meta`);
      writeMeta(db, this.metaValues());
      const data = this.segmentData(0, []);
      const seg = writeSegment(db, data);
      insertDocs(db, seg, data.docs, data.lengths, false);
      return { res: { mode: 'rewrite', docs: data.docs.length, bytes: segmentBytes(data) }, segs: [seg] };
    })();
    if (result.res.mode === 'rewrite') {
      this.persistedSuperseded = 0;
      this.outdated = false;
    }
    if (result.res.mode !== 'unchanged') {
      this.persistedMark = this.nOrd;
      this.removedSincePersist.clear();
      this.changesSincePersist = 0;
    }
    this.knownSegs = result.segs;
    return result.res;
  }

  /** Deletes the persisted index from a workspace database. */
  static clear(db: Database): void {
    clearStored(db);
  }

  /** Encodes live ordinals >= fromOrd (after a flush, so the CSR holds only live postings). */
  private segmentData(fromOrd: number, removed: number[]): SegmentData {
    const alive = this.alive;
    const local = new Int32Array(Math.max(0, this.nOrd - fromOrd));
    const docsList: number[] = [];
    const lens: number[] = [];
    for (let o = fromOrd; o < this.nOrd; o++) {
      if (!alive[o]) {
        local[o - fromOrd] = -1;
        continue;
      }
      local[o - fromOrd] = docsList.length;
      docsList.push(this.ordDoc[o]!);
      lens.push(this.ordLen[o]!);
    }
    const terms: string[] = [];
    const dfs: number[] = [];
    const chunks: PostingsChunk[] = [];
    const w = new ByteWriter();
    let chunkFirst = 0;
    let nPostings = 0;
    const off = this.off;
    const pOrd = this.pOrd;
    const pTf = this.pTf;
    const nT = off.length - 1;
    for (let t = 0; t < nT; t++) {
      const a = off[t]!;
      const e = off[t + 1]!;
      let s = e;
      while (s > a && pOrd[s - 1]! >= fromOrd) s--;
      if (s === e) continue;
      terms.push(this.termStr[t]!);
      dfs.push(e - s);
      nPostings += e - s;
      w.ensure((e - s) * 10);
      let prev = -1;
      for (let p = s; p < e; p++) {
        const l = local[pOrd[p]! - fromOrd]!;
        const tf = pTf[p]!;
        w.varint((l - prev) * 2 + (tf === 1 ? 1 : 0));
        if (tf !== 1) w.varint(tf);
        prev = l;
      }
      if (w.n >= this.chunkBytes) {
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
}

function segmentBytes(d: SegmentData): number {
  let n = d.docs.byteLength + d.lengths.byteLength + d.removed.byteLength + d.dfs.byteLength;
  for (const t of d.terms) n += t.length + 1;
  for (const c of d.chunks) n += c.data.byteLength;
  return n;
}

/** Mirrors the segment's documents into bm25_docs (multi-row inserts, 500 rows a statement). */
function insertDocs(db: Database, seg: number, docs: Float64Array, lens: Int32Array, replace: boolean): void {
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
