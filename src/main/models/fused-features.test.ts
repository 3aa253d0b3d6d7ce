import { describe, expect, it } from 'vitest';
import { DocFreq } from './lexical';
import { categoryCentroids, FusedFeaturizer, softAlignment, unitRows } from './fused-features';
import { EXTENDED_STOP_WORDS, PLAIN_WORDS, STEMMED_WORDS, STOP_WORDS, tokenize, wordsOf } from './text';

// three unit word vectors in 2-D: x = (1, 0), y = (0, 1), z = (0.6, 0.8)
const V = unitRows(['x', 'y', 'z'], 2, [1, 0, 0, 1, 0.6, 0.8]);

describe('softAlignment', () => {
  it('is the idf-weighted mean of each query word’s best cosine in the candidate (hand-computed)', () => {
    // query {x (idf 2), y (idf 1)} in candidate {z}: best(x) = 0.6, best(y) = 0.8 → (2·0.6 + 1·0.8)/3
    expect(softAlignment([0, 1], [2, 1], [2], V)).toBeCloseTo((2 * 0.6 + 0.8) / 3, 6);
    // a word present in the candidate matches itself: cos = 1
    expect(softAlignment([0], [5], [0, 1], V)).toBe(1);
    // candidate {x, y}: best(z) = max(0.6, 0.8)
    expect(softAlignment([2], [1], [0, 1], V)).toBeCloseTo(0.8, 6);
  });

  it('is 0 when either side has no known word', () => {
    expect(softAlignment([], [], [0], V)).toBe(0);
    expect(softAlignment([0], [1], [], V)).toBe(0);
  });
});

describe('embedding words', () => {
  it('extended stop list ⊇ the basic one, stemming is Porter’s', () => {
    for (const w of STOP_WORDS) expect(EXTENDED_STOP_WORDS.has(w)).toBe(true);
    expect(EXTENDED_STOP_WORDS.has('however')).toBe(true);
    expect(STOP_WORDS.has('however')).toBe(false);
    const toks = tokenize('However the routers are routing visas');
    expect(wordsOf(toks, PLAIN_WORDS)).toEqual(['however', 'routers', 'routing', 'visas']);
    expect(wordsOf(toks, STEMMED_WORDS)).toEqual(['router', 'rout', 'visa']);
    expect(wordsOf(toks, { stopWords: 'extended', stem: false })).toEqual(['routers', 'routing', 'visas']);
  });
});

describe('FusedFeaturizer text vectors and new features', () => {
  // idf from 3 documents: df(x) = 1, df(y) = 3 → idf(x) = ln(4/2) + 1, idf(y) = ln(4/4) + 1 = 1
  const df = DocFreq.fit(['x y', 'y', 'y'], { minN: 1, maxN: 1, stopWords: false });
  const base = { runNames: [], df, dfBm25: df, ppmi: V, skipgram: null, metadata: false };

  it('idf-weighted mean v(T) = Σ idf(w) u_w / ‖·‖; plain mean when embIdf is false', () => {
    const a = Math.log(2) + 1;
    const weighted = new FusedFeaturizer(base).meanVector(['x', 'y'], V);
    const n = Math.hypot(a, 1);
    expect(weighted[0]).toBeCloseTo(a / n, 12);
    expect(weighted[1]).toBeCloseTo(1 / n, 12);
    const plain = new FusedFeaturizer({ ...base, embIdf: false }).meanVector(['x', 'y'], V);
    expect(plain[0]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(plain[1]).toBeCloseTo(Math.SQRT1_2, 12);
  });

  it('character n-gram cosines and the alignment are features; identical texts score 1', () => {
    const charDf = DocFreq.fit(['x y', 'y z'], (t) => [...t], 1);
    const f = new FusedFeaturizer({ ...base, align: true, charDf, charN: [2, 3] });
    const names = f.names();
    expect(names).toEqual(expect.arrayContaining(['char:cos', 'char:title', 'char:body', 'ppmi:align']));
    const q = { id: 'q', title: 'x y', body: 'z' };
    const rows = f.rows(q, [
      { id: 'c1', title: 'x y', body: 'z' },
      { id: 'c2', title: 'q', body: 'r' },
    ]);
    for (const n of ['char:cos', 'char:title', 'char:body', 'ppmi:align']) {
      expect(rows[0][names.indexOf(n)]).toBeCloseTo(1, 12);
      expect(rows[1][names.indexOf(n)]).toBeLessThan(1);
    }
    expect(rows[1][names.indexOf('ppmi:align')]).toBe(0);
  });
});

describe('categoryCentroids', () => {
  it('is the normalised sum of each category’s text vectors; small categories are left out (hand-computed)', () => {
    const c = categoryCentroids(
      [
        { category: 'a', vector: [1, 0] },
        { category: 'a', vector: [0, 1] },
        { category: 'b', vector: [0.6, 0.8] },
        { vector: [1, 1] },
      ],
      2,
      1,
    );
    expect([...c.keys()]).toEqual(['a', 'b']);
    expect(c.get('a')![0]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(c.get('a')![1]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(Array.from(c.get('b')!)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(categoryCentroids([{ category: 'a', vector: [1, 0] }], 2, 2).size).toBe(0);
  });
});
