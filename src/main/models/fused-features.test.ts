import { describe, expect, it } from 'vitest';
import { DocFreq } from './lexical';
import { categoryCentroids, categoryProbs, FusedFeaturizer, lsaTermVectors, softAlignment, trainCategoryClassifier, unitRows } from './fused-features';
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

describe('category classifier (softmax regression)', () => {
  it('learns separable categories: P(own category) > 0.9 on each cluster, probabilities sum to 1', () => {
    const items = [];
    for (let i = 0; i < 30; i++) {
      const t = (i % 10) / 20;
      items.push({ category: 'a', vector: [1, t, 0] }, { category: 'b', vector: [0, t, 1] }, { category: 'c', vector: [-1, 0, -t] });
    }
    const m = trainCategoryClassifier(items, 3, { iterations: 300 })!;
    expect(m.categories).toEqual(['a', 'b', 'c']);
    const pa = categoryProbs(m, [1, 0.2, 0]);
    const pb = categoryProbs(m, [0, 0.2, 1]);
    const pc = categoryProbs(m, [-1, 0, -0.2]);
    expect(pa[0]).toBeGreaterThan(0.9);
    expect(pb[1]).toBeGreaterThan(0.9);
    expect(pc[2]).toBeGreaterThan(0.9);
    for (const p of [pa, pb, pc]) expect(p.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 10);
  });

  it('leaves out categories with fewer than minSize items; null below two categories', () => {
    const items = [
      ...Array.from({ length: 6 }, () => ({ category: 'big', vector: [1, 0] })),
      ...Array.from({ length: 6 }, () => ({ category: 'other', vector: [0, 1] })),
      { category: 'rare', vector: [1, 1] },
    ];
    expect(trainCategoryClassifier(items, 2)!.categories).toEqual(['big', 'other']);
    expect(trainCategoryClassifier(items.slice(0, 7), 2)).toBeNull();
  });
});

describe('lsaTermVectors', () => {
  it('folds texts into the latent space: words that co-occur end up close, topics apart', () => {
    // two topics; "visa"/"permit" never share a document with "beach"/"sand"
    const docs = [
      ...Array.from({ length: 8 }, (_, i) => (i % 2 ? ['visa', 'permit', 'office'] : ['visa', 'permit', 'renew'])),
      ...Array.from({ length: 8 }, (_, i) => (i % 2 ? ['beach', 'sand', 'sea'] : ['beach', 'sand', 'swim'])),
    ];
    const df = DocFreq.fit(
      docs.map((d) => d.join(' ')),
      { minN: 1, maxN: 1, stopWords: false },
    );
    const lsa = lsaTermVectors(docs, df, 2);
    expect(lsa.dim).toBe(2);
    expect(new Set(lsa.words)).toEqual(new Set(['visa', 'permit', 'office', 'renew', 'beach', 'sand', 'sea', 'swim']));
    const f = new FusedFeaturizer({ runNames: [], df, dfBm25: df, ppmi: null, skipgram: null, metadata: false, lsa });
    expect(f.names()).toContain('lsa:cos');
    const at = f.names().indexOf('lsa:cos');
    // "office" and "renew" never co-occur, but share their topic: cos ≈ 1; across topics ≈ 0
    const rows = f.rows({ id: 'q', title: 'office', body: '' }, [
      { id: 'a', title: 'renew', body: '' },
      { id: 'b', title: 'swim', body: '' },
    ]);
    expect(rows[0][at]).toBeGreaterThan(0.95);
    expect(Math.abs(rows[1][at])).toBeLessThan(0.05);
  });
});
