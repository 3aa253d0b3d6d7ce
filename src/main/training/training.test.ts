import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { runImport } from '../engine/work';
import { Engine } from '../engine/engine';
import { main } from '../cli/index';
import { dataset } from '../../../tests/datasets';
import { decodeSavedModel, encodeSavedModel } from './model-bytes';
import { findModel, listModels } from './store';
import { scorePool, trainModel, defaultWorkerPath } from './train';
import { buildTrainingData, buildDevSet } from './data';
import { loadModel, initBackend } from '../models';
import type { JobDone, ModelsView, PoolEvaluation, TrainProgressEvent } from '../../shared/contract';

const DEV = dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');
let dir: string;
let file: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-train-'));
  file = path.join(dir, 't.qpairs');
  const ws = Workspace.create(file);
  await runImport(ws, 'semeval', [DEV], { pool: 'dev' });
  ws.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('model store', () => {
  it('encodes a saved model to a BLOB and back bit for bit', () => {
    const w = new Float32Array([1.5, -2.25, Math.PI, 1e-30, Number.MIN_VALUE]);
    const saved = { format: 1 as const, kind: 'tfidf' as const, config: { a: 1 }, vocab: ['x', 'y'], meta: { m: true }, weights: { w: { shape: [5], data: w }, e: { shape: [0], data: new Float32Array(0) } } };
    const back = decodeSavedModel(encodeSavedModel(saved));
    expect(back.config).toEqual(saved.config);
    expect(back.vocab).toEqual(saved.vocab);
    expect(Array.from(back.weights.w!.data)).toEqual(Array.from(w));
    expect(back.weights.e!.shape).toEqual([0]);
  });
});

