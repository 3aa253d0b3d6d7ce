/**
 * A model trained on the workspace's marked duplicates recorded only one question of each pair as
 * trained on — the one whose id sorts first (pairs are stored as lo, hi). A pool asking the other
 * questions, with exactly the trained pairs as its relevant candidates, was shown unflagged ("saw
 * evaluated queries: none") when its query ids sorted after the candidates', and flagged when they
 * sorted before. Both questions of a marked duplicate pair now count as trained on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { importFiles } from '../import';
import { syntheticText } from './test-corpus';
import { trainModel } from './train';
import { modelOverlap } from './trained-on';

let dir: string;
let ws: Workspace;
const text = syntheticText;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-dup-trained-on-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
  // Queries z0..z3 sort after their duplicates a0..a3 (and b*: other candidates).
  const qs = [0, 1, 2, 3].flatMap((k) => [
    { id: `a${k}`, title: `a ${k}`, body: text(k) },
    { id: `b${k}`, title: `b ${k}`, body: text(k + 50) },
    { id: `z${k}`, title: `z ${k}`, body: text(k + 100) },
  ]);
  const qf = path.join(dir, 'q.jsonl');
  writeFileSync(qf, qs.map((q) => JSON.stringify(q)).join('\n') + '\n');
  await importFiles(ws, 'questions-jsonl', [qf]);
  const lf = path.join(dir, 'l.jsonl');
  const labels = [0, 1, 2, 3].flatMap((k) => [
    { query_id: `z${k}`, candidate_id: `a${k}`, label: 1 },
    { query_id: `z${k}`, candidate_id: `b${k}`, label: 0 },
  ]);
  writeFileSync(lf, labels.map((l) => JSON.stringify(l)).join('\n') + '\n');
  await importFiles(ws, 'labels-jsonl', [lf], { pool: 'ev', annotator: 'gold' });
  // The pool's relevant pairs, marked as duplicates (askubuntu-pairs: query \t similar \t random).
  const pf = path.join(dir, 'dups.txt');
  writeFileSync(pf, [0, 1, 2, 3].map((k) => `z${k}\ta${k}\t\n`).join(''));
  await importFiles(ws, 'askubuntu-pairs', [pf]);
});
afterAll(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a model trained on marked duplicates', () => {
  it('counts both questions of each pair as trained on, whichever id sorts first', async () => {
    expect(ws.duplicatePairs()).toEqual([0, 1, 2, 3].map((k) => [`a${k}`, `z${k}`]));
    const { training } = await trainModel(ws, { model: 'tfidf', name: 'dups' }, { workerPath: null });
    expect(training.positives).toBe(4);
    expect(training.trainedOnQueries).toBe(8);
    expect(modelOverlap(ws, 'dups', ['z0', 'z1', 'z2', 'z3'])).toMatchObject({ trainedOn: 4, of: 4, sameId: 4 });
    expect(modelOverlap(ws, 'dups', ['a0', 'b0'])).toMatchObject({ trainedOn: 1, of: 2 });
  });
});
