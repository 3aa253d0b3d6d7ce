/**
 * Train, cancel, score, over and over, in this thread (where the engine trains when no model worker
 * can read the workspace): a training cancelled at any of its phases — skip-gram pre-training,
 * encoder-decoder pre-training, each step of each epoch, cross-validation folds — leaves
 * no tfjs tensor behind and no model stored, and scoring with the stored model leaves none either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import * as tf from '@tensorflow/tfjs-core';
import { CancelledError } from '../errors';
import { initBackend } from '../models';
import type { Workspace } from '../workspace/workspace';
import { findModel } from './store';
import { scorePool, trainModel, type TrainSpec } from './train';
import { importSyntheticPool, syntheticWorkspace } from './test-corpus';

let dir: string;
let ws: Workspace;
beforeAll(async () => {
  ({ dir, ws } = await syntheticWorkspace('qpairs-cancel-tensors-'));
  await importSyntheticPool(ws, dir, 'train', [0, 1, 2, 3, 4, 5, 6, 7]);
  await importSyntheticPool(ws, dir, 'dev', [8, 9, 10, 11]);
  await initBackend();
});
afterAll(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

const encoder = { hidden: 8, embDim: 8, maxTitleLen: 6, maxBodyLen: 8, batchSize: 4, negatives: 3, negPool: 0, dropout: 0, embeddingEpochs: 1 };
const cases: Array<{ model: string; config: Record<string, unknown>; cv?: boolean }> = [
  { model: 'bow-cnn', config: { embDim: 8, filters: 8, maxLen: 12, batchSize: 4, negatives: 3, negPool: 0, embeddingEpochs: 1 } },
  { model: 'gru', config: { ...encoder, pretrain: true, pretrainEpochs: 1 } },
  { model: 'rcnn', config: encoder, cv: true },
];

describe('train / cancel / score cycles in this thread', () => {
  for (const c of cases) {
    it(`${c.model}${c.cv ? ' --cv 2' : ''}: no tensor left by a cancel at any progress event, nor by scoring`, async () => {
      const spec = (name: string): TrainSpec => ({
        model: c.model,
        name,
        trainPools: ['train'],
        devPool: c.cv ? null : 'dev',
        epochs: 2,
        seed: 1,
        config: c.config,
        ...(c.cv ? { cv: { folds: 2, repeats: 1 } } : {}),
      });
      // The whole training once: how many progress events it sends, and a stored model to score with.
      let events = 0;
      await trainModel(ws, spec(`${c.model}-whole`), { workerPath: null, onProgress: () => events++ });
      expect(events).toBeGreaterThan(3);
      await scorePool(ws, `${c.model}-whole`, 'dev', { workerPath: null });
      const before = tf.memory().numTensors;
      const phases = new Set<string>();
      for (let k = 1; k <= events; k += Math.max(1, Math.floor(events / 8))) {
        const ac = new AbortController();
        let n = 0;
        const run = trainModel(ws, spec(`${c.model}-cancelled`), {
          workerPath: null,
          signal: ac.signal,
          onProgress: (p) => {
            if (++n !== k) return;
            phases.add(p.phase ?? 'epoch');
            ac.abort();
          },
        });
        await expect(run).rejects.toBeInstanceOf(CancelledError);
        expect(findModel(ws, `${c.model}-cancelled`), `cancelled at event ${k}`).toBeNull();
        expect(tf.memory().numTensors, `cancelled at event ${k} of ${events}`).toBe(before);
        await scorePool(ws, `${c.model}-whole`, 'dev', { workerPath: null });
        expect(tf.memory().numTensors, `scored after the cancel at event ${k}`).toBe(before);
      }
      expect(phases.size).toBeGreaterThan(1);
    }, 120_000);
  }
});
