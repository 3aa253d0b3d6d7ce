import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs-core';
import { evaluateRanker } from './dev-eval';
import { buildQaGraph, deepWalk, randomWalk } from './hnil-graph';
import { HnilRanker } from './hnil';
import { modelSuite } from './model-suite';
import { createModel } from './registry';
import { Rng } from './rng';
import { syntheticData } from './test-data';
import type { DevSet, QText, TrainingData } from './types';

const small = { hidden: 12, embDim: 16, maxTitleLen: 8, maxBodyLen: 16, batchSize: 4, negatives: 5, negPool: 0, lr: 0.01, dropout: 0, embeddingEpochs: 2, graphDim: 8, metaDim: 6, graphWalks: 4 };

/** Gives the synthetic questions a network: category = topic, askers and answerers from a few users per topic. */
function addNetwork(fx: ReturnType<typeof syntheticData>): void {
  const answerers = new Map<string, string[]>();
  for (const q of fx.data.questions.values()) {
    const [, t, k] = /^t(\d+)q(\d+)$/.exec(q.id)!.map(Number);
    q.category = `topic-${t}`;
    q.user = `asker-${t}-${k % 2}`;
    answerers.set(q.id, [`helper-${t}`, `helper-${(t + 1) % 6}-${k % 3}`]);
  }
  (fx.data as { answerers?: Map<string, string[]> }).answerers = answerers;
}

describe('hnil', () =>
  modelSuite({
    kind: 'hnil',
    config: small,
    epochs: 8,
    tfjs: true,
    prepare: (fx) => {
      addNetwork(fx);
      return {};
    },
  }));

describe('the question network', () => {
  const questions: QText[] = [
    { id: '1', title: 'a', body: '', user: 'alice', category: 'Visas' },
    { id: '2', title: 'b', body: '', user: 'bob', category: 'Visas' },
    { id: '3', title: 'c', body: '', user: 'alice', category: 'Cars' },
    { id: '4', title: 'no metadata', body: '' },
  ];

  it('links questions to askers, categories and answerers, once per pair', () => {
    const g = buildQaGraph(questions, new Map([['2', ['alice', 'carol', 'carol']]]));
    expect(g.counts).toEqual({ questions: 3, users: 3, categories: 2, edges: 8 });
    expect(g.index.has('q:4')).toBe(false);
    const neighbours = (name: string) =>
      [...g.neighbors.subarray(g.offsets[g.index.get(name)!], g.offsets[g.index.get(name)! + 1])].map((v) => g.nodes[v]).sort();
    expect(neighbours('q:2')).toEqual(['c:Visas', 'u:alice', 'u:bob', 'u:carol']);
    expect(neighbours('u:alice')).toEqual(['q:1', 'q:2', 'q:3']);
    expect(neighbours('c:Visas')).toEqual(['q:1', 'q:2']);
  });

  it('walks only along edges', () => {
    const g = buildQaGraph(questions, new Map([['2', ['carol']]]));
    const rng = new Rng(3);
    for (let k = 0; k < 50; k++) {
      const w = randomWalk(g, rng.int(g.nodes.length), 6, rng);
      for (let t = 1; t < w.length; t++) {
        const nb = g.neighbors.subarray(g.offsets[w[t - 1]], g.offsets[w[t - 1] + 1]);
        expect([...nb]).toContain(w[t]);
      }
    }
  });

  it('DeepWalk puts vertices of one component closer than vertices of two', async () => {
    // two communities that share no vertex: questions 0-9 in "A" by users a0..a2, 10-19 in "B" by b0..b2
    const qs: QText[] = Array.from({ length: 20 }, (_, i) => ({ id: `${i}`, title: '', body: '', category: i < 10 ? 'A' : 'B', user: `${i < 10 ? 'a' : 'b'}${i % 3}` }));
    const g = buildQaGraph(qs);
    const D = 16;
    const v = await deepWalk(g, { walksPerVertex: 20, epochs: 5, walkLength: 6, dim: D, window: 2, negatives: 5, lr: 0.025 }, new Rng(1));
    const cos = (a: string, b: string) => {
      const i = g.index.get(a)! * D;
      const j = g.index.get(b)! * D;
      let s = 0, na = 0, nb = 0;
      for (let d = 0; d < D; d++) {
        s += v[i + d] * v[j + d];
        na += v[i + d] ** 2;
        nb += v[j + d] ** 2;
      }
      return s / Math.sqrt(na * nb);
    };
    const within = (cos('q:0', 'q:3') + cos('q:10', 'q:13') + cos('u:a0', 'u:a1')) / 3;
    const across = (cos('q:0', 'q:13') + cos('q:3', 'q:10') + cos('u:a0', 'u:b1')) / 3;
    expect(within).toBeGreaterThan(across + 0.3);
  });
});

