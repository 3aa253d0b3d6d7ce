/**
 * Heavy requests off the engine's thread (compute.ts): while a large agreement report runs,
 * labels are still acknowledged at once; cancelling terminates the worker; the worker's result
 * equals the inline computation exactly; unknown ids and over-budget requests fail clearly.
 * The worker is the bundle out/node/compute-worker.mjs (built by the tests' global setup).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../shared/contract';
import type { AgreementView, CompareView } from '../../shared/gold';
import { CancelledError, NotFoundError, QPairsError } from '../errors';
import { checkAgreementBudget, comparePoolRuns, poolAgreement } from '../gold';
import { Workspace } from '../workspace/workspace';
import { compute, computeLoad, configureCompute, defaultComputeWorkerPath, stopComputations, type ComputeSettings } from './compute';
import { Engine } from './engine';
import { goldHandlers } from './gold';
import { exportProgressMessage } from '../export/progress';

let dir: string;
let ws: Workspace;
let engine: Engine;
let defaults: ComputeSettings;

/** Pool "big": Q queries × C candidates labeled by alice, bob and carol (seeded disagreements), runs r1 and r2. */
function bigPool(w: Workspace, Q: number, C: number): void {
  let s = 12345;
  const rnd = (): number => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  w.transaction(() => {
    for (let i = 0; i < Q * (C + 1); i++) w.upsertQuestion({ id: `d${i}`, source: 't', title: `title ${i}`, body: `body ${i}` });
    w.createPool({ name: 'big', scheme: 'binary' });
    const r1 = w.ensureRun('big', 'r1', 'test');
    const r2 = w.ensureRun('big', 'r2', 'test');
    for (let q = 0; q < Q; q++) {
      const qid = `d${q * (C + 1)}`;
      const cands = Array.from({ length: C }, (_, j) => `d${q * (C + 1) + j + 1}`);
      w.addPoolQuery('big', qid, cands);
      for (const c of cands) {
        const truth = rnd() < 0.3 ? '1' : '0';
        for (const a of ['alice', 'bob', 'carol']) {
          const v = rnd() < 0.15 ? (truth === '1' ? '0' : '1') : truth;
          w.addLabel({ pool: 'big', queryId: qid, candidateId: c, annotator: a, value: v, origin: 'test' });
        }
        w.setRunScore(r1, qid, c, rnd() + (truth === '1' ? 0.3 : 0));
        w.setRunScore(r2, qid, c, rnd() + (truth === '1' ? 0.2 : 0));
      }
    }
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(5);
  }
}

/**
 * Starts `work` and, while it runs, labels one pair after another until `work` settles or `labels`
 * labels were acknowledged. Each label is sent on a later event-loop turn (setImmediate), as a
 * client's request arrives, so a thread that `work` blocks acknowledges none until it is over.
 * Answers how many labels were acknowledged while `work` had not settled, whether it still runs,
 * and its promise.
 */
async function whileLabeling<T>(work: () => Promise<T>, labels = Infinity): Promise<{ acked: number; running: boolean; work: Promise<T> }> {
  let settled = false;
  const p = work();
  p.then(
    () => (settled = true),
    () => (settled = true),
  );
  let acked = 0;
  for (let k = 0; !settled && acked < labels; k++) {
    await new Promise<void>((r) => setImmediate(r));
    if (settled) break;
    await engine.invoke('label.set', { pool: 'big', queryId: 'd0', candidateId: 'd1', annotator: 'dave', value: k % 2 ? '1' : '0' });
    if (!settled) acked++;
  }
  return { acked, running: !settled, work: p };
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-compute-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
  bigPool(ws, 100, 20); // 2,000 pairs
  engine = new Engine(ws, { transport: 'electron' });
  defaults = configureCompute({});
});
afterEach(() => {
  configureCompute(defaults);
});
afterAll(() => {
  engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('compute worker', () => {
  it('is found as the bundle in out/node', () => {
    expect(defaultComputeWorkerPath()).toMatch(/out[\\/]node[\\/]compute-worker\.mjs$/);
  });

  it('gives exactly the inline result (agreement and comparison)', async () => {
    const agreement = { kind: 'agreement', pool: 'big', bootstrap: 200, seed: 7 } as const;
    const inWorker = await compute(ws, agreement, { mode: 'worker' });
    expect(inWorker).toEqual(await compute(ws, agreement, { mode: 'inline' }));
    expect(inWorker).toEqual(poolAgreement(ws, 'big', { bootstrap: 200, seed: 7 }));
    expect(inWorker.items).toBe(2000);

    const cmp = { kind: 'compare', pool: 'big', runs: ['r1', 'r2'], annotator: 'alice', bootstrap: 300, permutations: 2000, seed: 3 } as const;
    const cmpWorker = await compute(ws, cmp, { mode: 'worker' });
    expect(cmpWorker).toEqual(comparePoolRuns(ws, 'big', { runs: ['r1', 'r2'], annotator: 'alice', bootstrap: 300, permutations: 2000, seed: 3 }));
    expect(cmpWorker.queries).toBe(100);
    // A worker's slot is free once its thread has exited (shortly after its result arrives).
    await until(() => computeLoad().workers === 0, 2000);
  });

  it('keeps labeling responsive while a large agreement.report runs (it stalled for its whole run inline)', async () => {
    const args = { pool: 'big', annotators: ['alice', 'bob', 'carol'], bootstrap: 3000, seed: 2 };
    // Before: the same request on the engine's thread holds it for its whole run: no label is
    // acknowledged and the event loop does not turn until it is over.
    configureCompute({ workerPath: null });
    const inline = await whileLabeling(() => engine.invoke('agreement.report', args) as Promise<AgreementView>);
    expect(inline).toMatchObject({ acked: 0, running: false });

    // After: in the compute worker, with the same result.
    configureCompute({ workerPath: undefined });
    const p = engine.invoke('agreement.report', args) as Promise<AgreementView>;
    expect(computeLoad().workers).toBe(1);
    expect(await p).toEqual(await inline.work);
    await until(() => computeLoad().workers === 0, 2000);

    // …and the engine's thread is free meanwhile: a long report (100,000 resamples, tens of seconds)
    // still runs after 20 labels were acknowledged one after another, each on its own event-loop turn.
    const ac = new AbortController();
    const off = await whileLabeling(async () => {
      const q = engine.invoke('agreement.report', { ...args, bootstrap: 100_000 }, { annotator: null, local: true, signal: ac.signal }) as Promise<AgreementView>;
      expect(computeLoad().workers).toBe(1);
      return q;
    }, 20);
    expect(off).toMatchObject({ acked: 20, running: true });
    ac.abort();
    await expect(off.work).rejects.toThrow(/cancel/i);
    await until(() => computeLoad().workers === 0, 2000);
  });

  it('renders an export (files and datasheet) in the worker exactly as inline, and export.preview no longer stalls labeling', async () => {
    const now = new Date('2026-11-27T12:00:00Z');
    const task = { kind: 'export', pool: 'big', format: 'jsonl', out: 'big.jsonl', options: { bootstrap: 300, now, version: '9.9.9' } } as const;
    const inWorker = await compute(ws, task, { mode: 'worker' });
    expect(inWorker).toEqual(await compute(ws, task, { mode: 'inline' }));
    expect(inWorker.files[0]!.lines).toBe(2000);
    expect(inWorker.datasheet.content).toMatch(/annotators \(alice, bob, carol/);
    await until(() => computeLoad().workers === 0, 2000);

    // The preview's datasheet bootstraps the agreement (1000 resamples): on the engine's thread it
    // held every label for its whole run (25–40 s on a 40,000-pair pool).
    const args = { pool: 'big', format: 'jsonl', lines: 3 };
    configureCompute({ workerPath: null });
    const inline = await whileLabeling(() => engine.invoke('export.preview', args));
    expect(inline).toMatchObject({ acked: 0, running: false });
    // In the worker, labels are acknowledged one after another while it renders.
    configureCompute({ workerPath: undefined });
    const off = await whileLabeling(async () => {
      const p = engine.invoke('export.preview', args);
      // It runs as a preview job, which starts its worker a turn later.
      await until(() => computeLoad().workers === 1, 5000);
      return p;
    });
    expect(off.acked).toBeGreaterThanOrEqual(5);
    expect(((await off.work) as { files: Array<{ lines: number }> }).files[0]!.lines).toBe(2000);
    await until(() => computeLoad().workers === 0, 2000);
  });

  it('cancelling terminates the worker at once', async () => {
    const ac = new AbortController();
    const p = compute(ws, { kind: 'agreement', pool: 'big', bootstrap: 100_000 }, { signal: ac.signal });
    const settled = p.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await until(() => computeLoad().workers === 1);
    await sleep(300); // well into the resampling (the whole run would take tens of seconds)
    ac.abort();
    expect(await settled).toBeInstanceOf(CancelledError);
    // Its thread has exited (a slot is free only then), long before the run could have ended.
    await until(() => computeLoad().workers === 0, 2000);

    // A closing engine stops its workspace's computations (stopComputations).
    const q = compute(ws, { kind: 'agreement', pool: 'big', bootstrap: 100_000 }).catch((e: unknown) => e);
    await until(() => computeLoad().workers === 1);
    expect(stopComputations('/elsewhere.qpairs')).toBe(0);
    expect(stopComputations(ws.path)).toBe(1);
    expect(await q).toBeInstanceOf(CancelledError);
    await until(() => computeLoad().workers === 0, 2000);
  });

  it('the agreement.report handler cancels through ctx.signal', async () => {
    const ac = new AbortController();
    const handlers = goldHandlers(engine);
    const args = parseArgs('agreement.report', { pool: 'big', bootstrap: 100_000 });
    const p = Promise.resolve(handlers['agreement.report'](args, { annotator: null, signal: ac.signal } as { annotator: null }));
    const settled = p.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await until(() => computeLoad().workers === 1);
    ac.abort();
    expect(await settled).toBeInstanceOf(CancelledError);
    await until(() => computeLoad().workers === 0, 2000);
  });

  it('bounds the workers: later tasks wait (cancellable), beyond the queue they are refused', async () => {
    configureCompute({ maxWorkers: 1, maxQueued: 1 });
    const a = new AbortController();
    const b = new AbortController();
    const task = { kind: 'agreement', pool: 'big', bootstrap: 100_000 } as const;
    const pa = compute(ws, task, { signal: a.signal }).catch((e: unknown) => e);
    await until(() => computeLoad().workers === 1);
    const pb = compute(ws, task, { signal: b.signal }).catch((e: unknown) => e);
    await until(() => computeLoad().queued === 1);
    await expect(compute(ws, task)).rejects.toThrow(/busy with 2 large computations/);
    b.abort();
    expect(await pb).toBeInstanceOf(CancelledError);
    expect(computeLoad()).toEqual({ workers: 1, queued: 0 });
    a.abort();
    expect(await pa).toBeInstanceOf(CancelledError);
    await until(() => computeLoad().workers === 0, 2000);
  });

  it('a task waiting for a worker is told how many computations are before it, after a moment and as that changes', async () => {
    configureCompute({ maxWorkers: 1, maxQueued: 3 });
    const task = { kind: 'agreement', pool: 'big', bootstrap: 100_000 } as const;
    const [a, b, c] = [new AbortController(), new AbortController(), new AbortController()];
    const told: Record<string, number[]> = { b: [], c: [] };
    const tell = (who: 'b' | 'c') => (stage: string, done: number) => void (stage === 'waiting' && told[who]!.push(done));
    const pa = compute(ws, task, { signal: a.signal }).catch((e: unknown) => e);
    await until(() => computeLoad().workers === 1);
    const pb = compute(ws, task, { signal: b.signal, onProgress: tell('b') }).catch((e: unknown) => e);
    const pc = compute(ws, task, { signal: c.signal, onProgress: tell('c') }).catch((e: unknown) => e);
    await until(() => computeLoad().queued === 2);
    // Said once they have waited a moment (a slot freed as a thread exits is not worth a word).
    expect(told).toEqual({ b: [], c: [] });
    await until(() => told.b!.length + told.c!.length === 2);
    expect(told).toEqual({ b: [1], c: [2] });
    b.abort(); // the one ahead of c leaves the queue
    expect(await pb).toBeInstanceOf(CancelledError);
    expect(told.c).toEqual([2, 1]);
    a.abort(); // the running one ends: c starts (nothing before it)
    expect(await pa).toBeInstanceOf(CancelledError);
    await until(() => computeLoad().queued === 0 && computeLoad().workers === 1, 2000);
    c.abort();
    expect(await pc).toBeInstanceOf(CancelledError);
    expect(told.c).toEqual([2, 1]);
    expect(exportProgressMessage('waiting', 2, 0)).toBe('waiting for the compute worker: 2 computations before this one (agreement reports, comparisons, exports)');
    await until(() => computeLoad().workers === 0, 2000);
  });

  it('small requests run inline; unknown ids are NotFoundError, in the worker too', async () => {
    const small = await compute(ws, { kind: 'agreement', pool: 'big', queries: ['d0'], annotators: ['alice', 'bob'], bootstrap: 10 });
    expect(small.items).toBe(20);
    await expect(compute(ws, { kind: 'agreement', pool: 'nope', bootstrap: 100_000 })).rejects.toBeInstanceOf(NotFoundError);
    expect(computeLoad().workers).toBe(0);
    const unknownAnnotator = compute(ws, { kind: 'agreement', pool: 'big', annotators: ['alice', 'zed'] }, { mode: 'worker' });
    await expect(unknownAnnotator).rejects.toBeInstanceOf(NotFoundError);
    await expect(unknownAnnotator).rejects.toThrow('no annotator named "zed"');
    await expect(compute(ws, { kind: 'compare', pool: 'big', runs: ['r1', 'zz'] }, { mode: 'worker' })).rejects.toThrow(/has no run "zz"/);
  });
});

describe('work budgets', () => {
  it('refuse an agreement report over budget, naming the largest bootstrap that fits', () => {
    expect(() => checkAgreementBudget(4000, 3, 100_000)).not.toThrow();
    expect(() => checkAgreementBudget(10_000, 3, 100_000)).toThrow(/Use at most 55554 bootstrap resamples/);
    let err: unknown;
    try {
      poolAgreement(ws, 'big', { annotators: ['alice', 'bob', 'carol'], bootstrap: 100_000, workLimit: 1e8 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(QPairsError);
    expect((err as Error).message).toMatch(/100000 bootstrap resamples × 2000 labeled pairs × 9 statistics \(3 annotators\)/);
    expect((err as Error).message).toMatch(/Use at most 5554 bootstrap resamples/);
  });

  it('refuse a comparison over budget, in the worker too', async () => {
    expect(() => comparePoolRuns(ws, 'big', { runs: ['r1', 'r2'], annotator: 'alice', permutations: 1_000_000, workLimit: 1e7 })).toThrow(
      /1 pairs of runs × 100 queries × \(1000 bootstrap resamples \+ 1000000 permutations\).*together at most 100000/,
    );
    const r = (await compute(ws, { kind: 'compare', pool: 'big', runs: ['r1', 'r2'], annotator: 'alice' })) as CompareView;
    expect(r.pairs).toHaveLength(1);
  });
});
