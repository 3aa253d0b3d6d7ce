import { describe, expect, it } from 'vitest';
import { DaeRanker } from './dae';
import { evaluateRanker } from './dev-eval';
import { loadModel } from './registry';
import { syntheticData } from './test-data';

describe('dae', () => {
  const { data, dev } = syntheticData(7, 15);
  const small = { hidden: 24, minDf: 1, epochs: 30, lr: 0.1 };

  it('learns codes that put the same-topic question first, and the loss falls', async () => {
    const m = new DaeRanker(small);
    const report = await m.train(data, { seed: 3 });
    expect(report.history[report.history.length - 1]!.loss).toBeLessThan(0.6 * report.history[0]!.loss);
    // One relevant among 7 candidates: a random order scores MAP ≈ 0.37; untrained codes do no better.
    expect(evaluateRanker(m, dev).map).toBeGreaterThan(0.7);
    const untrained = new DaeRanker({ ...small, epochs: 0 });
    await untrained.train(data, { seed: 3, epochs: 0 });
    expect(evaluateRanker(m, dev).map).toBeGreaterThan(evaluateRanker(untrained, dev).map);
  });

  it('reloads to bit-identical scores, tied and untied', async () => {
    for (const tied of [true, false]) {
      const m = new DaeRanker({ ...small, epochs: 3, tied });
      await m.train(data, { seed: 1 });
      const again = await loadModel(m.save());
      const q = dev.queries[1]!;
      expect(again.score(q.query, q.candidates)).toEqual(m.score(q.query, q.candidates));
      expect(Object.keys(m.save().weights).includes('w2')).toBe(!tied);
    }
  });

  it('is deterministic for a seed and keeps the best dev epoch', async () => {
    const a = new DaeRanker({ ...small, epochs: 4 });
    const b = new DaeRanker({ ...small, epochs: 4 });
    const ra = await a.train(data, { seed: 9, dev });
    await b.train(data, { seed: 9, dev });
    const q = dev.queries[0]!;
    expect(a.score(q.query, q.candidates)).toEqual(b.score(q.query, q.candidates));
    expect(ra.bestDevMRR).toBe(Math.max(...ra.history.map((h) => h.devMRR!)));
  });

  it('refuses a corpus too small for a vocabulary', async () => {
    const m = new DaeRanker({ minDf: 5 });
    await expect(m.train({ questions: new Map([['a', { id: 'a', title: 'lonely words', body: '' }]]), positives: [], randomPool: [] })).rejects.toThrow(/needs more text/);
  });
});