describe('training on the workspace', () => {
  it('builds training data from pool labels and duplicates, and a dev set', async () => {
    const ws = Workspace.open(file);
    const t = buildTrainingData(ws, ['dev']);
    expect(t.positives).toBe(214); // PerfectMatch + Relevant pairs of SemEval dev
    expect(t.negatives).toBe(286);
    expect(t.data.runs?.['search-engine']?.size).toBe(50);
    const dev = buildDevSet(ws, 'dev');
    expect(dev.queries).toHaveLength(50);
    expect(dev.queries.reduce((s, q) => s + q.relevant.size, 0)).toBe(214);
    await expect(trainModel(ws, { model: 'ltr', name: 'x' }, { workerPath: null })).rejects.toThrow(/no user-marked duplicate pairs/);
    ws.close();
  });

  it('trains in this thread, stores the model, reloads it to identical scores and scores a pool as a run', async () => {
    const ws = Workspace.open(file);
    const { report } = await trainModel(ws, { model: 'tfidf', name: 'tfidf-a', trainPools: ['dev'], devPool: 'dev', seed: 3, keepOverlap: true }, { workerPath: null });
    expect(report.kind).toBe('tfidf');
    const stored = findModel(ws, 'tfidf-a')!;
    expect(stored.info.training).toMatchObject({ trainPools: ['dev'], devPool: 'dev', positives: 214 });
    await initBackend();
    const items = buildDevSet(ws, 'dev').queries.slice(0, 3);
    const m1 = await loadModel(stored.saved);
    const m2 = await loadModel(findModel(ws, 'tfidf-a')!.saved);
    for (const q of items) expect(m1.score(q.query, q.candidates, q.context)).toEqual(m2.score(q.query, q.candidates, q.context));
    m1.dispose();
    m2.dispose();
    const r = await scorePool(ws, 'tfidf-a', 'dev', { workerPath: null });
    expect(r).toMatchObject({ queries: 50, pairs: 500 });
    expect(ws.listRuns('dev').map((x) => x.name)).toEqual(['search-engine', 'tfidf-a']);
    await expect(trainModel(ws, { model: 'tfidf', name: 'search-engine' }, { workerPath: null })).rejects.toThrow(/already a run/);
    await expect(trainModel(ws, { model: 'nope', name: 'n' }, { workerPath: null })).rejects.toThrow(/unknown model/);
    ws.close();
  });

  it('trains through the CLI in the worker thread, and eval reports the model', async () => {
    expect(defaultWorkerPath()).toMatch(/train-worker\.mjs$/);
    let out = '';
    let err = '';
    const io = { log: (s: string) => (out += s + '\n'), err: (s: string) => (err += s + '\n') };
    const code = await main(['train', file, '--model', 'ltr', '--name', 'ltr-cli', '--train-pool', 'dev', '--dev-pool', 'dev', '--keep-overlap', '--epochs', '2', '--json'], io);
    expect(code, err).toBe(0);
    const res = JSON.parse(out);
    expect(res).toMatchObject({ name: 'ltr-cli', model: 'ltr', scored: [{ pool: 'dev', pairs: 500 }] });
    expect(res.report.history).toHaveLength(2);
    out = '';
    expect(await main(['eval', file, '--pool', 'dev', '--convention', 'zero', '--json'], io)).toBe(0);
    const ev = JSON.parse(out);
    expect(Object.keys(ev.runs)).toEqual(expect.arrayContaining(['search-engine', 'ltr-cli']));
    expect(ev.runs['ltr-cli'].queries).toBe(50);
    out = '';
    expect(await main(['score', file, '--model', 'ltr-cli', '--pool', 'dev', '--json'], io)).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ queries: 50, pairs: 500 });
    out = '';
    expect(await main(['models', 'list', file, '--json'], io)).toBe(0);
    expect(JSON.parse(out).models.map((m: { name: string }) => m.name)).toEqual(expect.arrayContaining(['tfidf-a', 'ltr-cli']));
  });

  it('trains from the engine as a job with progress events, then scores every pool', async () => {
    const ws = Workspace.open(file);
    const engine = new Engine(ws, { transport: 'http' });
    const progress: TrainProgressEvent[] = [];
    engine.on('train.progress', (p) => progress.push(p));
    const done = new Promise<JobDone>((resolve) => engine.on('job.done', (d) => d.kind === 'train' && resolve(d)));
    const { jobId } = (await engine.invoke('models.train', { model: 'tfidf', name: 'tfidf-ui', trainPools: ['dev'], devPool: 'dev', keepOverlap: true })) as { jobId: string };
    const d = await done;
    expect(d.jobId).toBe(jobId);
    expect(d.ok, d.error).toBe(true);
    expect(progress.length).toBeGreaterThan(0);
    const view = (await engine.invoke('models.list', {})) as ModelsView;
    expect(['wasm', 'cpu', 'tensorflow']).toContain(view.backend);
    expect(view.models.map((m) => m.name)).toContain('tfidf-ui');
    const ev = (await engine.invoke('eval.pool', { pool: 'dev', convention: 'zero' })) as PoolEvaluation;
    expect(ev.runs['tfidf-ui']?.queries).toBe(50);
    await expect(engine.invoke('models.train', { model: 'tfidf', name: 'bad name!' })).rejects.toMatchObject({ code: 'invalid-argument' });
    expect(listModels(ws).length).toBeGreaterThanOrEqual(3);
    engine.close();
  });

  it('takes model settings from the app as the CLI takes --config: checked before a job starts, kept with the model', async () => {
    const ws = Workspace.open(file);
    const engine = new Engine(ws, { transport: 'http' });
    const before = (await engine.invoke('models.list', {})) as ModelsView;
    // Every kind offers its settings with their defaults (what the form shows and config may set).
    expect(Object.keys(before.settings).sort()).toEqual([...before.kinds].sort());
    expect(before.settings.tfidf).toMatchObject({ maxN: 3, minDf: 2 });
    // A misspelt key or a wrong type is refused at once, naming it: no job, no model.
    const jobs: string[] = [];
    engine.on('job.progress', (p) => jobs.push(p.jobId));
    await expect(engine.invoke('models.train', { model: 'tfidf', name: 'tfidf-cfg', trainPools: ['dev'], config: { maxn: 2 } })).rejects.toThrow(/no setting "maxn"/);
    await expect(engine.invoke('models.train', { model: 'tfidf', name: 'tfidf-cfg', trainPools: ['dev'], config: { minDf: 'abc' } })).rejects.toThrow(/"minDf" must be a number/);
    expect(jobs).toEqual([]);
    expect(findModel(ws, 'tfidf-cfg')).toBeNull();
    const done = new Promise<JobDone>((resolve) => engine.on('job.done', (d) => d.kind === 'train' && resolve(d)));
    await engine.invoke('models.train', { model: 'tfidf', name: 'tfidf-cfg', trainPools: ['dev'], config: { maxN: 1 } });
    const d = await done;
    expect(d.ok, d.error).toBe(true);
    // The setting reached the model, and the model says which settings it was trained with.
    expect(findModel(ws, 'tfidf-cfg')!.saved.config).toMatchObject({ maxN: 1, minDf: 2 });
    const listed = ((await engine.invoke('models.list', {})) as ModelsView).models.find((m) => m.name === 'tfidf-cfg')!;
    expect(listed.training.config).toEqual({ maxN: 1 });
    expect(((await engine.invoke('models.list', {})) as ModelsView).models.find((m) => m.name === 'tfidf-ui')!.training.config).toBeUndefined();
    engine.close();
    // `qpairs models list` names them too.
    let out = '';
    expect(await main(['models', 'list', file], { log: (s: string) => (out += s + '\n'), err: () => {} })).toBe(0);
    expect(out.split('\n').find((l) => l.startsWith('tfidf-cfg'))).toMatch(/tfidf-cfg\s+tfidf\s+js\s+maxN 1\s/);
    expect(out.split('\n').find((l) => l.startsWith('tfidf-ui'))).toMatch(/tfidf-ui\s+tfidf\s+js\s+default settings\s/);
  });
});

