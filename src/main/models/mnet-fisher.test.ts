import { describe, expect, it } from 'vitest';
import { evaluateRanker } from './dev-eval';
import { MnetFisherRanker } from './mnet-fisher';
import { loadModel } from './registry';
import { SkipGramRanker, wordCategories } from './skipgram';
import { syntheticData } from './test-data';
import type { QText, TrainingData } from './types';

/** The synthetic topics with each question's topic as its category. */
function categorised(): { data: TrainingData; dev: ReturnType<typeof syntheticData>['dev'] } {
  const { data, dev } = syntheticData(3, 12);
  const questions = new Map<string, QText>([...data.questions].map(([id, q]) => [id, { ...q, category: `topic-${id.slice(1, id.indexOf('q'))}` }]));
  return { data: { ...data, questions }, dev };
}

const small = { dim: 16, epochs: 15, minCount: 1, gmmSamples: 5000 };

describe('mnet-fisher', () => {
  it('ranks the same-topic candidate first on synthetic topics, and reloads to bit-identical scores', async () => {
    const { data, dev } = categorised();
    const m = new MnetFisherRanker({ ...small, components: 2, categoryWeight: 0.5 });
    const report = await m.train(data, { seed: 2 });
    expect(report.notes?.some((n) => n.includes('M-NET category term'))).toBe(true);
    // One relevant among 7 candidates: a random order scores MAP ≈ 0.37.
    expect(evaluateRanker(m, dev).map).toBeGreaterThan(0.6);
    const again = await loadModel(m.save());
    const q = dev.queries[0]!;
    expect(again.score(q.query, q.candidates)).toEqual(m.score(q.query, q.candidates));
  });

  it('chooses K on the dev set among 1, 2, 4 … when components is 0', async () => {
    const { data, dev } = categorised();
    const m = new MnetFisherRanker({ ...small, components: 0 });
    const progress: string[] = [];
    const report = await m.train(data, { seed: 2, dev, onProgress: (p) => p.phase && progress.push(p.phase) });
    expect(report.history.length).toBeGreaterThanOrEqual(5);
    expect(report.bestDevMAP).toBe(Math.max(...report.history.map((h) => h.devMAP!)));
    expect(progress.some((p) => p.startsWith('GMM K = 1 '))).toBe(true);
    expect(report.notes?.some((n) => n.startsWith('K chosen by dev MAP'))).toBe(true);
  });

  it('refuses the M-NET term without categories, before any work; categoryWeight 0 is plain skip-gram', async () => {
    const { data } = syntheticData(3, 6);
    let progress = 0;
    const m = new MnetFisherRanker({ ...small, components: 2 });
    await expect(m.train(data, { seed: 2, onProgress: () => progress++ })).rejects.toThrow(/M-NET term needs categories, and none of the 36 questions has a category/);
    expect(progress).toBe(0);
    const plain = new MnetFisherRanker({ ...small, components: 2, categoryWeight: 0 });
    const report = await plain.train(data, { seed: 2 });
    expect(report.notes?.some((n) => n.includes('M-NET'))).toBe(false);
  });

  it('refuses more Gaussians than word occurrences instead of fitting fewer', async () => {
    const questions = new Map<string, QText>([
      ['a', { id: 'a', title: 'wifi drops', body: '', category: 'net' }],
      ['b', { id: 'b', title: 'wifi slow', body: '', category: 'net' }],
    ]);
    const m = new MnetFisherRanker({ ...small, minCount: 1, components: 16 });
    await expect(m.train({ questions, positives: [], randomPool: ['a', 'b'] }, { seed: 1 })).rejects.toThrow(
      /the questions have 4 embedded word occurrences, too few for K = 16 Gaussians/,
    );
  });

  it('stops when cancelled', async () => {
    const { data } = categorised();
    const ac = new AbortController();
    ac.abort();
    await expect(new MnetFisherRanker(small).train(data, { signal: ac.signal })).rejects.toThrow();
  });
});

describe('M-NET category term in skip-gram', () => {
  it('words take the majority category of the questions they occur in', () => {
    const index = new Map([
      ['wifi', 0],
      ['printer', 1],
      ['the', 2],
      ['router', 3],
    ]);
    const r = wordCategories(
      [
        { id: 'a', title: 'wifi the', body: '', category: 'net' },
        { id: 'b', title: 'wifi printer', body: '', category: 'net' },
        { id: 'c', title: 'printer the', body: '', category: 'print' },
        { id: 'd', title: 'printer router', body: '', category: 'print' },
        { id: 'e', title: 'router', body: '', category: 'net' },
      ],
      index,
    );
    expect(r.names).toEqual(['net', 'print']);
    // router: 1 net, 1 print → tie → the first name; "the" is a stop word: no category.
    expect([...r.categoryOf]).toEqual([0, 1, -1, 0]);
  });

  it('pulls words of one category closer than plain skip-gram does', async () => {
    const { data, topics } = (() => {
      const s = syntheticData(5, 12);
      const questions = new Map<string, QText>([...s.data.questions].map(([id, q]) => [id, { ...q, category: id.slice(0, id.indexOf('q')) }]));
      return { data: { ...s.data, questions }, topics: s.topics };
    })();
    // Mean cosine of same-topic word pairs and of pairs from different topics.
    const similarities = async (categoryWeight: number) => {
      const sg = new SkipGramRanker({ dim: 16, epochs: 10, minCount: 1, categoryWeight, subsample: 0 });
      await sg.train(data, { seed: 4 });
      const mean = (pairs: [string, string][]) => {
        const v = pairs.map(([a, b]) => sg.wordSimilarity(a, b)).filter((x): x is number => x !== null);
        return v.reduce((s, x) => s + x, 0) / v.length;
      };
      const same: [string, string][] = [];
      const cross: [string, string][] = [];
      topics.forEach((words, t) =>
        words.forEach((a, i) => {
          words.slice(i + 1).forEach((b) => same.push([a, b]));
          topics[(t + 1) % topics.length]!.forEach((b) => cross.push([a, b]));
        }),
      );
      return { same: mean(same), cross: mean(cross) };
    };
    const plain = await similarities(0);
    const mnet = await similarities(2);
    // Same-category words end up closer (the gap to cosine 1 at least halves); other pairs do not.
    expect(1 - mnet.same).toBeLessThan(0.5 * (1 - plain.same));
    expect(mnet.cross).toBeLessThan(plain.cross + 0.02);
  });
});
