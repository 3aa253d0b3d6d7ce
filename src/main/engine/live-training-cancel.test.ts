/**
 * A live retrain of several models is one retrain: cancelled while its second model trains, it writes
 * nothing — neither the first model's run nor its learning-curve point.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';
import { addLivePool, labelLiveQuery } from '../training/live-test-pool';
import type { JobDone } from '../../shared/contract';
import { describeCopiesLeftOut, type LiveStatus } from '../../shared/live';

let dir: string;
let engine: Engine | null = null;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-live-cancel-'));
});
afterEach(async () => {
  if (engine) {
    await engine.jobs.idle();
    engine.close();
    engine = null;
  }
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A workspace with the live test pool `p`, its queries labeled as given (by default q0: c0-0
 * relevant, q1: c1-1, q2: both; see labelLiveQuery).
 */
function liveWorkspace(labeled: ReadonlyArray<readonly number[]> = [[0], [1], [0, 1]]): Workspace {
  const ws = Workspace.create(path.join(dir, 'w.qpairs'));
  addLivePool(ws);
  labeled.forEach((relevant, q) => labelLiveQuery(ws, q, [...relevant]));
  return ws;
}

/** The engine of the test (one training at a time, as serve's --max-trainings default); closed after it. */
function startEngine(ws: Workspace): Engine {
  engine = new Engine(ws, { transport: 'http' });
  return engine;
}

/** The end of the next live retrain. */
function liveDone(e: Engine): Promise<JobDone> {
  return new Promise<JobDone>((resolve) => {
    const off = e.on('job.done', (d) => d.kind === 'live' && (off(), resolve(d)));
  });
}

it('cancelled during its second model, a retrain stores neither model', async () => {
  const ws = liveWorkspace();
  const e = startEngine(ws);
  const messages: string[] = [];
  const pools = new Set<string | undefined>();
  const done = new Promise<JobDone>((resolve) => {
    const offProgress = e.on('job.progress', (p) => {
      if (p.kind !== 'live') return;
      messages.push(p.message);
      pools.add(p.pool);
      // The first model (ltr) is done when the second (tfidf) reports: cancel then.
      if (p.message.startsWith('tfidf:')) void e.invoke('job.cancel', { jobId: p.jobId });
    });
    const off = e.on('job.done', (d) => {
      if (d.kind === 'live') {
        off();
        offProgress();
        resolve(d);
      }
    });
  });
  await e.invoke('live.set', { pool: 'p', enabled: true, everyLabels: 1, idleSeconds: 0, models: ['ltr', 'tfidf'] });
  const d = await done;
  expect(messages.some((m) => m.startsWith('tfidf:')), messages.join('\n')).toBe(true);
  expect(d).toMatchObject({ ok: false, cancelled: true });
  // Its events name its pool (the Evaluate panel of another pool took them for its own retrain).
  expect([...pools]).toEqual(['p']);
  expect(d.pool).toBe('p');
  const s = (await e.invoke('live.status', { pool: 'p' })) as LiveStatus;
  expect(s.curve).toEqual([]);
  expect(s.lastError).toMatch(/cancelled/);
  expect(e.ws.listRuns('p').map((r) => r.name)).toEqual([]);
}, 120_000);

it('run to the end, a retrain of two models stores both runs and both curve points', async () => {
  const ws = liveWorkspace();
  const e = startEngine(ws);
  const done = liveDone(e);
  await e.invoke('live.set', { pool: 'p', enabled: true, everyLabels: 1, idleSeconds: 0, models: ['ltr', 'tfidf'] });
  const d = await done;
  expect(d.ok, d.error).toBe(true);
  const s = (await e.invoke('live.status', { pool: 'p' })) as LiveStatus;
  expect(s.curve.map((p) => [p.model, p.labels, p.heldOutQueries])).toEqual([['ltr', 12, 3], ['tfidf', 12, 3]]);
  expect(s).toMatchObject({ lastError: null, labelsSinceLast: 0 });
  expect(e.ws.listRuns('p').map((r) => r.name).sort()).toEqual(['live-ltr', 'live-tfidf']);
}, 120_000);

