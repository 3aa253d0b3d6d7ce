/**
 * The public types of the BM25 index: documents and hits, index options, progress and search
 * options, statistics and persist results (re-exported by ./bm25-index.ts and the barrel).
 */
import type { AnalyzerName } from './analyzers';
import type { TokenizerOptions } from './tokenizer';

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
   * 'dense' / 'sparse' force one exhaustive scan, 'pruned' the exact block-max dynamic pruning of
   * ./block-max-scoring.ts (results are identical).
   */
  scanMode?: 'auto' | 'dense' | 'sparse' | 'pruned';
  /**
   * Ordinals per window of the pruned scan (default 32768. At 1M questions, side by side on the same scan: 8192
   * gave 0.77× the median of 4096, 16384–65536 about 0.85× of 8192 and within noise of each other, 131072
   * 1.13× of 32768: fewer windows mean less per-window work per query term. Tests use small windows to cross many).
   */
  pruneWindow?: number;
  /**
   * From this many document versions on, 'auto' answers the queries it would give the dense scan
   * with the pruned one instead. Default 150,000: with question-as-query top 20 (windows of 32768,
   * the norm table and the sweep's pre-test), pruning measured 1.45× the dense scan's median at 100K
   * questions (p99 1.59×), 0.81× at 200K (p99 0.96×) and 0.64× at 300K (p99 0.96×), alternating
   * query by query on the same index.
   */
  pruneFromDocs?: number;
  /**
   * Threads per pruned search: 2 (the default on a machine with two or more cores) splits the windows
   * between the calling thread and a helper thread (./scan-helper.ts), 1 scans on the calling thread alone.
   * Results are identical.
   */
  scanThreads?: number;
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
  /** This search's scan, overriding the index's scanMode (benchmarks compare them side by side; results are identical). */
  scan?: 'auto' | 'dense' | 'sparse' | 'pruned';
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
