/**
 * models.list (the Models screen) reads each pool's labels once, whatever the number of models:
 * it read them, and listed the pool's runs with their score counts, once per model and pool (1.5 s
 * for two models on a workspace of 60,000-pair pools, growing with models × pools).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JobDone } from '../../shared/contract';
import type { ModelsView } from '../../shared/models';
import { addLivePool, labelLiveQuery } from '../training/live-test-pool';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';
import { modelPoolOverlaps } from './models';

let dir: string;
let ws: Workspace;
let engine: Engine;
const MODELS = ['tf1', 'tf2', 'tf3'];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-models-list-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
  ws.transaction(() => {
    addLivePool(ws);
    for (let i = 0; i < 4; i++) labelLiveQuery(ws, i, [0, 1]);
    // A second pool with no model runs, and a third the models score too.
    ws.createPool({ name: 'empty', scheme: 'binary' });
    ws.addPoolQuery('empty', 'q0', ['c1-0']);
  });
  engine = new Engine(ws, { transport: 'http' });
  for (const name of MODELS) {
    const { jobId } = (await engine.invoke('models.train', { model: 'tfidf', name, trainPools: ['p'] })) as { jobId: string };
    const done = await new Promise<JobDone>((resolve) => {
      const off = engine.on('job.done', (d) => d.jobId === jobId && (off(), resolve(d)));
    });
    expect(done).toMatchObject({ ok: true });
  }
});
afterAll(() => {
  engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('models.list', () => {
  it("reads each pool's queries once for all models, with the same overlaps as one model at a time", async () => {
    const queries = vi.spyOn(ws, 'poolQueries');
    const runs = vi.spyOn(ws, 'listRuns');
    let view: ModelsView;
    try {
      view = (await engine.invoke('models.list', {})) as ModelsView;
      // Two pools (each model scored both): their queries read for the pool, not once per model.
      const reads = (pool: string): number => queries.mock.calls.filter((c) => c[0] === pool).length;
      expect(reads('p')).toBe(1);
      expect(reads('empty')).toBeGreaterThan(0);
      expect(reads('empty')).toBeLessThan(MODELS.length);
      expect(runs).not.toHaveBeenCalled();
    } finally {
      queries.mockRestore();
      runs.mockRestore();
    }
    expect(view.models.map((m) => m.name)).toEqual(MODELS);
    for (const m of view.models) {
      expect(m.overlap).toEqual(modelPoolOverlaps(ws, m.name));
      expect(m.overlap).toContainEqual({ pool: 'p', trainedOn: 4, of: 4 });
    }
  });
});
