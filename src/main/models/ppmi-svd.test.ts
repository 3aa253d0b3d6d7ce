import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cooccurrence, csrFromTriples, ppmi, ppmiSvdVectors, randomizedSvd, symmetricEigen, type Csr } from './ppmi-svd';

const fixture = JSON.parse(readFileSync(path.resolve(__dirname, '../../../tests/fixtures/models/ppmi-svd.json'), 'utf8')) as {
  docs: string[][];
  window: number;
  alpha: number;
  k: number;
  words: string[];
  counts: number[][];
  ppmi: number[][];
  singularValues: number[];
  u: number[][];
};

function dense(m: Csr): number[][] {
  const out = Array.from({ length: m.rows }, () => new Array<number>(m.cols).fill(0));
  for (let r = 0; r < m.rows; r++) for (let p = m.indptr[r]; p < m.indptr[r + 1]; p++) out[r][m.indices[p]] = m.values[p];
  return out;
}

describe('PPMI + truncated SVD (numpy reference, tests/reference/models_fixtures.py)', () => {
  const { words, counts } = cooccurrence(fixture.docs, { window: fixture.window, minCount: 1 });
  const p = ppmi(counts, fixture.alpha);

  it('vocabulary order and window co-occurrence counts equal numpy', () => {
    expect(words).toEqual(fixture.words);
    expect(dense(counts)).toEqual(fixture.counts);
  });

  it('PPMI with context smoothing equals numpy', () => {
    const d = dense(p);
    fixture.ppmi.forEach((row, r) => row.forEach((x, c) => expect(d[r][c]).toBeCloseTo(x, 12)));
  });

  it('randomized SVD recovers the top singular values and vectors (oversampled range = exact)', () => {
    const svd = randomizedSvd(p, fixture.k, { oversample: 30, powerIterations: 2, seed: 3 });
    svd.s.forEach((s, j) => expect(s).toBeCloseTo(fixture.singularValues[j], 9));
    for (let j = 0; j < fixture.k; j++) for (let r = 0; r < words.length; r++) expect(svd.u[r * fixture.k + j]).toBeCloseTo(fixture.u[r][j], 7);
  });

  it('randomized SVD with a range smaller than the matrix still converges with power iterations', () => {
    const svd = randomizedSvd(p, 3, { oversample: 5, powerIterations: 8, seed: 1 });
    svd.s.forEach((s, j) => expect(Math.abs(s - fixture.singularValues[j]) / fixture.singularValues[j]).toBeLessThan(1e-3));
  });

  it('right singular vectors satisfy A v = σ u', () => {
    const A = csrFromTriples(3, 2, [
      [0, 0, 3],
      [1, 1, 2],
      [2, 0, 1],
      [2, 1, 1],
    ]);
    const svd = randomizedSvd(A, 2, { oversample: 0 });
    const d = dense(A);
    for (let j = 0; j < 2; j++)
      for (let r = 0; r < 3; r++) {
        const av = d[r][0] * svd.v[0 * 2 + j] + d[r][1] * svd.v[1 * 2 + j];
        expect(av).toBeCloseTo(svd.s[j] * svd.u[r * 2 + j], 9);
      }
  });

  it('symmetric eigen-decomposition: A w = λ w, eigenvalues descending', () => {
    const A = Float64Array.from([4, 1, 2, 1, 3, 0, 2, 0, 1]);
    const { values, vectors } = symmetricEigen(A, 3);
    expect(values[0]).toBeGreaterThanOrEqual(values[1]);
    expect(values[1]).toBeGreaterThanOrEqual(values[2]);
    for (let j = 0; j < 3; j++)
      for (let r = 0; r < 3; r++) {
        let s = 0;
        for (let c = 0; c < 3; c++) s += A[r * 3 + c] * vectors[c * 3 + j];
        expect(s).toBeCloseTo(values[j] * vectors[r * 3 + j], 10);
      }
  });

  it('word vectors: one row per vocabulary word, words of the same topic closer than across topics', () => {
    const v = ppmiSvdVectors(fixture.docs, { window: 2, minCount: 1, dim: 4, eigenPower: 0.5 });
    expect(v.words).toEqual(fixture.words);
    expect(v.data.length).toBe(v.words.length * v.dim);
    const vec = (w: string) => Array.from(v.data.subarray(v.words.indexOf(w) * v.dim, (v.words.indexOf(w) + 1) * v.dim));
    const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0) / Math.hypot(...a) / Math.hypot(...b);
    expect(cos(vec('wifi'), vec('router'))).toBeGreaterThan(cos(vec('wifi'), vec('visa')));
  });

  it('harmonic weighting adds 1/distance per pair, both ways (hand-computed)', () => {
    // a b c, window 2: (a,b) δ=1 → 1, (a,c) δ=2 → 1/2, (b,c) δ=1 → 1; vocabulary a, b, c (ties alphabetical)
    const { words, counts } = cooccurrence([['a', 'b', 'c']], { window: 2, minCount: 1, weighting: 'harmonic' });
    expect(words).toEqual(['a', 'b', 'c']);
    expect(dense(counts)).toEqual([
      [0, 1, 0.5],
      [1, 0, 1],
      [0.5, 1, 0],
    ]);
    // uniform (the default) counts the same pairs as 1
    expect(dense(cooccurrence([['a', 'b', 'c']], { window: 2, minCount: 1 }).counts)).toEqual([
      [0, 1, 1],
      [1, 0, 1],
      [1, 1, 0],
    ]);
  });

  it('minCount and maxVocab trim the vocabulary; no words gives no vectors', () => {
    expect(cooccurrence([['a', 'b', 'a']], { window: 1, minCount: 2 }).words).toEqual(['a']);
    expect(cooccurrence([['a', 'b', 'b', 'c', 'c', 'c']], { window: 1, minCount: 1, maxVocab: 2 }).words).toEqual(['c', 'b']);
    expect(ppmiSvdVectors([], {}).dim).toBe(0);
  });
});
