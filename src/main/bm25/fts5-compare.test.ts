/**
 * Our BM25 against SQLite FTS5's bm25() on a corpus where both must agree.
 *
 * FTS5 scores a row as  -Σ idf5(t) · tf (k1 + 1) / (tf + k1 (1 - b + b dl / avgdl))  with
 * idf5 = ln((N - n + 0.5) / (n + 0.5)) (clamped to 1e-6 when <= 0), N = all rows, and its own
 * tokenizer (unicode61: no stop words) and exact lengths (so ours runs with `lengthNorm: 'exact'`). So on a corpus of plain lowercase ASCII words, with our
 * stop words turned off and every row non-empty, dl / avgdl / N / n agree and:
 *  - for a single-term query both scores are proportional per term:
 *        fts5 = -(k1 + 1) · idf5 / idfLucene · ours;
 *  - for multi-term queries whose terms all have the same document frequency, likewise;
 * so rankings must agree exactly there. In general (different n per term) they may differ.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Bm25Index, type Bm25Document } from './bm25-index';
import { randomCorpus } from './test-corpus';

function fts5(docs: Bm25Document[]) {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE f USING fts5(t, tokenize = 'unicode61 remove_diacritics 0')`);
  const ins = db.prepare(`INSERT INTO f(rowid, t) VALUES (?, ?)`);
  for (const d of docs) ins.run(d.doc, `${d.title} ${d.body}`);
  const q = db.prepare(`SELECT rowid AS doc, bm25(f) AS score FROM f WHERE f MATCH ? ORDER BY rank, rowid`);
  return (terms: string[]) => q.all(terms.map((t) => `"${t}"`).join(' OR ')) as { doc: number; score: number }[];
}

describe('BM25 vs SQLite FTS5 bm25()', () => {
  // plain ascii words only, every doc non-empty
  const docs = randomCorpus(5, 600, 40)
    .map((d) => ({ ...d, title: d.title.replace(/[^a-z0-9 ]/g, ' '), body: d.body.replace(/[^a-z0-9 ]/g, ' ') }))
    .filter((d) => /[a-z0-9]/.test(d.title + d.body));
  const ours = new Bm25Index({ tokenizer: { stopWords: 'none' }, lengthNorm: 'exact' });
  ours.addDocuments(docs);
  const search = fts5(docs);
  const N = ours.stats.nonEmptyDocs;
  const k1 = 1.2;

  function df(term: string): number {
    return ours.search(term, 1_000_000).length;
  }

  it('ranks identically and with proportional scores for single-term queries', () => {
    let compared = 0;
    for (const term of ['w0', 'w1', 'w5', 'wa', 'w1z', 'w2s', 'visa', 'the']) {
      const a = ours.search(term, 1_000_000);
      const b = search([term]);
      expect(a.length).toBe(b.length);
      if (a.length === 0) continue;
      const n = a.length;
      const idfL = Math.log(1 + (N - n + 0.5) / (n + 0.5));
      const idf5 = Math.max(1e-6, Math.log((N - n + 0.5) / (n + 0.5)));
      const ratio = (-(k1 + 1) * idf5) / idfL;
      // FTS5 orders equal scores arbitrarily: compare score sequences, and docs where scores are distinct
      a.forEach((h, i) => expect(Math.abs(b[i]!.score - ratio * h.score)).toBeLessThan(1e-9 * Math.abs(b[i]!.score) + 1e-12));
      const bScore = new Map(b.map((x) => [x.doc, x.score]));
      for (const h of a) expect(Math.abs(bScore.get(h.doc)! - ratio * h.score)).toBeLessThan(1e-9 * Math.abs(ratio * h.score) + 1e-12);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(6);
  });

  it('ranks identically for multi-term queries whose terms share a document frequency', () => {
    const vocab = new Map<number, string[]>();
    for (const t of new Set(docs.flatMap((d) => `${d.title} ${d.body}`.split(/\s+/).filter(Boolean)))) {
      const n = df(t);
      if (n >= 3 && n < N / 2) vocab.set(n, [...(vocab.get(n) ?? []), t]);
    }
    const groups = [...vocab.values()].filter((g) => g.length >= 2).slice(0, 8);
    expect(groups.length).toBeGreaterThanOrEqual(3);
    for (const g of groups) {
      const terms = g.slice(0, 3);
      const a = ours.search(terms.join(' '), 1_000_000);
      const b = search(terms);
      expect(b.length).toBe(a.length);
      const ratio = b[0]!.score / a[0]!.score;
      const bScore = new Map(b.map((x) => [x.doc, x.score]));
      for (const h of a) expect(Math.abs(bScore.get(h.doc)! - ratio * h.score)).toBeLessThan(1e-9 * Math.abs(ratio * h.score));
    }
  });
});
