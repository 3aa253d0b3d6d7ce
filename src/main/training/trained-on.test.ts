import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { importFiles } from '../import';
import { deleteModel, storeModel, type TrainingInfo } from './store';
import { describeOverlap, modelOverlap, storeTrainedOn, trainedOnIds } from './trained-on';
import type { TrainReport } from '../models/types';

const words = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${i}`).join(' ');
const questions = [
  { id: 't1', title: 'Visa renewal', body: words(60, 'v') },
  { id: 't2', title: 'Beach', body: words(200, 'b') },
  { id: 't3', title: 'Cars', body: words(60, 'c') },
  { id: 'e1', title: 'visa RENEWAL!', body: words(60, 'v') }, // same text as t1
  { id: 'e2', title: 'Beach', body: words(200, 'b').replace('b30 ', 'x ') }, // near-duplicate of t2 (J = 198/204)
  { id: 'e3', title: 'Other', body: words(60, 'o') },
];
const report: TrainReport = { kind: 'tfidf', backend: 'js', epochs: 0, bestEpoch: 0, history: [], examplesPerSecond: 0, exampleUnit: 'texts', seconds: 0 };
const info = (recorded: boolean): TrainingInfo => ({
  trainPools: [],
  devPool: null,
  epochs: null,
  seed: 1,
  positives: 0,
  negatives: 0,
  questions: 6,
  ...(recorded ? { trainedOnQueries: 3 } : {}),
});
let dir: string;
let ws: Workspace;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-trained-on-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
  const f = path.join(dir, 'q.jsonl');
  writeFileSync(f, questions.map((q) => JSON.stringify(q)).join('\n') + '\n');
  await importFiles(ws, 'questions-jsonl', [f]);
  storeModel(ws, 'm', { format: 1, kind: 'tfidf', config: {}, weights: {} }, report, info(true));
  storeTrainedOn(ws, 'm', questions.slice(0, 3));
});
afterEach(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('what a model was trained on', () => {
  it('counts evaluated queries by the same id, the same text and near-duplicate text', () => {
    expect(trainedOnIds(ws, 'm')).toEqual(['t1', 't2', 't3']);
    const o = modelOverlap(ws, 'm', ['t3', 'e1', 'e2', 'e3'])!;
    expect(o).toEqual({ trainedOn: 3, of: 4, sameId: 1, sameText: 1, nearDuplicate: 1 });
    expect(describeOverlap(o)).toBe('trained on 3 of these 4 queries (1 same id, 1 same text, 1 near-duplicate)');
    expect(modelOverlap(ws, 'm', ['e3'])).toMatchObject({ trainedOn: 0, of: 1 });
    expect(modelOverlap(ws, 'nope', ['e1'])).toBeNull();
  });

  it('still finds a near-duplicate by the stored signature when the training question changed since', async () => {
    const f = path.join(dir, 'u.jsonl');
    writeFileSync(f, JSON.stringify({ id: 't2', title: 'Changed', body: 'entirely different now' }) + '\n');
    await importFiles(ws, 'questions-jsonl', [f], { update: true });
    expect(ws.getQuestion('t2')!.title).toBe('Changed');
    // e2 differs from t2's training text in 3 of 201 shingles (J ≈ 0.97; the 128-hash estimate's s.e. is 0.015).
    expect(modelOverlap(ws, 'm', ['e2'])).toMatchObject({ trainedOn: 1, nearDuplicate: 1 });
  });

  it('is unknown (null) for a model stored before training queries were recorded, and goes with its model', () => {
    storeModel(ws, 'old', { format: 1, kind: 'tfidf', config: {}, weights: {} }, report, info(false));
    expect(modelOverlap(ws, 'old', ['t1'])).toBeNull();
    expect(ws.db.prepare(`SELECT count(*) FROM model_trained_on`).pluck().get()).toBe(3);
    deleteModel(ws, 'm');
    expect(ws.db.prepare(`SELECT count(*) FROM model_trained_on`).pluck().get()).toBe(0);
  });
});
