/**
 * Training a reranker on the workspace's data and scoring pools with it. Training runs in a
 * worker thread (the bundled train-worker) when one is available, so the app stays responsive;
 * progress (loss, dev MRR/MAP per epoch) is reported, cancel aborts it, and the best epoch by dev
 * MRR is kept. The trained model is stored in the workspace; scoring a pool stores a run named
 * after the model, so `eval`, the Evaluate screen and the comparisons see it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { QPairsError, throwIfAborted } from '../errors';
import {
  createModel,
  isModelId,
  loadModel,
  MODEL_IDS,
  scoreInWorker,
  trainInWorker,
  initBackend,
  backendName,
  parseWord2VecText,
  SkipGramRanker,
  evaluateRanker,
} from '../models';
import type { SavedModel, TrainProgress, TrainReport, WordVectors } from '../models/types';
import type { Workspace } from '../workspace/workspace';
import { buildDevSet, buildTrainingData, scoringItems, type ExtraTextLimits } from './data';
import { deleteModel, getModel, storeModel, type TrainingInfo } from './store';

export interface TrainSpec {
  model: string;
  name: string;
  trainPools?: string[];
  devPool?: string | null;
  epochs?: number;
  seed?: number;
  config?: Record<string, unknown>;
  /**
   * A word2vec text file (`word v1 … vd` per line, optional `count dim` header). For `skipgram`
   * the model is these vectors (no training); for the neural models and `ltr` they initialise the
   * embeddings instead of skip-gram trained on the corpus.
   */
  vectors?: string;
  /** Bounds on the answers/comments passed as unlabeled text (default EXTRA_TEXT_LIMITS in data.ts). */
  extraTexts?: ExtraTextLimits;
}

/** Reads word2vec text vectors (at most maxWords words, in file order). */
export function readWordVectors(file: string, maxWords = 500_000): WordVectors {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new QPairsError(`cannot read word vectors ${file}: ${(e as Error).message}`, { file });
  }
  return parseWord2VecText(text, { file, maxWords });
}

export interface RunOptions {
  onProgress?: (p: TrainProgress) => void;
  signal?: AbortSignal;
  /** The bundled worker; null trains in this thread (tests, or when no bundle exists). */
  workerPath?: string | null;
}

/** The bundled model worker next to this bundle (out/node, out/main) or in out/node of the checkout. */
export function defaultWorkerPath(here = import.meta.dirname): string | null {
  const candidates = [path.join(here, 'train-worker.mjs'), path.join(here, 'train-worker.js')];
  let dir = here;
  for (let i = 0; i < 5; i++) {
    candidates.push(path.join(dir, 'out', 'node', 'train-worker.mjs'));
    dir = path.dirname(dir);
  }
  return candidates.find((p) => existsSync(p)) ?? null;
}

const NAME_RE = /^[A-Za-z0-9][\w.+-]{0,99}$/;

export function checkModelName(ws: Workspace, name: string): void {
  if (!NAME_RE.test(name)) throw new QPairsError(`model name "${name}" must be letters, digits, . _ + - (up to 100, starting with a letter or digit)`);
  for (const p of ws.listPools()) {
    const clash = ws.listRuns(p.name).find((r) => r.name === name && r.kind !== 'model');
    if (clash) throw new QPairsError(`"${name}" is already a run of pool "${p.name}" (kind ${clash.kind}); choose another model name`);
  }
}

