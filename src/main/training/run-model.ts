/**
 * Training one model and scoring lists with a saved one, in the bundled worker thread when there
 * is one (the app stays responsive) or in this thread (tests, no bundle). Cancel: the AbortSignal
 * stops the worker (or the in-thread training) with CancelledError.
 */
import { throwIfAborted } from '../errors';
import { bundledWorkerPath } from '../worker-bundle';
import { createModel, initBackend, backendName, loadModel, scoreInWorker, trainInWorker } from '../models';
import type { DevSet, ModelId, QText, SavedModel, ScoreContext, TrainOptions, TrainProgress, TrainReport, WordVectorCache } from '../models/types';
import type { EncodedModel, LabeledTrainingPairs, ReadCounts, ScoredLists, ScoringSelection, TrainedOnRecord, UnlabeledSpec } from '../models/worker-protocol';
import type { Workspace } from '../workspace/workspace';
import { joinTrainingData, readCounts, readScoringSelection, readUnlabeled } from './data';
import { encodeForStore } from './model-bytes';

/**
 * A model's training data as the engine gives it: the labeled pairs it read (cheap) and what the
 * rest is (every question's and answer's text: readUnlabeled). A worker on a workspace file reads
 * that rest itself, so the engine's thread neither reads it nor copies it to the worker.
 */
export interface TrainingInput {
  ws: Workspace;
  pairs: Pick<LabeledTrainingPairs, 'positives' | 'negatives'>;
  unlabeled: UnlabeledSpec;
  /** Training queries a worker reading the data fingerprints too (trainedOn in the result; trained-on.ts). */
  trainedOn?: string[];
}


/** One training: which model with which settings, on which data, kept by which dev set (if any). */
export interface TrainJob {
  kind: ModelId;
  config: Record<string, unknown> | undefined;
  input: TrainingInput;
  dev?: DevSet;
  opts: Pick<TrainOptions, 'epochs' | 'seed' | 'embeddings'>;
  /**
   * Skip-gram vectors pre-trained by earlier trainings, by key (TrainOptions.wordVectorCache): this
   * training takes them where its own pre-training would train the same ones, and adds those it trains.
   */
  wordVectors?: WordVectorCache;
}

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

/**
 * Trains `kind` on `input` (best epoch by dev MRR when `dev` is given, else the last) and returns
 * it saved, with the counts of what was read. In a worker on a workspace file, the worker reads
 * the unlabeled data; else this thread does (tests, an in-memory workspace, no bundle).
 */
export async function trainSaved(job: TrainJob, o: RunOptions): Promise<{ saved: SavedModel; report: TrainReport; read: ReadCounts; trainedOn?: TrainedOnRecord[] }> {
  const { saved, ...r } = await trainRun(job, o, undefined);
  return { saved: saved!, ...r };
}

/**
 * trainSaved for a model to store: the model comes back encoded as the workspace stores it
 * (store.ts encodeForStore, `meta` added to its saved meta). A worker encodes it, so the engine's
 * thread neither receives the vocabulary and weights as objects nor encodes them; in this thread
 * (tests, an in-memory workspace, no bundle) the same bytes are made here.
 */
export async function trainForStore(
  job: TrainJob,
  o: RunOptions,
  meta?: Record<string, unknown>,
): Promise<{ encoded: EncodedModel; report: TrainReport; read: ReadCounts; trainedOn?: TrainedOnRecord[] }> {
  const { saved, encoded, ...r } = await trainRun(job, o, meta ? { meta } : {});
  return { encoded: encoded ?? encodeForStore(saved!, meta), ...r };
}

/**
 * Trains `kind` on `input` and scores the selected queries of a pool with it (their texts and runs
 * read after training, in one snapshot); the model itself is not returned. In a worker on a
 * workspace file, the worker that trained reads and scores them: the engine's thread neither reads
 * the texts (~0.6 s for a pool of 60,000 pairs) nor receives the model and sends it back to be
 * scored. Elsewhere the model is scored as trainSaved's then scoreSaved's would be: the same scores.
 */
export async function trainAndScore(job: TrainJob, sel: ScoringSelection, o: RunOptions): Promise<{ scored: ScoredLists; report: TrainReport; read: ReadCounts }> {
  const r = await trainRun(job, o, undefined, sel);
  if (r.scored) return { scored: r.scored, report: r.report, read: r.read };
  throwIfAborted(o.signal);
  const items = readScoringSelection(job.input.ws, sel);
  const { scores } = await scoreSaved(r.saved!, items, o);
  return { scored: items.map((it, i) => ({ id: it.queryId, candidates: it.candidates.map((c) => c.id), scores: scores[i]! })), report: r.report, read: r.read };
}

async function trainRun(
  { kind, config, input, dev, opts, wordVectors }: TrainJob,
  o: RunOptions,
  encode: { meta?: Record<string, unknown> } | undefined,
  scoreAfter?: ScoringSelection,
): Promise<{ saved?: SavedModel; encoded?: EncodedModel; scored?: ScoredLists; report: TrainReport; read: ReadCounts; trainedOn?: TrainedOnRecord[] }> {
  throwIfAborted(o.signal); // aborted already: its 'abort' event has fired and would not stop the worker
  const workerPath = resolveWorkerPath(o);
  const path = workerPath ? input.ws.fileForWorkers() : null;
  const pairs = { positives: input.pairs.positives, negatives: input.pairs.negatives };
  const inThread = path ? null : joinTrainingData(pairs, readUnlabeled(input.ws, input.unlabeled));
  if (workerPath) {
    const job = path ? { read: { path, ...pairs, unlabeled: input.unlabeled, ...(input.trainedOn ? { trainedOn: input.trainedOn } : {}) } } : { data: inThread!.data };
    const h = trainInWorker({ kind, config, ...job, dev, opts, ...(wordVectors ? { wordVectors: [...wordVectors] } : {}), ...(encode ? { encode } : {}), ...(path && scoreAfter ? { scoreAfter } : {}) }, { workerPath, onProgress: o.onProgress });
    const onAbort = (): void => h.cancel();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const r = await h.promise;
      for (const [k, v] of r.wordVectors ?? []) wordVectors?.set(k, v);
      return {
        ...(r.saved ? { saved: r.saved } : {}),
        ...(r.encoded ? { encoded: r.encoded } : {}),
        ...(r.scored ? { scored: r.scored } : {}),
        report: r.report,
        read: r.read ?? readCounts(inThread!),
        ...(r.trainedOn ? { trainedOn: r.trainedOn } : {}),
      };
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
    }
  }
  const data = inThread!.data;
  await initBackend();
  const model = await createModel(kind, config ?? {});
  try {
    const report = await model.train(data, { ...opts, ...(wordVectors ? { wordVectorCache: wordVectors } : {}), dev, signal: o.signal, onProgress: o.onProgress });
    return { saved: model.save(), report, read: readCounts(inThread!) };
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
