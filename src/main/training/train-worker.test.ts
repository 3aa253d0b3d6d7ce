import { beforeAll, describe, expect, it, vi } from 'vitest';
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CancelledError } from '../errors';
import { createModel, loadModel } from '../models/registry';
import { syntheticData } from '../models/test-data';
import { scoreInWorker, trainInWorker } from '../models/worker-client';
import type { TrainProgress } from '../models/types';

/** Every worker thread the code under test starts (node:worker_threads' Worker, unchanged). */
const started = vi.hoisted(() => [] as import('node:worker_threads').Worker[]);
vi.mock('node:worker_threads', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:worker_threads')>();
  class Worker extends real.Worker {
    constructor(...args: ConstructorParameters<typeof real.Worker>) {
      super(...args);
      started.push(this);
    }
  }
  return { ...real, Worker, default: { ...real, Worker } };
});

const here = path.dirname(fileURLToPath(import.meta.url));
const workerPath = path.resolve(here, '../../../out/test-training/train-worker-alone.mjs');

describe('train-worker', () => {
  beforeAll(async () => {
    await build({
      entryPoints: [path.join(here, 'train-worker.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      outfile: workerPath,
      logLevel: 'warning',
    });
  });

  const fx = syntheticData(7);
  const config = { embDim: 16, filters: 16, maxLen: 24, batchSize: 4, negatives: 5, negPool: 0, lr: 0.01, embeddingEpochs: 2 };

  it('trains off-thread with progress events; the result equals in-process training', async () => {
    const progress: TrainProgress[] = [];
    const job = trainInWorker(
      { kind: 'bow-cnn', config, data: fx.data, dev: fx.dev, opts: { epochs: 3, seed: 4 } },
      { workerPath, onProgress: (p) => progress.push(p) },
    );
    const { saved, report } = await job.promise;
    expect(report.history.length).toBe(3);
    expect(progress.filter((p) => !p.phase && p.step === p.steps).map((p) => p.epoch)).toEqual([1, 2, 3]);
    expect(progress.some((p) => p.devMRR !== undefined)).toBe(true);
    const fromWorker = await loadModel(saved!);
    const local = await createModel('bow-cnn', config);
    await local.train(fx.data, { epochs: 3, seed: 4, dev: fx.dev });
    const q = fx.dev.queries[0];
    expect(fromWorker.score(q.query, q.candidates)).toEqual(local.score(q.query, q.candidates));
    // batch scoring off-thread too
    const scored = await scoreInWorker(saved!, fx.dev.queries.map((d) => ({ query: d.query, candidates: d.candidates })), { workerPath }).promise;
    expect(scored[0]).toEqual(local.score(q.query, q.candidates));
    fromWorker.dispose();
    local.dispose();
  });

  it('hands back the skip-gram vectors it pre-trained, and a job given them trains the same model without pre-training', async () => {
    const phases = (progress: TrainProgress[]) => new Set(progress.map((p) => p.phase));
    const run = (wordVectors?: Array<[string, import('../models/types').WordVectors]>) => {
      const progress: TrainProgress[] = [];
      const job = trainInWorker({ kind: 'bow-cnn', config, data: fx.data, opts: { epochs: 2, seed: 5 }, ...(wordVectors ? { wordVectors } : {}) }, { workerPath, onProgress: (p) => progress.push(p) });
      return job.promise.then((r) => ({ ...r, progress }));
    };
    const first = await run([]);
    expect(phases(first.progress).has('skip-gram pre-training')).toBe(true);
    expect(first.wordVectors).toHaveLength(1);
    const second = await run(first.wordVectors);
    expect(phases(second.progress).has('skip-gram pre-training')).toBe(false);
    expect(second.wordVectors).toBeUndefined();
    const alone = await run();
    expect(alone.wordVectors).toBeUndefined();
    for (const r of [first, second]) {
      for (const [k, t] of Object.entries(alone.saved!.weights)) expect(Array.from(r.saved!.weights[k]!.data), k).toEqual(Array.from(t.data));
    }
  });

  it('cancel aborts training with CancelledError', async () => {
    let job: ReturnType<typeof trainInWorker> | null = null;
    job = trainInWorker(
      { kind: 'lstm', config: { hidden: 8, embDim: 8, embeddingEpochs: 1 }, data: fx.data, opts: { epochs: 500, seed: 1 } },
      { workerPath, onProgress: () => job?.cancel() },
    );
    await expect(job.promise).rejects.toBeInstanceOf(CancelledError);
  });

  it('cancel ends a job whose worker is busy in a long synchronous step at once, with CancelledError', async () => {
    // A worker that reads no message for 20 s after its job starts (as fused building its
    // features): cancel used to post a message it could not read and terminate it 10 s later,
    // which surfaced as "model worker exited with code 1" (Ctrl-C in qpairs train).
    const dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-busy-worker-'));
    try {
      const busy = path.join(dir, 'busy-worker.mjs');
      writeFileSync(
        busy,
        `import { parentPort } from 'node:worker_threads';
parentPort.postMessage({ type: 'addon-loaded' }); // as train-worker says first (workspace/addon-workers.ts)
parentPort.on('message', () => {
  parentPort.postMessage({ type: 'progress', progress: { epoch: 1, epochs: 1, step: 0, steps: 1, loss: 0 } });
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20000);
  parentPort.postMessage({ type: 'step-ended' });
});
`,
      );
      let job: ReturnType<typeof trainInWorker> | null = null;
      job = trainInWorker({ kind: 'fused', data: fx.data }, { workerPath: busy, onProgress: () => job?.cancel() });
      const worker = started.at(-1)!;
      const exited = new Promise<string>((resolve) => worker.once('exit', () => resolve('exited')));
      const stepEnded = new Promise<string>((resolve) => worker.on('message', (m: { type: string }) => m.type === 'step-ended' && resolve('step ended')));
      await expect(job.promise).rejects.toBeInstanceOf(CancelledError);
      // The worker was terminated in its step: its thread exited before the step could end.
      expect(await Promise.race([exited, stepEnded])).toBe('exited');
      expect(worker.threadId).toBe(-1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports errors (unknown model)', async () => {
    const job = trainInWorker({ kind: 'nope' as never, data: fx.data }, { workerPath });
    await expect(job.promise).rejects.toThrow(/unknown model/);
  });
});
