/**
 * The state of one in-memory BM25 index: its settings (validated here) and its data structures,
 * shared by the modules that build (./add-documents.ts), merge (./merge.ts), score
 * (./scoring.ts), load (./segment-load.ts), encode (./segment-encode.ts) and persist
 * (./persistence.ts) it. Bm25Index (./bm25-index.ts) is the public face over one IndexState.
 *
 * Every indexed document version gets an *ordinal* (0, 1, 2, ... in indexing order; re-indexing a
 * document gives it a new ordinal and retires the old one). Postings are kept as one CSR
 * structure: per term, ascending postings in one Int32Array, each `ordinal << TF_BITS | tf` (a
 * term frequency of TF_ESCAPE or more is stored as TF_ESCAPE, its value in `bigTf`) — one 4-byte
 * read per posting when scoring, and a third less memory than ordinals and tfs side by side; documents
 * added since the last merge sit in a pending list (blocks of flat typed arrays) that is merged
 * (dropping retired ordinals) lazily before the next search, persist or stats — so adding
 * documents one at a time is cheap, but alternating single adds with searches costs a merge,
 * O(postings), each. Terms get dense ids from a TermDict, looked up straight from the tokenizer's
 * scan (no substring per token).
 *
 * Memory: about 4 bytes per posting plus ~40 bytes per document and the term strings (1M
 * questions of ~60 tokens: 52.6M postings, 210 MB). At most MAX_ORDINALS document versions.
 */
import { QPairsError } from '../errors';
import { Tokenizer } from './tokenizer';
import { CHUNK_BYTES } from './segments';
import { TermDict } from './term-dict';
import type { Bm25Options } from './bm25-types';
import type { ScanIndex } from './block-max-scoring';
import type { ScanHelper } from './scan-helper';
import { availableParallelism } from 'node:os';

/** Bits of a packed posting that hold its term frequency. */
export const TF_BITS = 5;
/** The stored tf meaning "TF_ESCAPE or more: see bigTf". */
export const TF_ESCAPE = (1 << TF_BITS) - 1;
/** Ordinals a packed posting can hold (2^26 = 67,108,864 document versions). */
export const MAX_ORDINALS = 2 ** (31 - TF_BITS);

/**
 * An Int32Array in shared memory: the postings and length classes, which the pruned scan's helper
 * thread reads in place (./scan-helper.ts). Zero-filled, like new Int32Array(n).
 */
export function sharedInt32(n: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(n * 4));
}

/**
 * `a` itself when it is in shared memory with room for `n` entries, else a shared copy of it with
 * room for max(n, a.length) (the doc numbers, which the helper thread reads too).
 */
export function sharedWithRoom<T extends Int32Array | Float64Array>(a: T, n: number): T {
  if (a.buffer instanceof SharedArrayBuffer && a.length >= n) return a;
  const C = a.constructor as { new (b: SharedArrayBuffer): T };
  const out = new C(new SharedArrayBuffer(Math.max(n, a.length, 1) * a.BYTES_PER_ELEMENT));
  out.set(a);
  return out;
}

/** One block of pending postings (entries 0..n-1, in ordinal order). */
export interface PendingBlock {
  term: Int32Array;
  ord: Int32Array;
  tf: Uint16Array;
  n: number;
}

/** `a`, or a copy at least `need` long (capacity doubles). */
export function grow<T extends Int32Array | Float64Array | Uint8Array | Uint16Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  let cap = Math.max(16, a.length * 2);
  while (cap < need) cap *= 2;
  const b = new (a.constructor as { new (n: number): T })(cap);
  b.set(a as never);
  return b;
}

export class IndexState {
  // Settings.
  readonly k1: number;
  readonly b: number;
  readonly tokenizer: Tokenizer;
  readonly lengthNorm: 'lucene' | 'exact';
  readonly maxSegments: number;
  readonly chunkBytes: number;
  readonly scanMode: 'auto' | 'dense' | 'sparse' | 'pruned';
  readonly pruneWindow: number;
  readonly pruneFromDocs: number;
  readonly scanThreads: number;
  /** See Bm25Index.outdated. */
  outdated = false;

  // Term dictionary.
  readonly dict = new TermDict();
  readonly termStr: string[] = this.dict.terms;

  // Per ordinal.
  nOrd = 0;
  ordDoc: Float64Array = new Float64Array(1024);
  ordLen: Int32Array = new Int32Array(1024);
  alive: Uint8Array = new Uint8Array(1024);
  readonly docOrd = new Map<number, number>();
  nLive = 0;
  nNonEmpty = 0;
  totalLen = 0;

