import { describe, expect, it } from 'vitest';
import { LtrRanker } from './ltr';
import { modelSuite } from './model-suite';
import { Rng } from './rng';
import type { QText, RunScores } from './types';

/** A noisy run that prefers same-topic candidates (topic = id prefix "t<k>"). */
function topicRun(seed: number) {
  const rng = new Rng(seed);
  const cache = new Map<string, number>();
  return (q: string, c: string) => {
    const k = `${q}|${c}`;
    if (!cache.has(k)) cache.set(k, (q.split('q')[0] === c.split('q')[0] ? 1 : 0) + rng.next() * 0.8);
    return cache.get(k)!;
  };
}

describe('ltr', () => {
  const run = topicRun(1);
  modelSuite({
    kind: 'ltr',
    config: { embeddingEpochs: 2, epochs: 60 },
    epochs: 60,
    tfjs: false,
    prepare: (fx) => {
      const byQuery = new Map<string, Map<string, number>>();
      const ids = [...fx.data.questions.keys()];
      for (const q of ids) byQuery.set(q, new Map(ids.map((c) => [c, run(q, c)])));
      fx.data.runs = { topic: byQuery };
      return { ctx: (q: QText) => ({ runs: { topic: byQuery.get(q.id)! } as RunScores }) };
    },
  });

  it('fuses runs: the informative run gets the largest weight, missing runs are tolerated', async () => {
    const rng = new Rng(3);
    const questions = new Map<string, QText>();
    const positives: Array<[string, string]> = [];
    const negatives: Array<[string, string]> = [];
    const good = new Map<string, Map<string, number>>();
    const noise = new Map<string, Map<string, number>>();
    for (let q = 0; q < 30; q++) {
      const qid = `q${q}`;
      questions.set(qid, { id: qid, title: `query ${q}`, body: '' });
      const g = new Map<string, number>();
      const n = new Map<string, number>();
      for (let c = 0; c < 6; c++) {
        const cid = `q${q}c${c}`;
        questions.set(cid, { id: cid, title: `cand ${c}`, body: '' });
        const rel = c < 2;
        (rel ? positives : negatives).push([qid, cid]);
        g.set(cid, (rel ? 1 : 0) + rng.next());
        n.set(cid, rng.next());
      }
      good.set(qid, g);
      noise.set(qid, n);
    }
    const m = new LtrRanker({ lexical: false, overlap: false, embedding: false, epochs: 200 });
    await m.train({ questions, positives, negatives, randomPool: [], runs: { good, noise } });
    const w = m.weights();
    expect(w['run:good:minmax'] + w['run:good:rr']).toBeGreaterThan(Math.abs(w['run:noise:minmax']) + Math.abs(w['run:noise:rr']));
    const q = questions.get('q0')!;
    const cands = ['q0c0', 'q0c3'].map((id) => questions.get(id)!);
    expect(m.score(q, cands).every(Number.isFinite)).toBe(true); // no runs given at all
    expect(m.score(q, [])).toEqual([]);
  });

  it('rejects pairs whose texts are missing', async () => {
    const m = new LtrRanker({ embedding: false });
    await expect(m.train({ questions: new Map(), positives: [['a', 'b']], randomPool: [] })).rejects.toThrow(/missing/);
  });
});
