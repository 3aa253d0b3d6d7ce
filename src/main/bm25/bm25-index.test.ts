import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CancelledError, QPairsError } from '../errors';
import { Bm25Index, type Bm25Document } from './bm25-index';
import { BM25_SCHEMA_SQL } from '../workspace/migrations';
import { randomCorpus } from './test-corpus';
import { decodeLength, encodeLength } from './length-norm';

function memoryDb(): Database.Database {
  const db = new Database(':memory:');
  db.exec(BM25_SCHEMA_SQL);
  return db;
}

const LN2 = Math.log(2);

/** Stats without the persistence bookkeeping. */
function core(idx: Bm25Index) {
  const { segments: _s, unpersistedChanges: _u, ...rest } = idx.stats;
  return rest;
}

/**
 * Hand-built corpus (no stop words). Tokens per doc (title + body):
 *  1: apple banana apple cherry      dl 4
 *  2: banana banana banana date      dl 4
 *  3: cherry date eggplant           dl 3
 *  4: apple                          dl 1
 *  5: (nothing)                      dl 0 — indexed, but not in N / avgdl
 * N = 4, avgdl = 12 / 4 = 3.
 */
const SMALL: Bm25Document[] = [
  { doc: 1, title: 'Apple banana', body: 'apple, cherry.' },
  { doc: 2, title: 'banana', body: 'Banana banana date' },
  { doc: 3, title: 'cherry date', body: 'eggplant' },
  { doc: 4, title: 'apple', body: '' },
  { doc: 5, title: '', body: '   ' },
];

/** K(dl) = k1 (1 - b + b dl / avgdl) with k1 = 1.2, b = 0.75, avgdl = 3. */
const K = (dl: number) => 1.2 * (1 - 0.75 + (0.75 * dl) / 3);
const idf = (N: number, n: number) => Math.log(1 + (N - n + 0.5) / (n + 0.5));

function small(): Bm25Index {
  const idx = new Bm25Index({ tokenizer: { stopWords: 'none' } });
  idx.addDocuments(SMALL);
  return idx;
}

