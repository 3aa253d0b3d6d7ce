/**
 * Cross-validation pre-trains skip-gram once per seed, not once per fold: the folds of a repeat read
 * the same texts (every question and answer; only their labeled pairs differ), so they and the final
 * model take the vectors the first of them trained — and train, score and report exactly as each
 * did with vectors of its own.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rmSync } from 'node:fs';
import { SkipGramRanker } from '../models/skipgram';
import type { SavedModel, WordVectorCache } from '../models/types';
import type { Workspace } from '../workspace/workspace';
import { crossValidate, type CvResult } from './cross-validate';
import { labeledTrainingPairs, unlabeledSpec } from './data';
import { trainSaved } from './run-model';
import { findModel } from './store';
import { prepareTraining, trainModel, type TrainSpec } from './train';
import { importSyntheticPool, syntheticWorkspace } from './test-corpus';

let dir: string;
let ws: Workspace;

beforeAll(async () => {
  ({ dir, ws } = await syntheticWorkspace('qpairs-cv-pretrain-'));
  await importSyntheticPool(ws, dir, 'train', [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
});
afterAll(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Counts skip-gram trainings (ltr's pre-training trains a SkipGramRanker) while `f` runs. */
async function counting<T>(f: () => Promise<T>): Promise<{ value: T; pretrainings: number }> {
  const spy = vi.spyOn(SkipGramRanker.prototype, 'train');
  try {
    const value = await f();
    return { value, pretrainings: spy.mock.calls.length };
  } finally {
    spy.mockRestore();
  }
}

/** crossValidate as trainModel calls it, with or without a word-vector cache; the out-of-fold scores as they come. */
async function cvRun(spec: TrainSpec, wordVectors: WordVectorCache | undefined) {
  const p = prepareTraining(ws, spec);
  const oof: Array<[string, readonly string[], number[]]> = [];
  const result = await crossValidate(
    ws,
    p.queries,
    p.cvClusterMap!,
    p.cvSpec!,
    {
      kind: p.kind,
      config: spec.config,
      epochs: spec.epochs,
      ...(wordVectors ? { wordVectors } : {}),
      excludeRuns: p.exclude,
      buildData: (held) => {
        const pairs = labeledTrainingPairs(ws, p.trainPools, held);
        return { ws, pairs, unlabeled: unlabeledSpec(p.trainPools, pairs, { excludeRuns: p.exclude }) };
      },
      epochsMatter: true,
      onOutOfFold: (q, cands, scores) => oof.push([q, [...cands], [...scores]]),
    },
    { workerPath: null },
  );
  return { result, oof };
}

const withoutSeconds = ({ seconds: _s, ...rest }: CvResult) => rest;
const bytes = (m: SavedModel) => Object.entries(m.weights).map(([k, t]) => [k, t.shape, Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength).toString('base64')]);

describe('skip-gram pre-training in cross-validation', () => {
  // Repeat 1 selects the epochs (dev data per fold), repeat 2 reports with them: both paths.
  const spec: TrainSpec = { model: 'ltr', name: 'ltr-cv', trainPools: ['train'], seed: 3, cv: { folds: 3, repeats: 2 }, config: { embeddingEpochs: 2, epochs: 30 } };

  it('gives the same CV result and out-of-fold scores with the vectors shared as with each fold pre-training its own, pre-training once per repeat', async () => {
    const own = await counting(() => cvRun(spec, undefined));
    const shared = await counting(() => cvRun(spec, new Map()));
    expect(own.pretrainings).toBe(6); // 3 folds × 2 repeats
    expect(shared.pretrainings).toBe(2); // once per repeat (seeds 3 and 4)
    expect(withoutSeconds(shared.value.result)).toEqual(withoutSeconds(own.value.result));
    expect(shared.value.result.selectedEpochs).not.toBeNull();
    expect(shared.value.oof.length).toBe(12);
    expect(shared.value.oof).toEqual(own.value.oof);
  });

  it('shares mnet-fisher\'s skip-gram word embeddings the same way (same CV result and out-of-fold scores)', async () => {
    const mnet: TrainSpec = { model: 'mnet-fisher', name: 'mnet-cv', trainPools: ['train'], seed: 2, epochs: 1, cv: { folds: 3, repeats: 1 }, config: { categoryWeight: 0, epochs: 2, dim: 16, components: 2, gmmSamples: 2000 } };
    const own = await counting(() => cvRun(mnet, undefined));
    const shared = await counting(() => cvRun(mnet, new Map()));
    expect([own.pretrainings, shared.pretrainings]).toEqual([3, 1]);
    expect(withoutSeconds(shared.value.result)).toEqual(withoutSeconds(own.value.result));
    expect(shared.value.oof).toEqual(own.value.oof);
  });

  it('trainModel pre-trains once per repeat, the final model taking the first repeat\'s vectors, and stores what it stored before', async () => {
    const trained = await counting(() => trainModel(ws, spec, { workerPath: null }));
    // 3 folds × 2 repeats + the final model pre-trained 7 times; now repeat 1 (seed 3, shared with the final model) and repeat 2.
    expect(trained.pretrainings).toBe(2);
    const stored = findModel(ws, 'ltr-cv')!.saved;
    // The same training, every fold and the final model pre-training its own vectors.
    const own = await cvRun(spec, undefined);
    expect(withoutSeconds(trained.value.training.cv!)).toEqual(withoutSeconds(own.result));
    const pairs = labeledTrainingPairs(ws, ['train']);
    const { saved } = await trainSaved(
      { kind: 'ltr', config: spec.config, input: { ws, pairs, unlabeled: unlabeledSpec(['train'], pairs, { excludeRuns: new Set(['ltr-cv']) }) }, opts: { epochs: own.result.selectedEpochs!, seed: 3 } },
      { workerPath: null },
    );
    expect(bytes(stored)).toEqual(bytes(saved));
    const oof = stored.meta?.outOfFold as Record<string, Record<string, number>>;
    expect(Object.entries(oof).sort()).toEqual(own.oof.map(([q, c, s]) => [q, Object.fromEntries(c.map((id, i) => [id, s[i]]))]).sort());
  });
});
