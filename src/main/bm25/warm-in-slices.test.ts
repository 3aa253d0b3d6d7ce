/**
 * Bm25Index.warmInSlices: the pruned scan's block bounds computed ahead of the first search, in
 * slices (the first searches at 1M questions paid about 550 ms for them), shared by both scan
 * threads; searches after it read no bounds of their common terms, and results stay exact when
 * the index changes while it runs.
 */
import { describe, expect, it } from 'vitest';
import { Bm25Index } from './bm25-index';
import { blockMaxTotals } from './block-max-scoring';
import { randomCorpus } from './test-corpus';
import { turnsWhile } from './test-turns';

/** Postings read for block bounds while `run` runs (both threads' parts). */
function boundsRead(run: () => void): number {
  const before = blockMaxTotals.boundPostings;
  run();
  return blockMaxTotals.boundPostings - before;
}

describe('Bm25Index.warmInSlices', () => {
  for (const scanThreads of [1, 2]) {
    it(`computes every common term's bounds in slices, so searches read none of them (scanThreads ${scanThreads})`, async () => {
      const docs = randomCorpus(21, 4000, 80);
      const cold = new Bm25Index({ scanMode: 'pruned', pruneWindow: 256, scanThreads });
      const warm = new Bm25Index({ scanMode: 'pruned', pruneWindow: 256, scanThreads });
      const exhaustive = new Bm25Index({ scanMode: 'dense' });
      try {
        for (const i of [cold, warm, exhaustive]) i.addDocuments(docs);
        const { turns } = await turnsWhile(warm.warmInSlices({ sliceMs: 0, postingsPerStep: 5000 }));
        expect(turns).toBeGreaterThan(1);
        const queries = docs.filter((_, i) => i % 97 === 0);
        let coldReads = 0;
        for (const q of queries) {
          const want = exhaustive.searchDocument(q, 20);
          expect(boundsRead(() => expect(warm.searchDocument(q, 20)).toEqual(want))).toBe(0);
          coldReads += boundsRead(() => expect(cold.searchDocument(q, 20)).toEqual(want));
        }
        // The same searches without the warm-up compute those bounds themselves.
        expect(coldReads).toBeGreaterThan(10_000);
      } finally {
        for (const i of [cold, warm, exhaustive]) i.close();
      }
    });
  }

  it('stops when the index changes meanwhile; searches stay exact', async () => {
    const docs = randomCorpus(22, 5000, 80);
    const pruned = new Bm25Index({ scanMode: 'pruned', pruneWindow: 256, scanThreads: 1 });
    const exhaustive = new Bm25Index({ scanMode: 'dense' });
    for (const i of [pruned, exhaustive]) i.addDocuments(docs.slice(0, 4000));
    const warmedBefore = blockMaxTotals.boundPostingsWarmed;
    const warming = pruned.warmInSlices({ sliceMs: 0, postingsPerStep: 5000 });
    await new Promise<void>((resolve) => setImmediate(resolve));
    const warmedThen = blockMaxTotals.boundPostingsWarmed;
    for (const i of [pruned, exhaustive]) i.addDocuments(docs.slice(4000));
    pruned.removeDocuments([docs[3]!.doc]);
    exhaustive.removeDocuments([docs[3]!.doc]);
    await warming;
    // It had begun, and read nothing more once the change was made.
    expect(warmedThen).toBeGreaterThan(warmedBefore);
    expect(blockMaxTotals.boundPostingsWarmed).toBe(warmedThen);
    for (const q of docs.filter((_, i) => i % 211 === 0)) expect(pruned.searchDocument(q, 20)).toEqual(exhaustive.searchDocument(q, 20));
  });

  it('stops when the index is closed meanwhile', async () => {
    const pruned = new Bm25Index({ scanMode: 'pruned', pruneWindow: 256, scanThreads: 1 });
    pruned.addDocuments(randomCorpus(24, 4000, 80));
    const warming = pruned.warmInSlices({ sliceMs: 0, postingsPerStep: 5000 });
    await new Promise<void>((resolve) => setImmediate(resolve));
    const warmedThen = blockMaxTotals.boundPostingsWarmed;
    pruned.close();
    await warming;
    expect(blockMaxTotals.boundPostingsWarmed).toBe(warmedThen);
  });

  it('does nothing on an index too small for the pruned scan', async () => {
    const small = new Bm25Index({ pruneFromDocs: 10_000 });
    small.addDocuments(randomCorpus(23, 500, 40));
    await small.warmInSlices({ sliceMs: 0 });
    expect(boundsRead(() => small.searchDocument({ doc: 0, title: 'w1 w2 the', body: 'w3 visa' }, 20))).toBe(0);
  });
});
