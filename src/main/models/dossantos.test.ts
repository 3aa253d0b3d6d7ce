import { describe } from 'vitest';
import { modelSuite } from './model-suite';

const small = { embDim: 16, filters: 16, maxLen: 24, batchSize: 4, negatives: 5, negPool: 0, lr: 0.01, bowLr: 0.05, embeddingEpochs: 2 };

describe('bow-cnn', () => modelSuite({ kind: 'bow-cnn', config: small, epochs: 8, tfjs: true }));
describe('cnn', () => modelSuite({ kind: 'cnn', config: small, epochs: 8, tfjs: true }));

import { expect, it } from 'vitest';
import { createModel } from './registry';
import { syntheticData } from './test-data';
import type { DosSantosRanker } from './dossantos';

describe('dos Santos conv paths', () => {
  it('scoring path (conv1d) equals the training path (window concat + matmul)', async () => {
    const fx = syntheticData(3);
    const m = (await createModel('cnn', { ...small })) as DosSantosRanker;
    await m.train(fx.data, { epochs: 1, seed: 2 });
    const texts = [...fx.data.questions.values()].slice(0, 7);
    const enc = (training: boolean) => {
      const t = (m as unknown as { convEncode(t: unknown, tr: boolean): { dataSync(): Float32Array; dispose(): void } }).convEncode(texts, training);
      const d = t.dataSync().slice();
      t.dispose();
      return d;
    };
    const a = enc(true);
    const b = enc(false);
    a.forEach((x, i) => expect(Math.abs(x - b[i])).toBeLessThan(1e-5));
    m.dispose();
  });
});

describe('embedding pre-training default', () => {
  it('the neural models and ltr pre-train as many skip-gram epochs as the skipgram model: the same vectors as passing skipgram.vectors()', async () => {
    const { SKIPGRAM_DEFAULTS, SkipGramRanker } = await import('./skipgram');
    const { DOSSANTOS_DEFAULTS } = await import('./dossantos');
    const { ENCODER_DEFAULTS } = await import('./encoders');
    const { LTR_DEFAULTS } = await import('./ltr');
    for (const d of [DOSSANTOS_DEFAULTS, ENCODER_DEFAULTS, LTR_DEFAULTS]) expect(d.embeddingEpochs).toBe(SKIPGRAM_DEFAULTS.epochs);
    const fx = syntheticData(4);
    const { embeddingEpochs: _omit, ...cfg } = small;
    const own = await createModel('cnn', cfg);
    await own.train(fx.data, { epochs: 2, seed: 1 });
    const sg = new SkipGramRanker({ dim: cfg.embDim });
    await sg.train(fx.data, { seed: 1 });
    const given = await createModel('cnn', cfg);
    await given.train(fx.data, { epochs: 2, seed: 1, embeddings: sg.vectors() });
    for (const q of fx.dev.queries) expect(own.score(q.query, q.candidates)).toEqual(given.score(q.query, q.candidates));
    for (const m of [own, given, sg]) m.dispose();
  });
});

describe('starting from fused\'s vectors (startVectors: fused)', () => {
  it('bow-cnn and gru take the stemmed PPMI-SVD vectors per token (their dimension), not skip-gram', async () => {
    const fx = syntheticData(5);
    for (const kind of ['bow-cnn', 'gru']) {
      const m = await createModel(kind, { ...small, hidden: 8, startVectors: 'fused', fusedVectors: { ppmiDim: 6, ppmiMinCount: 1 }, embeddingEpochs: 0 });
      const report = await m.train(fx.data, { epochs: 1, seed: 1 });
      expect((m as unknown as { config: { embDim: number } }).config.embDim).toBe(6);
      const found = Number(/(\d+) words with pre-trained vectors/.exec(report.notes!.join(' '))![1]);
      expect(found).toBeGreaterThan(5);
      const q = fx.dev.queries[0];
      expect(m.score(q.query, q.candidates).every(Number.isFinite)).toBe(true);
      m.dispose();
    }
  });
});