/** Trains a model and stores it under spec.name; returns its report. */
export async function trainModel(ws: Workspace, spec: TrainSpec, o: RunOptions = {}): Promise<{ report: TrainReport; training: TrainingInfo }> {
  if (!isModelId(spec.model)) throw new QPairsError(`unknown model "${spec.model}" (models: ${MODEL_IDS.join(', ')})`);
  checkModelName(ws, spec.name);
  const trainPools = spec.trainPools ?? [];
  for (const p of trainPools) ws.pool(p);
  if (spec.devPool) ws.pool(spec.devPool);
  const exclude = new Set([spec.name]);
  const built = buildTrainingData(ws, trainPools, { excludeRuns: exclude, extraTexts: spec.extraTexts });
  // tfidf and skipgram learn from the corpus text alone; the others need labeled similar pairs.
  const supervised = spec.model !== 'tfidf' && spec.model !== 'skipgram';
  if (supervised && built.positives === 0) {
    throw new QPairsError(
      trainPools.length
        ? `the training pools (${trainPools.join(', ')}) have no relevant labeled pair and the workspace no marked duplicates`
        : 'the workspace has no user-marked duplicate pairs to train on; give --train-pool P (a labeled pool)',
    );
  }
  const dev = spec.devPool ? buildDevSet(ws, spec.devPool, { excludeRuns: exclude }) : undefined;
  if (dev && dev.queries.length === 0) throw new QPairsError(`dev pool "${spec.devPool}" has no labeled query`);
  const seed = spec.seed ?? 1;
  const embeddings = spec.vectors ? readWordVectors(spec.vectors) : undefined;
  const opts = { epochs: spec.epochs, seed, embeddings };
  throwIfAborted(o.signal);
  let saved: SavedModel;
  let report: TrainReport;
  const workerPath = o.workerPath === undefined ? defaultWorkerPath() : o.workerPath;
  if (embeddings && spec.model === 'skipgram') {
    // Imported vectors are the model: nothing to train.
    const t0 = Date.now();
    const model = SkipGramRanker.fromWordVectors(embeddings);
    saved = model.save();
    const evaluation = dev ? evaluateRanker(model, dev) : null;
    model.dispose();
    report = {
      kind: 'skipgram',
      backend: 'js',
      epochs: 0,
      bestEpoch: 0,
      ...(evaluation ? { bestDevMRR: evaluation.mrr, bestDevMAP: evaluation.map } : {}),
      history: [],
      examplesPerSecond: 0,
      exampleUnit: 'words',
      seconds: (Date.now() - t0) / 1000,
      notes: [`imported ${embeddings.words.length} word vectors (dim ${embeddings.dim}) from ${spec.vectors}`],
    };
  } else if (workerPath) {
    const h = trainInWorker({ kind: spec.model, config: spec.config, data: built.data, dev, opts }, { workerPath, onProgress: o.onProgress });
    const onAbort = (): void => h.cancel();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      ({ saved, report } = await h.promise);
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
    }
  } else {
    await initBackend();
    const model = await createModel(spec.model, spec.config ?? {});
    try {
      report = await model.train(built.data, { ...opts, dev, signal: o.signal, onProgress: o.onProgress });
      saved = model.save();
    } finally {
      model.dispose();
    }
  }
  const training: TrainingInfo = {
    ...(spec.vectors ? { vectors: spec.vectors } : {}),
    trainPools,
    devPool: spec.devPool ?? null,
    epochs: spec.epochs ?? null,
    seed,
    positives: built.positives,
    negatives: built.negatives,
    questions: built.data.questions.size,
    extraTexts: built.extraTexts,
  };
  throwIfAborted(o.signal);
  storeModel(ws, spec.name, saved, report, training);
  return { report, training };
}

/** Scores every query of a pool with a stored model and stores the scores as the run `name`. */
export async function scorePool(ws: Workspace, name: string, pool: string, o: RunOptions = {}): Promise<{ queries: number; pairs: number; backend: string }> {
  const { saved } = getModel(ws, name);
  ws.pool(pool);
  const items = scoringItems(ws, pool, { excludeRuns: new Set([name]) });
  let scores: number[][];
  let backend: string;
  const workerPath = o.workerPath === undefined ? defaultWorkerPath() : o.workerPath;
  if (workerPath) {
    const h = scoreInWorker(saved, items.map((i) => ({ query: i.query, candidates: i.candidates, ctx: i.ctx })), { workerPath });
    const onAbort = (): void => h.cancel();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      scores = await h.promise;
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
    }
    backend = 'worker';
  } else {
    await initBackend();
    const model = await loadModel(saved);
    try {
      scores = items.map((i) => model.score(i.query, i.candidates, i.ctx));
    } finally {
      model.dispose();
    }
    backend = backendName();
  }
  throwIfAborted(o.signal);
  let pairs = 0;
  ws.transaction(() => {
    ws.deleteRun(pool, name);
    const run = ws.ensureRun(pool, name, 'model', { model: name, kind: saved.kind });
    items.forEach((it, i) => {
      const s = scores[i]!;
      it.candidates.forEach((c, j) => {
        const v = s[j]!;
        if (Number.isFinite(v)) {
          ws.setRunScore(run, it.queryId, c.id, v);
          pairs++;
        }
      });
    });
  });
  return { queries: items.length, pairs, backend };
}

/** Deletes a stored model and the runs it scored into pools (runs of kind "model" with its name). */
export function deleteModelAndRuns(ws: Workspace, name: string): boolean {
  return ws.transaction(() => {
    const deleted = deleteModel(ws, name);
    for (const p of ws.listPools()) {
      if (ws.listRuns(p.name).some((r) => r.name === name && r.kind === 'model')) ws.deleteRun(p.name, name);
    }
    return deleted;
  });
}