/** Texts that say nothing about relevance: every question draws from one shared vocabulary; relevant = same category. */
function categoryOnlyData(): { data: TrainingData; dev: DevSet } {
  const rng = new Rng(11);
  const words = 'network printer sound disk kernel password driver grub mount audio wifi login'.split(' ');
  const questions = new Map<string, QText>();
  const answerers = new Map<string, string[]>();
  const C = 5;
  const per = 10;
  for (let c = 0; c < C; c++) {
    for (let k = 0; k < per; k++) {
      const id = `c${c}q${k}`;
      const text = (n: number) => Array.from({ length: n }, () => words[rng.int(words.length)]).join(' ');
      questions.set(id, { id, title: text(4), body: text(12), category: `cat${c}`, user: `u${c}-${k % 3}` });
      answerers.set(id, [`h${c}`]);
    }
  }
  const positives: Array<[string, string]> = [];
  for (let c = 0; c < C; c++) for (let k = 1; k < 6; k++) positives.push([`c${c}q0`, `c${c}q${k}`]);
  const dev: DevSet = {
    queries: Array.from({ length: C }, (_, c) => ({
      query: questions.get(`c${c}q7`)!,
      candidates: [`c${(c + 1) % C}q8`, `c${(c + 2) % C}q8`, `c${(c + 3) % C}q9`, `c${c}q9`, `c${(c + 4) % C}q8`].map((id) => questions.get(id)!),
      relevant: new Set([`c${c}q9`]),
    })),
  };
  return { data: { questions, positives, randomPool: [...questions.keys()], answerers }, dev };
}

describe('hnil uses the network', () => {
  it('ranks by the network where the text carries no signal, and lstm cannot', async () => {
    const { data, dev } = categoryOnlyData();
    const mrrOf = async (kind: string) => {
      const m = await createModel(kind, small);
      await m.train(data, { epochs: 6, seed: 2 });
      const r = evaluateRanker(m, dev).mrr;
      m.dispose();
      return r;
    };
    const hnil = await mrrOf('hnil');
    const lstm = await mrrOf('lstm');
    expect(hnil).toBeGreaterThanOrEqual(0.9);
    expect(hnil).toBeGreaterThan(lstm + 0.2);
  });

  it('learns from the categories alone, without a labeled pair (labeledPairs: false)', async () => {
    const { data, dev } = categoryOnlyData();
    const m = await createModel('hnil', { ...small, labeledPairs: false, categoryBatches: 40 });
    const rep = await m.train({ ...data, positives: [] }, { epochs: 3, seed: 2 });
    expect(rep.history).toHaveLength(3);
    expect(evaluateRanker(m, dev).mrr).toBeGreaterThanOrEqual(0.9);
    m.dispose();
    await expect(new HnilRanker({ ...small, labeledPairs: false, categoryLoss: 0 }).train(data)).rejects.toThrow(/categoryLoss must be above 0/);
  });

  it('refuses a workspace without askers or without categories, before any work', async () => {
    const fx = syntheticData(1);
    const before = tf.memory().numTensors;
    const m = new HnilRanker(small);
    let phases = 0;
    await expect(m.train(fx.data, { onProgress: () => phases++ })).rejects.toThrow(/none of the workspace's 30 questions has askers \(user ids\) or categories/);
    for (const q of fx.data.questions.values()) q.category = 'one';
    await expect(m.train(fx.data)).rejects.toThrow(/has askers \(user ids\)\./);
    for (const q of fx.data.questions.values()) {
      q.user = 'u';
      delete q.category;
    }
    await expect(m.train(fx.data)).rejects.toThrow(/has categories \(or tags\)\./);
    expect(phases).toBe(0);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('reports the network it trained on', async () => {
    const fx = syntheticData(5);
    addNetwork(fx);
    const m = new HnilRanker(small);
    const rep = await m.train(fx.data, { epochs: 1, seed: 1 });
    expect(rep.notes?.find((n) => n.startsWith('network:'))).toMatch(/^network: 30 questions, \d+ users, 6 categories, \d+ edges \(30 questions with an asker, 30 with a category\)/);
    expect(rep.notes?.find((n) => n.startsWith('DeepWalk:'))).toMatch(/same-category question pairs/);
    m.dispose();
  });
});