it('live.set keeps the settings it is not given: pausing and resuming keeps the models, training pools and pace', async () => {
  const ws = liveWorkspace([]);
  ws.createPool({ name: 'other', scheme: 'binary' });
  const e = startEngine(ws);
  // No labels: nothing retrains.
  await e.invoke('live.set', { pool: 'p', enabled: true, everyLabels: 7, idleSeconds: 0, models: ['ltr', 'tfidf', 'ltr'], trainPools: ['other', 'other'] });
  const kept = { everyLabels: 7, idleSeconds: 0, models: ['ltr', 'tfidf'], trainPools: ['other'] };
  expect(await e.invoke('live.status', { pool: 'p' })).toMatchObject({ enabled: true, ...kept });
  expect(await e.invoke('live.set', { pool: 'p', enabled: false })).toMatchObject({ enabled: false, ...kept });
  expect(await e.invoke('live.set', { pool: 'p', enabled: true })).toMatchObject({ enabled: true, ...kept });
  expect(await e.invoke('live.set', { pool: 'p', enabled: true, everyLabels: 30 })).toMatchObject({ ...kept, everyLabels: 30 });
  // A pool never set starts from the defaults.
  expect(await e.invoke('live.set', { pool: 'other', enabled: false })).toMatchObject({ everyLabels: 20, idleSeconds: 60, models: ['fused'], trainPools: [] });
});

it('the live status says how many training-pool copies of held-out queries a retrain left out', async () => {
  const ws = liveWorkspace();
  // Training pool t: a copy of q1 under another id (same text), and a question of its own.
  const q1 = ws.getQuestion('q1')!;
  ws.upsertQuestion({ id: 'x1', source: 't', title: q1.title, body: q1.body });
  ws.upsertQuestion({ id: 'y', source: 't', title: 'a wholly other question', body: 'about something else entirely' });
  ws.createPool({ name: 't', scheme: 'binary' });
  for (const [q, c, v] of [['x1', 'c1-1', '1'], ['x1', 'c1-2', '0'], ['y', 'c0-0', '0']] as const) {
    if (!ws.poolQueries('t').some((pq) => pq.queryId === q)) ws.addPoolQuery('t', q, q === 'x1' ? ['c1-1', 'c1-2'] : ['c0-0']);
    ws.addLabel({ pool: 't', queryId: q, candidateId: c, annotator: 'gold', value: v, origin: 'test' });
  }
  const e = startEngine(ws);
  expect(((await e.invoke('live.status', { pool: 'p' })) as LiveStatus).trainingCopiesLeftOut).toBeNull();
  const done = liveDone(e);
  await e.invoke('live.set', { pool: 'p', enabled: true, everyLabels: 1, idleSeconds: 0, models: ['tfidf'], trainPools: ['t'] });
  const d = await done;
  expect(d.ok, d.error).toBe(true);
  const s = (await e.invoke('live.status', { pool: 'p' })) as LiveStatus;
  expect(s.trainingCopiesLeftOut).toEqual({ queries: 1, reasons: { 'same-id': 0, 'same-text': 1, 'near-duplicate': 0 } });
  expect(describeCopiesLeftOut(s.trainingCopiesLeftOut)).toBe("1 training-pool copy of held-out queries left out of their folds' training (1 same text)");
  // Kept in the workspace: after a restart (a new engine on the same file) the panel still says it.
  await e.jobs.idle();
  e.close();
  engine = new Engine(Workspace.open(path.join(dir, 'w.qpairs')), { transport: 'http' });
  const again = (await engine.invoke('live.status', { pool: 'p' })) as LiveStatus;
  expect(again.trainingCopiesLeftOut).toEqual(s.trainingCopiesLeftOut);
}, 120_000);

