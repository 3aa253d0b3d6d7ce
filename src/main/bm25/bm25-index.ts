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
 * Internals (./index-state.ts): documents get ordinals, postings sit in one CSR plus pending blocks
 * merged lazily (./add-documents.ts, ./merge.ts); search is term-at-a-time into accumulators
 * (./scoring.ts); persistence is append-only segments (./persistence.ts, ./segment-encode.ts,
 * ./segment-load.ts, ./segments.ts). This file is the public face over them.
 */
import type { Database } from 'better-sqlite3';
import { QPairsError } from '../errors';
import type { Tokenizer } from './tokenizer';
import type { AnalyzerName } from './analyzers';
import { clearStored } from './segments';
import { IndexState } from './index-state';
import { addDocuments, removeDocuments } from './add-documents';
import { flush } from './merge';
import { searchIds } from './scoring';
import { closeScanHelper, warmPrunedScanSteps } from './pruned-search';
import { runStepsInSlices } from './steps';
import { appendSegment, loadState, loadStateSteps, mergeTail, persist, storedAnalyzer } from './persistence';
import type { AddOptions, Bm25Document, Bm25Hit, Bm25Options, Bm25Stats, PersistResult, SearchOptions } from './bm25-types';

export type {
  AddOptions,
  Bm25Document,
  Bm25Hit,
  Bm25Options,
  Bm25Stats,
  PersistResult,
  ProgressOptions,
  SearchOptions,
} from './bm25-types';

export class Bm25Index {
  private st: IndexState;
  /** Set by close (a warmInSlices under way stops). */
  private closed = false;

  constructor(opts: Bm25Options = {}) {
    this.st = new IndexState(opts);
  }

  /** An index over an existing state (loaded by ./persistence.ts). */
  private static wrap(st: IndexState): Bm25Index {
    const idx = Object.create(Bm25Index.prototype) as Bm25Index;
    idx.st = st;
    idx.closed = false;
    return idx;
  }

  /** Term-frequency saturation. */
  get k1(): number {
    return this.st.k1;
  }

  /** Length normalisation. */
  get b(): number {
    return this.st.b;
  }

  get tokenizer(): Tokenizer {
    return this.st.tokenizer;
  }

  get lengthNorm(): 'lucene' | 'exact' {
    return this.st.lengthNorm;
  }

  get maxSegments(): number {
    return this.st.maxSegments;
  }

  /**
   * True when the workspace held an index this version cannot use (built by an older QPairs, or
   * in an older format): this index was loaded empty instead, and syncing it with the questions
   * and persisting it rebuilds the stored one.
   */
  get outdated(): boolean {
    return this.st.outdated;
  }

  set outdated(v: boolean) {
    this.st.outdated = v;
  }

  // ---------------------------------------------------------------- building

  /**
   * Indexes documents (title + body). A doc number that is already indexed is re-indexed: its
   * new text replaces the old one (also when it occurs twice in `docs`: the last one wins).
   * All or nothing: on error or abort (CancelledError) the index is left as it was.
   * Returns the number of documents read.
   */
  addDocuments(docs: Iterable<Bm25Document>, opts: AddOptions = {}): number {
    return addDocuments(this.st, docs, opts);
  }

  /**
   * Stops the pruned scan's helper thread, if one was started (see Bm25Options.scanThreads); later
   * searches run on the calling thread. An index that is simply dropped stops it when collected.
   */
  close(): void {
    this.closed = true;
    closeScanHelper(this.st);
  }

  /** Removes documents from the index; unknown doc numbers are ignored. Returns how many were removed. */
  removeDocuments(docs: Iterable<number>): number {
    return removeDocuments(this.st, docs);
  }

  /** True when `doc` is indexed. */
  has(doc: number): boolean {
    return this.st.docOrd.has(doc);
  }

  /** Doc numbers of all indexed documents, in indexing order. */
  docs(): number[] {
    return [...this.st.docOrd.keys()];
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
    const st = this.st;
    flush(st);
    if (k === 0 || st.nNonEmpty === 0) return [];
    const ids = st.ids;
    ids.length = 0;
    st.tokenizer.tokenizeToIds(text, st.dict, false, ids);
    return searchIds(st, ids, k, opts.exclude, opts.scan);
  }

  /**
   * The top `k` OTHER documents for an indexed (or any) question used as the query: its title
   * and body are tokenized exactly as when indexing, and `q.doc` itself is excluded.
   */
  searchDocument(q: Bm25Document, k: number, opts: Pick<SearchOptions, 'scan'> = {}): Bm25Hit[] {
    if (!Number.isInteger(k) || k < 0) throw new QPairsError(`search: k must be a non-negative integer, got ${k}`, { reason: 'bad k' });
    const st = this.st;
    flush(st);
    if (k === 0 || st.nNonEmpty === 0) return [];
    const ids = st.ids;
    ids.length = 0;
    st.tokenizer.tokenizeToIds(q.title, st.dict, false, ids);
    st.tokenizer.tokenizeToIds(q.body, st.dict, false, ids);
    return searchIds(st, ids, k, [q.doc], opts.scan);
  }

