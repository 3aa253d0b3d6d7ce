/**
 * Test fixture (not used by the app): an engine on a new workspace holding the live test pool `p`
 * (see live-test-pool: 4 queries × 4 candidates, each query's first two candidates labeled similar
 * by gold), with tfidf models trained on it through the engine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { addLivePool, labelLiveQuery } from '../training/live-test-pool';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';
import { jobDone } from './test-team';

/** Trains tfidf model `name` on `trainPools` through the engine (as `caller`, default the local owner) and expects it done. */
export async function trainTfidf(engine: Engine, name: string, trainPools: string[], caller?: { annotator: string; local: boolean }): Promise<void> {
  const { jobId } = (await engine.invoke('models.train', { model: 'tfidf', name, trainPools }, caller)) as { jobId: string };
  const done = await jobDone(engine, jobId);
  expect(done.ok, done.error).toBe(true);
}

/** The test's workspace and engine, set in its beforeAll. */
export interface TrainedModels {
  dir: string;
  ws: Workspace;
  engine: Engine;
}

/**
 * Registers the file's setup and teardown: before its tests, a scratch directory `qpairs-NAME-`,
 * the workspace `w.qpairs` with pool p (its 4 queries labeled by gold: c<i>-0 and c<i>-1 similar) and whatever `more` adds in
 * the same transaction, an engine on it and the tfidf models `models` trained on p, in order; after
 * them, the engine closed and the directory removed. Returns the state the tests read.
 */
export function useTrainedModels(name: string, models: readonly string[], more?: (ws: Workspace) => void): TrainedModels {
  const t = {} as TrainedModels;
  beforeAll(async () => {
    t.dir = mkdtempSync(path.join(os.tmpdir(), `qpairs-${name}-`));
    t.ws = Workspace.create(path.join(t.dir, 'w.qpairs'));
    t.ws.transaction(() => {
      addLivePool(t.ws);
      for (let i = 0; i < 4; i++) labelLiveQuery(t.ws, i, [0, 1]);
      more?.(t.ws);
    });
    t.engine = new Engine(t.ws, { transport: 'http' });
    for (const m of models) await trainTfidf(t.engine, m, ['p']);
  });
  afterAll(() => {
    t.engine?.close();
    if (t.dir) rmSync(t.dir, { recursive: true, force: true });
  });
  return t;
}

/**
 * For useTrainedModels' `more`: annotators alice and bob, and pool o, open, holding the same pairs as the
 * blind pool p (a bm25 run ranking c<i>-0 first), labeled by bob as gold labels p.
 */
export function addOpenPoolBesideBlind(ws: Workspace): void {
  ws.ensureAnnotator('alice', 'annotator');
  ws.ensureAnnotator('bob', 'annotator');
  ws.createPool({ name: 'o', scheme: 'binary', blind: false });
  const bm25 = ws.ensureRun('o', 'bm25', 'retriever');
  for (let i = 0; i < 4; i++) {
    const cands = [0, 1, 2, 3].map((j) => `c${i}-${j}`);
    ws.addPoolQuery('o', `q${i}`, cands);
    cands.forEach((c, j) => {
      ws.setRunScore(bm25, `q${i}`, c, 10 - j);
      ws.addLabel({ pool: 'o', queryId: `q${i}`, candidateId: c, annotator: 'bob', value: j < 2 ? '1' : '0', origin: 'test' });
    });
  }
}
