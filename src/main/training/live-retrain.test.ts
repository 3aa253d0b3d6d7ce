/**
 * One live retrain on a tiny pool: every labeled query's score in the live run comes from a model
 * that did not see its labels — a query whose fold leaves nothing to learn from is left unscored,
 * not scored by the final model that trained on it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { retrainLive } from './live-retrain';
import { addLivePool, labelLiveQuery } from './live-test-pool';

let dir: string;
let ws: Workspace;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-live-retrain-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
  addLivePool(ws);
});
afterEach(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a live retrain', () => {
  it('never scores a labeled query with a model trained on it: a fold with nothing to learn from leaves its queries unscored', async () => {
    // q0 is the only labeled query with a similar candidate (c0-0, on its topic); q1 and q2 have none.
    // The fold that holds q0 out has no similar pair to learn from.
    labelLiveQuery(ws, 0, [0]);
    labelLiveQuery(ws, 1, []);
    labelLiveQuery(ws, 2, []);
    const r = await retrainLive(ws, 'p', { model: 'ltr', trainPools: [], runName: 'live-ltr' }, { workerPath: null });
    expect(r).toMatchObject({ trainedQueries: 3, heldOutQueries: 2, folds: 3 });
    // q0 was trained on by the final model and held out by no fold model: it gets no score.
    expect(r.scores.has('q0')).toBe(false);
    expect(r.unscoredQueries).toEqual(['q0']);
    // q1, q2 scored out of fold; q3 (unlabeled) by the final model.
    expect([...r.scores.keys()].sort()).toEqual(['q1', 'q2', 'q3']);
  }, 120_000);
});
