/**
 * Batch retrieval for pool creation, and keeping the index in step with the `questions` table.
 */
import type { Database } from 'better-sqlite3';
import { QPairsError, throwIfAborted, yieldThenThrowIfAborted } from '../errors';
import type { AddOptions, Bm25Document, Bm25Hit, Bm25Index, PersistResult, ProgressOptions } from './bm25-index';

export interface QueryHits {
  /** The query question's doc number. */
  doc: number;
  /** Its top-k other questions, best first (score descending, doc ascending). */
  hits: Bm25Hit[];
}

export interface TopKOptions extends AddOptions {
  /** One query's hits (default: the index's top `k` other questions); a pool restricted to one corpus filters them. */
  search?: (query: Bm25Document) => Bm25Hit[];
  /** Awaited every 100 queries and at each turn of the event loop: the caller's writers waiting go ahead (the engine's write gate). */
  letOthersRun?: () => Promise<void>;
}

/** How long retrieval runs before it lets the event loop turn (a signal handler, a timer, a request). */
const YIELD_MS = 50;

/**
 * For each query question, the top `k` OTHER questions retrieved by its title + body (the query
 * itself is excluded; other questions with identical text are not). Results follow the order of
 * `queries`. Progress is reported every 100 queries. The event loop turns every 50 ms of
 * searching, so an abort signalled meanwhile (Ctrl-C in the CLI) stops the retrieval with
 * CancelledError: 20,000 queries on a large workspace search for minutes.
 */
export async function topKForQueries(index: Bm25Index, queries: Iterable<Bm25Document>, k: number, opts: TopKOptions = {}): Promise<QueryHits[]> {
  const { onProgress, signal } = opts;
  const search = opts.search ?? ((q: Bm25Document) => index.searchDocument(q, k));
  const total = opts.total ?? (Array.isArray(queries) ? queries.length : 0);
  const out: QueryHits[] = [];
  throwIfAborted(signal);
  let turned = performance.now();
  for (const q of queries) {
    out.push({ doc: q.doc, hits: search(q) });
    const hundred = out.length % 100 === 0;
    if (hundred) onProgress?.(out.length, total);
    if (performance.now() - turned >= YIELD_MS) {
      await yieldThenThrowIfAborted(signal);
      await opts.letOthersRun?.();
      throwIfAborted(signal);
      turned = performance.now();
    } else if (hundred && opts.letOthersRun) {
      await opts.letOthersRun();
      throwIfAborted(signal);
    }
  }
  onProgress?.(out.length, total);
  return out;
}

/**
 * Questions from the workspace `questions` table as index documents: the given doc numbers (in
 * that order; a missing one throws), or all questions by doc number.
 */
export function* questionDocuments(db: Database, docs?: Iterable<number>): Generator<Bm25Document> {
  if (!docs) {
    yield* db.prepare(`SELECT doc, title, body FROM questions ORDER BY doc`).iterate() as IterableIterator<Bm25Document>;
    return;
  }
  const st = db.prepare(`SELECT doc, title, body FROM questions WHERE doc = ?`);
  for (const doc of docs) {
    const row = st.get(doc) as Bm25Document | undefined;
    if (!row) throw new QPairsError(`question doc ${doc} is not in the workspace`, { record: `questions.doc=${doc}`, reason: 'missing question' });
    yield row;
  }
}

export interface SyncResult {
  added: number;
  removed: number;
  persist: PersistResult;
}

/**
 * Brings the index in step with the `questions` table and persists it: indexes questions not yet
 * indexed, removes indexed docs that are no longer questions. Questions whose text changed must be
 * re-indexed explicitly (`index.addDocuments(questionDocuments(db, changedDocs))`).
 */
export function syncWithQuestions(index: Bm25Index, db: Database, opts: ProgressOptions = {}): SyncResult {
  const { missing, gone } = unsynced(index, db);
  const removed = index.removeDocuments(gone);
  const added = index.addDocuments(questionDocuments(db, missing), { ...opts, total: missing.length });
  return { added, removed, persist: index.persist(db) };
}

/**
 * Whether syncWithQuestions would change nothing, found without holding the thread long: an index just
 * loaded whose stored doc list `bm25_docs` has as many rows as it has documents is compared with the
 * questions through that list by ranges of `rangeDocs` doc numbers, the event loop turning between
 * them (the whole comparison took 570 ms at 1M questions). False when it cannot tell so cheaply, or
 * finds a difference: syncWithQuestions then does the work.
 */
export async function syncedInSlices(index: Bm25Index, db: Database, rangeDocs = 65_536): Promise<boolean> {
  if (!listedAsIndexed(index, db)) return false;
  const [low, top] = db.prepare(`SELECT min(lo), max(hi) FROM (SELECT min(doc) AS lo, max(doc) AS hi FROM questions UNION ALL SELECT min(doc), max(doc) FROM bm25_docs)`).raw().get() as [number | null, number | null];
  if (top === null || low === null) return true;
  const missing = db.prepare(`SELECT 1 FROM questions q WHERE q.doc >= ? AND q.doc < ? AND NOT EXISTS (SELECT 1 FROM bm25_docs d WHERE d.doc = q.doc) LIMIT 1`).pluck();
  const gone = db.prepare(`SELECT 1 FROM bm25_docs d WHERE d.doc >= ? AND d.doc < ? AND NOT EXISTS (SELECT 1 FROM questions q WHERE q.doc = d.doc) LIMIT 1`).pluck();
  for (let from = low; from <= top; from += rangeDocs) {
    if (missing.get(from, from + rangeDocs) !== undefined || gone.get(from, from + rangeDocs) !== undefined) return false;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return true;
}

/** An index just loaded (no unpersisted change) whose stored doc list `bm25_docs` has as many rows as it has documents: that list can stand for it in SQL. */
function listedAsIndexed(index: Bm25Index, db: Database): boolean {
  return index.stats.unpersistedChanges === 0 && (db.prepare(`SELECT count(*) FROM bm25_docs`).pluck().get() as number) === index.stats.docs;
}

/**
 * Questions the index lacks and indexed docs that are no longer questions. An index just loaded
 * (no unpersisted change) whose stored doc list `bm25_docs` has as many rows as it has documents
 * is compared through that list in SQL (two anti-joins by primary key, nothing held but the
 * differences: at 1M questions this spared a 1M-entry Set and two 1M arrays at every load);
 * otherwise doc by doc.
 */
function unsynced(index: Bm25Index, db: Database): { missing: number[]; gone: number[] } {
  if (listedAsIndexed(index, db)) {
    const missing = (db.prepare(`SELECT q.doc FROM questions q WHERE NOT EXISTS (SELECT 1 FROM bm25_docs d WHERE d.doc = q.doc) ORDER BY q.doc`).pluck().all() as number[]).filter(
      (d) => !index.has(d),
    );
    const gone = (db.prepare(`SELECT d.doc FROM bm25_docs d WHERE NOT EXISTS (SELECT 1 FROM questions q WHERE q.doc = d.doc) ORDER BY d.doc`).pluck().all() as number[]).filter((d) =>
      index.has(d),
    );
    return { missing, gone };
  }
  const all = db.prepare(`SELECT doc FROM questions ORDER BY doc`).pluck().all() as number[];
  const present = new Set(all);
  return { missing: all.filter((d) => !index.has(d)), gone: index.docs().filter((d) => !present.has(d)) };
}
