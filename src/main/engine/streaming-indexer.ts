/**
 * The stored BM25 index built from a stream of questions without loading it: segments of
 * SEGMENT_DOCS questions (a question written twice in one segment: the later text), the last one
 * smaller; a trailing run of four or more small segments (left by small imports, SMALL_SEGMENT
 * questions at most each) is merged at the end (bounded too). The texts are the ones stored:
 * strings SQLite cannot hold as they are (lone surrogates) as it stores them. Memory: the postings
 * of about one segment, whatever the corpus size.
 *
 * Tokenizing runs in a worker thread (bm25/parallel-segment-builder.ts) where there is a second
 * core and the worker's bundle, else in this thread (bm25/segment-builder.ts): same stored rows.
 * Used by imports (engine/work.ts runImport, as the records are read) and by `qpairs corpus index`
 * (rebuildIndex, below).
 */
import type { Database } from 'better-sqlite3';
import os from 'node:os';
import { Bm25Index, type AnalyzerName } from '../bm25';
import { defaultSegmentWorkerPath, ParallelSegmentBuilder } from '../bm25/parallel-segment-builder';
import { SegmentBuilder } from '../bm25/segment-builder';
import { writeSettings } from '../bm25/persistence';
import { clearStored } from '../bm25/segments';
import { throwIfAborted } from '../errors';
import type { Workspace } from '../workspace/workspace';

/**
 * Questions per segment (8192: at 1M questions fewer segments than the former time-bounded steps
 * merged in fours left, so loading the index is no slower; writing one takes about 20–50 ms, inside
 * one chunk of an import), and the size up to which trailing segments count as small.
 */
export const SEGMENT_DOCS = 8192;
const SMALL_SEGMENT = 4096;

export interface StreamingIndexerOptions {
  /** Tokenize in a worker thread when one can run (default true). */
  inWorker?: boolean;
  /** Build with this analyzer (a rebuild, after the stored index was cleared); default the stored index's. */
  analyzer?: AnalyzerName;
}

export class StreamingIndexer {
  private readonly local: SegmentBuilder | null = null;
  private readonly parallel: ParallelSegmentBuilder | null = null;

  constructor(
    private readonly db: Database,
    opts: StreamingIndexerOptions = {},
  ) {
    const bm25 = opts.analyzer ? { analyzer: opts.analyzer } : {};
    const workerPath = (opts.inWorker ?? true) && os.availableParallelism() > 1 ? defaultSegmentWorkerPath() : null;
    if (workerPath) this.parallel = new ParallelSegmentBuilder(db, workerPath, bm25);
    else this.local = new SegmentBuilder(db, bm25);
  }

  /** Adds one question (inside the caller's transaction: finished segments are written as they come). */
  add(doc: number, title: string, body: string): void {
    const d = { doc, title: asStored(title), body: asStored(body) };
    if (this.parallel) {
      this.parallel.add(d);
      if (this.parallel.size >= SEGMENT_DOCS) this.parallel.cut();
    } else {
      this.local!.add(d);
      if (this.local!.size >= SEGMENT_DOCS) this.local!.write();
    }
  }

  /** Writes what is left and merges a trailing run of small segments (inside the caller's transaction). */
  async finish(): Promise<void> {
    if (this.parallel) await this.parallel.finish();
    else this.local!.write();
    Bm25Index.mergeTail(this.db, { minSegments: 4, smallDocs: SMALL_SEGMENT });
  }

  /** Stops the worker, if any (call in every case). */
  close(): void {
    void this.parallel?.close();
  }
}

/** The string as SQLite stores (and gives back) TEXT: lone surrogates become U+FFFD. */
function asStored(s: string): string {
  const w = s as unknown as { isWellFormed(): boolean; toWellFormed(): string };
  return w.isWellFormed() ? s : w.toWellFormed();
}

export interface RebuildResult {
  questions: number;
  postings: number;
  segments: number;
  bytes: number;
}

/**
 * Rebuilds the stored index from the stored texts with `analyzer` (from then on the workspace's),
 * streaming: the questions are read in doc order in pages and indexed as a stream (StreamingIndexer),
 * so memory stays that of a few segments at any corpus size (the former in-memory build took 1 GB
 * at 1M questions). One transaction: a failure or cancel leaves the former index as it was.
 */
export async function rebuildIndex(
  ws: Workspace,
  analyzer: AnalyzerName,
  opts: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal; inWorker?: boolean } = {},
): Promise<RebuildResult> {
  const db = ws.db;
  const total = db.prepare(`SELECT count(*) FROM questions`).pluck().get() as number;
  const page = db.prepare(`SELECT doc, title, body FROM questions WHERE doc > ? ORDER BY doc LIMIT 4096`);
  return ws.transactionAsync(async () => {
    clearStored(db);
    const indexer = new StreamingIndexer(db, { inWorker: opts.inWorker, analyzer });
    try {
      let after = -Infinity;
      let done = 0;
      for (;;) {
        const rows = page.all(after) as Array<{ doc: number; title: string; body: string }>;
        if (rows.length === 0) break;
        for (const r of rows) indexer.add(r.doc, r.title, r.body);
        after = rows[rows.length - 1]!.doc;
        done += rows.length;
        opts.onProgress?.(done, total);
        throwIfAborted(opts.signal);
        await new Promise<void>((resolve) => setImmediate(resolve)); // the worker's segments come in
      }
      await indexer.finish();
    } finally {
      indexer.close();
    }
    if (!db.prepare(`SELECT 1 FROM bm25_segments LIMIT 1`).get()) writeSettings(db, { analyzer });
    const s = db.prepare(`SELECT count(*) AS segments, coalesce(sum(n_postings), 0) AS postings FROM bm25_segments`).get() as { segments: number; postings: number };
    const bytes = db
      .prepare(`SELECT coalesce(sum(length(docs) + length(lengths) + length(removed) + length(terms) + length(dfs)), 0) FROM bm25_segments`)
      .pluck()
      .get() as number;
    const postingBytes = db.prepare(`SELECT coalesce(sum(length(data)), 0) FROM bm25_postings`).pluck().get() as number;
    const questions = db.prepare(`SELECT count(*) FROM bm25_docs`).pluck().get() as number;
    return { questions, postings: s.postings, segments: s.segments, bytes: bytes + postingBytes };
  });
}