it('live labels count labeled pairs, not label events: a relabeled pair counts once, and the curve counts the pairs trained on', async () => {
  const ws = liveWorkspace();
  // q0's first pair relabeled three times (16 label events over 12 pairs so far) …
  for (const v of ['0', '1', '1']) ws.addLabel({ pool: 'p', queryId: 'q0', candidateId: 'c0-0', annotator: 'gold', value: v, origin: 'test' });
  // … and one pair of q3, which is still being labeled (not trained on).
  ws.addLabel({ pool: 'p', queryId: 'q3', candidateId: 'c3-0', annotator: 'gold', value: '0', origin: 'test' });
  const e = startEngine(ws);
  // 13 pairs labeled: below 14, so nothing starts (16 events would have started a retrain).
  const st = (await e.invoke('live.set', { pool: 'p', enabled: true, everyLabels: 14, idleSeconds: 0, models: ['tfidf'] })) as LiveStatus;
  expect(st).toMatchObject({ labelsSinceLast: 13, running: false });
  const done = liveDone(e);
  await e.invoke('live.retrain', { pool: 'p' });
  const d = await done;
  expect(d.ok, d.error).toBe(true);
  const s = (await e.invoke('live.status', { pool: 'p' })) as LiveStatus;
  // The model trained on q0…q2's 12 labeled pairs.
  expect(s.curve.map((p) => [p.labels, p.trainedQueries])).toEqual([[12, 3]]);
  expect(s.labelsSinceLast).toBe(0);
  // Relabeling a pair after the retrain counts it once.
  await e.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'c1-1', annotator: 'gold', value: '0' });
  await e.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'c1-1', annotator: 'gold', value: '1' });
  expect(((await e.invoke('live.status', { pool: 'p' })) as LiveStatus).labelsSinceLast).toBe(1);
}, 120_000);

it('a live retrain takes a slot of the training queue: it waits, shown as queued, while another training holds the only slot', async () => {
  const ws = liveWorkspace();
  const e = startEngine(ws);
  // Another training holds the slot.
  const release = await e.trainings.acquire(undefined, () => {});
  const progress: string[] = [];
  const queued = new Promise<void>((resolve) => {
    const off = e.on('job.progress', (p) => {
      if (p.kind !== 'live') return;
      progress.push(p.message);
      if (p.message.startsWith('queued:')) (off(), resolve());
    });
  });
  const done = liveDone(e);
  await e.invoke('live.set', { pool: 'p', enabled: true, everyLabels: 1, idleSeconds: 0, models: ['tfidf'] });
  await queued;
  expect(progress[0]).toBe('queued: 1 training ahead (at most 1 at once)');
  expect(await e.invoke('live.status', { pool: 'p' })).toMatchObject({ running: true, queuedBehind: 1, curve: [] });
  expect(e.trainings.load).toEqual({ running: 1, queued: 1 });
  // Labels that arrive while it waits are trained on when it runs.
  ws.addLabel({ pool: 'p', queryId: 'q3', candidateId: 'c3-0', annotator: 'gold', value: '1', origin: 'test' });
  for (const c of ['c3-1', 'c3-2', 'c3-3']) await e.invoke('label.set', { pool: 'p', queryId: 'q3', candidateId: c, annotator: 'gold', value: '0' });
  await new Promise((r) => setTimeout(r, 200));
  expect(e.ws.listRuns('p').map((r) => r.name)).toEqual([]); // still waiting
  release();
  const d = await done;
  expect(d.ok, d.error).toBe(true);
  const s = (await e.invoke('live.status', { pool: 'p' })) as LiveStatus;
  expect(s).toMatchObject({ running: false, queuedBehind: null, labelsSinceLast: 0 });
  expect(s.curve.map((p) => [p.labels, p.trainedQueries])).toEqual([[16, 4]]);
  expect(e.trainings.load).toEqual({ running: 0, queued: 0 });
}, 120_000);

it('a live retrain cancelled while queued never runs and frees its place in the queue', async () => {
  const ws = liveWorkspace([[0], [1]]);
  const e = startEngine(ws);
  const release = await e.trainings.acquire(undefined, () => {});
  const queuedJob = new Promise<string>((resolve) => {
    const off = e.on('job.progress', (p) => p.kind === 'live' && p.message.startsWith('queued:') && (off(), resolve(p.jobId)));
  });
  const done = liveDone(e);
  await e.invoke('live.set', { pool: 'p', enabled: true, everyLabels: 1, idleSeconds: 0, models: ['tfidf'] });
  await e.invoke('job.cancel', { jobId: await queuedJob });
  expect(await done).toMatchObject({ ok: false, cancelled: true });
  expect(e.trainings.load).toEqual({ running: 1, queued: 0 });
  expect(await e.invoke('live.status', { pool: 'p' })).toMatchObject({ running: false, queuedBehind: null, curve: [] });
  release();
});
