/**
 * runImport indexes the questions as it reads them (ImportIndexer in work.ts, segments of 8192):
 * the stored BM25 index must be the one a rebuild from the stored questions gives — the same
 * statistics and the same hits — whatever the import did: new questions, questions written twice
 * in one import, updates of indexed questions, texts SQLite stores differently (lone surrogates),
 * several segments, an index that already held other questions.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dataset } from '../../../tests/datasets';
import { Bm25Index, questionDocuments, type Bm25Document } from '../bm25';
import { cleanupTemp, tempDir, tempWorkspace } from '../import/test-helpers';
import type { Workspace } from '../workspace/workspace';
import { runImport } from './work';

afterAll(cleanupTemp);
const dir = tempDir();

function write(name: string, lines: string[]): string {
  const f = path.join(dir, name);
  writeFileSync(f, lines.join('\n') + '\n');
  return f;
}

/** The stored index answers as one rebuilt from the questions table does. */
function expectSameAsRebuilt(ws: Workspace): void {
  const stored = Bm25Index.load(ws.db);
  const fresh = new Bm25Index({ analyzer: stored.tokenizer.analyzer });
  fresh.addDocuments(questionDocuments(ws.db));
  const stats = (i: Bm25Index): object => ({ ...i.stats, segments: 0, unpersistedChanges: 0 });
  expect(stats(stored)).toEqual(stats(fresh));
  expect(stored.docs().sort((a, b) => a - b)).toEqual(fresh.docs().sort((a, b) => a - b));
  const all = [...questionDocuments(ws.db)];
  const sample: Bm25Document[] = all.filter((_, i) => i % Math.max(1, Math.floor(all.length / 40)) === 0);
  for (const d of sample) expect(stored.searchDocument(d, 10)).toEqual(fresh.searchDocument(d, 10));
  for (const q of ['sort filter', 'question about', 'body lorem', 'surrogate', 'graph complexity']) expect(stored.search(q, 10)).toEqual(fresh.search(q, 10));
}

const lines = (n: number, prefix: string, body = 'body'): string[] =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ id: `${prefix}${i}`, title: `question ${i} about ${prefix} ${i % 13}`, body: `${body} ${i % 7} lorem ${i}` }));

describe('runImport indexes what it stores', () => {
  it('a Stack Exchange dump (the cstheory meta dump, then the fixture)', async () => {
    const ws = tempWorkspace();
    await runImport(ws, 'stackexchange', [path.dirname(dataset('stackexchange-cstheory-meta/Posts.xml'))]);
    expectSameAsRebuilt(ws);
    await runImport(ws, 'stackexchange', [path.resolve(__dirname, '../../../tests/fixtures/import/se')]);
    expectSameAsRebuilt(ws);
    ws.close();
  });

  it('several segments, two files in one import, updates of indexed questions', async () => {
    const ws = tempWorkspace();
    await runImport(ws, 'questions-jsonl', [write('a.jsonl', lines(9000, 'a'))], { source: 's' });
    expect(ws.db.prepare(`SELECT count(*) FROM bm25_segments`).pluck().get()).toBe(2);
    expectSameAsRebuilt(ws);
    // One import of two files: new questions, and new text for some of a* (an id given in two files of one
    // import must be the same question, so the next changes come in an import of their own).
    const r = await runImport(ws, 'questions-jsonl', [write('b.jsonl', [...lines(4500, 'b'), ...lines(300, 'a', 'changed')]), write('c.jsonl', lines(100, 'c'))], {
      source: 's',
    });
    expect(r.counts).toMatchObject({ questionsInserted: 4600, questionsUpdated: 300 });
    expectSameAsRebuilt(ws);
    // New text again for questions the last import indexed, and for some indexed before it.
    const again = await runImport(ws, 'questions-jsonl', [write('d.jsonl', [...lines(100, 'b', 'again'), ...lines(50, 'a', 'third')])], { source: 's' });
    expect(again.counts).toMatchObject({ questionsUpdated: 150 });
    expectSameAsRebuilt(ws);
    ws.close();
  });

  it('texts SQLite stores differently: lone surrogates (stored as U+FFFD)', async () => {
    const ws = tempWorkspace();
    const f = path.join(dir, 'sur.jsonl');
    writeFileSync(f, ['{"id":"s1","title":"lone \\ud800surrogate","body":"x\\udc00y"}', '{"id":"s2","title":"surrogate \\ufffdsurrogate","body":"x\\ufffdy"}'].join('\n'));
    await runImport(ws, 'questions-jsonl', [f]);
    expect(ws.getQuestion('s1')!.title).toBe('lone \ufffdsurrogate');
    expectSameAsRebuilt(ws);
    ws.close();
  });
});