  // Merged postings (CSR over term ids < off.length - 1), packed: ordinal << TF_BITS | min(tf, TF_ESCAPE).
  off: Int32Array = new Int32Array(1);
  post: Int32Array = new Int32Array(0);
  /** tf of the postings stored with TF_ESCAPE, by term id * MAX_ORDINALS + ordinal (entries of retired ordinals may stay). */
  readonly bigTf = new Map<number, number>();
  /**
   * The same postings by term (ordinals and tfs, in packing order; retired ordinals may stay): the
   * scan skips escaped postings and adds these after each term's postings, so its inner loop makes
   * no call (a call there made V8 reload every array each posting: 2x slower).
   */
  readonly bigTfByTerm = new Map<number, { ords: number[]; tfs: number[] }>();
  nTermsWithPostings = 0;

  // Pending postings (added since the last merge), in ordinal order.
  // Stored in fixed-size blocks so that growing never copies.
  qBlocks: PendingBlock[] = [];
  nq = 0;
  retiredSinceMerge = false;

  // Scoring state, valid for normsFor === nOrd and normsDirty false (see refreshNorms in ./norms.ts).
  /** Per ordinal: its length class (Lucene's norm byte, or the rank of its exact length). */
  normClass: Int32Array = new Int32Array(0);
  /** Per length class: k1 · (1 - b + b · dl / avgdl). */
  classNorm: Float64Array = new Float64Array(0);
  /** tf / (tf + classNorm[c]) at c << TF_BITS | tf for tf < TF_ESCAPE; 0 for tf = 0 and tf = TF_ESCAPE (escaped: see bigTf). */
  tfFactor: Float64Array = new Float64Array(0);
  acc: Float64Array = new Float64Array(0);
  excluded: Uint8Array = new Uint8Array(0);
  touched: Int32Array = new Int32Array(0);
  normsDirty = true;
  /** Bumped whenever the norms are recomputed (after every merge): invalidates derived caches. */
  normsVersion = 0;
  /** The pruned scan's view of this state and the normsVersion it was built for (./pruned-search.ts). */
  scanView: ScanIndex | null = null;
  scanViewVersion = -1;
  /** The pruned scan's helper thread: undefined until first needed, null once closed. */
  scanHelper: ScanHelper | null | undefined = undefined;

  // Scratch for counting term frequencies.
  tfScratch: Int32Array = new Int32Array(1024);
  termScratch: Int32Array = new Int32Array(1024);
  readonly ids: number[] = [];

  // Persistence state.
  persistedMark = 0; // ordinals < mark are in the database
  readonly removedSincePersist = new Set<number>();
  knownSegs: number[] = [];
  persistedSuperseded = 0; // retired ordinals still stored in segments
  changesSincePersist = 0;

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
    const pw = opts.pruneWindow ?? 32768;
    if (!Number.isInteger(pw) || pw < 1) throw new QPairsError(`pruneWindow must be a positive integer, got ${pw}`, { reason: 'bad pruneWindow' });
    this.pruneWindow = pw;
    const pf = opts.pruneFromDocs ?? 150_000;
    if (!(pf >= 0)) throw new QPairsError(`pruneFromDocs must be a number >= 0, got ${pf}`, { reason: 'bad pruneFromDocs' });
    this.pruneFromDocs = pf;
    const threads = opts.scanThreads ?? Math.min(2, availableParallelism());
    if (!Number.isInteger(threads) || threads < 1) throw new QPairsError(`scanThreads must be a positive integer, got ${threads}`, { reason: 'bad scanThreads' });
    this.scanThreads = threads;
    this.tokenizer = new Tokenizer(opts.analyzer !== undefined ? { ...opts.tokenizer, analyzer: opts.analyzer } : opts.tokenizer);
    const ln = opts.lengthNorm ?? 'lucene';
    if (ln !== 'lucene' && ln !== 'exact') throw new QPairsError(`lengthNorm must be 'lucene' or 'exact', got ${String(ln)}`, { reason: 'bad lengthNorm' });
    this.lengthNorm = ln;
  }

  /** The packed posting of `tf` occurrences of `term` in ordinal `ord` (a large tf goes to bigTf). */
  pack(term: number, ord: number, tf: number): number {
    if (ord >= MAX_ORDINALS) {
      throw new QPairsError(`the BM25 index holds more than ${MAX_ORDINALS} document versions; rebuild it (qpairs corpus index)`, { reason: 'too many documents' });
    }
    if (tf < TF_ESCAPE) return (ord << TF_BITS) | tf;
    // A (term, ordinal) is packed once per state: ordinals are never reused, a document's term
    // is counted once, and merges copy packed postings as they are.
    this.bigTf.set(term * MAX_ORDINALS + ord, tf);
    let list = this.bigTfByTerm.get(term);
    if (!list) this.bigTfByTerm.set(term, (list = { ords: [], tfs: [] }));
    list.ords.push(ord);
    list.tfs.push(tf);
    return (ord << TF_BITS) | TF_ESCAPE;
  }

  /** The tf of packed posting `v` of `term` whose stored tf is TF_ESCAPE. */
  bigTfOf(term: number, v: number): number {
    return this.bigTf.get(term * MAX_ORDINALS + (v >>> TF_BITS))!;
  }

  /** Marks an ordinal as no longer alive and takes it out of the statistics. */
  retire(ord: number): void {
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
}
