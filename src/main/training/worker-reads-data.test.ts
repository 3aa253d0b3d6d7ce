/**
 * Training on a workspace file: the worker reads every question's and answer's text on its own
 * connection; the engine's thread (which acknowledges labels) reads only the labeled pairs. On a
 * workspace of 100,000 questions that read held every label up for ~2.5 s. Same model either way.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Workspace } from '../workspace/workspace';
import { runImport } from '../engine/work';
import { dataset } from '../../../tests/datasets';
import { findModel } from './store';
import { prepareTraining, scorePool, trainModel } from './train';
import { CancelledError, QPairsError } from '../errors';
import { retrainLive } from './live-retrain';

/** Every message a model worker thread sends (node:worker_threads' Worker, subclassed only to record them). */
const fromWorkers = vi.hoisted(() => [] as Array<{ type: string } & Record<string, unknown>>);
vi.mock('node:worker_threads', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:worker_threads')>();
  class Worker extends real.Worker {
    constructor(...args: ConstructorParameters<typeof real.Worker>) {
      super(...args);
      this.on('message', (m) => fromWorkers.push(m));
    }
  }
  return { ...real, Worker, default: { ...real, Worker } };
});

const here = path.dirname(fileURLToPath(import.meta.url));
const DEV = dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');
let dir: string;
let file: string;
let workerPath: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-worker-reads-'));
  file = path.join(dir, 't.qpairs');
  // Inside the checkout, where the bundle finds its packages (node_modules).
  workerPath = path.resolve(here, '../../../out/test-training/train-worker.mjs');
  await build({ entryPoints: [path.join(here, 'train-worker.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: workerPath, logLevel: 'warning' });
  const ws = Workspace.create(file);
  await runImport(ws, 'semeval', [DEV], { pool: 'dev' });
  ws.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Opens the workspace with every statement its connection prepares recorded. */
function recorded(): { ws: Workspace; sql: string[] } {
  const ws = Workspace.open(file);
  const sql: string[] = [];
  const prepare = ws.db.prepare.bind(ws.db);
  ws.db.prepare = ((s: string) => (sql.push(s), prepare(s))) as typeof ws.db.prepare;
  return { ws, sql };
}
const readsText = (sql: string[]): string[] => sql.filter((s) => /FROM questions ORDER BY doc|FROM answers/.test(s));
/** Scoring's reads: the pool's lists, the candidates' texts, the pool's runs, the model. */
const readsPool = (sql: string[]): string[] =>
  sql.filter((s) => !/^\s*DELETE/.test(s) && /c.candidate_id FROM pool_queries|FROM questions WHERE id|FROM run_scores WHERE run_id|SELECT name, kind, created, report, training, saved FROM models/.test(s));
/** A run's stored scores as sorted [query, candidate, score] rows. */
/** A stored model's bytes, as the workspace holds them. */
const storedBytes = (ws: Workspace, name: string): Buffer => ws.db.prepare(`SELECT saved FROM models WHERE name = ?`).pluck().get(name) as Buffer;
function storedRun(ws: Workspace, pool: string, name: string): Array<[string, string, number]> {
  const run = ws.listRuns(pool).find((r) => r.name === name)!;
  const rows = [...ws.runScores(run.id)].flatMap(([q, m]) => [...m].map(([c, v]) => [q, c, v] as [string, string, number]));
  return rows.sort((a, b) => (a[0] + ' ' + a[1] < b[0] + ' ' + b[1] ? -1 : 1));
}

describe('the training data is read by the worker', () => {
  it('trains the same model with the same figures, the engine connection never reading the questions or answers', async () => {
    const spec = { model: 'tfidf', trainPools: ['dev'], seed: 3 };
    const inThread = recorded();
    await trainModel(inThread.ws, { ...spec, name: 'here' }, { workerPath: null });
    // The spy sees the read where it happens.
    expect(readsText(inThread.sql).length).toBeGreaterThan(0);
    inThread.ws.close();

    const engine = recorded();
    const phases: string[] = [];
    // The training queries' texts are fingerprinted where they were read too: the engine reads
    // questions for its checks only (prepareTraining), not again for the model's record.
    const texts = vi.spyOn(engine.ws, 'getQuestion');
    prepareTraining(engine.ws, { ...spec, name: 'there' });
    const checks = texts.mock.calls.length;
    texts.mockClear();
    await trainModel(engine.ws, { ...spec, name: 'there' }, { workerPath, onProgress: (p) => phases.push(p.phase ?? '') });
    expect(texts.mock.calls.length).toBe(checks);
    texts.mockRestore();
    expect(readsText(engine.sql)).toEqual([]);
    expect(phases[0]).toBe('reading the questions and answers');
    const a = findModel(engine.ws, 'here')!;
    const b = findModel(engine.ws, 'there')!;
    expect(b.info.training).toEqual(a.info.training);
    expect(b.info.training).toMatchObject({ positives: 214, negatives: 286 });
    expect(b.info.training?.questions).toBeGreaterThan(0);
    expect(b.saved.vocab).toEqual(a.saved.vocab);
    for (const [k, t] of Object.entries(a.saved.weights)) expect(Array.from(b.saved.weights[k]!.data)).toEqual(Array.from(t.data));
    // The same record of the training queries (ids, text keys, near-duplicate signatures).
    const record = (name: string): unknown[] =>
      engine.ws.db.prepare(`SELECT query_id, text_hash, hex(signature) AS sig FROM model_trained_on WHERE model = (SELECT id FROM models WHERE name = ?) ORDER BY query_id`).all(name);
    expect(record('there')).toEqual(record('here'));
    expect(record('there').length).toBeGreaterThan(20);
    engine.ws.close();
  });

  it('the worker hands the model over encoded as it is stored: the engine only writes those bytes, the same as in-thread training stores', async () => {
    // ltr with --cv: its stored meta has the out-of-fold scores added to the model's own.
    const spec = { model: 'ltr', trainPools: ['dev'], epochs: 3, seed: 2, cv: { folds: 2 }, config: { embedding: false } };
    const inThread = recorded();
    await trainModel(inThread.ws, { ...spec, name: 'enc-here' }, { workerPath: null });
    inThread.ws.close();
    const engine = recorded();
    fromWorkers.length = 0;
    await trainModel(engine.ws, { ...spec, name: 'enc-there' }, { workerPath });
    const here = storedBytes(engine.ws, 'enc-here');
    const there = storedBytes(engine.ws, 'enc-there');
    expect(findModel(engine.ws, 'enc-there')!.saved.meta?.outOfFold).toBeDefined();
    expect(there.equals(here)).toBe(true);
    // The CV folds' models come back as models (they score held-out folds); the final one as the stored bytes.
    const done = fromWorkers.filter((m) => m.type === 'done');
    expect(done.length).toBe(3);
    const last = done.at(-1)!;
    expect(last.saved).toBeUndefined();
    const encoded = last.encoded as { kind: string; bytes: Uint8Array };
    expect(encoded.kind).toBe('ltr');
    expect(Buffer.from(encoded.bytes).equals(there)).toBe(true);
    expect(done.slice(0, -1).every((m) => m.saved !== undefined && m.encoded === undefined)).toBe(true);
    engine.ws.close();
  });

  it('live retraining: the folds and the final model read the text in the worker, with the same scores', async () => {
    const spec = { model: 'tfidf' as const, trainPools: [] as string[], folds: 3, runName: 'live-tfidf' };
    const inThread = recorded();
    const here = await retrainLive(inThread.ws, 'dev', spec, { workerPath: null });
    expect(readsText(inThread.sql).length).toBeGreaterThan(0);
    inThread.ws.close();
    const engine = recorded();
    const there = await retrainLive(engine.ws, 'dev', spec, { workerPath });
    expect(readsText(engine.sql)).toEqual([]);
    expect(there.MAP).toBe(here.MAP);
    expect([...there.scores].map(([q, m]) => [q, [...m]])).toEqual([...here.scores].map(([q, m]) => [q, [...m]]));
    engine.ws.close();
  });

  it('live retraining: the folds are prepared and each model scores its queries in a worker; the engine reads no text, run or list, and the result is the same', async () => {
    // ltr without embeddings: it takes the pool's runs as features, so the runs read where it scores count.
    const spec = { model: 'ltr' as const, config: { embedding: false, epochs: 20 }, trainPools: [] as string[], folds: 3, runName: 'live-ltr' };
    // Read and scored on this thread: as every retrain did before the worker scored.
    const inThread = recorded();
    const here = await retrainLive(inThread.ws, 'dev', spec, { workerPath: null });
    inThread.ws.close();
    const engine = recorded();
    const texts = vi.spyOn(engine.ws, 'getQuestion');
    const runs = vi.spyOn(engine.ws, 'runScores');
    const lists = vi.spyOn(engine.ws, 'poolQueries');
    fromWorkers.length = 0;
    const there = await retrainLive(engine.ws, 'dev', spec, { workerPath });
    // The engine reads no query's or candidate's text, no run's scores, not the pool's lists: the
    // folds, labeled pairs and checks are prepared in a worker too.
    expect(texts).not.toHaveBeenCalled();
    expect(runs).not.toHaveBeenCalled();
    expect(lists).not.toHaveBeenCalled();
    expect(fromWorkers.filter((m) => m.type === 'live-prepared').length).toBe(1);
    texts.mockRestore();
    runs.mockRestore();
    lists.mockRestore();
    // No model crossed to this thread, nor back to a worker to be scored: each training's worker scored.
    expect(fromWorkers.filter((m) => m.type === 'scored')).toEqual([]);
    const done = fromWorkers.filter((m) => m.type === 'done');
    expect(done.length).toBe(4);
    expect(done.every((m) => m.scored !== undefined && m.saved === undefined && m.encoded === undefined)).toBe(true);
    // The same run (scores in the same order), curve point figures and counts.
    expect(there.heldOutQueries).toBeGreaterThan(20);
    expect({ ...there, seconds: 0 }).toEqual({ ...here, seconds: 0 });
    expect([...there.scores].map(([q, m]) => [q, [...m]])).toEqual([...here.scores].map(([q, m]) => [q, [...m]]));
    engine.ws.close();
  });

  it('live retraining with too few labels is refused from the worker as it is on this thread: a QPairsError, reason too few labels', async () => {
    const engine = recorded();
    engine.ws.createPool({ name: 'few', scheme: 'binary' });
    const [a, b] = engine.ws.poolQueries('dev');
    engine.ws.addPoolQuery('few', a!.queryId, a!.candidates.slice(0, 2));
    engine.ws.addPoolQuery('few', b!.queryId, b!.candidates.slice(0, 2));
    for (const c of a!.candidates.slice(0, 2)) engine.ws.addLabel({ pool: 'few', queryId: a!.queryId, candidateId: c, annotator: 'gold', value: '1', origin: 'test' });
    const spec = { model: 'tfidf' as const, trainPools: [] as string[], runName: 'live-tfidf' };
    const here = await retrainLive(engine.ws, 'few', spec, { workerPath: null }).catch((e: unknown) => e);
    const there = await retrainLive(engine.ws, 'few', spec, { workerPath }).catch((e: unknown) => e);
    expect(here).toBeInstanceOf(QPairsError);
    expect(there).toBeInstanceOf(QPairsError);
    expect((there as QPairsError).message).toBe((here as QPairsError).message);
    expect((there as QPairsError).message).toMatch(/needs at least 2 fully labeled queries in pool "few" \(it has 1\)/);
    expect(there).toMatchObject({ details: { reason: 'too few labels' } });
    engine.ws.close();
  });

  it('live retraining in the worker is cancelled by its signal while its folds are prepared, while a model trains and while it scores', async () => {
    const engine = recorded();
    // While the folds are prepared (before any training).
    fromWorkers.length = 0;
    const preparing = new AbortController();
    const p0 = retrainLive(engine.ws, 'dev', { model: 'tfidf', trainPools: [], folds: 3, runName: 'live-tfidf' }, { workerPath, signal: preparing.signal });
    preparing.abort();
    await expect(p0).rejects.toBeInstanceOf(CancelledError);
    expect(fromWorkers.filter((m) => m.type === 'live-prepared' || m.type === 'progress')).toEqual([]);
    for (const at of ['fold 1/3: reading', 'fold 2/3: scoring', 'final model: scoring']) {
      const ac = new AbortController();
      const phases: string[] = [];
      const onProgress = (p: { phase?: string }): void => {
        phases.push(p.phase ?? '');
        if (p.phase?.startsWith(at)) ac.abort();
      };
      const p = retrainLive(engine.ws, 'dev', { model: 'tfidf', trainPools: [], folds: 3, runName: 'live-tfidf' }, { workerPath, signal: ac.signal, onProgress });
      await expect(p).rejects.toBeInstanceOf(CancelledError);
      expect(phases.at(-1)).toMatch(new RegExp(`^${at}`));
    }
    engine.ws.close();
  });

  it('scoring a pool after training: the worker reads the lists and texts, the engine connection only stores the same scores', async () => {
    const trained = recorded();
    await trainModel(trained.ws, { model: 'tfidf', trainPools: ['dev'], seed: 3, name: 'sc' }, { workerPath: null });
    trained.ws.close();

    const inThread = recorded();
    const here = await scorePool(inThread.ws, 'sc', 'dev', { workerPath: null });
    // The spy sees the reads where they happen.
    expect(readsPool(inThread.sql).length).toBeGreaterThan(0);
    const hereRows = storedRun(inThread.ws, 'dev', 'sc');
    inThread.ws.close();

    const engine = recorded();
    let writes = 0;
    const there = await scorePool(engine.ws, 'sc', 'dev', { workerPath, write: async (f) => (writes++, f()) });
    expect(readsPool(engine.sql)).toEqual([]);
    // The model checked, the run staged, its one chunk of scores, the swap, the old run's scores deleted (Workspace.replaceRunInChunks).
    expect(writes).toBe(5);
    expect(there).toEqual({ ...here, backend: 'worker' });
    expect(there.pairs).toBe(500);
    engine.sql.length = 0;
    expect(storedRun(engine.ws, 'dev', 'sc')).toEqual(hereRows);
    engine.ws.close();
  });

  it('scoring a pool in the worker is cancelled by its signal, and stores nothing', async () => {
    const engine = recorded();
    const before = storedRun(engine.ws, 'dev', 'sc');
    engine.ws.replaceRun('dev', 'sc', 'model', { model: 'sc', kind: 'tfidf' }, before.slice(0, 10));
    const ac = new AbortController();
    const p = scorePool(engine.ws, 'sc', 'dev', { workerPath, signal: ac.signal });
    ac.abort();
    await expect(p).rejects.toBeInstanceOf(CancelledError);
    expect(storedRun(engine.ws, 'dev', 'sc')).toEqual(before.slice(0, 10));
    engine.ws.close();
  });
});
