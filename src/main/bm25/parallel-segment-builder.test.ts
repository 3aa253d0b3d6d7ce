/**
 * The import's tokenizing in a worker thread (ParallelSegmentBuilder) stores exactly what the
 * in-thread SegmentBuilder stores for the same documents and cuts, fails loudly when its worker
 * does, and leaves no thread behind. The worker is the bundle out/node/segment-worker.mjs (built by
 * the tests' global setup).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BM25_SCHEMA_SQL } from '../workspace/migrations';
import type { Bm25Document } from './bm25-types';
import { Bm25Index } from './bm25-index';
import { defaultSegmentWorkerPath, ParallelSegmentBuilder } from './parallel-segment-builder';
import { SegmentBuilder } from './segment-builder';
import { randomCorpus } from './test-corpus';

// Made in beforeAll, not when the file loads: a run that skips every test here runs no afterAll either.
let tmp = '';
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'qpairs-psb-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function memoryDb(): Database.Database {
  const db = new Database(':memory:');
  db.exec(BM25_SCHEMA_SQL);
  return db;
}

/** Every row of the index tables (created dates left out). */
function stored(db: Database.Database): unknown {
  return {
    meta: db.prepare(`SELECT * FROM bm25_meta ORDER BY key`).raw().all(),
    segments: db.prepare(`SELECT seg, n_docs, n_removed, n_terms, n_postings, hex(docs), hex(lengths), hex(removed), hex(terms), hex(dfs) FROM bm25_segments ORDER BY seg`).raw().all(),
    postings: db.prepare(`SELECT seg, chunk, first_term, n_terms, hex(data) FROM bm25_postings ORDER BY seg, chunk`).raw().all(),
    docs: db.prepare(`SELECT * FROM bm25_docs ORDER BY doc`).raw().all(),
  };
}

/** Documents in segments of `cut` (a doc repeated with new text inside a segment, odd text included). */
function corpus(): Bm25Document[] {
  const docs = randomCorpus(11, 2500, 60);
  docs.splice(700, 0, { doc: 650, title: 'repeated with a new text', body: 'café naïve ünïcode \u{1F600} x' });
  docs.push({ doc: 9999, title: '', body: '   ' }, { doc: 10000, title: 'C++ and node.js', body: 'the is and' });
  return docs;
}

const workerPath = defaultSegmentWorkerPath();

describe('ParallelSegmentBuilder', () => {
  it('finds its bundled worker', () => {
    expect(workerPath).toMatch(/out[\\/]node[\\/]segment-worker\.mjs$/);
  });

  it('stores exactly what SegmentBuilder stores for the same documents and cuts, and searches the same', async () => {
    const docs = corpus();
    const inThread = memoryDb();
    const local = new SegmentBuilder(inThread);
    const split = memoryDb();
    const parallel = new ParallelSegmentBuilder(split, workerPath!);
    try {
      for (const [i, d] of docs.entries()) {
        local.add(d);
        parallel.add(d);
        if ((i + 1) % 1000 === 0) {
          local.write();
          parallel.cut();
        }
      }
      local.write();
      await parallel.finish();
    } finally {
      await parallel.close();
    }
    expect((stored(split) as { segments: unknown[] }).segments).toHaveLength(3);
    expect(stored(split)).toEqual(stored(inThread));
    const a = Bm25Index.load(inThread);
    const b = Bm25Index.load(split);
    for (const q of ['w1 w2 w3', 'node.js c++', 'café']) expect(b.search(q, 20)).toEqual(a.search(q, 20));
  });

  it('writes with the stored index settings (analyzer) like SegmentBuilder', async () => {
    const a = memoryDb();
    const b = memoryDb();
    Bm25Index.appendSegment(a, [{ doc: 1, title: 'running runners', body: 'ran' }], { analyzer: 'lucene-english' });
    Bm25Index.appendSegment(b, [{ doc: 1, title: 'running runners', body: 'ran' }], { analyzer: 'lucene-english' });
    const local = new SegmentBuilder(a);
    const parallel = new ParallelSegmentBuilder(b, workerPath!);
    try {
      for (const d of randomCorpus(3, 300, 20)) {
        local.add({ ...d, doc: d.doc + 1 });
        parallel.add({ ...d, doc: d.doc + 1 });
      }
      local.write();
      await parallel.finish();
    } finally {
      await parallel.close();
    }
    expect(stored(b)).toEqual(stored(a));
  });

  it('a worker that fails makes the next call throw, and close leaves no thread', async () => {
    const bad = path.join(tmp, 'bad-worker.mjs');
    writeFileSync(bad, `throw new Error('worker blew up at start');\n`);
    const db = memoryDb();
    const parallel = new ParallelSegmentBuilder(db, bad, {}, 2000);
    const outcome = (async () => {
      for (const d of randomCorpus(5, 5000, 10)) {
        parallel.add(d);
        await new Promise<void>((r) => setImmediate(r));
      }
      await parallel.finish();
    })();
    // Its death is seen as an event, or, when this thread was waiting for it meanwhile, as a stall.
    await expect(outcome).rejects.toThrow(/worker blew up at start|exited|handled nothing for 2 s/);
    await parallel.close();
    expect(db.prepare(`SELECT count(*) FROM bm25_segments`).pluck().get()).toBe(0);
  });

  it('close while documents are in flight stops the worker', async () => {
    const db = memoryDb();
    const parallel = new ParallelSegmentBuilder(db, workerPath!);
    const { worker } = parallel as unknown as { worker: Worker };
    let exited = false;
    worker.once('exit', () => (exited = true));
    for (const d of randomCorpus(9, 3000, 60)) parallel.add(d);
    parallel.cut(); // a segment in flight too
    await parallel.close();
    // close resolves once the thread has exited: its 'exit' event came, its id is gone.
    expect(exited).toBe(true);
    expect(worker.threadId).toBe(-1);
    // It was stopped, not drained: the segment in flight never came back, so none is written.
    parallel.writeReady();
    expect(db.prepare(`SELECT count(*) FROM bm25_segments`).pluck().get()).toBe(0);
    // …and the builder refuses more work.
    expect(() => parallel.add({ doc: 1, title: 'x', body: '' })).toThrow(/after close/);
  });
});
