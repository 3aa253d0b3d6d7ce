/**
 * Trained models in the workspace (migration 3): a model's SavedModel (config, vocabulary,
 * Float32 weights) stored as one BLOB (model-bytes.ts: bit-identical weights on loading, so a
 * reloaded model scores identically), its training report and how it was trained.
 */
import type { SavedModel, TrainReport } from '../models/types';
import type { EncodedModel } from '../models/worker-protocol';
import { NotFoundError } from '../errors';
import { decodeSavedModel, encodeForStore, type Header } from './model-bytes';
import type { Workspace } from '../workspace/workspace';
import type { DevOverlap } from './dev-overlap';
import type { CvResult } from './cross-validate';
import type { LabelPoolRecord } from './label-pools';

/** How a model was trained (shown in the Models screen and datasheets). */
export interface TrainingInfo {
  /** word2vec text file the embeddings came from, when given. */
  vectors?: string;
  /** The settings given for this training (`--config`, the Models screen's settings), over the model's defaults; absent when none were. */
  config?: Record<string, unknown>;
  trainPools: string[];
  devPool: string | null;
  epochs: number | null;
  seed: number;
  positives: number;
  negatives: number;
  questions: number;
  /** Answers/comments passed as unlabeled text (absent in models trained before migration 4). */
  extraTexts?: number;
  /** Training queries recorded in model_trained_on (absent in models trained before migration 7). */
  trainedOnQueries?: number;
  /**
   * The labeled queries whose figures chose the version kept (ids): the dev pool's dev set, or the
   * training queries early stopping held out. selected-on.ts flags a run's figures on any of them as
   * optimistic, whatever pool holds them now: the dev pool's name said nothing of its queries once it
   * was deleted and made again (pool ids are reused too) or held other queries. Absent in models
   * trained before it was recorded (and with neither). Kept server-side: listings leave it out (listedTraining).
   */
  selectedOnQueries?: string[];
  /**
   * The training pools and the dev pool as they were when the model read their labels, with its
   * label-reading feature models' (ltr, fused): which pool each was and whether it was blind (label-pools.ts). An annotator is not shown the runs of a model
   * that learned blind labels (engine/run-visibility.ts), whatever becomes of those pools. Absent in
   * models trained before it was recorded. Kept server-side: listings leave it out (listedTraining).
   */
  labelPools?: LabelPoolRecord[];
  /** The overlap check against the dev pool (with a dev pool). */
  overlap?: DevOverlap;
  /** Grouped cross-validation figures (with --cv). */
  cv?: CvResult;
  /**
   * Early stopping without a dev pool or --cv: a seeded share of the training clusters held out
   * (heldOutQueries of them, not trained on), or why none was.
   */
  earlyStopping?: { heldOutQueries: number; heldOutClusters: number; clusters: number; note: string };
  /**
   * fused: each feature's within-query permutation importance (MAP drop when the feature is
   * shuffled among a query's candidates), measured on the training lists — how much the fitted
   * model relies on the feature, not a held-out estimate of its value (permutation-importance.ts).
   */
  importance?: Array<{ feature: string; importance: number }>;
  /**
   * ltr/fused: runs of the training pools left out of the features because their models were trained
   * on some of the training queries (trainedOn of them; null = unknown, a model from before QPairs
   * recorded it) — train.ts inSampleModelRuns.
   */
  inSampleRunsLeftOut?: Array<{ run: string; trainedOn: number | null }>;
  /**
   * ltr/fused: the feature runs whose models read labels, with how many queries each was trained on.
   * Those queries count as this model's own in the overlap marks (trained-on.ts inheritTrainedOn):
   * its scores there carry the feature's in-sample scores.
   */
  featureModels?: Array<{ run: string; trainedOn: number }>;
}

export interface ModelInfo {
  name: string;
  kind: string;
  created: string;
  report: TrainReport;
  training: TrainingInfo;
  bytes: number;
}

export function storeModel(ws: Workspace, name: string, saved: SavedModel, report: TrainReport, training: TrainingInfo): void {
  storeEncodedModel(ws, name, encodeForStore(saved), report, training);
}