describe('Bm25Index scoring (Lucene BM25, hand-computed)', () => {
  it('has the expected statistics', () => {
    const s = small().stats;
    expect(s).toMatchObject({ docs: 5, nonEmptyDocs: 4, terms: 5, postings: 9, tokens: 12, avgdl: 3, k1: 1.2, b: 0.75 });
  });

  it('scores a two-term query exactly by the formula', () => {
    // idf(apple) = idf(date) = ln(1 + (4 - 2 + 0.5) / (2 + 0.5)) = ln 2
    expect(idf(4, 2)).toBeCloseTo(LN2, 15);
    const hits = small().search('apple date', 10);
    // doc 4: apple tf 1, dl 1: K = 1.2 (0.25 + 0.25) = 0.6  -> ln2 * 1 / 1.6
    // doc 1: apple tf 2, dl 4: K = 1.2 (0.25 + 1)   = 1.5  -> ln2 * 2 / 3.5
    // doc 3: date  tf 1, dl 3: K = 1.2                      -> ln2 * 1 / 2.2
    // doc 2: date  tf 1, dl 4: K = 1.5                      -> ln2 * 1 / 2.5
    const expected = [
      { doc: 4, score: LN2 / 1.6 },
      { doc: 1, score: (2 * LN2) / 3.5 },
      { doc: 3, score: LN2 / 2.2 },
      { doc: 2, score: LN2 / 2.5 },
    ];
    expect(hits.map((h) => h.doc)).toEqual(expected.map((h) => h.doc));
    hits.forEach((h, i) => expect(Math.abs(h.score - expected[i]!.score)).toBeLessThan(1e-9));
    expect(K(1)).toBeCloseTo(0.6, 15);
  });

  it('scores term frequencies past the packed posting\'s 5 bits exactly, in memory, persisted, merged and pruned', () => {
    // tf 1 … 300 of "zeta" (the packed posting holds tf < 31 in place, larger ones beside it).
    const tfs = [1, 2, 30, 31, 32, 40, 255, 300];
    const docs = tfs.map((tf, i) => ({ doc: i + 1, title: `zeta ${'zeta '.repeat(tf - 1)}`.trim(), body: `filler${i}` }));
    const idx = new Bm25Index({ tokenizer: { stopWords: 'none' } });
    idx.addDocuments(docs);
    const n = docs.length;
    const lens = tfs.map((tf) => tf + 1);
    const avg = lens.reduce((a, b) => a + b, 0) / n;
    const w = idf(n, n);
    const expected = tfs
      .map((tf, i) => ({ doc: i + 1, score: (w * tf) / (tf + 1.2 * (0.25 + (0.75 * decodeLength(encodeLength(lens[i]!))) / avg)) }))
      .sort((a, b) => b.score - a.score || a.doc - b.doc);
    const hits = idx.search('zeta', 10);
    expect(hits.map((h) => h.doc)).toEqual(expected.map((h) => h.doc));
    hits.forEach((h, i) => expect(Math.abs(h.score - expected[i]!.score)).toBeLessThan(1e-12));
    expect(idx.search('zeta', 10, { scan: 'pruned' })).toEqual(hits);
    expect(idx.search('zeta', 10, { scan: 'dense' })).toEqual(hits);
    expect(idx.search('zeta', 10, { scan: 'sparse' })).toEqual(hits);
    const db = memoryDb();
    idx.persist(db);
    const back = Bm25Index.load(db, { tokenizer: { stopWords: 'none' } });
    expect(back.search('zeta', 10)).toEqual(hits);
    // Re-index two of them with other counts (retired ordinals, a merge), append a segment, load again.
    back.addDocuments([
      { doc: 4, title: 'zeta '.repeat(7).trim(), body: 'filler3' },
      { doc: 8, title: 'zeta '.repeat(33).trim(), body: 'filler7' },
    ]);
    back.persist(db);
    const fresh = new Bm25Index({ tokenizer: { stopWords: 'none' } });
    fresh.addDocuments([...docs.filter((d) => d.doc !== 4 && d.doc !== 8), { doc: 4, title: 'zeta '.repeat(7).trim(), body: 'filler3' }, { doc: 8, title: 'zeta '.repeat(33).trim(), body: 'filler7' }]);
    const want = fresh.search('zeta', 10);
    expect(back.search('zeta', 10)).toEqual(want);
    for (const scan of ['dense', 'sparse', 'pruned'] as const) expect(back.search('zeta', 10, { scan })).toEqual(want);
    expect(Bm25Index.load(db, { tokenizer: { stopWords: 'none' } }).search('zeta', 10)).toEqual(want);
  });

  it('sums idf * tf part over terms; rare terms weigh more', () => {
    const hits = small().search('banana eggplant cherry', 10);
    const iBan = idf(4, 2); // docs 1, 2
    const iEgg = idf(4, 1); // doc 3: ln(1 + 3.5 / 1.5)
    const iChe = idf(4, 2); // docs 1, 3
    expect(iEgg).toBeCloseTo(Math.log(1 + 3.5 / 1.5), 15);
    const want = new Map([
      [1, (iBan * 1) / (1 + K(4)) + (iChe * 1) / (1 + K(4))],
      [2, (iBan * 3) / (3 + K(4))],
      [3, iEgg / (1 + K(3)) + iChe / (1 + K(3))],
    ]);
    expect(hits).toHaveLength(3);
    for (const h of hits) expect(Math.abs(h.score - want.get(h.doc)!)).toBeLessThan(1e-9);
    expect(hits.map((h) => h.doc)).toEqual([3, 1, 2]);
  });

  it('counts a repeated query term again (qtf multiplies its contribution)', () => {
    const idx = small();
    const once = idx.search('eggplant', 5);
    const twice = idx.search('eggplant EGGPLANT', 5);
    expect(once).toHaveLength(1);
    expect(Math.abs(twice[0]!.score - 2 * once[0]!.score)).toBeLessThan(1e-12);
    const mixed = idx.search('apple apple date', 10);
    expect(Math.abs(mixed.find((h) => h.doc === 1)!.score - (2 * LN2 * 2) / 3.5)).toBeLessThan(1e-9);
    expect(Math.abs(mixed.find((h) => h.doc === 2)!.score - LN2 / 2.5)).toBeLessThan(1e-9);
  });

  it('honours k1 and b', () => {
    const idx = new Bm25Index({ k1: 2, b: 0, tokenizer: { stopWords: 'none' } });
    idx.addDocuments(SMALL);
    const h = idx.search('apple', 10);
    // b = 0: no length normalisation, K = k1 = 2
    expect(h.map((x) => x.doc)).toEqual([1, 4]);
    expect(Math.abs(h[0]!.score - (LN2 * 2) / 4)).toBeLessThan(1e-12);
    expect(Math.abs(h[1]!.score - LN2 / 3)).toBeLessThan(1e-12);
    expect(() => new Bm25Index({ k1: -1 })).toThrow(QPairsError);
    expect(() => new Bm25Index({ b: 1.5 })).toThrow(QPairsError);
  });

  it('returns [] for empty queries, unknown terms, k = 0 and an empty index; rejects bad k', () => {
    const idx = small();
    expect(idx.search('', 10)).toEqual([]);
    expect(idx.search('zucchini', 10)).toEqual([]);
    expect(idx.search('apple', 0)).toEqual([]);
    expect(new Bm25Index().search('apple', 10)).toEqual([]);
    expect(() => idx.search('apple', -1)).toThrow(QPairsError);
    expect(() => idx.search('apple', 1.5)).toThrow(QPairsError);
  });

  it('removes stop words from documents and queries (and from dl)', () => {
    const idx = new Bm25Index();
    idx.addDocuments([
      { doc: 1, title: 'The bank', body: 'is open' },
      { doc: 2, title: 'bank bank', body: 'closed' },
    ]);
    expect(idx.stats.tokens).toBe(5); // bank open | bank bank closed
    expect(idx.search('the', 5)).toEqual([]);
    expect(idx.search('is the bank open', 5).map((h) => h.doc)).toEqual([1, 2]);
  });
});

