/**
 * Messages between the UI/engine thread and `training/train-worker.ts` (a worker_threads Worker).
 *
 *   parent → worker  { type: 'start', kind, config?, data, dev?, opts? }     train a model
 *                    { type: 'start', kind, config?, read, dev?, opts? }     the same, the worker
 *                                  reading the unlabeled data from the workspace file itself
 *                    { type: 'start', …, encode: { meta? } }                 the same, the model
 *                                  handed over encoded as the bytes the workspace stores
 *                    { type: 'start', …, read, scoreAfter: { pool, excludeRuns, only?, except? } }
 *                                  the same, the worker then scoring those queries of the pool
 *                                  with the model (read from the workspace file) instead of handing it over
 *                    { type: 'score', saved, items: [{ query, candidates, ctx? }] }  batch scoring
 *                    { type: 'score-pool', path, model, pool }  a pool scored by a stored model,
 *                                  both read by the worker from the workspace file
 *                    { type: 'live-prepare', path, pool, spec }  a live retrain's folds, labeled
 *                                  pairs and checks, read by the worker from the workspace file
 *   worker → parent  { type: 'progress', progress }                          during training
 *                    { type: 'done', saved, report, read?, trainedOn? }       training finished
 *                    { type: 'done', encoded, report, read?, trainedOn? }     the same, encoded
 *                    { type: 'done', scored, report, read? }                 the same, scoreAfter's scores
 *                    { type: 'scored', scores }                               scores per item
 *                    { type: 'pool-scored', result }                          the pool's scores
 *                    { type: 'live-prepared', result }                        the retrain's preparation
 *                    { type: 'error', name, message }                         failed
 *
 * Everything is structured-cloned (Maps, Sets and Float32Arrays survive; weight buffers and
 * the encoded model's bytes are transferred). A job is cancelled by terminating its worker (worker-client.ts): a worker busy in
 * a long synchronous step reads no message until the step ends.
 */
import type { AddonLoaded } from '../workspace/addon-workers';
import type { OverlapReason } from '../overlap';
import type { DevSet, ModelId, QText, SavedModel, ScoreContext, TrainProgress, TrainReport, TrainingData, WordVectors } from './types';

/** Bounds on the answers passed to the models as unlabeled text. */
export interface ExtraTextLimits {
  /** At most this many answers (0 = none). */
  maxTexts?: number;
  /** At most this many characters over all of them. */
  maxChars?: number;
}

/** The labeled training pairs, and the ids whose text the models need besides every question's (training/data.ts). */
export interface LabeledTrainingPairs {
  positives: Array<[string, string]>;
  negatives: Array<[string, string]>;
  textIds: string[];
}

/** What training/data.ts readUnlabeled reads from the workspace: plain data, so it crosses threads. */
export interface UnlabeledSpec {
  trainPools: string[];
  /** Runs that are not features (the model's own, in-sample ones). */
  excludeRuns: string[];
  extraTexts?: ExtraTextLimits;
  /** Ids (pairs' ends, labeled candidates) to give a text even when no question has them. */
  textIds: string[];
}

/**
 * Training data the worker completes itself: the labeled pairs come from the engine (cheap, and
 * what it checks and records), every question's and answer's text is read by the worker from the
 * workspace file on its own read-only connection — on the engine's thread that read (~2 s on a
 * workspace of 100,000 questions) and the copy of it to the worker held every label up.
 */
export interface WorkspaceTrainingData {
  path: string;
  positives: Array<[string, string]>;
  negatives: Array<[string, string]>;
  unlabeled: UnlabeledSpec;
  /** Training queries to fingerprint for the stored model's record (training/trained-on.ts), from the texts read. */
  trainedOn?: string[];
}

/** One recorded training query: its text key and near-duplicate signature (training/trained-on.ts). */
export interface TrainedOnRecord {
  id: string;
  text: string;
  signature: Uint8Array;
}

/** A model's scores of a pool's queries (training/pool-scores.ts; plain data: it crosses from the model worker). */
export interface PoolScores {
  /** The stored model's `created` when it was read: its scores are stored only if it is still that model. */
  created: string;
  kind: string;
  missingRuns: string[];
  /** Every query of the pool, in pool order, with its candidates (pool order) and their scores. */
  queries: Array<{ id: string; candidates: string[]; scores: number[] }>;
  /** Queries given the model's out-of-fold scores (saved with it by --cv) instead of its own. */
  outOfFoldQueries: string[];
  /** Queries where the model tells no candidate apart, and of those the ones without text. */
  uniformQueries: number;
  uniformWithoutText: number;
}

/**
 * A trained model as the workspace stores it (training/model-bytes.ts encodeSavedModel: the header with
 * vocabulary and meta, then the weights), with what the engine reads of it before storing: its
 * kind and its meta as the model saved it (without the meta added for storing, `encode.meta`).
 * Encoded where it trained, so the engine's thread neither receives the vocabulary and weights as
 * objects nor encodes them (~0.4 s at the end of a training on a workspace of 100,000 questions).
 */
