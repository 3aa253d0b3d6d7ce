/**
 * One live retrain on a tiny pool: every labeled query's score in the live run comes from a model
 * that did not see its labels — a query whose fold leaves nothing to learn from is left unscored,
 * not scored by the final model that trained on it.
 */
import { describe, expect, it, vi } from 'vitest';
import { SkipGramRanker } from '../models/skipgram';
import { Workspace } from '../workspace/workspace';
import { retrainLive } from './live-retrain';
import { trainModel } from './train';
import { labelLiveQuery, livePoolEachTest } from './live-test-pool';

let ws: Workspace;
livePoolEachTest('qpairs-live-retrain-', (fresh) => (ws = fresh));

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

  it('pre-trains ltr\'s skip-gram vectors once for its folds and final model (same texts, same seed), not once each', async () => {
    for (const q of [0, 1, 2, 3]) labelLiveQuery(ws, q, [0]);
    const spy = vi.spyOn(SkipGramRanker.prototype, 'train');
    try {
      const r = await retrainLive(ws, 'p', { model: 'ltr', trainPools: [], runName: 'live-ltr' }, { workerPath: null });
      expect(r).toMatchObject({ folds: 3, heldOutQueries: 4, unscoredQueries: [] });
      // 3 fold models and the final one each pre-trained skip-gram: 4 times on the same texts.
      expect(spy.mock.calls.length).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('leaves out of a fold\'s training a training pool\'s copy of a held-out query: same id, same text or near-same text', async () => {
    // As above, q0 is the only labeled query of p with a similar candidate. Training pool t holds
    // copies of q0 under other ids — x0 with its very text, x1 with one word changed at the end of a
    // long body — labeled alike: kept, they would teach the fold that holds q0 out its labels.
    const q0 = ws.getQuestion('q0')!;
    const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    ws.upsertQuestion({ id: 'q0', source: 's', title: q0.title, body: `${q0.body} ${long} thanks` }, { update: true });
    labelLiveQuery(ws, 0, [0]);
    labelLiveQuery(ws, 1, []);
    labelLiveQuery(ws, 2, []);
    ws.upsertQuestion({ id: 'x0', source: 't', title: q0.title, body: `${q0.body} ${long} thanks` });
    ws.upsertQuestion({ id: 'x1', source: 't', title: q0.title, body: `${q0.body} ${long} cheers` });
    ws.upsertQuestion({ id: 'y0', source: 't', title: 'a wholly other question', body: 'about something else entirely' });
    ws.createPool({ name: 't', scheme: 'binary' });
    for (const x of ['x0', 'x1']) {
      ws.addPoolQuery('t', x, ['c0-0', 'c0-1']);
      ws.addLabel({ pool: 't', queryId: x, candidateId: 'c0-0', annotator: 'gold', value: '1', origin: 'test' });
      ws.addLabel({ pool: 't', queryId: x, candidateId: 'c0-1', annotator: 'gold', value: '0', origin: 'test' });
    }
    ws.addPoolQuery('t', 'y0', ['c1-0']);
    ws.addLabel({ pool: 't', queryId: 'y0', candidateId: 'c1-0', annotator: 'gold', value: '0', origin: 'test' });
    const r = await retrainLive(ws, 'p', { model: 'tfidf', trainPools: ['t'], runName: 'live-tfidf' }, { workerPath: null });
    expect(r.trainingCopiesLeftOut).toEqual({ queries: 2, reasons: { 'same-id': 0, 'same-text': 1, 'near-duplicate': 1 } });
    // Without its copies, the fold that holds q0 out has no similar pair: q0 stays unscored.
    expect(r.unscoredQueries).toEqual(['q0']);
    expect(r.scores.has('q0')).toBe(false);
    expect(r.heldOutQueries).toBe(2);
  }, 120_000);

  it('leaves out, as fused features, the runs of stored models trained on the pool\'s labeled queries (their scores there are in-sample)', async () => {
    // Similar candidates off the query's topic (c<i>-2, c<i>-3), which text features cannot find.
    labelLiveQuery(ws, 0, [2]);
    labelLiveQuery(ws, 1, [3]);
    labelLiveQuery(ws, 2, [2, 3]);
    // A stored model trained on these very labels, whose run in the pool knows them: in-sample scores.
    await trainModel(ws, { model: 'ltr', name: 'memo', trainPools: ['p'] }, { workerPath: null });
    const gold = new Map(ws.currentLabels('p', 'gold').map((l) => [`${l.queryId} ${l.candidateId}`, l.value]));
    const rows = ws.poolQueries('p').flatMap((q) => q.candidates.map((c) => [q.queryId, c, gold.get(`${q.queryId} ${c}`) === '1' ? 1 : 0] as const));
    ws.replaceRun('p', 'memo', 'model', {}, rows);
    const r = await retrainLive(ws, 'p', { model: 'ltr', trainPools: [], runName: 'live-ltr' }, { workerPath: null });
    expect(r.inSampleRunsLeftOut).toEqual([{ run: 'memo', trainedOn: 3 }]);
    // Out of fold, the live model does not find the similar candidates through the memorising run.
    expect(r.heldOutQueries).toBe(3);
    expect(r.MAP!).toBeLessThan(1);
  }, 120_000);

  it('a model cannot take the name of a live run (the live retrain would replace its run in the pool)', async () => {
    labelLiveQuery(ws, 0, [0]);
    labelLiveQuery(ws, 1, [1]);
    await expect(trainModel(ws, { model: 'ltr', name: 'live-ltr', trainPools: ['p'] }, { workerPath: null })).rejects.toThrow(
      '"live-ltr" is the name of a live-retraining run (learn as we label replaces it in its pools); choose another model name',
    );
    expect(ws.listRuns('p').map((r) => r.name)).toEqual([]);
    // Other names starting with "live-" are not live runs.
    await expect(trainModel(ws, { model: 'ltr', name: 'live-demo', trainPools: ['p'], epochs: 1 }, { workerPath: null })).resolves.toBeTruthy();
  }, 120_000);
});
