/**
 * A fused (or ltr) model takes other models' runs as features. When such a feature's model was
 * trained on the pool being evaluated, the fuser's scores there carry its in-sample scores: on
 * SemEval, a fused model trained on train2 with an ltr run trained on 40 of the 50 dev queries
 * led the dev table with no mark, while the ltr run itself was marked "trained on 40 of these 50".
 * The fuser now counts its label-reading feature models' training queries as its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import type { Workspace } from '../workspace/workspace';
import { importSyntheticPool, syntheticWorkspace } from './test-corpus';
import { scorePool, trainModel } from './train';
import { modelOverlap } from './trained-on';

let dir: string;
let ws: Workspace;
const TR = [0, 1, 2, 3, 4, 5];
const EV = [10, 11, 12, 13];

beforeAll(async () => {
  ({ dir, ws } = await syntheticWorkspace('qpairs-feature-leak-'));
  await importSyntheticPool(ws, dir, 'tr', TR);
  await importSyntheticPool(ws, dir, 'ev', EV);
});
afterAll(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a fusing model over a feature trained on the evaluated pool', () => {
  it('is marked as trained on the queries its label-reading feature models were trained on', async () => {
    // ltr trained on the evaluated pool ev, its run stored in pool tr (as train scores every pool).
    await trainModel(ws, { model: 'ltr', name: 'ltr-ev', trainPools: ['ev'], epochs: 5, config: { embedding: false } }, { workerPath: null });
    await scorePool(ws, 'ltr-ev', 'tr', { workerPath: null });
    await scorePool(ws, 'ltr-ev', 'ev', { workerPath: null });
    // tfidf reads no label: its run is no leak.
    await trainModel(ws, { model: 'tfidf', name: 'tf-ev', trainPools: ['ev'] }, { workerPath: null });
    await scorePool(ws, 'tf-ev', 'tr', { workerPath: null });
    const evIds = EV.map((k) => `q${k}`);
    expect(modelOverlap(ws, 'ltr-ev', evIds)).toMatchObject({ trainedOn: 4, of: 4 });

    const { training } = await trainModel(ws, { model: 'fused', name: 'fu', trainPools: ['tr'], config: { ppmi: false, importanceRepeats: 0 } }, { workerPath: null });
    expect(training.featureModels).toEqual([{ run: 'ltr-ev', trainedOn: 4 }]);
    // Its own training queries (a fifth held out for early stopping) and ltr-ev's.
    const own = TR.length - training.earlyStopping!.heldOutQueries;
    expect(training.trainedOnQueries).toBe(own + EV.length);
    // Before: { trainedOn: 0, of: 4 } — the fused figure on ev was shown as held out.
    expect(modelOverlap(ws, 'fu', evIds)).toMatchObject({ trainedOn: 4, of: 4, sameId: 4 });
    expect(modelOverlap(ws, 'fu', TR.map((k) => `q${k}`))).toMatchObject({ trainedOn: own });
  });

  it('not where the feature run is out of fold (its model cross-validated on those queries)', async () => {
    await trainModel(ws, { model: 'ltr', name: 'ltr-cv', trainPools: ['ev'], epochs: 5, cv: { folds: 2 }, config: { embedding: false } }, { workerPath: null });
    await scorePool(ws, 'ltr-cv', 'tr', { workerPath: null });
    await scorePool(ws, 'ltr-cv', 'ev', { workerPath: null });
    expect(ws.outOfFoldQueries('ev', 'ltr-cv').size).toBe(EV.length);
    const { training } = await trainModel(ws, { model: 'fused', name: 'fu-oof', trainPools: ['tr'], config: { runs: ['ltr-cv'], ppmi: false, importanceRepeats: 0 } }, { workerPath: null });
    expect(training.featureModels).toBeUndefined();
    expect(modelOverlap(ws, 'fu-oof', EV.map((k) => `q${k}`))).toMatchObject({ trainedOn: 0, of: EV.length });
  });
});

describe('retraining a fusing model under its name', () => {
  it('does not report its own earlier run as a feature left out (before: "left out run "fu" as a feature: its model was trained on …")', async () => {
    await scorePool(ws, 'fu', 'tr', { workerPath: null });
    const { training } = await trainModel(ws, { model: 'fused', name: 'fu', trainPools: ['tr'], config: { ppmi: false, importanceRepeats: 0 } }, { workerPath: null });
    expect((training.inSampleRunsLeftOut ?? []).map((r) => r.run)).not.toContain('fu');
  });
});
