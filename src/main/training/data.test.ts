import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import { importFiles } from '../import';
import { dataset } from '../../../tests/datasets';
import { answerTexts, buildTrainingData, EXTRA_TEXT_LIMITS, poolGrades, scoringItems, trainingDevSet, trainingQueries } from './data';
import { trainModel } from './train';
import { findModel } from './store';
import { main } from '../cli/index';
import { importSyntheticPool, importSyntheticQuestions } from './test-corpus';

const DEV = dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');
let dir: string;
let ws: Workspace;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-data-'));
  ws = Workspace.create(path.join(dir, 'd.qpairs'));
  await importFiles(ws, 'semeval', [DEV], { pool: 'dev' });
});
afterAll(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The cases with a workspace of their own: a new folder each, its workspaces closed and removed after the case. */
const scratch = scratchWorkspaces('qpairs-data-case-');

/** A workspace of the 30 synthetic questions q0…q29 (as test-corpus's syntheticWorkspace) in this case's scratch folder. */
async function syntheticScratch(): Promise<{ dir: string; ws: Workspace }> {
  const w = scratch.fresh('w');
  await importSyntheticQuestions(w, scratch.dir);
  return { dir: scratch.dir, ws: w };
}

describe('answers as unlabeled text', () => {
  it('passes the workspace answers (SemEval comments) as extraTexts, in import order', () => {
    const built = buildTrainingData(ws, ['dev']);
    expect(built.extraTexts).toBe(5000);
    expect(built.extraTextsLeftOut).toBe(0);
    const extra = built.data.extraTexts!;
    expect(extra).toHaveLength(5000);
    expect(extra).toEqual(ws.db.prepare(`SELECT body FROM answers ORDER BY rowid`).pluck().all());
    // Questions stay the questions: comments are not candidates or random negatives.
    expect(built.data.questions.size).toBe(550);
    expect(built.data.randomPool).toHaveLength(550);
  });

  it('bounds them by count and by characters (a text past the character bound ends the list)', () => {
    const all = ws.db.prepare(`SELECT body FROM answers ORDER BY rowid`).pluck().all() as string[];
    expect(answerTexts(ws, { maxTexts: 10 }).texts).toEqual(all.slice(0, 10));
    expect(answerTexts(ws, { maxTexts: 10 }).leftOut).toBe(4990);
    const chars = all[0]!.length + all[1]!.length + all[2]!.length;
    expect(answerTexts(ws, { maxChars: chars }).texts).toEqual(all.slice(0, 3));
    expect(answerTexts(ws, { maxChars: chars - 1 }).texts).toEqual(all.slice(0, 2));
    expect(answerTexts(ws, { maxTexts: 0 })).toEqual({ texts: [], leftOut: 5000 });
    expect(buildTrainingData(ws, ['dev'], { extraTexts: { maxTexts: 0 } }).data.extraTexts).toBeUndefined();
    expect(EXTRA_TEXT_LIMITS.maxChars).toBeGreaterThan(all.reduce((s, t) => s + t.length, 0));
  });

  it('records how many answers a model was trained with', async () => {
    await trainModel(ws, { model: 'tfidf', name: 'tf', trainPools: ['dev'], extraTexts: { maxTexts: 123 } }, { workerPath: null });
    expect(findModel(ws, 'tf')!.info.training.extraTexts).toBe(123);
  });

  it('the CLI bounds them with --max-extra-texts / --max-extra-chars', async () => {
    let out = '';
    let err = '';
    const io = { log: (x: string) => (out += x + '\n'), err: (x: string) => (err += x + '\n') };
    const file = ws.path;
    ws.close();
    try {
      expect(await main(['train', file, '--model', 'tfidf', '--name', 'tf-cli', '--train-pool', 'dev', '--max-extra-texts', '7', '--json'], io), err).toBe(0);
      expect(JSON.parse(out).training.extraTexts).toBe(7);
      out = '';
      expect(await main(['train', file, '--model', 'tfidf', '--name', 'tf-cli2', '--train-pool', 'dev', '--max-extra-chars', '0'], io), err).toBe(0);
      expect(out).toMatch(/0 answers as unlabeled text/);
      expect(await main(['train', file, '--model', 'tfidf', '--name', 'tf-cli3', '--max-extra-texts', '-1'], io)).toBe(2);
    } finally {
      ws = Workspace.open(file);
    }
  });

  it('the answers reach the models: skip-gram learns words only the comments have', async () => {
    const spec = { model: 'skipgram', trainPools: ['dev'], epochs: 1 };
    await trainModel(ws, { ...spec, name: 'sg-q', extraTexts: { maxTexts: 0 } }, { workerPath: null });
    await trainModel(ws, { ...spec, name: 'sg-qa' }, { workerPath: null });
    const without = new Set(findModel(ws, 'sg-q')!.saved.vocab);
    const withAnswers = new Set(findModel(ws, 'sg-qa')!.saved.vocab);
    expect(findModel(ws, 'sg-qa')!.info.training.extraTexts).toBe(5000);
    expect(withAnswers.size).toBeGreaterThan(2 * without.size);
    expect([...without].every((w) => withAnswers.has(w))).toBe(true);
  });
});

describe('some of a pool\'s queries to score', () => {
  it('a held-out fold\'s are its dev set\'s: the same texts, candidates and run context, in the fold\'s order (what a live retrain\'s fold model scores where it trained)', () => {
    const queries = trainingQueries(ws, ['dev']);
    const fold = [queries[5]!, queries[2]!, queries[9]!];
    const excludeRuns = new Set(['live-ltr']);
    const dev = trainingDevSet(ws, fold, { excludeRuns });
    const items = scoringItems(ws, 'dev', { only: fold.map((q) => q.id), excludeRuns });
    expect(items.map((it) => ({ query: it.query, candidates: it.candidates, context: it.ctx }))).toEqual(dev.queries.map((q) => ({ query: q.query, candidates: q.candidates, context: q.context })));
    expect(Object.keys(items[0]!.ctx.runs).length).toBeGreaterThan(0);
    // The rest of the pool, in pool order: what the final model scores.
    const held = new Set(fold.map((q) => q.id));
    expect(scoringItems(ws, 'dev', { except: [...held] }).map((it) => it.queryId)).toEqual(ws.poolQueries('dev').map((q) => q.queryId).filter((id) => !held.has(id)));
  });
});

describe('modelQuestion', () => {
  it('carries the category (else the first tag) and the asker to the models', async () => {
    const { modelQuestion } = await import('./data');
    expect(modelQuestion({ id: 'a', title: 't', body: 'b', tags: 'x y', author: '7', category: 'Visas' })).toEqual({ id: 'a', title: 't', body: 'b', category: 'Visas', user: '7' });
    expect(modelQuestion({ id: 'b', title: 't', body: 'b', tags: 'graphs complexity', author: null, category: null })).toEqual({ id: 'b', title: 't', body: 'b', category: 'graphs' });
    expect(modelQuestion({ id: 'c', title: 't', body: 'b', tags: '', author: null, category: null })).toEqual({ id: 'c', title: 't', body: 'b' });
  });
});

describe('a pool labeled by annotators', () => {
  it('gives the aggregate\'s grades, reading the pool\'s labels once for the choice of source and once for the aggregate', () => {
    const w = scratch.fresh('agg');
    w.transaction(() => {
      for (const a of ['alice', 'bob']) w.ensureAnnotator(a, 'annotator');
      w.createPool({ name: 'p', scheme: 'binary', blind: false });
      w.addPoolQuery('p', 'q1', ['c1', 'c2']);
      for (const a of ['alice', 'bob']) for (const c of ['c1', 'c2']) w.addLabel({ pool: 'p', queryId: 'q1', candidateId: c, annotator: a, value: c === 'c1' ? '1' : '0', origin: 'test' });
    });
    const reads = vi.spyOn(w, 'currentLabels');
    expect(poolGrades(w, 'p')).toEqual(new Map([['q1', new Map([['c1', 1], ['c2', 0]])]]));
    // `gold`'s labels (none), then every annotator's: the aggregate was computed twice before (3 reads).
    expect(reads.mock.calls.map((c) => c[1] ?? null)).toEqual(['gold', null]);
  });
});

describe('starting a training', () => {
  it('reads each pool\'s labels once over the request\'s checks, the job\'s checks and the training, and again after a label', async () => {
    const { prepareTraining } = await import('./train');
    const { dir: d, ws: w } = await syntheticScratch();
    await importSyntheticPool(w, d, 'tr', [0, 1, 2, 3, 4, 5, 6, 7]);
    await importSyntheticPool(w, d, 'dv', [20, 21, 22]);
    const reads = vi.spyOn(w, 'currentLabels');
    const perPool = (): Record<string, number> => {
      const n: Record<string, number> = {};
      for (const c of reads.mock.calls) n[c[0]] = (n[c[0]] ?? 0) + 1;
      return n;
    };
    expect(poolGrades(w, 'tr').size).toBe(8);
    expect(poolGrades(w, 'tr').size).toBe(8);
    const once = perPool();
    expect(once.tr).toBeGreaterThan(0);
    reads.mockClear();
    // A label makes the grades read stale: q0 → q1 relevant now.
    w.addLabel({ pool: 'tr', queryId: 'q0', candidateId: 'q1', annotator: 'gold', value: '1', origin: 'test' });
    const spec = { model: 'ltr', name: 'm', trainPools: ['tr'], devPool: 'dv', epochs: 1 };
    // The engine checks the request, then the job checks again and trains (as trainJob does).
    prepareTraining(w, spec);
    await trainModel(w, spec, { workerPath: null });
    // 5 reads of tr and 3 of dv before (2 and 1 per check; the training pairs, the dev set).
    expect(perPool()).toEqual({ tr: once.tr, dv: once.tr });
    expect(reads).toHaveBeenCalledWith('tr', 'gold');
    // Trained on the labels after the new one (16 positives and 16 negatives before it).
    expect(findModel(w, 'm')?.info.training).toMatchObject({ positives: 17, negatives: 15 });
    expect(poolGrades(w, 'tr').get('q0')?.get('q1')).toBe(1);
  });

  it('the model name check reads the runs\' names, not every pool\'s runs with their pair counts; a clash names the first pool and the run\'s kind', async () => {
    const { prepareTraining } = await import('./train');
    const { dir: d, ws: w } = await syntheticScratch();
    await importSyntheticPool(w, d, 'tr', [0, 1, 2, 3]);
    await importSyntheticPool(w, d, 'dv', [20, 21]);
    for (const [pool, kind] of [['dv', 'retriever'], ['tr', 'imported']] as const) w.setRunScore(w.ensureRun(pool, 'taken', kind), 'q0', 'q1', 1);
    w.setRunScore(w.ensureRun('tr', 'mine', 'model'), 'q0', 'q1', 1);
    const runs = vi.spyOn(w, 'listRuns');
    const spec = (name: string) => ({ model: 'tfidf', name, trainPools: ['tr'], devPool: 'dv' });
    expect(() => prepareTraining(w, spec('taken'))).toThrow('"taken" is already a run of pool "tr" (kind imported); choose another model name');
    // A model's own run is retrained, not a clash.
    expect(prepareTraining(w, spec('mine')).queries.length).toBeGreaterThan(0);
    expect(runs).not.toHaveBeenCalled();
  });

  it('the request\'s checks are handed to the job: it reads the training and dev queries\' texts once, unless something was committed since', async () => {
    const { prepareTraining } = await import('./train');
    const { dir: d, ws: w } = await syntheticScratch();
    // Dev query q20 is training query q20 too: the overlap check drops it.
    await importSyntheticPool(w, d, 'tr', [0, 1, 2, 3, 4, 5, 6, 7, 20]);
    await importSyntheticPool(w, d, 'dv', [20, 21, 22]);
    const texts = vi.spyOn(w, 'getQuestion');
    const spec = (name: string) => ({ model: 'ltr', name, trainPools: ['tr'], devPool: 'dv', epochs: 1, config: { embedding: false } });
    // The job checking again on its own (as before): the request's reads, then the job's.
    prepareTraining(w, spec('a'));
    const request = texts.mock.calls.length;
    expect(request).toBeGreaterThanOrEqual(9 + 3);
    texts.mockClear();
    await trainModel(w, spec('a'), { workerPath: null });
    const again = texts.mock.calls.length;
    // Handed over with nothing committed since: the job reads none of the checks' texts again.
    const prepared = prepareTraining(w, spec('b'));
    texts.mockClear();
    await trainModel(w, spec('b'), { workerPath: null }, prepared);
    expect(texts.mock.calls.length).toBe(again - request);
    const a = findModel(w, 'a')!.info.training;
    const b = findModel(w, 'b')!.info.training;
    expect(b).toEqual(a);
    expect(b.overlap).toMatchObject({ overlapping: 1, dropped: 1 });
    // A label committed after the request: the job checks again and trains on it (q0 → q1 relevant).
    const stale = prepareTraining(w, spec('c'));
    w.addLabel({ pool: 'tr', queryId: 'q0', candidateId: 'q1', annotator: 'gold', value: '1', origin: 'test' });
    texts.mockClear();
    await trainModel(w, spec('c'), { workerPath: null }, stale);
    expect(texts.mock.calls.length).toBe(again);
    expect(findModel(w, 'c')!.info.training).toMatchObject({ positives: a.positives + 1, negatives: a.negatives - 1 });
  });
});
