/**
 * Block-max dynamic pruning returns exactly what exhaustive scoring returns — same documents, same
 * order, bit-identical scores, ties included — on random corpora and queries (short and verbose,
 * with exclusions, k from 1 to 50, term frequencies past the packed postings' escape), across many
 * windows, and after the index changes (block bounds recomputed).
 */
import { describe, expect, it } from 'vitest';
import { Bm25Index } from './bm25-index';
import { blockMaxTotals, scanKernel, type ScanIndex } from './block-max-scoring';
import { helperTotals, indexView } from './pruned-search';
import { ScanHelper } from './scan-helper';
import { MAX_ORDINALS, TF_BITS, TF_ESCAPE, type IndexState } from './index-state';
import { randomCorpus } from './test-corpus';
import { mulberry32 } from '../stats/random';

/** A seeded corpus over a Zipf-like vocabulary of `vocab` words (a real corpus's long tail, so queries touch a fraction of it). */
function zipfCorpus(seed: number, n: number, vocab: number, maxLen: number): Array<{ doc: number; title: string; body: string }> {
  const rnd = mulberry32(seed);
  const word = (): string => `w${Math.floor(vocab * Math.pow(rnd(), 3)).toString(36)}`;
  return Array.from({ length: n }, (_, i) => {
    let body = Array.from({ length: Math.floor(rnd() * maxLen) }, word).join(' ');
    // One document in fifty repeats a word 31–80 times (a tf the packed postings keep aside).
    if (rnd() < 0.02) body += ` ${word()}`.repeat(31 + Math.floor(rnd() * 50));
    return { doc: i + 1, title: Array.from({ length: 2 + Math.floor(rnd() * 8) }, word).join(' '), body };
  });
}

