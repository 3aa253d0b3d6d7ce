import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { QPairsError } from '../errors';
import { Bm25Index } from './bm25-index';
import { questionDocuments, syncWithQuestions, topKForQueries } from './queries';
import { BM25_SCHEMA_SQL } from '../workspace/migrations';

const QUESTIONS_SQL = `CREATE TABLE questions(doc INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, source TEXT NOT NULL,
  title TEXT NOT NULL, body TEXT NOT NULL, tags TEXT NOT NULL, author TEXT, created TEXT, category TEXT) STRICT;`;

function workspace() {
  const db = new Database(':memory:');
  db.exec(QUESTIONS_SQL + BM25_SCHEMA_SQL);
  const ins = db.prepare(`INSERT INTO questions (doc, id, source, title, body, tags) VALUES (?, ?, 'test', ?, ?, '')`);
  const add = (doc: number, title: string, body: string) => ins.run(doc, `Q${doc}`, title, body);
  add(1, 'Best bank in Doha', 'Which bank is good for a salary account?');
  add(2, 'Good bank for salary account', 'Looking for a bank in Doha');
  add(3, 'Visa renewal office', 'Where do I renew my visa?');
  add(4, 'Renew residence visa', 'How long does visa renewal take?');
  add(5, 'Beach in Doha', 'Any nice beach near Doha?');
  return { db, add };
}

describe('topKForQueries', () => {
  it('retrieves the top-k OTHER questions for each query question', async () => {
    const { db } = workspace();
    const idx = new Bm25Index();
    idx.addDocuments(questionDocuments(db));
    const progress: number[] = [];
    const res = await topKForQueries(idx, questionDocuments(db, [1, 3, 5]), 2, { onProgress: (d) => progress.push(d) });
    expect(res.map((r) => r.doc)).toEqual([1, 3, 5]);
    for (const r of res) {
      expect(r.hits.length).toBeLessThanOrEqual(2);
      expect(r.hits.some((h) => h.doc === r.doc)).toBe(false);
    }
    expect(res[0]!.hits[0]!.doc).toBe(2);
    expect(res[1]!.hits[0]!.doc).toBe(4);
    expect(progress.at(-1)).toBe(3);
    const q3 = [...questionDocuments(db, [3])][0]!;
    expect(res[1]!.hits).toEqual(idx.search(`${q3.title} ${q3.body}`, 2, { exclude: [3] }));
  });

  it('questionDocuments throws for a missing doc', () => {
    const { db } = workspace();
    expect(() => [...questionDocuments(db, [1, 42])]).toThrow(QPairsError);
  });
});

describe('syncWithQuestions', () => {
  it('indexes new questions, drops deleted ones and persists by appending', () => {
    const { db, add } = workspace();
    let idx = Bm25Index.load(db);
    let r = syncWithQuestions(idx, db);
    expect(r).toMatchObject({ added: 5, removed: 0, persist: { mode: 'rewrite' } });
    add(6, 'Cheap beach hotel', 'near Doha');
    db.prepare(`DELETE FROM questions WHERE doc = 2`).run();
    idx = Bm25Index.load(db);
    r = syncWithQuestions(idx, db);
    expect(r).toMatchObject({ added: 1, removed: 1, persist: { mode: 'append' } });
    expect(db.prepare(`SELECT doc FROM bm25_docs ORDER BY doc`).pluck().all()).toEqual([1, 3, 4, 5, 6]);
    const back = Bm25Index.load(db);
    expect(back.search('beach', 5).map((h) => h.doc)).toEqual(idx.search('beach', 5).map((h) => h.doc));
    expect(back.has(2)).toBe(false);
    expect(syncWithQuestions(back, db)).toMatchObject({ added: 0, removed: 0, persist: { mode: 'unchanged' } });
  });

  it('finds the same differences doc by doc when the stored doc list disagrees with the index, or the index has unpersisted changes', () => {
    const { db, add } = workspace();
    syncWithQuestions(Bm25Index.load(db), db);
    add(6, 'Cheap beach hotel', 'near Doha');
    db.prepare(`DELETE FROM questions WHERE doc = 2`).run();
    // The doc list lost the row of a doc that is gone: compared through that list, doc 2 would stay indexed.
    db.prepare(`DELETE FROM bm25_docs WHERE doc = 2`).run();
    let idx = Bm25Index.load(db);
    expect(syncWithQuestions(idx, db)).toMatchObject({ added: 1, removed: 1 });
    expect(idx.docs().sort((a, b) => a - b)).toEqual([1, 3, 4, 5, 6]);
    // An index changed in memory since it was loaded: compared doc by doc too.
    add(7, 'Visa office hours', 'open on Friday?');
    idx = Bm25Index.load(db);
    idx.removeDocuments([5]);
    expect(syncWithQuestions(idx, db)).toMatchObject({ added: 2, removed: 0 });
    expect(idx.docs().sort((a, b) => a - b)).toEqual([1, 3, 4, 5, 6, 7]);
  });
});
