/** Starting `train-worker` jobs from the engine/UI thread. */
import { Worker } from 'node:worker_threads';
import { CancelledError, errorFromWorker } from '../errors';
import { stopOnceLoaded } from '../workspace/addon-workers';
import type { QText, SavedModel, ScoreContext, TrainProgress, TrainReport, WordVectors } from './types';
import type { EncodedModel, FromWorker, LivePreparation, LivePrepareSpec, PoolScores, ReadCounts, ScoredLists, StartMessage, ToWorker, TrainedOnRecord } from './worker-protocol';

/** A training job as the engine starts it: the worker's start message without its type tag. */
export type WorkerJob = Omit<StartMessage, 'type'>;

export interface WorkerHandle<T> {
  promise: Promise<T>;
  /**
   * Stops the job: the worker is terminated (once it has loaded the SQLite addon: addon-workers.ts)
   * and the promise rejects with CancelledError as soon as it has exited.
   * The worker holds nothing that needs saving (its results reach this thread only in its last
   * message), and a worker busy in a long synchronous step could not read a cancel message anyway.
   */
  cancel(): void;
}

export interface WorkerOptions {
  /** Path/URL of the bundled train-worker entry (e.g. out/node/train-worker.mjs). */
  workerPath: string | URL;
  onProgress?: (p: TrainProgress) => void;
}

function run<T>(msg: ToWorker, o: WorkerOptions, pick: (m: FromWorker) => T | undefined): WorkerHandle<T> {
  const worker = new Worker(o.workerPath);
  const stop = stopOnceLoaded(worker);
  let settled = false;
  let finish: (err: Error | null, value?: T) => void = () => {};
  const promise = new Promise<T>((resolve, reject) => {
    finish = (err, value) => {
      if (settled) return;
      settled = true;
      const stopped = stop();
      // A failed or cancelled job is over once its worker has exited (addon-workers.ts).
      if (err) void stopped.then(() => reject(err));
      else resolve(value as T);
    };
    worker.on('message', (m: FromWorker) => {
      if (settled) return; // (a cancelled job's worker may still report until it is stopped)
      if (m.type === 'progress') o.onProgress?.(m.progress);
      else if (m.type === 'error') finish(errorFromWorker(m));
      else {
        const v = pick(m);
        if (v !== undefined) finish(null, v);
      }
    });
    worker.on('error', (e) => finish(e));
    worker.on('exit', (code) => finish(new Error(`model worker exited with code ${code}`)));
  });
  worker.postMessage(msg);
  return {
    promise,
    // Not a cancel message: it waited for the worker to read it, and a worker in a long
    // synchronous step (fused's feature building, say) did not within the grace period, so its
    // termination then surfaced as "model worker exited with code 1".
    cancel: () => finish(new CancelledError(msg.type === 'start' ? 'training cancelled' : 'scoring cancelled')),
  };
}

/** A finished training's result: the model saved, or encoded when the job asked (`encode`). */
export interface WorkerTrained {
  saved?: SavedModel;
  encoded?: EncodedModel;
  /** The job's scoreAfter queries scored by the model (then neither saved nor encoded comes back). */
  scored?: ScoredLists;
  report: TrainReport;
  read?: ReadCounts;
  trainedOn?: TrainedOnRecord[];
  /** Skip-gram vectors this training pre-trained, by key (StartMessage.wordVectors). */
  wordVectors?: Array<[string, WordVectors]>;
}

/** Trains `job.kind` in a worker thread. */
export function trainInWorker(job: WorkerJob, o: WorkerOptions): WorkerHandle<WorkerTrained> {
  return run({ type: 'start', ...job }, o, (m) =>
    m.type === 'done'
      ? { ...(m.saved ? { saved: m.saved } : {}), ...(m.encoded ? { encoded: m.encoded } : {}), ...(m.scored ? { scored: m.scored } : {}), report: m.report, ...(m.read ? { read: m.read } : {}), ...(m.trainedOn ? { trainedOn: m.trainedOn } : {}), ...(m.wordVectors?.length ? { wordVectors: m.wordVectors } : {}) }
      : undefined,
  );
}

/** Scores many (query, candidates) lists with a saved model in a worker thread. */
export function scoreInWorker(
  saved: SavedModel,
  items: Array<{ query: QText; candidates: QText[]; ctx?: ScoreContext }>,
  o: WorkerOptions,
): WorkerHandle<number[][]> {
  return run({ type: 'score', saved, items }, o, (m) => (m.type === 'scored' ? m.scores : undefined));
}

/**
 * Scores pool `pool` with the stored model `model`, the worker reading both from the workspace
 * file `path` on its own read-only connection (training/pool-scores.ts); nothing is written.
 */
export function scorePoolInWorker(path: string, model: string, pool: string, o: WorkerOptions): WorkerHandle<PoolScores> {
  return run({ type: 'score-pool', path, model, pool }, o, (m) => (m.type === 'pool-scored' ? m.result : undefined));
}

/** Prepares a live retrain of `pool` (training/live-retrain.ts prepareLive), the worker reading the workspace file `path` on its own read-only connection. */
export function prepareLiveInWorker(path: string, pool: string, spec: LivePrepareSpec, o: WorkerOptions): WorkerHandle<LivePreparation> {
  return run({ type: 'live-prepare', path, pool, spec }, o, (m) => (m.type === 'live-prepared' ? m.result : undefined));
}