describe('fused feature importance and a model without features', () => {
  it('stores the fused ranker\'s permutation importance with the model and lists it', async () => {
    const ws = Workspace.open(file);
    const { training } = await trainModel(ws, { model: 'fused', name: 'fused-imp', trainPools: ['dev'], seed: 2 }, { workerPath: null });
    const stored = findModel(ws, 'fused-imp')!;
    expect(training.importance?.length).toBe((stored.saved.meta!.featureNames as string[]).length);
    expect(stored.info.training.importance).toEqual(stored.saved.meta!.importance);
    expect(training.importance!.map((x) => x.feature)).toContain('tfidf:cos');
    expect(listModels(ws).find((m) => m.name === 'fused-imp')?.training.importance).toEqual(training.importance);
    // The ltr model trained on these queries earlier: its run is in-sample here, so it is no feature;
    // tfidf's (no labels read) and the search engine's stay.
    expect(training.inSampleRunsLeftOut?.map((r) => r.run)).toContain('ltr-cli');
    const runNames = stored.saved.meta!.runNames as string[];
    expect(runNames).not.toContain('ltr-cli');
    expect(runNames).toEqual(expect.arrayContaining(['search-engine', 'tfidf-a']));
    ws.close();
  });

  it('refuses an ltr configuration that leaves no features, and stores nothing', async () => {
    const ws = Workspace.open(file);
    const before = listModels(ws).length;
    await expect(
      trainModel(ws, { model: 'ltr', name: 'ltr-empty', trainPools: ['dev'], config: { runs: [], lexical: false, overlap: false, embedding: false, chars: false } }, { workerPath: null }),
    ).rejects.toThrow(/ltr: this configuration leaves no features/);
    expect(listModels(ws).length).toBe(before);
    expect(findModel(ws, 'ltr-empty')).toBeNull();
    ws.close();
  });
});

