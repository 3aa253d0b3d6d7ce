import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fisherVector } from './fisher-vector';
import { fitDiagonalGmm, responsibilities } from './gmm';

interface Case {
  n: number;
  d: number;
  k: number;
  iterations: number;
  x: number[];
  init: { weights: number[]; means: number[]; variances: number[] };
  weights: number[];
  means: number[];
  variances: number[];
  meanLogLikelihood: number;
  fisherVectors: { rows: number[]; fisher: number[] }[];
}
const fixture = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/models/gmm-fisher.json'), 'utf8')) as { cases: Case[] };

function expectClose(actual: ArrayLike<number>, expected: readonly number[], rel = 1e-9): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) expect(Math.abs(actual[i]! - expected[i]!)).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(expected[i]!)));
}

describe('fitDiagonalGmm against scikit-learn GaussianMixture(covariance_type="diag")', () => {
  for (const c of fixture.cases) {
    it(`n=${c.n} d=${c.d} K=${c.k}, ${c.iterations} EM iterations from the same start`, () => {
      const x = Float64Array.from(c.x);
      const fit = fitDiagonalGmm(x, c.n, c.d, c.k, { init: c.init, maxIter: c.iterations, tol: 0 });
      expect(fit.iterations).toBe(c.iterations);
      expectClose(fit.gmm.weights, c.weights);
      expectClose(fit.gmm.means, c.means);
      expectClose(fit.gmm.variances, c.variances);
      expect(responsibilities(fit.gmm, x, c.n).logLikelihood).toBeCloseTo(c.meanLogLikelihood, 9);
      for (const fv of c.fisherVectors) {
        const xs = new Float64Array(fv.rows.length * c.d);
        fv.rows.forEach((r, i) => xs.set(x.subarray(r * c.d, r * c.d + c.d), i * c.d));
        expectClose(fisherVector(fit.gmm, xs, fv.rows.length), fv.fisher, 1e-8);
      }
    });
  }
});

describe('fitDiagonalGmm on its own start', () => {
  const c = fixture.cases[2]!;
  const x = Float64Array.from(c.x);
  it('is deterministic for a seed, converges, and never lowers the likelihood', () => {
    const a = fitDiagonalGmm(x, c.n, c.d, c.k, { seed: 3 });
    const b = fitDiagonalGmm(x, c.n, c.d, c.k, { seed: 3 });
    expect(a.converged).toBe(true);
    expect([...a.gmm.means]).toEqual([...b.gmm.means]);
    let prev = -Infinity;
    for (let it = 1; it <= 8; it++) {
      const f = fitDiagonalGmm(x, c.n, c.d, c.k, { seed: 3, maxIter: it, tol: 0 });
      const ll = responsibilities(f.gmm, x, c.n).logLikelihood;
      expect(ll).toBeGreaterThanOrEqual(prev - 1e-9);
      prev = ll;
    }
  });
  it('rejects impossible requests', () => {
    expect(() => fitDiagonalGmm(x, c.n, c.d, 0)).toThrow(/positive integer/);
    expect(() => fitDiagonalGmm(x.subarray(0, 3 * c.d), 3, c.d, 4)).toThrow(/cannot fit/);
    expect(() => fitDiagonalGmm(x, c.n, c.d + 1, 2)).toThrow(/expected/);
  });
});

describe('fisherVector', () => {
  it('is unit length (2Kd values) and zero for an empty question', () => {
    const c = fixture.cases[1]!;
    const fit = fitDiagonalGmm(Float64Array.from(c.x), c.n, c.d, c.k, { seed: 1 });
    const v = fisherVector(fit.gmm, Float64Array.from(c.x.slice(0, 4 * c.d)), 4);
    expect(v.length).toBe(2 * c.k * c.d);
    expect(v.reduce((s, x) => s + x * x, 0)).toBeCloseTo(1, 12);
    expect([...fisherVector(fit.gmm, new Float64Array(0), 0)].every((x) => x === 0)).toBe(true);
  });
});
