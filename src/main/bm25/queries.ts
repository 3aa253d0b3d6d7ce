/**
 * Batch retrieval for pool creation, and keeping the index in step with the `questions` table.
 */
import type { Database } from 'better-sqlite3';
import { QPairsError, throwIfAborted } from '../errors';
import type { AddOptions, Bm25Document, Bm25Hit, Bm25Index, PersistResult, ProgressOptions } from './bm25-index';

export interface QueryHits {
  /** The query question's doc number. */
  doc: number;
  /** Its top-k other questions, best first (score descending, doc ascending). */
  hits: Bm25Hit[];
}

/**
 * For each query question, the top `k` OTHER questions retrieved by its title + body (the query
 * itself is excluded; other questions with identical text are not). Results follow the order of
 * `queries`. Progress is reported every 100 queries.
 */
export function topKForQueries(index: Bm25Index, queries: Iterable<Bm25Document>, k: number, opts: AddOptions = {}): QueryHits[] {
  const { onProgress, signal } = opts;
  const total = opts.total ?? (Array.isArray(queries) ? queries.length : 0);
  const out: QueryHits[] = [];
  throwIfAborted(signal);
  for (const q of queries) {
    out.push({ doc: q.doc, hits: index.searchDocument(q, k) });
    if (out.length % 100 === 0) {
      throwIfAborted(signal);
      onProgress?.(out.length, total);
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
  const all = db.prepare(`SELECT doc FROM questions ORDER BY doc`).pluck().all() as number[];
  const present = new Set(all);
  const missing = all.filter((d) => !index.has(d));
  const gone = index.docs().filter((d) => !present.has(d));
  const removed = index.removeDocuments(gone);
  const added = index.addDocuments(questionDocuments(db, missing), { ...opts, total: missing.length });
  return { added, removed, persist: index.persist(db) };
}
