/**
 * "Learn as we label" through the engine on SemEval-2016 dev (50 queries × 10 candidates, gold
 * labels): retrains in the worker thread as labels arrive, writes the live run and the learning
 * curve, never blocks a label, and writes nothing when cancelled.
 */
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { runImport } from './work';
import { Engine } from './engine';
import { dataset } from '../../../tests/datasets';
import type { JobDone, PoolEvaluation } from '../../shared/contract';
import type { LiveStatus } from '../../shared/live';

let dir: string;
let base: string;
let engine: Engine | null = null;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-live-'));
  base = path.join(dir, 'base.qpairs');
  const ws = Workspace.create(base);
  await runImport(ws, 'semeval', [dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml')], { pool: 'dev' });
  ws.ensureAnnotator('alice', 'annotator');
  ws.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  if (!engine) return;
  await engine.jobs.idle();
  engine.close();
  engine = null;
});

function open(name: string): Engine {
  const file = path.join(dir, name);
  copyFileSync(base, file);
  return new Engine(Workspace.open(file), { transport: 'http' });
}

const liveDone = (e: Engine): Promise<JobDone> =>
  new Promise((resolve) => {
    const off = e.on('job.done', (d) => {
      if (d.kind === 'live') {
        off();
        resolve(d);
      }
    });
  });

/**
 * Alice labels gold's pairs `from` … `from + n − 1` with gold's labels (label events that change nothing the
 * models see; the pairs are new to her, so each is an event). Answers `state()` as it was when each label
 * was acknowledged.
 */
async function relabel<T>(e: Engine, n: number, from = 0, state: () => T = () => undefined as T): Promise<T[]> {
  const ws = e.ws;
  const gold = ws.currentLabels('dev', 'gold').slice(from, from + n);
  const seen: T[] = [];
  for (const l of gold) {
    await e.invoke('label.set', { pool: 'dev', queryId: l.queryId, candidateId: l.candidateId, annotator: 'alice', value: l.value });
    seen.push(state());
  }
  return seen;
}