describe('Bm25Index ranking details', () => {
  it('breaks ties by doc number ascending, also at the k cut-off', () => {
    const idx = new Bm25Index();
    idx.addDocuments([
      { doc: 30, title: 'visa renewal', body: 'office hours' },
      { doc: 10, title: 'visa renewal', body: 'office hours' },
      { doc: 20, title: 'visa renewal', body: 'office hours' },
      { doc: 5, title: 'something else', body: 'entirely' },
    ]);
    const all = idx.search('visa', 10);
    expect(all.map((h) => h.doc)).toEqual([10, 20, 30]);
    expect(all[0]!.score).toBe(all[2]!.score);
    expect(idx.search('visa', 2).map((h) => h.doc)).toEqual([10, 20]);
    expect(idx.search('visa', 1).map((h) => h.doc)).toEqual([10]);
  });

  it('excludes given docs (and ignores unknown ones)', () => {
    const idx = small();
    expect(idx.search('apple date', 10, { exclude: [1, 3, 999] }).map((h) => h.doc)).toEqual([4, 2]);
    expect(idx.search('apple date', 1, { exclude: [4] }).map((h) => h.doc)).toEqual([1]);
    // exclusion is per call
    expect(idx.search('apple date', 10).map((h) => h.doc)).toEqual([4, 1, 3, 2]);
  });

  it('searchDocument uses title + body and excludes the query itself', () => {
    const idx = small();
    const q = SMALL[2]!; // doc 3: cherry date eggplant
    const hits = idx.searchDocument(q, 10);
    expect(hits.some((h) => h.doc === 3)).toBe(false);
    expect(hits).toEqual(idx.search(`${q.title} ${q.body}`, 10, { exclude: [3] }));
  });

  it('keeps top-k exact on a larger random corpus (vs. brute force)', () => {
    const docs = randomCorpus(7, 400, 60);
    const idx = new Bm25Index({ tokenizer: { stopWords: 'none' } });
    idx.addDocuments(docs);
    const toks = new Map(docs.map((d) => [d.doc, idx.tokenizer.tokenize(`${d.title} ${d.body}`)]));
    const N = docs.filter((d) => toks.get(d.doc)!.length > 0).length;
    const avgdl = [...toks.values()].reduce((s, t) => s + t.length, 0) / N;
    for (let qi = 0; qi < 20; qi++) {
      const q = idx.tokenizer.tokenize(docs[qi * 7]!.title + ' ' + docs[qi * 3]!.body.slice(0, 40));
      const brute: { doc: number; score: number }[] = [];
      for (const d of docs) {
        const t = toks.get(d.doc)!;
        let s = 0;
        for (const term of q) {
          const tf = t.filter((x) => x === term).length;
          if (!tf) continue;
          const n = [...toks.values()].filter((x) => x.includes(term)).length;
          // Lucene's one-byte length norm: the rounded length, against the exact avgdl.
          const dl = decodeLength(encodeLength(t.length));
          s += (idf(N, n) * tf) / (tf + 1.2 * (1 - 0.75 + (0.75 * dl) / avgdl));
        }
        if (s > 0) brute.push({ doc: d.doc, score: s });
      }
      brute.sort((a, b) => b.score - a.score || a.doc - b.doc);
      const got = idx.search(q.join(' '), 15);
      expect(got.map((h) => h.doc)).toEqual(brute.slice(0, 15).map((h) => h.doc));
      got.forEach((h, i) => expect(Math.abs(h.score - brute[i]!.score)).toBeLessThan(1e-9));
    }
  });

  it('dense and sparse accumulator scans give identical results', () => {
    const docs = randomCorpus(11, 6000, 120);
    const dense = new Bm25Index({ scanMode: 'dense' });
    const sparse = new Bm25Index({ scanMode: 'sparse' });
    const auto = new Bm25Index();
    for (const i of [dense, sparse, auto]) i.addDocuments(docs);
    let n = 0;
    for (let q = 0; q < 150; q++) {
      const d = docs[(q * 37) % docs.length]!;
      for (const k of [1, 5, 20]) {
        const a = sparse.searchDocument(d, k);
        expect(dense.searchDocument(d, k)).toEqual(a);
        expect(auto.searchDocument(d, k)).toEqual(a);
        n += a.length;
      }
      const ex = { exclude: [d.doc, d.doc + 1] };
      expect(dense.search(d.title, 10, ex)).toEqual(sparse.search(d.title, 10, ex));
    }
    expect(n).toBeGreaterThan(1000);
  });
});

