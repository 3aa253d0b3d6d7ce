/**
 * An import tokenizes its questions in a worker thread (importTuning.indexInWorker, the default
 * where a second core and the bundle exist) or in its own thread: the workspace ends up the same,
 * byte for byte in every table that records no times (the index's included).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanupTemp, tablesChecksum, tempDir, tempWorkspace } from '../import/test-helpers';
import { dataset } from '../../../tests/datasets';
import { importTuning, runImport } from './work';

afterAll(() => cleanupTemp());
afterEach(() => {
  importTuning.indexInWorker = true;
});

/** Tables that record times (each import's own, and its kept undo journal's); the rest must be byte-identical. */
const TIMED = ['imports', 'annotators', 'labels', 'pools', 'pool_blind_history', 'runs', 'import_journal'];

/** A checksum of each table but the timed ones (the segments' creation dates left out). */
function contents(ws: ReturnType<typeof tempWorkspace>): Record<string, string> {
  ws.db.exec(`UPDATE bm25_segments SET created = ''`);
  // The journal the import before left below this import's (cleared by the next import) keys its pool's rows by their times.
  ws.db.exec(`DELETE FROM import_undo WHERE seq <= (SELECT from_seq FROM import_journal)`);
  const all = ws.db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`).pluck().all() as string[];
  const tables = all.filter((t) => !TIMED.includes(t));
  return Object.fromEntries(tables.map((t) => [t, tablesChecksum(ws, all.filter((o) => o !== t))]));
}

describe('the import indexer', () => {
  it('gives the same workspace with the tokenizing in a worker and in the import thread (20,000 questions in several segments)', async () => {
    const dir = tempDir();
    const lines = Array.from({ length: 20_000 }, (_, i) =>
      JSON.stringify({ id: `q${i}`, title: `question ${i} about topic ${i % 97}`, body: `body words ${'alpha beta gamma '.repeat(i % 7)} tail${i % 13} ${i}` }),
    );
    const file = path.join(dir, 'q.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    const results: Array<Record<string, string>> = [];
    for (const inWorker of [true, false]) {
      importTuning.indexInWorker = inWorker;
      const ws = tempWorkspace();
      await runImport(ws, 'semeval', [dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml')], { pool: 'dev' });
      await runImport(ws, 'questions-jsonl', [file]);
      expect(ws.db.prepare(`SELECT count(*) FROM bm25_docs`).pluck().get()).toBe(ws.db.prepare(`SELECT count(*) FROM questions`).pluck().get());
      expect(ws.db.prepare(`SELECT count(*) FROM bm25_segments`).pluck().get()).toBeGreaterThanOrEqual(3);
      results.push(contents(ws));
      ws.close();
    }
    expect(results[0]).toEqual(results[1]);
  });
});
