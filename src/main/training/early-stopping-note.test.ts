/** The early-stopping note for a single held-out query said "(1 queries, seed 1)". */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import type { Workspace } from '../workspace/workspace';
import { trainModel } from './train';
import { importSyntheticPool, syntheticWorkspace } from './test-corpus';

let dir: string;
let ws: Workspace;
beforeAll(async () => {
  ({ dir, ws } = await syntheticWorkspace('qpairs-early-stopping-note-'));
  await importSyntheticPool(ws, dir, 'train', [0, 1, 2, 3, 4]);
});
afterAll(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('early stopping without a dev pool or --cv', () => {
  it('five distinct training queries: one held out, said in the singular', async () => {
    const config = { embDim: 8, filters: 8, maxLen: 12, batchSize: 4, negatives: 3, negPool: 0, embeddingEpochs: 1 };
    const { training } = await trainModel(ws, { model: 'bow-cnn', name: 'b', trainPools: ['train'], devPool: null, epochs: 1, seed: 1, config }, { workerPath: null });
    expect(training.earlyStopping).toMatchObject({ heldOutQueries: 1, heldOutClusters: 1, clusters: 5 });
    expect(training.earlyStopping!.note).toBe('no dev pool and no --cv: 1 of the 5 training clusters (1 query, seed 1) held out for early stopping and not trained on');
  });
});
