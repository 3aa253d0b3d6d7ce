/**
 * Training one model and scoring lists with a saved one, in the bundled worker thread when there
 * is one (the app stays responsive) or in this thread (tests, no bundle). Cancel: the AbortSignal
 * stops the worker (or the in-thread training) with CancelledError.
 */
import { throwIfAborted } from '../errors';
import { bundledWorkerPath } from '../worker-bundle';
import { createModel, initBackend, backendName, loadModel, scoreInWorker, trainInWorker } from '../models';
import type { DevSet, ModelId, QText, SavedModel, ScoreContext, TrainingData, TrainOptions, TrainProgress, TrainReport } from '../models/types';

export interface RunOptions {
  onProgress?: (p: TrainProgress) => void;
  signal?: AbortSignal;
  /** The bundled worker; null trains in this thread (tests, or when no bundle exists). */
  workerPath?: string | null;
}

/** The bundled model worker next to this bundle (out/node, out/main) or in out/node of the checkout. */
export function defaultWorkerPath(here = import.meta.dirname): string | null {
  return bundledWorkerPath('train-worker', here);
}

export function resolveWorkerPath(o: RunOptions): string | null {
  return o.workerPath === undefined ? defaultWorkerPath() : o.workerPath;
}

/** Trains `kind` on `data` (best epoch by dev MRR when `dev` is given, else the last) and returns it saved. */
export async function trainSaved(
  kind: ModelId,
  config: Record<string, unknown> | undefined,
  data: TrainingData,
  dev: DevSet | undefined,
  opts: Pick<TrainOptions, 'epochs' | 'seed' | 'embeddings'>,
  o: RunOptions,
): Promise<{ saved: SavedModel; report: TrainReport }> {
  throwIfAborted(o.signal); // aborted already: its 'abort' event has fired and would not stop the worker
  const workerPath = resolveWorkerPath(o);
  if (workerPath) {
    const h = trainInWorker({ kind, config, data, dev, opts }, { workerPath, onProgress: o.onProgress });
    const onAbort = (): void => h.cancel();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await h.promise;
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
    }
  }
  await initBackend();
  const model = await createModel(kind, config ?? {});
  try {
    const report = await model.train(data, { ...opts, dev, signal: o.signal, onProgress: o.onProgress });
    return { saved: model.save(), report };
  } finally {
    model.dispose();
  }
}

/** Scores lists of candidates with a saved model: one score array per item. */
export async function scoreSaved(
  saved: SavedModel,
  items: ReadonlyArray<{ query: QText; candidates: QText[]; ctx?: ScoreContext }>,
  o: RunOptions,
): Promise<{ scores: number[][]; backend: string }> {
  throwIfAborted(o.signal);
  const workerPath = resolveWorkerPath(o);
  if (workerPath) {
    const h = scoreInWorker(saved, items.map((i) => ({ query: i.query, candidates: i.candidates, ctx: i.ctx })), { workerPath });
    const onAbort = (): void => h.cancel();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return { scores: await h.promise, backend: 'worker' };
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
    }
  }
  await initBackend();
  const model = await loadModel(saved);
  try {
    return { scores: items.map((i) => model.score(i.query, i.candidates, i.ctx)), backend: backendName() };
  } finally {
    model.dispose();
  }
}
