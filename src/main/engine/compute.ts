/**
 * Heavy read-only computations off the engine's thread, so labeling never waits on them:
 * `agreement.report` (bootstrap CIs over a pool) and `eval.compare` (bootstrap + permutation
 * tests). A task (compute-task.ts) runs in a worker thread (compute-worker.ts) that opens the
 * workspace file read-only on its own connection and runs the very same function, so the result
 * equals the inline computation exactly; it sees what was committed when it started.
 *
 * - Inline or worker: a task whose estimate (compute-task.ts estimateWork, from the pool's size,
 *   the resamples and budget.ts unit costs) is at most `inlineLimitMs` (default 50 ms — about
 *   what starting a worker costs: loading its bundle and opening the database) runs inline;
 *   so does every task when no worker bundle is found or the workspace is not a file.
 * - Cancel: aborting the signal (the HTTP client went away, the user cancelled) terminates the
 *   worker at once and rejects with CancelledError.
 * - Bounded: at most `maxWorkers` workers at a time (default min(2, cores − 1), at least 1);
 *   later tasks wait (cancellable) and beyond `maxQueued` waiting tasks a request is refused.
 *   Each task is also bounded by the work budgets the computations enforce (gold/budget.ts).
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { bundledWorkerPath } from '../worker-bundle';
import { CancelledError, errorFromWorker, QPairsError, throwIfAborted } from '../errors';
import { SlotQueue } from './slot-queue';
import type { Workspace } from '../workspace/workspace';
import { stopOnceLoaded } from '../workspace/addon-workers';
import type { FromComputeWorker, ToComputeWorker } from './compute-protocol';
import { estimateWork, runComputeTask, type ComputeResult, type ComputeTask } from './compute-task';
import type { ExportProgress } from '../export/progress';

export type { AgreementTask, CompareTask, ComputeResult, ComputeTask } from './compute-task';

/** Tasks estimated at most this many ms run inline (see the module comment). */
export const INLINE_LIMIT_MS = 50;

export interface ComputeSettings {
  inlineLimitMs: number;
  /** The bundled worker entry; null runs every task inline; undefined: defaultComputeWorkerPath(). */
  workerPath: string | URL | null | undefined;
  maxWorkers: number;
  maxQueued: number;
}

const settings: ComputeSettings = {
  inlineLimitMs: INLINE_LIMIT_MS,
  workerPath: undefined,
  maxWorkers: Math.max(1, Math.min(2, os.availableParallelism() - 1)),
  maxQueued: 32,
};

/** Changes the settings of this process's compute workers; returns the previous ones. */
export function configureCompute(s: Partial<ComputeSettings>): ComputeSettings {
  const before = { ...settings };
  Object.assign(settings, s);
  return before;
}

/** The bundled compute worker next to this bundle (out/node, out/main, out/serve) or in out/node of the checkout; null if none. */
export function defaultComputeWorkerPath(here = import.meta.dirname): string | null {
  return bundledWorkerPath('compute-worker', here);
}

// ---------------------------------------------------------------- worker slots

/**
 * Worker threads, first come first served (slot-queue.ts). A slot is free only once its thread
 * has exited, so the second step of an export preview, asked right after the first, waits a few
 * ms for it: a waiting task says how many computations are before it only after 250 ms.
 */
const slots = new SlotQueue({
  max: () => settings.maxWorkers,
  maxQueued: () => settings.maxQueued,
  busy: (load) => new QPairsError(`the engine is busy with ${load.running + load.queued} large computations (agreement reports, comparisons); try again when they finish`),
  noticeMs: 250,
  cancelled: () => new CancelledError('computation cancelled'),
});
/** Running worker tasks, by workspace file (for stopComputations). */
const running = new Set<{ dbPath: string; stop: () => void }>();

/** Compute workers alive now (running, or terminated but not yet exited), and tasks waiting for one. */
export function computeLoad(): { workers: number; queued: number } {
  const { running: workers, queued } = slots.load;
  return { workers, queued };
}

/**
 * Runs a task in a new worker thread on the workspace file `dbPath` (opened read-only there).
 * Aborting `signal` terminates the worker and rejects with CancelledError.
 */
