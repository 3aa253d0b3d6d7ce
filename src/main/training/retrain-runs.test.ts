/**
 * A model trained again under its name: until the new model had scored every pool, the pools kept the
 * old model's run under that name, so Evaluate showed the old scores as the new model's and marked them
 * with the new model's training queries (for good, if that scoring never ended: a kill, a crash). The
 * old runs now leave readers' sight in the transaction that stores the new model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import type { Workspace } from '../workspace/workspace';
import { findModel } from './store';
import { scoreEveryPool, trainModel, type TrainSpec } from './train';
import { importSyntheticPool, syntheticWorkspace } from './test-corpus';

let dir: string;
let ws: Workspace;
beforeAll(async () => {
  ({ dir, ws } = await syntheticWorkspace('qpairs-retrain-runs-'));
  await importSyntheticPool(ws, dir, 'train', [0, 1, 2, 3, 4, 5]);
  await importSyntheticPool(ws, dir, 'dev', [8, 9, 10, 11]);
});
afterAll(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

const scores = (pool: string, run: string): Array<[string, string, number]> =>
  ws.db
    .prepare(`SELECT s.query_id, s.candidate_id, s.score FROM run_scores s JOIN runs r ON r.id = s.run_id JOIN pools p ON p.id = r.pool_id WHERE p.name = ? AND r.name = ? AND r.staged IS NULL ORDER BY 1, 2`)
    .raw()
    .all(pool, run) as Array<[string, string, number]>;

describe('training a model again under its name', () => {
  it('takes the old model\'s runs out of sight when the new model is stored, and scoring brings the new ones', async () => {
    const spec = (config: Record<string, unknown>): TrainSpec => ({ model: 'tfidf', name: 'tf', trainPools: ['train'], devPool: null, seed: 1, config });
    await trainModel(ws, spec({ maxN: 3 }), { workerPath: null });
    await scoreEveryPool(ws, 'tf', undefined, null);
    const old = scores('dev', 'tf');
    expect(old.length).toBe(16);

    await trainModel(ws, spec({ maxN: 1, minDf: 2 }), { workerPath: null });
    expect(findModel(ws, 'tf')!.info.training.config).toEqual({ maxN: 1, minDf: 2 });
    // Stored, not yet scored: no pool shows the old model's scores under the new model's name.
    for (const pool of ['train', 'dev']) expect(ws.runKinds(pool).filter((r) => r.name === 'tf'), pool).toEqual([]);
    expect(ws.db.prepare(`SELECT count(*) FROM runs WHERE name = 'tf' OR staged IS NOT NULL`).pluck().get()).toBe(0);

    await scoreEveryPool(ws, 'tf', undefined, null);
    const now = scores('dev', 'tf');
    expect(now.length).toBe(16);
    expect(now).not.toEqual(old);
  });
});
