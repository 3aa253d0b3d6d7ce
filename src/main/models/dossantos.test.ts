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
