/**
 * A fusing model (ltr, fused) that took as a feature the run of a model trained on blind labels
 * carries them too (run-visibility.ts). That went by its training record's featureModels, read by
 * name against today's models: deleting the feature's model, or retraining it under its name on open
 * labels, showed the fusing model's runs to annotators; and featureModels leaves out a feature whose
 * model was cross-validated (its runs score its training queries out of fold), so a fuser over such a
 * run was never hidden. The fusing model now records its features' label pools with its own.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../workspace/workspace';
import { importSyntheticPool, syntheticWorkspace } from '../training/test-corpus';
import { deleteModel } from '../training/store';
import { scorePool, trainModel } from '../training/train';
import { modelsTrainedOnBlindLabels } from './run-visibility';

let dir: string;
let ws: Workspace;
const local = { workerPath: null };

beforeAll(async () => {
  ({ dir, ws } = await syntheticWorkspace('qpairs-blind-feature-runs-'));
  // bl: blind (an import's pool is by default); op: open.
  await importSyntheticPool(ws, dir, 'bl', [10, 11, 12, 13]);
  await importSyntheticPool(ws, dir, 'op', [0, 1, 2, 3, 4, 5]);
  ws.setPoolBlind('op', false);
});
afterAll(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Trains ltr `name` on `pools` (cv folds if given; no run as a feature) and scores pools op and bl with it, as train scores every pool. */
async function ltrOn(name: string, pools: string[], cv?: number): Promise<void> {
  await trainModel(ws, { model: 'ltr', name, trainPools: pools, epochs: 3, ...(cv ? { cv: { folds: cv } } : {}), config: { embedding: false, runs: [] } }, local);
  await scorePool(ws, name, 'op', local);
  await scorePool(ws, name, 'bl', local);
}

/** Trains fused `name` on the open pool with the runs given as its features. */
async function fusedOver(name: string, runs: string[]): Promise<{ featureModels?: unknown }> {
  const { training } = await trainModel(ws, { model: 'fused', name, trainPools: ['op'], config: { runs, ppmi: false, importanceRepeats: 0 } }, local);
  return training;
}

describe('a fusing model over a feature trained on blind labels', () => {
  it('a fusing model over open features only stays in sight', async () => {
    await ltrOn('feat-open', ['op']);
    await fusedOver('fu-open', ['feat-open']);
    expect(modelsTrainedOnBlindLabels(ws).has('fu-open')).toBe(false);
    expect(modelsTrainedOnBlindLabels(ws).has('feat-open')).toBe(false);
  });

  it('stays hidden once the feature’s model is deleted or retrained on open labels', async () => {
    await ltrOn('feat', ['bl']);
    expect(await fusedOver('fu', ['feat'])).toHaveProperty('featureModels');
    expect([...modelsTrainedOnBlindLabels(ws)].sort()).toEqual(['feat', 'fu']);
    // feat retrained on the open pool: fu learned bl's labels through the old feat all the same.
    await ltrOn('feat', ['op']);
    expect([...modelsTrainedOnBlindLabels(ws)]).toEqual(['fu']);
    deleteModel(ws, 'feat');
    expect([...modelsTrainedOnBlindLabels(ws)]).toEqual(['fu']);
  });

  it('is hidden when the feature’s model was cross-validated (featureModels leaves it out)', async () => {
    await ltrOn('feat-cv', ['bl'], 2);
    expect(await fusedOver('fu-cv', ['feat-cv'])).not.toHaveProperty('featureModels');
    expect(modelsTrainedOnBlindLabels(ws).has('fu-cv')).toBe(true);
  });

  it('over a feature whose record is from before labelPools: its pools as they are, a name no pool has as blind', async () => {
    await ltrOn('feat-old', ['op']);
    // As stored before labelPools, trained on a pool since gone.
    const t = JSON.parse(ws.stmt(`SELECT training FROM models WHERE name = 'feat-old'`).pluck().get() as string) as Record<string, unknown>;
    delete t.labelPools;
    ws.stmt(`UPDATE models SET training = ? WHERE name = 'feat-old'`).run(JSON.stringify({ ...t, trainPools: ['op', 'gone'] }));
    await fusedOver('fu-old', ['feat-old']);
    deleteModel(ws, 'feat-old');
    expect(modelsTrainedOnBlindLabels(ws).has('fu-old')).toBe(true);
  });
});
