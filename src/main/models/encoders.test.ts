import { describe } from 'vitest';
import { modelSuite } from './model-suite';

const small = { hidden: 12, embDim: 16, maxTitleLen: 8, maxBodyLen: 16, batchSize: 4, negatives: 5, negPool: 0, lr: 0.01, dropout: 0, embeddingEpochs: 2 };

describe('lstm', () => modelSuite({ kind: 'lstm', config: small, epochs: 8, tfjs: true }));
describe('gru', () => modelSuite({ kind: 'gru', config: { ...small, pooling: 'last' }, epochs: 8, tfjs: true }));
describe('rcnn', () => modelSuite({ kind: 'rcnn', config: small, epochs: 8, tfjs: true }));

import { expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs-core';
import { createModel } from './registry';
import { syntheticData } from './test-data';

describe('encoder options', () => {
  it('rcnn: encoder-decoder pre-training runs and is reported', async () => {
    const fx = syntheticData(2);
    const m = await createModel('rcnn', { ...small, pretrain: true, pretrainEpochs: 2, decoderVocab: 50 });
    const phases = new Set<string>();
    const before = tf.memory().numTensors;
    const rep = await m.train(fx.data, { epochs: 2, seed: 1, onProgress: (p) => p.phase && phases.add(p.phase) });
    expect(phases.has('encoder-decoder pre-training')).toBe(true);
    expect(rep.notes?.some((n) => n.startsWith('pre-trained body→title'))).toBe(true);
    m.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('gru: plain (tfjs ops) and fused scans train to the same scores', async () => {
    const fx = syntheticData(4);
    const scores = async (impl: string) => {
      const m = await createModel('gru', { ...small, impl });
      await m.train(fx.data, { epochs: 2, seed: 9 });
      const s = fx.dev.queries.map((q) => m.score(q.query, q.candidates)).flat();
      m.dispose();
      return s;
    };
    const a = await scores('fused');
    const b = await scores('plain');
    a.forEach((x, i) => expect(Math.abs(x - b[i])).toBeLessThan(1e-3));
  });
});