export async function computeInWorker<T extends ComputeTask>(
  dbPath: string,
  task: T,
  o: { workerPath: string | URL; signal?: AbortSignal; onProgress?: ExportProgress },
): Promise<ComputeResult<T>> {
  // A task waiting for a worker says so, and how many computations are before it (the job's bar).
  const releaseSlot = await slots.acquire(o.signal, o.onProgress && ((n) => o.onProgress!('waiting', n, 0)));
  return new Promise<ComputeResult<T>>((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(o.workerPath);
    } catch (e) {
      releaseSlot();
      reject(e);
      return;
    }
    const stop = stopOnceLoaded(worker);
    let settled = false;
    const finish = (err: Error | null, value?: unknown): void => {
      if (settled) return;
      settled = true;
      running.delete(entry);
      o.signal?.removeEventListener('abort', onAbort);
      const stopped = stop();
      // A failed or cancelled computation is over once its worker has exited (addon-workers.ts).
      if (err) void stopped.then(() => reject(err));
      else resolve(value as ComputeResult<T>);
    };
    const onAbort = (): void => finish(new CancelledError('computation cancelled'));
    const entry = { dbPath, stop: onAbort };
    running.add(entry);
    worker.on('message', (m: FromComputeWorker) => {
      if (m.type === 'progress') {
        if (!settled) o.onProgress?.(m.stage, m.done, m.total);
      } else if (m.type === 'done') finish(null, m.result);
      else if (m.type === 'error') finish(errorFromWorker(m));
    });
    worker.on('error', (e) => finish(e));
    worker.once('exit', (code) => {
      releaseSlot();
      finish(new Error(`compute worker exited with code ${code}`));
    });
    if (o.signal?.aborted) return onAbort();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage({ type: 'run', path: dbPath, task } satisfies ToComputeWorker);
  });
}

/**
 * Cancels every computation running in a worker (those on the workspace file `dbPath` only, when
 * given): their workers are terminated and their requests rejected with CancelledError. For
 * Engine.close(), so that a closing engine does not leave workers running (they would keep the
 * process alive until they finish).
 */
export function stopComputations(dbPath?: string): number {
  let n = 0;
  for (const r of [...running]) {
    if (dbPath !== undefined && r.dbPath !== dbPath) continue;
    r.stop();
    n++;
  }
  return n;
}

export interface ComputeOptions {
  signal?: AbortSignal;
  /** Where to run: by the estimate (default), or forced. */
  mode?: 'auto' | 'inline' | 'worker';
  /** An export's stages as it runs (inline, or posted by the worker). */
  onProgress?: ExportProgress;
}

/**
 * Runs a heavy read-only task for the engine: inline when it is cheap (or no worker can run it),
 * else in a compute worker (see the module comment). Unknown pools fail before any worker starts.
 */
export async function compute<T extends ComputeTask>(ws: Workspace, task: T, o: ComputeOptions = {}): Promise<ComputeResult<T>> {
  throwIfAborted(o.signal);
  const workerPath = settings.workerPath === undefined ? defaultComputeWorkerPath() : settings.workerPath;
  const fileBacked = ws.fileForWorkers() !== null;
  const mode = o.mode ?? 'auto';
  // The estimate's pool state is the task's when it runs inline: both read one snapshot.
  const inline = ws.snapshot((): { result: ComputeResult<T> } | null => {
    let m = mode;
    let state: ReturnType<typeof estimateWork>['state'];
    if (m === 'auto') {
      const est = estimateWork(ws, task, settings.inlineLimitMs);
      state = est.state;
      m = est.ms <= settings.inlineLimitMs || !workerPath || !fileBacked ? 'inline' : 'worker';
    }
    return m === 'inline' ? { result: runComputeTask(ws, task, o.signal, state, o.onProgress) } : null;
  });
  if (inline) return inline.result;
  if (!workerPath) throw new Error('the compute worker bundle was not found (build it with: node scripts/build-node.mjs)');
  if (!fileBacked) throw new Error(`a compute worker cannot open workspace "${ws.path}" (not a file)`);
  return computeInWorker(ws.path, task, { workerPath, signal: o.signal, onProgress: o.onProgress });
}