describe('Bm25Index building', () => {
  it('replaces a re-indexed doc (changed text), like a fresh build with the new text', () => {
    const idx = small();
    idx.addDocuments([{ doc: 3, title: 'fig', body: 'apple' }]);
    const fresh = new Bm25Index({ tokenizer: { stopWords: 'none' } });
    fresh.addDocuments([...SMALL.filter((d) => d.doc !== 3), { doc: 3, title: 'fig', body: 'apple' }]);
    expect(idx.search('eggplant', 10)).toEqual([]);
    expect(idx.search('fig apple date cherry', 10)).toEqual(fresh.search('fig apple date cherry', 10));
    expect(idx.stats).toMatchObject({ docs: 5, tokens: fresh.stats.tokens, postings: fresh.stats.postings, terms: fresh.stats.terms });
  });

  it('keeps the last version when a doc occurs twice in one call', () => {
    const idx = new Bm25Index();
    idx.addDocuments([
      { doc: 1, title: 'old text', body: '' },
      { doc: 2, title: 'other', body: '' },
      { doc: 1, title: 'new words', body: '' },
    ]);
    expect(idx.stats.docs).toBe(2);
    expect(idx.search('old', 5)).toEqual([]);
    expect(idx.search('new', 5).map((h) => h.doc)).toEqual([1]);
  });

  it('removes documents', () => {
    const idx = small();
    expect(idx.removeDocuments([2, 99])).toBe(1);
    expect(idx.has(2)).toBe(false);
    const fresh = new Bm25Index({ tokenizer: { stopWords: 'none' } });
    fresh.addDocuments(SMALL.filter((d) => d.doc !== 2));
    expect(idx.search('banana date', 10)).toEqual(fresh.search('banana date', 10));
    expect(core(idx)).toEqual(core(fresh));
  });

  it('rejects bad records and leaves the index unchanged', () => {
    const idx = small();
    const before = idx.search('apple fig', 10);
    expect(() => idx.addDocuments([{ doc: 7, title: 'fig', body: '' }, { doc: 1.5, title: 'x', body: '' }])).toThrow(/record 1/);
    expect(() => idx.addDocuments([{ doc: 8, title: null as unknown as string, body: '' }])).toThrow(QPairsError);
    expect(idx.has(7)).toBe(false);
    expect(idx.search('apple fig', 10)).toEqual(before);
    expect(idx.stats.terms).toBe(5);
  });

  it('can be cancelled (all or nothing) and reports progress', () => {
    const idx = small();
    const ac = new AbortController();
    // big enough for several pending-postings blocks
    const docs = randomCorpus(1, 30000, 60).map((d) => ({ ...d, doc: d.doc + 100 }));
    const seen: [number, number][] = [];
    expect(() =>
      idx.addDocuments(
        (function* () {
          for (const d of docs) {
            if (d.doc === 100 + 25000) ac.abort();
            yield d;
          }
        })(),
        { signal: ac.signal, onProgress: (d, t) => seen.push([d, t]), total: docs.length },
      ),
    ).toThrow(CancelledError);
    expect(seen[0]).toEqual([1024, 30000]);
    expect(idx.stats.docs).toBe(5);
    expect(idx.has(101)).toBe(false);
    expect(idx.search('apple date', 10)).toEqual(small().search('apple date', 10));
    const seen2: number[] = [];
    idx.addDocuments(docs, { onProgress: (d) => seen2.push(d) });
    expect(seen2.at(-1)).toBe(30000);
    expect(idx.stats.docs).toBe(30005);
    const fresh = new Bm25Index({ tokenizer: { stopWords: 'none' } });
    fresh.addDocuments([...SMALL, ...docs]);
    expect(core(idx)).toEqual(core(fresh));
    expect(idx.search('w1 w2 apple', 20)).toEqual(fresh.search('w1 w2 apple', 20));
  });
});