describe('exact block-max dynamic pruning (scanMode pruned)', () => {
  for (const seed of [1, 2, 3]) {
    it(`equals exhaustive scoring on random corpus ${seed} (documents as queries and random word bags, k 1…50, exclusions)`, () => {
      const docs = zipfCorpus(seed, 4000 + 1000 * seed, 20_000, 40 + 20 * seed);
      const exhaustive = new Bm25Index({ scanMode: 'sparse' });
      // Windows of 64, 256 and 4096 ordinals: from a hundred windows per query to one or two.
      const pruned = new Bm25Index({ scanMode: 'pruned', pruneWindow: [64, 256, 4096][seed - 1]! });
      for (const i of [exhaustive, pruned]) i.addDocuments(docs);
      const rnd = mulberry32(seed * 7919);
      const before = { ...blockMaxTotals };
      let compared = 0;
      for (let q = 0; q < 120; q++) {
        const k = [1, 2, 5, 10, 20, 50][q % 6]!;
        const d = docs[Math.floor(rnd() * docs.length)]!;
        expect(pruned.searchDocument(d, k)).toEqual(exhaustive.searchDocument(d, k));
        const words = `${d.title} ${d.body}`.split(' ');
        const bag = Array.from({ length: 1 + Math.floor(rnd() * 12) }, () => words[Math.floor(rnd() * words.length)]).join(' ');
        const ex = { exclude: [d.doc, docs[(q * 13) % docs.length]!.doc] };
        const a = exhaustive.search(bag, k, ex);
        expect(pruned.search(bag, k, ex)).toEqual(a);
        compared += a.length;
      }
      expect(compared).toBeGreaterThan(500);
      // The pruning itself ran: postings left unread, documents looked up instead.
      const after = blockMaxTotals;
      expect(after.searches - before.searches).toBe(240);
      expect(after.postingsScored - before.postingsScored).toBeLessThan(after.postings - before.postings);
      expect(after.lookups - before.lookups).toBeGreaterThan(100);
    });
  }

  it('ties: many documents with the same score come in doc order, as exhaustive scoring gives them', () => {
    const docs = Array.from({ length: 300 }, (_, i) => ({ doc: 1000 - i, title: i % 3 === 0 ? 'alpha beta' : 'alpha gamma', body: 'delta' }));
    const exhaustive = new Bm25Index({ scanMode: 'dense', tokenizer: { stopWords: 'none' } });
    const pruned = new Bm25Index({ scanMode: 'pruned', pruneWindow: 16, tokenizer: { stopWords: 'none' } });
    for (const i of [exhaustive, pruned]) i.addDocuments(docs);
    for (const [q, k] of [['alpha beta delta', 7], ['beta', 20], ['gamma alpha', 150], ['alpha', 1]] as const) {
      expect(pruned.search(q, k)).toEqual(exhaustive.search(q, k));
    }
  });

  it('falls back to exhaustive scoring on a small vocabulary (queries touching most documents), with the same results', () => {
    const docs = randomCorpus(4, 5000, 120);
    const exhaustive = new Bm25Index({ scanMode: 'dense' });
    const pruned = new Bm25Index({ scanMode: 'pruned', pruneWindow: 512 });
    for (const i of [exhaustive, pruned]) i.addDocuments(docs);
    for (const d of docs.slice(0, 60)) expect(pruned.searchDocument(d, 20)).toEqual(exhaustive.searchDocument(d, 20));
  });

  it('recomputes its bounds when the index changes (added and re-indexed documents)', () => {
    const docs = zipfCorpus(9, 3000, 20_000, 100);
    const exhaustive = new Bm25Index({ scanMode: 'dense' });
    const pruned = new Bm25Index({ scanMode: 'pruned', pruneWindow: 128 });
    for (const i of [exhaustive, pruned]) i.addDocuments(docs.slice(0, 2000));
    const probe = docs.slice(2500, 2520);
    for (const d of probe) expect(pruned.searchDocument(d, 20)).toEqual(exhaustive.searchDocument(d, 20));
    for (const i of [exhaustive, pruned]) i.addDocuments([...docs.slice(2000), { ...docs[5]!, body: `${docs[5]!.body} ${docs[6]!.body}` }]);
    for (const d of probe) expect(pruned.searchDocument(d, 20)).toEqual(exhaustive.searchDocument(d, 20));
  });

  it("computes a term's block bounds once, when a search first needs them, never the whole vocabulary's", () => {
    const docs = zipfCorpus(13, 6000, 20_000, 80);
    const pruned = new Bm25Index({ scanMode: 'pruned', pruneWindow: 256, scanThreads: 1 });
    pruned.addDocuments(docs);
    const allPostings = docs.length * 20; // far below the index's postings: documents average ~40 words
    const delta = (run: () => void) => {
      const before = { ...blockMaxTotals };
      run();
      return { bounds: blockMaxTotals.boundPostings - before.boundPostings, postings: blockMaxTotals.postings - before.postings };
    };
    const q = docs[17]!;
    const first = delta(() => pruned.searchDocument(q, 20));
    // The first search reads its own terms' postings for their bounds, at most once each…
    expect(first.bounds).toBeGreaterThan(0);
    expect(first.bounds).toBeLessThanOrEqual(first.postings);
    expect(first.bounds).toBeLessThan(allPostings);
    // …and the same search again reads only its rare terms' single blocks (fewer than 128 postings each).
    const again = delta(() => pruned.searchDocument(q, 20));
    const terms = new Set(`${q.title} ${q.body}`.split(' ')).size;
    expect(again.bounds).toBeLessThan(128 * terms);
    expect(again.bounds).toBeLessThan(first.bounds);
    // A search sharing none of those terms computes its own.
    const other = delta(() => pruned.search('w0 w1 w2', 20));
    expect(other.bounds).toBeGreaterThan(0);
  });

  it("'auto' prunes the dense scan's queries from pruneFromDocs documents on, with the same results, and not below", () => {
    const docs = zipfCorpus(5, 3000, 300, 80); // a small vocabulary: long queries that go to the dense scan
    const dense = new Bm25Index({ scanMode: 'dense' });
    const small = new Bm25Index({ pruneFromDocs: 3001 });
    const large = new Bm25Index({ pruneFromDocs: 3000, pruneWindow: 256 });
    for (const i of [dense, small, large]) i.addDocuments(docs);
    for (const d of docs.slice(0, 40)) {
      const want = dense.searchDocument(d, 20);
      let before = blockMaxTotals.searches;
      expect(small.searchDocument(d, 20)).toEqual(want);
      expect(blockMaxTotals.searches).toBe(before);
      before = blockMaxTotals.searches;
      expect(large.searchDocument(d, 20)).toEqual(want);
      expect(blockMaxTotals.searches).toBe(before + 1);
    }
  });
});