  /** Number of indexed documents containing `term` (a token as the tokenizer produces it). */
  docFreq(term: string): number {
    const st = this.st;
    flush(st);
    const id = st.dict.get(term);
    if (id < 0 || id >= st.off.length - 1) return 0;
    return st.off[id + 1]! - st.off[id]!;
  }

  /** Index statistics (merges pending additions first). */
  get stats(): Bm25Stats {
    const st = this.st;
    flush(st);
    return {
      docs: st.nLive,
      nonEmptyDocs: st.nNonEmpty,
      terms: st.nTermsWithPostings,
      postings: st.post.length,
      tokens: st.totalLen,
      avgdl: st.nNonEmpty > 0 ? st.totalLen / st.nNonEmpty : 0,
      segments: st.knownSegs.length,
      unpersistedChanges: st.changesSincePersist,
      k1: st.k1,
      b: st.b,
      analyzer: st.tokenizer.analyzer,
      lengthNorm: st.lengthNorm,
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
    return Bm25Index.wrap(loadState(db, opts));
  }

  /**
   * {@link load} on this thread in slices of about `sliceMs` (default 20), letting the event loop
   * turn between them, so a server goes on answering (labels acknowledged) while it loads a large
   * index (3-8 s at 1M questions in one go). The stored rows are read in the first slice; a commit
   * between slices can leave the result out of step with them, so a caller that cares compares
   * what was stored before and after. `signal` stops it between slices (CancelledError).
   */
  static async loadInSlices(db: Database, opts: Bm25Options = {}, o: { sliceMs?: number; signal?: AbortSignal } = {}): Promise<Bm25Index> {
    return Bm25Index.wrap(await runStepsInSlices(loadStateSteps(db, opts), o.sliceMs ?? 20, o.signal));
  }

  /**
   * Readies searches on this thread in slices of about `sliceMs` (default 20), as loadInSlices
   * does: on an index large enough for the pruned scan, its view, helper thread and every term's
   * block bounds — one pass over the postings (about 550 ms at 1M questions), which the first
   * searches paid otherwise. Searches between slices stay exact; it stops when the index changes
   * or is closed. A step reads about `postingsPerStep` postings (default 250,000: a few ms).
   */
  async warmInSlices(o: { sliceMs?: number; signal?: AbortSignal; postingsPerStep?: number } = {}): Promise<void> {
    flush(this.st);
    await runStepsInSlices(warmPrunedScanSteps(this.st, o.postingsPerStep, () => this.closed), o.sliceMs ?? 20, o.signal);
  }

  /** The analyzer of the workspace's stored index (the default when there is none). */
  static storedAnalyzer(db: Database): AnalyzerName {
    return storedAnalyzer(db);
  }

  /**
   * Adds documents to the index persisted in `db` as ONE new segment, without loading that index:
   * the work is proportional to `docs` alone, so an import indexes its questions in bounded
   * chunks. A document already indexed gets its new version (a later segment wins when loading).
   * Call inside the caller's transaction. An index loaded from `db` earlier is stale afterwards
   * (its next persist would rewrite everything): load it again.
   */
  static appendSegment(db: Database, docs: Iterable<Bm25Document>, opts: Bm25Options = {}): PersistResult {
    return appendSegment(db, docs, opts);
  }

  /**
   * Merges the trailing run of small segments (at most `smallDocs` documents each, no removals)
   * into one segment when the run has `minSegments` or more: only those segments are read and
   * written, so the work is bounded (about minSegments × smallDocs documents), and appending
   * segment after segment keeps their number logarithmic-ish instead of growing with every
   * chunk. Call inside the caller's transaction. Returns what was merged, or null.
   */
  static mergeTail(db: Database, opts: Bm25Options & { minSegments?: number; smallDocs?: number } = {}): { segments: number; docs: number } | null {
    return mergeTail(db, opts);
  }

  /**
   * Saves changes to the workspace database in one transaction. Normally appends one segment
   * with the documents added or re-indexed since the last persist/load (plus removals); rewrites
   * everything as a single segment when the database does not hold exactly the segments this
   * index was loaded from / last wrote (e.g. a fresh index), when there would be more than
   * `maxSegments` segments, or when over half of the stored documents are superseded.
   */
  persist(db: Database, opts: { compact?: boolean } = {}): PersistResult {
    return persist(this.st, db, opts);
  }

  /** Deletes the persisted index from a workspace database. */
  static clear(db: Database): void {
    clearStored(db);
  }
}
