import { describe, expect, it } from 'vitest';
import { assistedMean, desRajMean, plainMean, type Draw } from './des-raj';

/**
 * Brute force: every possible sequence of n draws under an adaptive rule (the next unit's
 * probability depends on the values seen so far), weighted by its probability. The expectation
 * of Des Raj's estimate must be the population mean exactly, and the expectation of its variance
 * estimate the true variance of the estimate.
 */
function enumerate(
  y: readonly number[],
  n: number,
  rule: (seen: readonly number[], remaining: readonly number[]) => number[],
): { prob: number; draws: Draw[] }[] {
  const out: { prob: number; draws: Draw[] }[] = [];
  const rec = (remaining: number[], seen: number[], draws: Draw[], prob: number) => {
    if (draws.length === n) {
      out.push({ prob, draws });
      return;
    }
    const w = rule(seen.map((i) => y[i]!), remaining);
    const sum = w.reduce((s, x) => s + x, 0);
    remaining.forEach((u, k) => {
      const p = w[k]! / sum;
      if (p === 0) return;
      rec(
        remaining.filter((_, j) => j !== k),
        [...seen, u],
        [...draws, { y: y[u]!, p }],
        prob * p,
      );
    });
  };
  rec(
    y.map((_, i) => i),
    [],
    [],
    1,
  );
  return out;
}

describe('desRajMean', () => {
  const y = [0.9, 0.1, 0.0, 0.5, 0.3, 0.75];
  const N = y.length;
  const truth = y.reduce((s, x) => s + x, 0) / N;
  // Adaptive: prefer units with a larger index when the last value seen was large, else smaller ones.
  const adaptive = (seen: readonly number[], remaining: readonly number[]) =>
    remaining.map((u) => (seen.length && seen[seen.length - 1]! > 0.4 ? 1 + u : 1 + (N - u)) + (u % 2));

  for (const n of [1, 2, 3, 4]) {
    it(`is unbiased under an adaptive rule, n = ${n} of ${N} (exhaustive)`, () => {
      const seqs = enumerate(y, n, adaptive);
      const totalProb = seqs.reduce((s, q) => s + q.prob, 0);
      expect(totalProb).toBeCloseTo(1, 12);
      const expected = seqs.reduce((s, q) => s + q.prob * desRajMean(q.draws, N).mean, 0);
      expect(expected).toBeCloseTo(truth, 12);
      if (n >= 2) {
        const trueVar = seqs.reduce((s, q) => s + q.prob * (desRajMean(q.draws, N).mean - truth) ** 2, 0);
        const meanVarEstimate = seqs.reduce((s, q) => s + q.prob * desRajMean(q.draws, N).variance!, 0);
        expect(meanVarEstimate).toBeCloseTo(trueVar, 12);
      }
    });
  }

  for (const n of [1, 2, 3]) {
    it(`the model-assisted estimator is unbiased with predictions that depend on the draws so far, n = ${n} (exhaustive)`, () => {
      // Predictions made before each draw from what was seen: deliberately poor and history-dependent.
      const predict = (seen: readonly number[], u: number) => 0.4 + 0.1 * (u % 3) - (seen.length ? 0.5 * seen[seen.length - 1]! : 0);
      const seqs = enumerate(y, n, adaptive);
      let expected = 0;
      let trueVar = 0;
      let varEstimate = 0;
      for (const q of seqs) {
        // Rebuild the sequence of units from the values (all distinct) to recompute the predictions.
        const units = q.draws.map((d) => y.indexOf(d.y));
        const draws = q.draws.map((d, t) => {
          const seen = units.slice(0, t).map((u) => y[u]!);
          const remaining = y.map((_, u) => u).filter((u) => !units.slice(0, t).includes(u));
          return { ...d, predicted: predict(seen, units[t]!), predictedRemaining: remaining.reduce((s, u) => s + predict(seen, u), 0) };
        });
        const est = assistedMean(draws, N);
        expected += q.prob * est.mean;
        trueVar += q.prob * (est.mean - truth) ** 2;
        if (n >= 2) varEstimate += q.prob * est.variance!;
      }
      expect(expected).toBeCloseTo(truth, 12);
      if (n >= 2) expect(varEstimate).toBeCloseTo(trueVar, 12);
    });
  }

  it('with exact predictions the model-assisted estimate is exact after one draw', () => {
    const total = y.reduce((s, v) => s + v, 0);
    const r = assistedMean([{ y: y[2]!, p: 0.3, predicted: y[2]!, predictedRemaining: total }], N);
    expect(r.mean).toBeCloseTo(truth, 12);
  });

  it('the plain mean under the same adaptive rule is biased (why the estimator exists)', () => {
    const seqs = enumerate(y, 2, adaptive);
    const expected = seqs.reduce((s, q) => s + q.prob * plainMean(q.draws.map((d) => d.y), N).mean, 0);
    expect(Math.abs(expected - truth)).toBeGreaterThan(0.005);
  });

  it('matches a hand computation', () => {
    // y = 1, 2, 3 drawn with p = 1/3, 1/2, 1: Z = 3, 1 + 2·2 = 5, 1 + 2 + 3 = 6. Weights ∝ 1/R² with
    // R = 3, 2, 1: (1/9, 1/4, 1) / (49/36) = (4, 9, 36)/49; T̂ = (12 + 45 + 216)/49 = 39/7, μ̂ = 13/7.
    // v̂ = Σa²Z² − Σa² · (mean of Z_s·Z_t over pairs) = 48825/2401 − (1393/2401)·((14² − 70)/6 = 21) = 19572/2401.
    const r = desRajMean(
      [
        { y: 1, p: 1 / 3 },
        { y: 2, p: 1 / 2 },
        { y: 3, p: 1 },
      ],
      3,
    );
    expect(r.mean).toBeCloseTo(13 / 7, 12);
    expect(r.variance).toBeCloseTo(19572 / 2401 / 9, 12);
    expect(r.se).toBeCloseTo(Math.sqrt(19572 / 2401) / 3, 12);
  });

  it('rejects bad probabilities and too many draws', () => {
    expect(() => desRajMean([{ y: 1, p: 0 }], 3)).toThrow(/probability/);
    expect(() => desRajMean([{ y: 1, p: 1.5 }], 3)).toThrow(/probability/);
    expect(() => desRajMean([{ y: 1, p: 1 }, { y: 1, p: 1 }], 1)).toThrow(/population/);
    expect(desRajMean([], 3).n).toBe(0);
  });
});

describe('plainMean', () => {
  it('mean and finite-population standard error', () => {
    const r = plainMean([1, 2, 3, 4], 8);
    expect(r.mean).toBe(2.5);
    // s² = 5/3, s²/n = 5/12, fpc = 1/2
    expect(r.se).toBeCloseTo(Math.sqrt(5 / 24), 12);
  });
});
