/**
 * The dev figures of a training follow the dev pool's convention, as `eval` does. A pool evaluated
 * with `skip` (AskUbuntu's) leaves out queries without a relevant candidate; training with it as
 * dev pool counted them as 0: a tfidf reported "dev MAP 34.00" (and `models list` kept it) where
 * `qpairs eval` gave the same run of the same pool 68.00.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { Engine } from '../engine/engine';
import { importSyntheticPool, syntheticWorkspace } from './test-corpus';
import { prepareTraining, scorePool, trainModel } from './train';

let dir: string;
let file: string;

beforeAll(async () => {
  let ws: Workspace;
  ({ dir, ws } = await syntheticWorkspace('qpairs-dev-convention-'));
  file = path.join(dir, 'w.qpairs');
  // tr: every query has relevant candidates; dv: queries q20–q22 have none.
  await importSyntheticPool(ws, dir, 'tr', [0, 1, 2, 3]);
  await importSyntheticPool(ws, dir, 'dv', [20, 21, 22, 23, 24, 26], [20, 21, 22]);
  await importSyntheticPool(ws, dir, 'none', [15, 16], [15, 16]);
  // Convention zero (the default): its queries count 0 — every epoch's dev figures would be 0.
  await importSyntheticPool(ws, dir, 'none0', [17, 18], [17, 18]);
  ws.setPoolConvention('dv', 'skip');
  ws.setPoolConvention('none', 'skip');
  ws.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dev figures under the dev pool convention', () => {
  it('a skip dev pool: the dev MAP and MRR of training are the ones eval gives the run', async () => {
    const ws = Workspace.open(file);
    try {
      const { report } = await trainModel(ws, { model: 'tfidf', name: 'tf', trainPools: ['tr'], devPool: 'dv' }, { workerPath: null });
      await scorePool(ws, 'tf', 'dv', { workerPath: null });
      const engine = new Engine(ws, { transport: 'http' });
      try {
        const ev = (await engine.invoke('eval.pool', { pool: 'dv' })) as { convention: string; runs: Record<string, { queries: number; MAP: number | null; MRR: number | null }> };
        expect(ev.convention).toBe('skip');
        const run = ev.runs['tf']!;
        expect(run.queries).toBe(3);
        expect(report.bestDevMAP).toBeCloseTo(run.MAP!, 10);
        expect(report.bestDevMRR).toBeCloseTo(run.MRR!, 10);
      } finally {
        engine.close();
      }
    } finally {
      ws.close();
    }
  });

  it('a skip dev pool without any relevant candidate is refused, saying why', async () => {
    const ws = Workspace.open(file);
    try {
      await expect(trainModel(ws, { model: 'tfidf', name: 'tf2', trainPools: ['tr'], devPool: 'none' }, { workerPath: null })).rejects.toThrow(
        'dev pool "none" has no labeled query with a similar candidate (its convention, skip, leaves out the others)',
      );
    } finally {
      ws.close();
    }
  });

  it('a dev pool without any similar pair is refused for a model trained by epochs, before training (it kept epoch 1 of 300: an untrained ltr)', async () => {
    const ws = Workspace.open(file);
    try {
      const why = 'dev pool "none0" has no labeled query with a similar candidate (grade 1 or above, by its default label source): its dev MRR and MAP would be 0 at every epoch';
      expect(() => prepareTraining(ws, { model: 'ltr', name: 'l0', trainPools: ['tr'], devPool: 'none0' })).toThrow(why);
      await expect(trainModel(ws, { model: 'ltr', name: 'l0', trainPools: ['tr'], devPool: 'none0' }, { workerPath: null })).rejects.toThrow(why);
      expect(ws.db.prepare(`SELECT count(*) FROM models WHERE name = 'l0'`).pluck().get()).toBe(0);
      // tfidf trains no epochs: its dev figures only report, so it is not refused.
      expect(() => prepareTraining(ws, { model: 'tfidf', name: 't0', trainPools: ['tr'], devPool: 'none0' })).not.toThrow();
      // A dev pool with a similar pair somewhere is fine.
      expect(() => prepareTraining(ws, { model: 'ltr', name: 'l1', trainPools: ['tr'], devPool: 'dv' })).not.toThrow();
    } finally {
      ws.close();
    }
  });
});
