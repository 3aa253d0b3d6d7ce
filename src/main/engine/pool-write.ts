/**
 * A new pool's rows — the pool, its queries and candidates in rank order, and run `bm25`'s scores —
 * written by createPool (work.ts) as ONE transaction that lets the event loop turn: on a connection of
 * its own, in steps of `poolWriteTuning.pairsPerStep` pairs with the event loop turned between them.
 * The caller's connection reads the committed state meanwhile (no half-made pool is ever seen), and a
 * server answers its health question (GET /api/health) and reads while a large pool is written: in
 * one step (the candidates' ids looked up, then the rows), 5,000 queries × 20 candidates held the event
 * loop up to 1.4 s on the 1M-question workspace and 20,000 up to 5.3 s, so a sample of 100,000
 * (MAX_POOL_SAMPLE) would hold it about 27 s, past the 25 s after which a page sends its labels again and
 * says the server does not answer; in steps, at most 56 ms and 189 ms at a time. The caller holds the write gate (the
 * engine) or is the only writer (the CLI): no other write waits on this connection's lock. A cancel
 * between two steps rolls it all back.
 */
import type { LabelScheme } from '../../shared/labels';
import type { QueryOrder } from '../../shared/label-order';
import type { PoolInfo } from '../../shared/types';
import { writePoolOrder } from '../active/draw-log';
import { yieldThenThrowIfAborted } from '../errors';
import { Workspace } from '../workspace/workspace';

/** Pairs written per step (ids looked up, candidates and scores: up to 56-189 ms at 1M questions on a busy 2-core machine); tests make it small to see the steps. */
export const poolWriteTuning = { pairsPerStep: 2000 };

export interface NewPoolRows {
  pool: { name: string; scheme: LabelScheme; blind: boolean; convention: 'skip' | 'zero'; retriever: string; depth: number; sampling: string };
  /** The pool's label order, when one was asked for. */
  order?: { order: QueryOrder; seed?: number };
  /** Run `bm25`'s config. */
  run: { k1: number; b: number; analyzer: string; depth: number };
  /** Each query with its candidates in rank order (their doc numbers, turned into ids step by step) and their scores. */
  ranked: ReadonlyArray<{ queryId: string; hits: ReadonlyArray<{ doc: number; score: number }> }>;
}

/**
 * Writes the pool (module comment) and returns it as `ws` reads it once committed. `alreadyExists`
 * is asked inside the transaction (another creation of the name may have run meanwhile) and throws.
 */
export async function writeNewPool(ws: Workspace, rows: NewPoolRows, opts: { signal?: AbortSignal; alreadyExists: (w: Workspace) => void }): Promise<PoolInfo> {
  // Other connections' commits until now are told as such (the BM25 index drops what another process imported).
  ws.noticeExternalChanges();
  const writer = Workspace.open(ws.path, { interruptedUndo: 'leave' });
  try {
    writer.db.exec('BEGIN IMMEDIATE');
    try {
      opts.alreadyExists(writer);
      writer.createPool(rows.pool);
      if (rows.order) writePoolOrder(writer, rows.pool.name, rows.order.order, rows.order.seed);
      const run = writer.ensureRun(rows.pool.name, 'bm25', 'retriever', rows.run);
      for (let from = 0; from < rows.ranked.length; ) {
        if (from > 0) await yieldThenThrowIfAborted(opts.signal);
        // One step: whole queries, until their pairs reach pairsPerStep.
        let to = from;
        for (let pairs = 0; to < rows.ranked.length && pairs < poolWriteTuning.pairsPerStep; to++) pairs += rows.ranked[to]!.hits.length + 1;
        const step = rows.ranked.slice(from, to).map((q) => ({ queryId: q.queryId, candidates: q.hits.map((h) => writer.idOfDoc(h.doc)!), scores: q.hits.map((h) => h.score) }));
        writer.addPoolQueries(rows.pool.name, step);
        for (const q of step) q.candidates.forEach((c, j) => writer.setRunScore(run, q.queryId, c, q.scores[j]!));
        from = to;
      }
      writer.db.exec('COMMIT');
      // This write is the caller's own: its index and caches stay (Workspace.adoptCommits).
      ws.adoptCommits();
    } catch (e) {
      if (writer.db.inTransaction) writer.db.exec('ROLLBACK');
      throw e;
    }
  } finally {
    writer.close();
  }
  return ws.pool(rows.pool.name);
}