describe('the pruned scan on two threads (scanThreads 2: every other window on a helper thread)', () => {
  it('gives exactly the one-thread and exhaustive results, exclusions and index changes included', () => {
    const docs = zipfCorpus(11, 6000, 20_000, 90);
    const exhaustive = new Bm25Index({ scanMode: 'sparse' });
    const one = new Bm25Index({ scanMode: 'pruned', pruneWindow: 256, scanThreads: 1 });
    const two = new Bm25Index({ scanMode: 'pruned', pruneWindow: 256, scanThreads: 2 });
    try {
      for (const i of [exhaustive, one, two]) i.addDocuments(docs.slice(0, 5000));
      const rnd = mulberry32(4242);
      const before = { ...helperTotals };
      let compared = 0;
      const check = (n: number) => {
        for (let q = 0; q < n; q++) {
          const k = [1, 5, 20, 50][q % 4]!;
          const d = docs[Math.floor(rnd() * 5000)]!;
          const want = exhaustive.searchDocument(d, k);
          expect(two.searchDocument(d, k)).toEqual(want);
          expect(one.searchDocument(d, k)).toEqual(want);
          // Excluded documents anywhere in the index: in either thread's windows.
          const ex = { exclude: [want[0]?.doc ?? 1, docs[(q * 977) % 5000]!.doc, docs[(q * 31) % 5000]!.doc] };
          const bag = `${d.title} ${d.body.split(' ').slice(0, 6).join(' ')}`;
          expect(two.search(bag, k, ex)).toEqual(exhaustive.search(bag, k, ex));
          compared += want.length;
        }
      };
      check(60);
      // The index changes (new documents, one re-indexed): both threads see the new postings.
      for (const i of [exhaustive, one, two]) i.addDocuments([...docs.slice(5000), { ...docs[7]!, body: `${docs[7]!.body} ${docs[8]!.body}` }]);
      check(40);
      expect(compared).toBeGreaterThan(1000);
      expect(helperTotals.parts - before.parts).toBe(200); // every search of `two` had its second part answered by the helper
      expect(helperTotals.fallbacks).toBe(before.fallbacks);
      // Closed, the index searches on one thread, with the same results.
      two.close();
      const after = helperTotals.parts;
      for (const d of docs.slice(0, 10)) expect(two.searchDocument(d, 20)).toEqual(exhaustive.searchDocument(d, 20));
      expect(helperTotals.parts).toBe(after);
    } finally {
      two.close();
    }
  });

  it('answers a failed part on the calling thread: a helper that throws is marked broken and its part comes back null', () => {
    const helper = new ScanHelper();
    try {
      const broken = { off: undefined } as unknown as ScanIndex; // reading the term offsets throws in the helper
      expect(helper.start(broken, Int32Array.of(0), Float64Array.of(1), 5, [])).toBe(true);
      expect(helper.finish()).toBeNull();
      expect(helper.broken).toBe(true);
      expect(helper.start(broken, Int32Array.of(0), Float64Array.of(1), 5, [])).toBe(false);
    } finally {
      helper.close();
    }
  });

  it('never reads an answer for the wrong query: a part left uncollected is awaited and dropped by the next start', () => {
    const idx = new Bm25Index({ scanMode: 'pruned', pruneWindow: 256 });
    idx.addDocuments(zipfCorpus(12, 3000, 5_000, 60));
    idx.search('w0 w1', 5); // flushes the index (norms, postings)
    const view = indexView((idx as unknown as { st: IndexState }).st);
    const helper = new ScanHelper();
    try {
      const a = { ids: Int32Array.of(0, 1, 2), ws: Float64Array.of(1, 2, 3) };
      const b = { ids: Int32Array.of(3, 4, 5, 6), ws: Float64Array.of(2, 1, 1, 0.5) };
      expect(helper.start(view, a.ids, a.ws, 10, [])).toBe(true); // never collected
      expect(helper.start(view, b.ids, b.ws, 10, [])).toBe(true);
      const got = helper.finish();
      const want = scanKernel.scan(view, b.ids, b.ws, 10, 1, 2, null);
      expect(got?.docs).toEqual(want.docs);
      expect(got?.scores).toEqual(want.scores);
      expect(want.docs.length).toBe(10);
    } finally {
      helper.close();
      idx.close();
    }
  });

  it('packs postings as the index does (the kernel keeps its own copy of the constants)', () => {
    expect(scanKernel.constants).toEqual({ TF_BITS, TF_ESCAPE, MAX_ORDINALS, BLOCK: 128 });
  });
});