/** Stores a model already encoded (encodeForStore), under `name`. */
export function storeEncodedModel(ws: Workspace, name: string, model: EncodedModel, report: TrainReport, training: TrainingInfo): void {
  const b = model.bytes;
  ws.stmt(
    `INSERT INTO models(name, kind, saved, report, training, created) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(name) DO UPDATE SET kind = excluded.kind, saved = excluded.saved, report = excluded.report,
       training = excluded.training, created = excluded.created`,
  ).run(name, model.kind, Buffer.from(b.buffer, b.byteOffset, b.byteLength), JSON.stringify(report), JSON.stringify(training), new Date().toISOString());
}

/**
 * A stored model's meta (saved.meta) read from the BLOB's JSON header alone, without its weights
 * (a fused model's are megabytes); undefined when there is no such model or no meta.
 */
export function savedModelMeta(ws: Workspace, name: string): Record<string, unknown> | undefined {
  const head = ws.stmt(`SELECT substr(saved, 1, 4) AS len FROM models WHERE name = ?`).get(name) as { len: Buffer } | undefined;
  if (!head || head.len.length < 4) return undefined;
  const len = Buffer.from(head.len).readUInt32LE(0);
  const row = ws.stmt(`SELECT substr(saved, 5, ?) AS json FROM models WHERE name = ?`).get(len, name) as { json: Buffer };
  return (JSON.parse(Buffer.from(row.json).toString('utf8')) as Header).meta;
}

export function findModel(ws: Workspace, name: string): { info: ModelInfo; saved: SavedModel } | null {
  const r = ws.stmt(`SELECT name, kind, created, report, training, saved FROM models WHERE name = ?`).get(name) as
    | { name: string; kind: string; created: string; report: string; training: string; saved: Buffer }
    | undefined;
  if (!r) return null;
  return {
    info: { name: r.name, kind: r.kind, created: r.created, report: JSON.parse(r.report), training: JSON.parse(r.training), bytes: r.saved.length },
    saved: decodeSavedModel(r.saved),
  };
}

export function getModel(ws: Workspace, name: string): { info: ModelInfo; saved: SavedModel } {
  const m = findModel(ws, name);
  if (!m) throw noModel(ws, name);
  return m;
}

/** Throws getModel's NotFoundError unless a model of that name is stored (without decoding it). */
export function requireModel(ws: Workspace, name: string): void {
  if (!ws.stmt(`SELECT 1 FROM models WHERE name = ?`).get(name)) throw noModel(ws, name);
}

function noModel(ws: Workspace, name: string): NotFoundError {
  const names = listModels(ws).map((x) => x.name);
  return new NotFoundError(`no model named "${name}"` + (names.length ? ` (models: ${names.join(', ')})` : ' (train one with: qpairs train W --model M --name NAME)'));
}

export function listModels(ws: Workspace): ModelInfo[] {
  return (
    ws.stmt(`SELECT name, kind, created, report, training, length(saved) AS bytes FROM models ORDER BY id`).all() as Array<{
      name: string;
      kind: string;
      created: string;
      report: string;
      training: string;
      bytes: number;
    }>
  ).map((r) => ({ name: r.name, kind: r.kind, created: r.created, report: JSON.parse(r.report), training: listedTraining(JSON.parse(r.training) as TrainingInfo), bytes: r.bytes }));
}

/**
 * A training record as listings and a training's result show it: without the query ids that chose
 * the model (thousands on a big dev pool) nor the record of its pools' ids and blind flags.
 */
export function listedTraining(t: TrainingInfo): TrainingInfo {
  if (t.selectedOnQueries === undefined && t.labelPools === undefined) return t;
  const { selectedOnQueries: _ids, labelPools: _pools, ...rest } = t;
  return rest;
}

export function deleteModel(ws: Workspace, name: string): boolean {
  return ws.stmt(`DELETE FROM models WHERE name = ?`).run(name).changes > 0;
}