export interface EncodedModel {
  kind: string;
  meta?: Record<string, unknown>;
  bytes: Uint8Array;
}

/** Some of a pool's queries to score (training/data.ts scoringItems' options; plain data: it crosses to the worker). */
export interface ScoringSelection {
  pool: string;
  /** Runs that are not features (the model's own, in-sample ones). */
  excludeRuns: string[];
  /** Just these queries, in this order. */
  only?: string[];
  /** The pool's queries but these, in pool order. */
  except?: string[];
}

/** A model's scores of selected queries: each query with its candidates (pool order) and their scores. */
export type ScoredLists = Array<{ id: string; candidates: string[]; scores: number[] }>;

/** What the worker read (the stored model's training info counts them). */
export interface ReadCounts {
  questions: number;
  extraTexts: number;
  extraTextsLeftOut: number;
}

export interface StartMessage {
  type: 'start';
  kind: ModelId;
  config?: Record<string, unknown>;
  /** The training data, or where the worker reads it (`read`): exactly one of the two. */
  data?: TrainingData;
  read?: WorkspaceTrainingData;
  dev?: DevSet;
  opts?: { epochs?: number; seed?: number; embeddings?: WordVectors };
  /** Skip-gram vectors pre-trained already, by key (TrainOptions.wordVectorCache); the ones this training trains come back in `done`. */
  wordVectors?: Array<[string, WordVectors]>;
  /** Hand the model over encoded (EncodedModel), `meta` added to its saved meta first (the out-of-fold scores). */
  encode?: { meta?: Record<string, unknown> };
  /**
   * With `read`: once trained, score these queries of the pool (texts and runs read from the
   * workspace file) and hand over their scores (`done`'s `scored`) instead of the model.
   */
  scoreAfter?: ScoringSelection;
}
export interface ScoreMessage {
  type: 'score';
  saved: SavedModel;
  items: Array<{ query: QText; candidates: QText[]; ctx?: ScoreContext }>;
}
/** Scores a pool with a stored model, the worker reading both from the workspace file (training/pool-scores.ts). */
export interface ScorePoolMessage {
  type: 'score-pool';
  path: string;
  model: string;
  pool: string;
}
/** What a live retrain's preparation depends on (training/live-retrain.ts LiveSpec, without the model's config). */
export interface LivePrepareSpec {
  model: ModelId;
  trainPools: string[];
  runName: string;
  folds?: number;
  seed?: number;
}

/** A live retrain's reads and checks before it trains (training/live-retrain.ts prepareLive; plain data). */
export interface LivePreparation {
  /** Why it cannot train (too few labels); the rest is then empty. */
  refusal?: string;
  trainedQueries: number;
  labeledPairs: number;
  k: number;
  /** The grouped folds of the fully labeled queries. */
  folds: string[][];
  /** Per fold, the training pools' copies of its held-out queries with the overlap check's reason (same-id, same-text, near-duplicate). */
  copies: Array<Array<[string, OverlapReason]>>;
  /** The fully labeled queries' grades: query → candidate → grade. */
  grades: Map<string, Map<string, number>>;
  /** The labeled pairs of the pool's fully labeled queries and the training pools. */
  all: LabeledTrainingPairs;
  /** The pool, then the other training pools. */
  pools: string[];
  inSampleRuns: Array<{ run: string; trainedOn: number | null }>;
  /** Runs that are no features: the live run and the in-sample ones. */
  exclude: string[];
  /** The pool's last label event in the snapshot these were read from (0 when none): the retrain covers the events up to it on the queries it trains on. */
  labelSeq: number;
  /** The pairs labeled by `labelSeq` on queries it does not train on (still being labeled): they count toward the next retrain. */
  uncovered: Array<[string, string]>;
}
/** Prepares a live retrain of `pool`, the worker reading the workspace file. */
export interface LivePrepareMessage {
  type: 'live-prepare';
  path: string;
  pool: string;
  spec: LivePrepareSpec;
}
export type ToWorker = StartMessage | ScoreMessage | ScorePoolMessage | LivePrepareMessage;

export type FromWorker =
  | AddonLoaded
  | { type: 'progress'; progress: TrainProgress }
  | { type: 'done'; saved?: SavedModel; encoded?: EncodedModel; scored?: ScoredLists; report: TrainReport; read?: ReadCounts; trainedOn?: TrainedOnRecord[]; wordVectors?: Array<[string, WordVectors]> }
  | { type: 'scored'; scores: number[][] }
  | { type: 'pool-scored'; result: PoolScores }
  | { type: 'live-prepared'; result: LivePreparation }
  | { type: 'error'; name: string; message: string };
