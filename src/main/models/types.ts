/**
 * Plain data interfaces of the research rerankers. Nothing here depends on tfjs, the workspace
 * or Electron: the lead wires these to the SQLite workspace, the CLI and the UI.
 */

import { MODEL_KINDS, type TrainProgressView as TrainProgress } from '../../shared/models';

/** Every model id the registry knows: the kinds the contract and the Models screen offer. */
export const MODEL_IDS = MODEL_KINDS;
export type ModelId = (typeof MODEL_IDS)[number];

/** One question as the models see it (plain text; HTML is stripped by the importers). */
export interface QText {
  id: string;
  title: string;
  body: string;
  /** Forum category, when known (the `fused` model's metadata features). */
  category?: string;
  /** Asker's user id, when known (the `fused` model's metadata features). */
  user?: string;
}

/**
 * Scores of other rankers ("runs") for the candidates of one query, used by `ltr` only.
 * run name → candidate id → raw score, higher = more similar. A rank r is passed as −r.
 * Candidates missing from a run get that run's lowest feature value.
 */
export type RunScores = Record<string, ReadonlyMap<string, number>>;

/** Extra per-query information some models need at score time (`ltr` and `fused` read it). */
export interface ScoreContext {
  runs?: RunScores;
}

export interface TrainingData {
  /** Texts of every id used below (queries, positives, negatives, random pool). */
  questions: ReadonlyMap<string, QText>;
  /** Labeled similar pairs (query id, candidate id). */
  positives: ReadonlyArray<readonly [string, string]>;
  /** Labeled dissimilar pairs (query id, candidate id). */
  negatives?: ReadonlyArray<readonly [string, string]>;
  /** Ids random negatives are sampled from (may include labeled ids; positives of a query are skipped). */
  randomPool: readonly string[];
  /**
   * Unlabeled texts for unsupervised fitting (idf, skip-gram, encoder-decoder pre-training),
   * e.g. answers/comments. All `questions` are always used as well.
   */
  extraTexts?: readonly string[];
  /** hnil: question id → the users who answered or commented on it (the network's answerer edges). */
  answerers?: ReadonlyMap<string, readonly string[]>;
  /** ltr and fused: run name → query id → candidate id → score (higher = more similar). */
  runs?: Record<string, ReadonlyMap<string, ReadonlyMap<string, number>>>;
}

export interface DevQuery {
  query: QText;
  candidates: QText[];
  relevant: ReadonlySet<string>;
  /** Needed by ltr (the runs of this query's candidates). */
  context?: ScoreContext;
}
export interface DevSet {
  queries: DevQuery[];
}

/** One progress report of a training run (the same type the Models screen reads). */
export type { TrainProgressView as TrainProgress } from '../../shared/models';

/** Dense word vectors: `data` is row-major [words.length × dim]. */
export interface WordVectors {
  words: string[];
  dim: number;
  data: Float32Array;
}

export interface TrainOptions {
  epochs?: number;
  seed?: number;
  onProgress?: (p: TrainProgress) => void;
  signal?: AbortSignal;
  /** Per-epoch dev evaluation; the epoch with the best dev MRR is kept. */
  dev?: DevSet;
  /** Initial word vectors for the neural models (else they train skip-gram on the corpus). */
  embeddings?: WordVectors;
  /**
   * Skip-gram word vectors pre-trained already, by the key of what they were trained on
   * (neural-common.ts pretrainKey: the corpus texts in order, the seed and the settings). A training
   * whose pre-training has a key here takes those vectors (the same ones it would train); one it
   * trains is added. CV folds and the final model share one (cross-validate.ts).
   */
  wordVectorCache?: WordVectorCache;
}

/** Pre-trained word vectors by pretrainKey (TrainOptions.wordVectorCache). */
export type WordVectorCache = Map<string, WordVectors>;

export interface EpochRecord {
  epoch: number;
  loss: number;
  devMRR?: number;
  devMAP?: number;
  seconds: number;
}

export interface TrainReport {
  kind: ModelId;
  backend: string;
  epochs: number;
  /** 1-based epoch whose weights were kept (best dev MRR, else the last). */
  bestEpoch: number;
  bestDevMRR?: number;
  bestDevMAP?: number;
  history: EpochRecord[];
  /** Training examples processed per second (unit in `exampleUnit`). */
  examplesPerSecond: number;
  exampleUnit: string;
  seconds: number;
  notes?: string[];
}

export interface SavedTensor {
  shape: number[];
  data: Float32Array;
}

/**
 * A trained model as plain data (structured-cloneable; JSON except the Float32Arrays).
 * `loadModel(saved)` rebuilds a ranker that scores identically.
 */
export interface SavedModel {
  format: 1;
  kind: ModelId;
  config: Record<string, unknown>;
  weights: Record<string, SavedTensor>;
  vocab?: string[];
  meta?: Record<string, unknown>;
}

export interface Ranker {
  readonly kind: ModelId;
  /** The full configuration (defaults filled in), JSON-able. */
  readonly config: Readonly<Record<string, unknown>>;
  train(data: TrainingData, opts?: TrainOptions): Promise<TrainReport>;
  /** Similarity of each candidate to the query (higher = more similar), aligned with `candidates`. */
  score(query: QText, candidates: readonly QText[], ctx?: ScoreContext): number[];
  save(): SavedModel;
  /** Frees tensors; the ranker is unusable afterwards. */
  dispose(): void;
}