describe('out-of-fold runs from --cv', () => {
  it('a cross-validated model scores its training queries out of fold: no overlap mark, and a fair feature for fused', async () => {
    const ws = Workspace.open(file);
    await trainModel(ws, { model: 'ltr', name: 'ltr-oof', trainPools: ['dev'], epochs: 20, cv: { folds: 2 }, config: { embedding: false } }, { workerPath: null });
    const stored = findModel(ws, 'ltr-oof')!;
    const oof = stored.saved.meta!.outOfFold as Record<string, Record<string, number>>;
    expect(Object.keys(oof)).toHaveLength(50);
    await scorePool(ws, 'ltr-oof', 'dev', { workerPath: null });
    expect(ws.outOfFoldQueries('dev', 'ltr-oof').size).toBe(50);
    // The run holds the fold models' scores, not the final model's.
    const run = ws.runScores(ws.listRuns('dev').find((r) => r.name === 'ltr-oof')!.id);
    const q = Object.keys(oof)[0]!;
    for (const [c, v] of Object.entries(oof[q]!)) expect(run.get(q)!.get(c)).toBeCloseTo(v, 5);
    await initBackend();
    const m = await loadModel(stored.saved);
    const items = buildDevSet(ws, 'dev').queries.filter((x) => x.query.id === q);
    const own = m.score(items[0]!.query, items[0]!.candidates, items[0]!.context);
    m.dispose();
    expect(items[0]!.candidates.some((c, i) => Math.abs(own[i]! - oof[q]![c.id]!) > 1e-6)).toBe(true);
    // Evaluated on dev, the run is not marked as trained on its queries; fused may take it as a feature.
    const engine = new Engine(ws, { transport: 'http' });
    const ev = (await engine.invoke('eval.pool', { pool: 'dev', convention: 'zero' })) as PoolEvaluation;
    expect(ev.runs['ltr-oof']?.overlap).toMatchObject({ trainedOn: 0, of: 50 });
    expect(ev.runs['ltr-cli']?.overlap?.trainedOn).toBe(50);
    const { inSampleModelRuns } = await import('./train');
    const left = inSampleModelRuns(ws, ['dev'], buildDevSet(ws, 'dev').queries.map((x) => x.query.id)).map((r) => r.run);
    expect(left).toContain('ltr-cli');
    expect(left).not.toContain('ltr-oof');
    engine.close();
  });
});