describe('Bm25Index persistence', () => {
  it('round-trips through an in-memory better-sqlite3 database', () => {
    const db = memoryDb();
    const idx = small();
    const r = idx.persist(db);
    expect(r.mode).toBe('rewrite');
    expect(r.docs).toBe(5);
    const back = Bm25Index.load(db, { tokenizer: { stopWords: 'none' } });
    expect(core(back)).toEqual(core(idx));
    for (const q of ['apple date', 'banana eggplant cherry', 'apple apple', 'nothing'])
      expect(back.search(q, 10)).toEqual(idx.search(q, 10));
    expect(back.has(5)).toBe(true);
    expect(db.prepare('SELECT count(*) FROM bm25_docs').pluck().get()).toBe(5);
    expect(idx.persist(db).mode).toBe('unchanged');
  });

  it('loads an empty index from an empty database', () => {
    const idx = Bm25Index.load(memoryDb());
    expect(idx.stats.docs).toBe(0);
    expect(idx.search('x', 3)).toEqual([]);
  });

  it('loads with the stored settings, refuses other settings named explicitly', () => {
    const db = memoryDb();
    small().persist(db);
    expect(Bm25Index.load(db).stats.docs).toBe(5);
    expect(Bm25Index.load(db).tokenizer.stopWords.size).toBe(0);
    expect(() => Bm25Index.load(db, { analyzer: 'lucene-standard-stop' })).toThrow(/other tokenizer settings/);
    Bm25Index.clear(db);
    expect(Bm25Index.load(db).stats.docs).toBe(0);
  });

  it('keeps the analyzer of a stored index (also for appended segments)', () => {
    const db = memoryDb();
    const idx = new Bm25Index({ analyzer: 'lucene-english' });
    idx.addDocuments([{ doc: 1, title: 'Running servers', body: '' }]);
    idx.persist(db);
    Bm25Index.appendSegment(db, [{ doc: 2, title: 'the server runs', body: '' }]);
    const back = Bm25Index.load(db);
    expect(back.stats.analyzer).toBe('lucene-english');
    expect(back.docFreq('server')).toBe(2);
    expect(back.docFreq('run')).toBe(2);
    expect(db.prepare(`SELECT value FROM bm25_meta WHERE key = 'analyzer'`).pluck().get()).toBe('lucene-english');
  });

  it('loads an index of an older QPairs as outdated and empty; sync + persist rebuild it with the chosen analyzer', () => {
    const db = memoryDb();
    small().persist(db);
    // What QPairs before Lucene parity wrote: tokenizer signature v1, no analyzer.
    db.prepare(`UPDATE bm25_meta SET value = ? WHERE key = 'tokenizer'`).run(JSON.stringify({ v: 1, stopWords: [], maxTokenLength: 64 }));
    db.prepare(`DELETE FROM bm25_meta WHERE key = 'analyzer'`).run();
    const old = Bm25Index.load(db);
    expect(old.outdated).toBe(true);
    expect(old.stats.docs).toBe(0);
    expect(Bm25Index.mergeTail(db, { minSegments: 2, smallDocs: 10 })).toBeNull();
    old.addDocuments(SMALL);
    expect(old.persist(db).mode).toBe('rewrite');
    expect(old.outdated).toBe(false);
    const back = Bm25Index.load(db);
    expect(back.outdated).toBe(false);
    expect(back.stats).toMatchObject({ docs: 5, analyzer: 'lucene-standard-stop' });
    // An import into an outdated index starts it over with the workspace's analyzer.
    db.prepare(`UPDATE bm25_meta SET value = ? WHERE key = 'tokenizer'`).run(JSON.stringify({ v: 1, stopWords: [], maxTokenLength: 64 }));
    db.prepare(`UPDATE bm25_meta SET value = 'lucene-english' WHERE key = 'analyzer'`).run();
    expect(Bm25Index.appendSegment(db, [{ doc: 7, title: 'running', body: '' }]).mode).toBe('append');
    const after = Bm25Index.load(db);
    expect(after.stats).toMatchObject({ docs: 1, analyzer: 'lucene-english' });
    expect(after.docFreq('run')).toBe(1);
  });

  it('extends incrementally (appending segments) with results identical to a full rebuild', () => {
    const db = memoryDb();
    const opts = { tokenizer: { stopWords: 'english' as const }, maxSegments: 4 };
    const corpus = randomCorpus(42, 900, 50);
    const finalText = new Map(corpus.map((d) => [d.doc, d]));
    let idx = new Bm25Index(opts);
    idx.addDocuments(corpus.slice(0, 300));
    expect(idx.persist(db).mode).toBe('rewrite');
    const modes: string[] = [];
    const edits = randomCorpus(99, 60, 40);
    for (let batch = 1; batch < 6; batch++) {
      idx = Bm25Index.load(db, opts); // reload between imports, as the app does
      const add = corpus.slice(300 + (batch - 1) * 120, 300 + batch * 120);
      // re-index a few existing docs with new text, remove a couple
      const changed = edits.slice((batch - 1) * 10, batch * 10).map((e, i) => ({ ...e, doc: corpus[batch * 37 + i * 11]!.doc }));
      idx.addDocuments([...add, ...changed]);
      for (const c of changed) finalText.set(c.doc, c);
      const gone = [corpus[batch * 13]!.doc, 99999];
      idx.removeDocuments(gone);
      finalText.delete(gone[0]!);
      modes.push(idx.persist(db).mode);
    }
    expect(modes).toEqual(['append', 'append', 'append', 'rewrite', 'append']);
    const loaded = Bm25Index.load(db, opts);
    const full = new Bm25Index(opts);
    full.addDocuments([...finalText.values()].sort((a, b) => a.doc - b.doc));
    expect(core(loaded)).toEqual(core(full));
    expect(loaded.stats.segments).toBe(2);
    expect(idx.stats).toMatchObject({ docs: full.stats.docs, postings: full.stats.postings, avgdl: full.stats.avgdl });
    for (let q = 0; q < 60; q++) {
      const query = corpus[q * 15]!;
      expect(loaded.searchDocument(query, 20)).toEqual(full.searchDocument(query, 20));
      expect(idx.searchDocument(query, 20)).toEqual(full.searchDocument(query, 20));
    }
    expect(db.prepare('SELECT count(*) FROM bm25_docs').pluck().get()).toBe(finalText.size);
  });

  it('appends segments without loading the index, merges small trailing ones, and loads identical to a full build', () => {
    const db = memoryDb();
    const corpus = randomCorpus(7, 1200, 50);
    const edits = randomCorpus(8, 100, 40);
    const finalText = new Map(corpus.slice(0, 200).map((d) => [d.doc, d]));
    // An index persisted the usual way first, then an import's chunks appended after it.
    const first = new Bm25Index();
    first.addDocuments(corpus.slice(0, 200));
    first.persist(db);
    const merges: number[] = [];
    for (let k = 0; k < 10; k++) {
      // each chunk: 100 new docs, and new text for 10 docs indexed before (a later segment wins)
      const changed = edits.slice(k * 10, k * 10 + 10).map((e, i) => ({ ...e, doc: corpus[k * 17 + i * 3]!.doc }));
      const batch = [...corpus.slice(200 + k * 100, 300 + k * 100), ...changed];
      expect(Bm25Index.appendSegment(db, batch).mode).toBe('append');
      for (const d of batch) finalText.set(d.doc, d);
      const m = Bm25Index.mergeTail(db, { minSegments: 4, smallDocs: 400 });
      if (m) merges.push(m.segments);
    }
    expect(merges.length).toBeGreaterThan(0);
    const segs = db.prepare('SELECT n_docs FROM bm25_segments ORDER BY seg').pluck().all() as number[];
    expect(segs.length).toBeLessThan(8);
    const loaded = Bm25Index.load(db);
    const full = new Bm25Index();
    full.addDocuments([...finalText.values()].sort((a, b) => a.doc - b.doc));
    expect(core(loaded)).toEqual(core(full));
    for (let q = 0; q < 40; q++) expect(loaded.searchDocument(corpus[q * 29]!, 20)).toEqual(full.searchDocument(corpus[q * 29]!, 20));
    expect(db.prepare('SELECT count(*) FROM bm25_docs').pluck().get()).toBe(finalText.size);
    // bm25_docs names the segment holding each document's current version
    const stale = db.prepare('SELECT count(*) FROM bm25_docs d WHERE NOT EXISTS (SELECT 1 FROM bm25_segments s WHERE s.seg = d.seg)').pluck().get();
    expect(stale).toBe(0);
    // The first append into an empty database writes the format and tokenizer; a mismatch is refused.
    const empty = memoryDb();
    Bm25Index.appendSegment(empty, corpus.slice(0, 5));
    expect(Bm25Index.load(empty).stats.docs).toBe(5);
    expect(() => Bm25Index.appendSegment(empty, corpus.slice(5, 6), { tokenizer: { stopWords: 'none' } })).toThrow(/other tokenizer settings/);
  });

  it('rewrites when the database holds segments it did not load', () => {
    const db = memoryDb();
    small().persist(db);
    const other = new Bm25Index({ tokenizer: { stopWords: 'none' } });
    other.addDocuments([{ doc: 9, title: 'zucchini', body: '' }]);
    expect(other.persist(db).mode).toBe('rewrite');
    const back = Bm25Index.load(db, { tokenizer: { stopWords: 'none' } });
    expect(back.stats.docs).toBe(1);
    expect(back.search('apple', 5)).toEqual([]);
  });

  it('compacts on request and when most stored docs are superseded', () => {
    const db = memoryDb();
    const idx = small();
    idx.persist(db);
    idx.addDocuments(SMALL.map((d) => ({ ...d, title: d.title + ' kiwi' })));
    expect(idx.persist(db).mode).toBe('append');
    idx.addDocuments(SMALL.map((d) => ({ ...d, title: d.title + ' lime' })));
    expect(idx.persist(db).mode).toBe('rewrite'); // 10 superseded > 5 live
    expect(idx.persist(db, { compact: true }).mode).toBe('rewrite');
    expect(db.prepare('SELECT count(*) FROM bm25_segments').pluck().get()).toBe(1);
    const back = Bm25Index.load(db, { tokenizer: { stopWords: 'none' } });
    expect(back.search('lime kiwi apple', 10)).toEqual(idx.search('lime kiwi apple', 10));
  });

  it('splits large postings into chunks and detects corruption', () => {
    const db = memoryDb();
    const idx = new Bm25Index({ chunkBytes: 1000 });
    idx.addDocuments(randomCorpus(3, 2000, 80));
    idx.persist(db);
    expect(db.prepare('SELECT count(*) FROM bm25_postings').pluck().get()).toBeGreaterThan(10);
    const back = Bm25Index.load(db);
    expect(back.search('w1 w2 w3 visa', 20)).toEqual(idx.search('w1 w2 w3 visa', 20));
    db.prepare(`UPDATE bm25_postings SET data = substr(data, 1, length(data) - 1)`).run();
    expect(() => Bm25Index.load(db)).toThrow(/corrupt/);
  });
});
