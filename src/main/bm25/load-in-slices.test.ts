/**
 * Bm25Index.loadInSlices: the stored index loaded with the event loop turning between slices (a server
 * answers meanwhile; loading in one go held every request 3-8 s at 1M questions), into the same index
 * as Bm25Index.load: stats and search results, over segments with superseded documents.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CancelledError } from '../errors';
import { BM25_SCHEMA_SQL } from '../workspace/migrations';
import { Bm25Index } from './bm25-index';
import { randomCorpus } from './test-corpus';
import { turnsWhile } from './test-turns';

/** An index stored in many segments: appended chunks, each after the first with new text for documents indexed before. */
function storedInSegments(): { db: Database.Database; queries: ReturnType<typeof randomCorpus> } {
  const db = new Database(':memory:');
  db.exec(BM25_SCHEMA_SQL);
  const corpus = randomCorpus(11, 1500, 60);
  const edits = randomCorpus(12, 120, 40);
  for (let k = 0; k < 12; k++) {
    const changed = edits.slice(k * 10, k * 10 + 10).map((e, i) => ({ ...e, doc: corpus[k * 13 + i * 7]!.doc }));
    Bm25Index.appendSegment(db, [...corpus.slice(k * 125, (k + 1) * 125), ...(k > 0 ? changed : [])]);
  }
  return { db, queries: corpus.filter((_, i) => i % 37 === 0) };
}

describe('Bm25Index.loadInSlices', () => {
  it('loads the same index as load, letting the event loop turn between slices', async () => {
    const { db, queries } = storedInSegments();
    expect(db.prepare('SELECT count(*) FROM bm25_segments').pluck().get()).toBeGreaterThan(3);
    const whole = Bm25Index.load(db);
    const { value: sliced, turns } = await turnsWhile(Bm25Index.loadInSlices(db, {}, { sliceMs: 0 }));
    // A turn at least per segment and pass (sliceMs 0: a slice is one step).
    expect(turns).toBeGreaterThan(db.prepare('SELECT count(*) FROM bm25_segments').pluck().get() as number);
    expect(sliced.stats).toEqual(whole.stats);
    for (const q of queries) expect(sliced.searchDocument(q, 20)).toEqual(whole.searchDocument(q, 20));
    sliced.close();
    whole.close();
  });

  it('stops between slices when its signal is aborted', async () => {
    const { db } = storedInSegments();
    const ac = new AbortController();
    const p = Bm25Index.loadInSlices(db, {}, { sliceMs: 0, signal: ac.signal });
    ac.abort();
    await expect(p).rejects.toBeInstanceOf(CancelledError);
  });
});
