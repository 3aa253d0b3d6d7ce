/**
 * One segment of the stored index built document by document: each document is tokenized as it
 * comes (so an import spreads the work over its chunks and never reads its texts back), and
 * `write` appends the documents as one segment exactly as Bm25Index.appendSegment would.
 */
import type { Database } from 'better-sqlite3';
import { addDocuments } from './add-documents';
import type { Bm25Document, Bm25Options, PersistResult } from './bm25-types';
import type { IndexState } from './index-state';
import { appendState, writeAppended } from './persistence';

export class SegmentBuilder {
  private st: IndexState | null = null;
  private readonly one: Bm25Document[] = [];

  constructor(
    private readonly db: Database,
    private readonly opts: Bm25Options = {},
  ) {}

  /** Document versions added since the last write. */
  get size(): number {
    return this.st?.nOrd ?? 0;
  }

  /** Tokenizes one document into the segment being built (a doc added twice: the later text wins). */
  add(doc: Bm25Document): void {
    this.st ??= appendState(this.db, this.opts);
    this.one[0] = doc;
    addDocuments(this.st, this.one);
  }

  /** Appends the documents added so far as one segment (nothing when there are none) and starts a new one. Call inside the caller's transaction. */
  write(): PersistResult {
    const st = this.st;
    this.st = null;
    return st ? writeAppended(this.db, st) : { mode: 'unchanged', docs: 0, bytes: 0 };
  }
}