describe('in-sample feature runs over several training pools', () => {
  it('counts a left-out run\'s training queries over every training pool, not the first pool\'s share', async () => {
    const f = path.join(dir, 'two-pools.qpairs');
    const ws0 = Workspace.create(f);
    await runImport(ws0, 'semeval', [DEV], { pool: 'dev' });
    await runImport(ws0, 'semeval', [dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-train-part2.xml')], { pool: 'train2' });
    ws0.close();
    const ws = Workspace.open(f);
    await trainModel(ws, { model: 'ltr', name: 'ltr-both', trainPools: ['dev', 'train2'], epochs: 1, config: { embedding: false } }, { workerPath: null });
    for (const p of ['dev', 'train2']) await scorePool(ws, 'ltr-both', p, { workerPath: null });
    const ids = [...buildDevSet(ws, 'dev').queries, ...buildDevSet(ws, 'train2').queries].map((x) => x.query.id);
    expect(ids).toHaveLength(117);
    const { inSampleModelRuns } = await import('./train');
    // ltr-both learned from the 93 queries with a relevant and a non-relevant candidate: 39 of dev's, 54 of train2's.
    const { modelOverlap } = await import('./trained-on');
    expect(modelOverlap(ws, 'ltr-both', ids.slice(0, 50))?.trainedOn).toBe(39);
    expect(modelOverlap(ws, 'ltr-both', ids.slice(50))?.trainedOn).toBe(54);
    expect(inSampleModelRuns(ws, ['dev', 'train2'], ids)).toEqual([{ run: 'ltr-both', trainedOn: 93 }]);
    expect(inSampleModelRuns(ws, ['train2', 'dev'], ids)).toEqual([{ run: 'ltr-both', trainedOn: 93 }]);
    ws.close();
  });
});

describe('the CLI builds the model the app builds', () => {
  it('train --model dae scores every pool, so a following train --model fused on another pool takes the dae run as a feature', async () => {
    const f = path.join(dir, 'cli-recipe.qpairs');
    const ws0 = Workspace.create(f);
    await runImport(ws0, 'semeval', [DEV], { pool: 'dev' });
    await runImport(ws0, 'semeval', [dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-train-part1.v2.0.xml')], { pool: 'train1' });
    ws0.close();
    let err = '';
    let out = '';
    const io = { log: (s: string) => (out += s + '\n'), err: (s: string) => (err += s + '\n') };
    expect(await main(['train', f, '--model', 'dae', '--name', 'dae', '--train-pool', 'dev', '--dev-pool', 'dev', '--keep-overlap', '--epochs', '1'], io), err).toBe(0);
    expect(out).toMatch(/scored all 2 pools: dev \(500 pairs\), train1 \(\d+ pairs\) as run "dae"/);
    const ws = Workspace.open(f);
    expect(ws.listRuns('train1').map((r) => r.name)).toContain('dae');
    ws.close();
    out = '';
    expect(await main(['train', f, '--model', 'fused', '--name', 'fused-dae', '--train-pool', 'train1', '--json'], io), err).toBe(0);
    const fused = Workspace.open(f);
    const runNames = findModel(fused, 'fused-dae')!.saved.meta!.runNames as string[];
    expect(runNames).toContain('dae');
    expect(JSON.parse(out).training.importance.map((x: { feature: string }) => x.feature).join(' ')).toMatch(/dae/);
    fused.close();
  }, 180_000);
});

describe('deleting a model', () => {
  it('removes the model and the runs it scored, not other runs', async () => {
    const ws = Workspace.open(file);
    await trainModel(ws, { model: 'tfidf', name: 'tfidf-del', trainPools: ['dev'] }, { workerPath: null });
    await scorePool(ws, 'tfidf-del', 'dev', { workerPath: null });
    expect(ws.listRuns('dev').map((r) => r.name)).toContain('tfidf-del');
    const { deleteModelAndRuns } = await import('./train');
    expect(await deleteModelAndRuns(ws, 'tfidf-del')).toBe(true);
    expect(findModel(ws, 'tfidf-del')).toBeNull();
    expect(ws.listRuns('dev').map((r) => r.name)).not.toContain('tfidf-del');
    expect(ws.listRuns('dev').map((r) => r.name)).toContain('search-engine');
    expect(await deleteModelAndRuns(ws, 'tfidf-del')).toBe(false);
    ws.close();
  });
});

describe('word2vec vectors', () => {
  it('imports text vectors as a skipgram model, and passes them to other models as embeddings', async () => {
    const { writeFileSync } = await import('node:fs');
    const vec = path.join(dir, 'vectors.txt');
    // Tiny vectors: "visa" and "permit" close, "beach" far.
    writeFileSync(vec, '3 2\nvisa 1 0\npermit 0.9 0.1\nbeach 0 1\n');
    let out = '';
    let err = '';
    const io = { log: (s: string) => (out += s + '\n'), err: (s: string) => (err += s + '\n') };
    expect(await main(['train', file, '--model', 'skipgram', '--name', 'w2v', '--vectors', vec, '--dev-pool', 'dev', '--json'], io), err).toBe(0);
    const res = JSON.parse(out);
    expect(res.report.notes[0]).toMatch(/imported 3 word vectors \(dim 2\)/);
    expect(res.training.vectors).toBe(vec);
    const ws = Workspace.open(file);
    const m = await loadModel(findModel(ws, 'w2v')!.saved);
    const [visaPermit, visaBeach] = m.score({ id: 'q', title: 'visa', body: '' }, [
      { id: 'a', title: 'permit', body: '' },
      { id: 'b', title: 'beach', body: '' },
    ]);
    expect(visaPermit!).toBeGreaterThan(visaBeach!);
    m.dispose();
    ws.close();
    out = '';
    expect(await main(['train', file, '--model', 'ltr', '--name', 'ltr-w2v', '--train-pool', 'dev', '--epochs', '1', '--vectors', vec, '--json'], io), err).toBe(0);
    expect(JSON.parse(out).training.vectors).toBe(vec);
    const bad = await main(['train', file, '--model', 'skipgram', '--name', 'w2v-bad', '--vectors', path.join(dir, 'missing.txt')], io);
    expect(bad).toBe(1);
    expect(err).toMatch(/--vectors .*missing\.txt: cannot read the file: no such file \(ENOENT\)/);
  });
});
