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

let dir: string;
let ws: Workspace;
const topics = ['printer driver install', 'wifi network password', 'python package version', 'disk partition resize'];
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-live-retrain-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
  // Queries q0…q3, each with candidates: two on its topic, two on others.
  ws.createPool({ name: 'p', scheme: 'binary' });
  topics.forEach((t, i) => {
    ws.upsertQuestion({ id: `q${i}`, source: 's', title: `how to fix ${t}`, body: `my ${t} does not work after the update` });
    for (let j = 0; j < 4; j++) {
      const other = topics[(i + j) % topics.length]!;
      ws.upsertQuestion({ id: `c${i}-${j}`, source: 's', title: `${other} problem ${j}`, body: `trouble with ${other} again, tried rebooting` });
    }
    ws.addPoolQuery('p', `q${i}`, [0, 1, 2, 3].map((j) => `c${i}-${j}`));
  });
});
afterEach(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

const label = (q: string, c: string, value: string): void => void ws.addLabel({ pool: 'p', queryId: q, candidateId: c, annotator: 'gold', value, origin: 'test' });

describe('a live retrain', () => {
  it('never scores a labeled query with a model trained on it: a fold with nothing to learn from leaves its queries unscored', async () => {
    // q0 is the only labeled query with a similar candidate (c0-0, on its topic); q1 and q2 have none.
    // The fold that holds q0 out has no similar pair to learn from.
    for (let j = 0; j < 4; j++) label('q0', `c0-${j}`, j === 0 ? '1' : '0');
    for (const q of ['q1', 'q2']) for (let j = 0; j < 4; j++) label(q, `c${q.slice(1)}-${j}`, '0');
    const r = await retrainLive(ws, 'p', { model: 'ltr', trainPools: [], runName: 'live-ltr' }, { workerPath: null });
    expect(r).toMatchObject({ trainedQueries: 3, heldOutQueries: 2, folds: 3 });
    // q0 was trained on by the final model and held out by no fold model: it gets no score.
    expect(r.scores.has('q0')).toBe(false);
    expect(r.unscoredQueries).toEqual(['q0']);
    // q1, q2 scored out of fold; q3 (unlabeled) by the final model.
    expect([...r.scores.keys()].sort()).toEqual(['q1', 'q2', 'q3']);
  }, 120_000);
});
