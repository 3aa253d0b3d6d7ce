/**
 * Worker entry (worker_threads): trains or batch-scores a model off the UI thread.
 * Protocol: ../models/worker-protocol.ts. Bundle this file as its own esbuild entry point.
 */
import { parentPort } from 'node:worker_threads';
import { createModel, loadModel } from '../models/registry';
import type { FromWorker, ReadCounts, ScoredLists, ScoringSelection, ToWorker, TrainedOnRecord, WorkspaceTrainingData } from '../models/worker-protocol';
import type { SavedModel, TrainingData, WordVectorCache } from '../models/types';
import { Workspace } from '../workspace/workspace';
import { joinTrainingData, readCounts, readScoringSelection, readUnlabeled } from './data';
import { poolScoresOf, readPoolScoring } from './pool-scores';
import { trainedOnFingerprints } from './trained-on';
import { prepareLive } from './live-retrain';
import { encodeForStore } from './model-bytes';
import { loadAddonThenSay } from '../workspace/addon-workers';

const port = parentPort;
// First thing: the host terminates this worker only once the SQLite addon is loaded (addon-workers.ts).
loadAddonThenSay(port);

function send(msg: FromWorker, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(msg, transfer);
}

function weightBuffers(saved: SavedModel): ArrayBuffer[] {
  const seen = new Set<ArrayBuffer>();
  for (const t of Object.values(saved.weights)) {
    const b = t.data.buffer as ArrayBuffer;
    if (t.data.byteOffset === 0 && t.data.byteLength === b.byteLength) seen.add(b);
  }
  return [...seen];
}

/** The training data from the workspace file (on this worker's own read-only connection) and the engine's labeled pairs. */
function readTrainingData(r: WorkspaceTrainingData): { data: TrainingData; read: ReadCounts } {
  const ws = Workspace.open(r.path, { readonly: true });
  try {
    const built = joinTrainingData(r, readUnlabeled(ws, r.unlabeled));
    return { data: built.data, read: readCounts(built) };
  } finally {
    ws.close();
  }
}

/**
 * The selected queries of a pool (texts and runs read here, on this worker's own read-only
 * connection) scored by the model as saved — loaded from its saved form, as a model handed over
 * and scored by a 'score' job is, so the scores are the same.
 */
async function scoreSelection(path: string, saved: SavedModel, sel: ScoringSelection): Promise<ScoredLists> {
  const ws = Workspace.open(path, { readonly: true });
  let items: ReturnType<typeof readScoringSelection>;
  try {
    items = readScoringSelection(ws, sel);
  } finally {
    ws.close();
  }
  const model = await loadModel(saved);
  try {
    return items.map((it) => ({ id: it.queryId, candidates: it.candidates.map((c) => c.id), scores: model.score(it.query, it.candidates, it.ctx) }));
  } finally {
    model.dispose();
  }
}

/** One job per worker: a cancelled job's worker is terminated by the client (worker-client.ts). */
async function handle(msg: ToWorker): Promise<void> {
  try {
    if (msg.type === 'start') {
      let data = msg.data;
      let read: ReadCounts | undefined;
      let trainedOn: TrainedOnRecord[] | undefined;
      if (msg.read) {
        send({ type: 'progress', progress: { epoch: 0, epochs: 1, step: 0, steps: 0, loss: 0, phase: 'reading the questions and answers' } });
        ({ data, read } = readTrainingData(msg.read));
        // The training queries' fingerprints, from the texts just read (~1 ms a query on the engine's thread).
        const questions = data.questions;
        if (msg.read.trainedOn) trainedOn = trainedOnFingerprints(msg.read.trainedOn.map((id) => ({ id, title: questions.get(id)?.title ?? '', body: questions.get(id)?.body ?? '' })));
      }
      if (!data) throw new Error('a training job needs its data or where to read it');
      const model = await createModel(msg.kind, msg.config ?? {});
      let last = 0;
      // Skip-gram vectors pre-trained by an earlier training (a CV fold): the ones trained here go back.
      const wordVectorCache: WordVectorCache = new Map(msg.wordVectors ?? []);
      try {
        const report = await model.train(data, {
          ...msg.opts,
          ...(msg.wordVectors ? { wordVectorCache } : {}),
          dev: msg.dev,
          onProgress: (progress) => {
            const now = Date.now();
            // throttle step updates to 10/s; always send epoch ends
            if (progress.step === progress.steps || now - last > 100) {
              last = now;
              send({ type: 'progress', progress });
            }
          },
        });
        const saved = model.save();
        const given = new Set((msg.wordVectors ?? []).map(([k]) => k));
        const pretrained = [...wordVectorCache].filter(([k]) => !given.has(k));
        const done = { report, ...(read ? { read } : {}), ...(trainedOn ? { trainedOn } : {}), ...(pretrained.length ? { wordVectors: pretrained } : {}) };
        if (msg.scoreAfter) {
          // Scored here: the engine's thread neither reads the queries' texts nor gets the model.
          if (!msg.read) throw new Error('scoring after training needs the workspace file (read)');
          send({ type: 'progress', progress: { epoch: 0, epochs: 1, step: 0, steps: 0, loss: 0, phase: 'scoring' } });
          send({ type: 'done', scored: await scoreSelection(msg.read.path, saved, msg.scoreAfter), ...done });
        } else if (msg.encode) {
          // Encoded here, as the workspace stores it: the engine's thread only writes the bytes.
          const encoded = encodeForStore(saved, msg.encode.meta);
          const b = encoded.bytes;
          send({ type: 'done', encoded, ...done }, b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? [b.buffer as ArrayBuffer] : []);
        } else send({ type: 'done', saved, ...done }, weightBuffers(saved));
      } finally {
        model.dispose();
      }
    } else if (msg.type === 'score-pool') {
      // The pool's lists and texts read here, on this worker's own read-only connection: on the
      // engine's thread that read (~1 s for 60,000 pairs) and its copy here held every label up.
      const ws = Workspace.open(msg.path, { readonly: true });
      let input: ReturnType<typeof readPoolScoring>;
      try {
        input = readPoolScoring(ws, msg.model, msg.pool);
      } finally {
        ws.close();
      }
      const model = await loadModel(input.saved);
      try {
        const scores = input.items.map((it) => model.score(it.query, it.candidates, it.ctx));
        send({ type: 'pool-scored', result: poolScoresOf(input, scores) });
      } finally {
        model.dispose();
      }
    } else if (msg.type === 'live-prepare') {
      // Read here, on this worker's own read-only connection, in one snapshot: on the engine's
      // thread these reads held every label up at the start of each live retrain.
      const ws = Workspace.open(msg.path, { readonly: true });
      try {
        send({ type: 'live-prepared', result: ws.snapshot(() => prepareLive(ws, msg.pool, msg.spec)) });
      } finally {
        ws.close();
      }
    } else if (msg.type === 'score') {
      const model = await loadModel(msg.saved);
      try {
        const scores = msg.items.map((it) => model.score(it.query, it.candidates, it.ctx));
        send({ type: 'scored', scores });
      } finally {
        model.dispose();
      }
    }
  } catch (e) {
    const err = e as Error;
    send({ type: 'error', name: err?.name ?? 'Error', message: err?.message ?? String(e) });
  }
}

if (port) {
  port.on('message', (msg: ToWorker) => {
    void handle(msg);
  });
}