describe('learn as we label', () => {
  it('retrains once enough labels arrived: an out-of-fold run and a learning-curve point; labels are never held up', async () => {
    engine = open('a.qpairs');
    const e = engine;
    let done = liveDone(e);
    let retrainsDone = 0;
    e.on('job.done', (j) => {
      if (j.kind === 'live') retrainsDone++;
    });
    // 500 gold labels are already there: switching on starts a retrain at once.
    const st = (await e.invoke('live.set', { pool: 'dev', enabled: true, everyLabels: 20, idleSeconds: 0 })) as LiveStatus;
    expect(st).toMatchObject({ enabled: true, everyLabels: 20, models: ['fused'], running: true, labelsSinceLast: 500 });
    // Labels while it runs: each saved and acknowledged before the retrain ends, not after it, and it still runs after them.
    const during = await relabel(e, 5, 0, () => retrainsDone);
    expect(during).toEqual([0, 0, 0, 0, 0]);
    expect(e.ws.currentLabels('dev', 'alice')).toHaveLength(5);
    expect(((await e.invoke('live.status', { pool: 'dev' })) as LiveStatus).running).toBe(true);
    let d = await done;
    expect(d.ok, d.error).toBe(true);
    let s = (await e.invoke('live.status', { pool: 'dev' })) as LiveStatus;
    expect(s.curve).toHaveLength(1);
    expect(s.curve[0]).toMatchObject({ model: 'fused', trainedQueries: 50, heldOutQueries: 50 });
    expect(s.curve[0]!.MAP).toBeGreaterThan(0.5);
    expect(s.labelsSinceLast).toBeLessThanOrEqual(5);
    // The live run reranks every candidate, and Evaluate lists it.
    const ev = (await e.invoke('eval.pool', { pool: 'dev', annotator: 'gold', convention: 'zero' })) as PoolEvaluation;
    expect(ev.runs['live-fused']?.queries).toBe(50);
    // Its MAP over the labeled queries is the out-of-fold figure of the curve.
    expect(ev.runs['live-fused']!.MAP!).toBeCloseTo(s.curve[0]!.MAP!, 10);
    // 20 more pairs labeled: the next retrain starts by itself. (Alice's first 5 pairs may have been read by
    // the first retrain — it reads the labels when it starts running — so they are not counted on.)
    done = liveDone(e);
    await relabel(e, 20, 5);
    d = await done;
    expect(d.ok, d.error).toBe(true);
    s = (await e.invoke('live.status', { pool: 'dev' })) as LiveStatus;
    expect(s.curve).toHaveLength(2);
    // Alice's relabels are label events, not new pairs to learn from (the pool trains on gold's 500).
    expect(s.curve.map((p) => p.labels)).toEqual([500, 500]);
    expect(s.lastError).toBeNull();
  }, 600_000); // two fused retrains on SemEval dev: ~25 s each on 2 idle cores, minutes on a loaded machine

  it('a cancelled retrain writes nothing and waits for the next labels; switched off, labels start nothing', async () => {
    engine = open('b.qpairs');
    const e = engine;
    const started = new Promise<string>((resolve) => {
      const off = e.on('job.progress', (p) => {
        if (p.kind === 'live') {
          off();
          resolve(p.jobId);
        }
      });
    });
    const done = liveDone(e);
    await e.invoke('live.set', { pool: 'dev', enabled: true, everyLabels: 20, idleSeconds: 0 });
    await e.invoke('job.cancel', { jobId: await started });
    const d = await done;
    expect(d).toMatchObject({ ok: false, cancelled: true });
    const s = (await e.invoke('live.status', { pool: 'dev' })) as LiveStatus;
    expect(s).toMatchObject({ running: false, curve: [], labelsSinceLast: 0 });
    expect(s.lastError).toMatch(/cancelled/);
    expect(e.ws.listRuns('dev').map((r) => r.name)).not.toContain('live-fused');
    await e.invoke('live.set', { pool: 'dev', enabled: false });
    await relabel(e, 25);
    expect(((await e.invoke('live.status', { pool: 'dev' })) as LiveStatus).running).toBe(false);
  }, 120_000);

  it('a stored setting that names no model (damaged) starts no retrain and uses up no labels; retrain now says why', async () => {
    const e = (engine = open('no-models.qpairs'));
    await e.invoke('live.set', { pool: 'dev', enabled: true, everyLabels: 20, idleSeconds: 0 });
    // The pool's gold labels start a first retrain at once; the row is damaged while it waits or runs.
    e.ws.db.prepare(`UPDATE live_training SET models = '{}' WHERE pool_id = ?`).run(e.ws.poolId('dev'));
    await e.jobs.idle();
    const before = (await e.invoke('live.status', { pool: 'dev' })) as LiveStatus;
    let done = 0;
    e.on('job.done', (d) => void (d.kind === 'live' && done++));
    await relabel(e, 25);
    await e.jobs.idle();
    expect(done, 'no retrain started').toBe(0);
    const after = (await e.invoke('live.status', { pool: 'dev' })) as LiveStatus;
    expect(after.curve).toEqual(before.curve);
    // Every pair's labels (gold's, then alice's over the same pairs) still count toward the next retrain: none was marked as trained on.
    expect(before.labelsSinceLast).toBe(e.ws.pool('dev').pairs);
    expect(after.labelsSinceLast).toBe(e.ws.pool('dev').pairs);
    expect(after.lastError).toBeNull();
    await expect(e.invoke('live.retrain', { pool: 'dev' })).rejects.toThrow(/names no model .*choose the models again in the Live panel/);
  });

  it('a stored setting naming models live.set would refuse reads as unreadable, names them, trains nothing; Evaluate still works', async () => {
    const e = (engine = open('unknown-models.qpairs'));
    await e.invoke('live.set', { pool: 'dev', enabled: true, everyLabels: 20, idleSeconds: 0 });
    // Another program's row (or a model no longer offered): strings, but not learn-as-we-label models.
    e.ws.db.prepare(`UPDATE live_training SET models = '["fused", "bert"]' WHERE pool_id = ?`).run(e.ws.poolId('dev'));
    await e.jobs.idle();
    let done = 0;
    e.on('job.done', (d) => void (d.kind === 'live' && done++));
    await relabel(e, 25);
    await e.jobs.idle();
    expect(done, 'no retrain started').toBe(0);
    const s = (await e.invoke('live.status', { pool: 'dev' })) as LiveStatus;
    expect(s).toMatchObject({ models: [], unreadable: ['models'], unknownModels: ['bert'], lastError: null });
    await expect(e.invoke('live.retrain', { pool: 'dev' })).rejects.toThrow(/names no model \(its stored setting names "bert", not a learn-as-we-label model \(fused, ltr, tfidf, dae\)\): choose the models again/);
    expect(((await e.invoke('eval.pool', { pool: 'dev' })) as PoolEvaluation).labeledQueries).toBeGreaterThan(0);
    // Saving the setting again mends it.
    await e.invoke('live.set', { pool: 'dev', enabled: false, models: ['tfidf'] });
    expect((await e.invoke('live.status', { pool: 'dev' })) as LiveStatus).toMatchObject({ models: ['tfidf'], unreadable: [], unknownModels: [] });
  });

  it('bad input: an unknown model or pool is refused and changes nothing', async () => {
    engine = open('c.qpairs');
    await expect(engine.invoke('live.set', { pool: 'dev', enabled: true, models: ['bow-cnn'] })).rejects.toMatchObject({ code: 'invalid-argument' });
    await expect(engine.invoke('live.set', { pool: 'nope', enabled: true })).rejects.toMatchObject({ code: 'not-found' });
    await expect(engine.invoke('live.set', { pool: 'dev', enabled: true, everyLabels: 0 })).rejects.toMatchObject({ code: 'invalid-argument' });
    expect(((await engine.invoke('live.status', { pool: 'dev' })) as LiveStatus).enabled).toBe(false);
  });
});
