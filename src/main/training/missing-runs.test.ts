/**
 * A fused (or ltr) model takes the training pools' runs as features. Scored on a pool without one
 * of them (a pool built by BM25 after training on SemEval's search-engine order, or made after the
 * models whose runs it fuses were trained), that feature is 0 for every candidate and the model
 * ranks without it — silently. scorePool now names the runs the pool lacks and the CLI says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Workspace } from '../workspace/workspace';
import { importFiles } from '../import';
import { importSyntheticPool, syntheticWorkspace } from './test-corpus';
import { describeMissingRuns, scorePool, trainModel } from './train';

let dir: string;
let ws: Workspace;

beforeAll(async () => {
  ({ dir, ws } = await syntheticWorkspace('qpairs-missing-runs-'));
  await importSyntheticPool(ws, dir, 'tr', [0, 1, 2, 3, 4, 6, 7, 8]);
  await importSyntheticPool(ws, dir, 'other', [20, 21]);
  // The engine's order for pool tr only.
  const run = [0, 1, 2, 3, 4, 6, 7, 8].flatMap((q) => [5, 10, 1, 2].map((d, i) => `q${q} Q0 q${(q + d) % 30} ${i + 1} ${4 - i} eng`));
  writeFileSync(path.join(dir, 'eng.run'), run.join('\n') + '\n');
  await importFiles(ws, 'trec-run', [path.join(dir, 'eng.run')], { pool: 'tr' });
});
afterAll(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('scoring a pool that lacks a feature run', () => {
  it('names the runs the pool lacks (fused), and none for a model without run features', async () => {
    await trainModel(ws, { model: 'fused', name: 'fu', trainPools: ['tr'], config: { ppmi: false, importanceRepeats: 0 } }, { workerPath: null });
    expect((await scorePool(ws, 'fu', 'tr', { workerPath: null })).missingRuns).toEqual([]);
    expect((await scorePool(ws, 'fu', 'other', { workerPath: null })).missingRuns).toEqual(['eng']);
    await trainModel(ws, { model: 'tfidf', name: 'tf', trainPools: ['tr'] }, { workerPath: null });
    expect((await scorePool(ws, 'tf', 'other', { workerPath: null })).missingRuns).toEqual([]);
    expect(describeMissingRuns('fu', 'other', ['eng'])).toBe('note: pool other has no run "eng", a feature of fu: its features are 0 there, so fu ranks that pool without it');
    expect(describeMissingRuns('fu', 'tr', [])).toBeNull();
  });
});
