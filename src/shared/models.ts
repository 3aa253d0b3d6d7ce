/** Shared (zod-free) types of the Models screen and the model commands. */
import type { SelectedOn } from './selected-on';

export const MODEL_KINDS = ['tfidf', 'skipgram', 'bow-cnn', 'cnn', 'lstm', 'gru', 'rcnn', 'ltr', 'fused', 'mnet-fisher', 'dae', 'hnil'] as const;

/** A model's name (models.train, qpairs train --name, the Models form): letters, digits, . _ + -, up to 100, starting with a letter or digit. */
export const MODEL_NAME_RE = /^[A-Za-z0-9][\w.+-]{0,99}$/;

/** One progress report of a training run: what the trainers send and the Models screen shows. */
export interface TrainProgressView {
  epoch: number;
  epochs: number;
  step: number;
  steps: number;
  /** Mean training loss of the epoch so far. */
  loss: number;
  /** Set on the last step of an epoch when a dev set is given. */
  devMRR?: number;
  devMAP?: number;
  /** Free text for phases that are not epochs (e.g. "skip-gram pre-training"). */
  phase?: string;
}

/**
 * The step a report announces when it is a preparation with nothing to count yet (epoch 0, no
 * steps: the training worker "reading the questions and answers"), else null. Such a report is
 * no stage of the progress bar and has no loss: shown as "<phase>…" beside a waiting bar.
 */
export function preparingStep(p: TrainProgressView): string | null {
  return p.phase !== undefined && p.epoch === 0 && p.steps === 0 ? p.phase : null;
}

/** What a training is at in a report, as the engine's, the CLI's and the folds' progress say it: its phase, else "epoch 2/5". */
export function trainingStep(p: Pick<TrainProgressView, 'phase' | 'epoch' | 'epochs'>): string {
  return p.phase ?? `epoch ${p.epoch}/${p.epochs}`;
}

/** A training's report, as a finished models.train job gives it. */
export interface TrainReportView {
  backend: string;
  epochs: number;
  bestEpoch: number;
  bestDevMRR?: number;
  bestDevMAP?: number;
  history: Array<{ epoch: number; loss: number; devMRR?: number; devMAP?: number; seconds: number }>;
  examplesPerSecond: number;
  exampleUnit: string;
  seconds: number;
}

/**
 * A stored model as models.list gives it. A row whose report or training record lacks fields (damaged,
 * or written by another program) is listed with what it has: a figure it lacks is null (shown "—"),
 * a list it lacks is empty (history) or null (trainPools), an optional part of the wrong shape absent
 * (engine/model-view.ts).
 */
export interface ModelInfoView {
  name: string;
  kind: string;
  created: string;
  bytes: number;
  report: Omit<TrainReportView, 'epochs' | 'bestEpoch' | 'examplesPerSecond' | 'seconds'> & {
    epochs: number | null;
    bestEpoch: number | null;
    examplesPerSecond: number | null;
    seconds: number | null;
  };
  training: {
    /** null: not recorded. */
    trainPools: string[] | null;
    /** null: none; absent: not recorded. */
    devPool?: string | null;
    epochs: number | null;
    seed: number | null;
    /** The settings given for this training over the model's defaults (absent: all defaults). */
    config?: Record<string, unknown>;
    positives: number | null;
    negatives: number | null;
    questions: number | null;
    /** The overlap check against the dev pool (src/main/training/dev-overlap.ts). */
    overlap?: { overlapping: number; dropped: number; kept: boolean; devQueries: number; devQueriesInTraining: number };
    /** Grouped cross-validation (src/main/training/cross-validate.ts): CV MAP/MRR with 95% CIs. */
    cv?: { folds: number; repeats: number; clusters: number; queries?: number; scoredQuestions?: number; MAP: number; MRR: number; ci: { MAP: [number, number] | null; MRR: [number, number] | null }; selection: string };
    /** Early stopping on held-out training clusters (no dev pool, no --cv). */
    earlyStopping?: { heldOutQueries: number; note: string };
    /** ltr/fused: runs left out of the features because their models were trained on these training queries. */
    inSampleRunsLeftOut?: Array<{ run: string; trainedOn: number | null }>;
    /** fused: within-query permutation importance of each feature on the training lists (MAP drop). */
    importance?: Array<{ feature: string; importance: number }>;
  };
  /**
   * Per pool the model scored: how many of its evaluated queries the model was trained on, and whether
   * those queries chose it (its dev pool, or cross-validation: shared/selected-on.ts).
   */
  overlap?: Array<{ pool: string; trainedOn: number; of: number; selectedOn?: SelectedOn }>;
  /** The stored ltr/fused models that take this model's run as a feature (absent: none). */
  featureOf?: string[];
}

export interface ModelsView {
  /** The tfjs backend the models run on in this process: tensorflow (tfjs-node), wasm or cpu. */
  backend: string;
  kinds: string[];
  /** Each kind's settings with their defaults: what models.train's `config` may set. */
  settings: Record<string, Record<string, unknown>>;
  models: ModelInfoView[];
}

export interface TrainProgressEvent {
  jobId: string;
  name: string;
  progress: TrainProgressView;
}

/** "maxN 1" for a model list: the settings a model was trained with over its defaults. */
export function describeSettings(config: Record<string, unknown> | undefined): string {
  if (!config || Object.keys(config).length === 0) return 'default settings';
  return Object.entries(config)
    .map(([k, v]) => `${k} ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join(', ');
}

/**
 * The head of a model's CV figure, for `qpairs train`, `qpairs models list` and the Models screen alike:
 * "grouped CV MAP 76.51 (95% CI 72.10–80.92), MRR 80.09 (95% CI 73.73–86.44): 5 folds × 3 repeats"
 * (percent, two decimals; a CI left out when there is none). Each surface adds what it says after it.
 */
export function describeCvFigures(cv: Pick<NonNullable<ModelInfoView['training']['cv']>, 'MAP' | 'MRR' | 'ci' | 'folds' | 'repeats'>): string {
  const pct = (x: number): string => (Number.isFinite(x) ? (100 * x).toFixed(2) : '—');
  const ci = (c: [number, number] | null): string => (c ? ` (95% CI ${pct(c[0])}–${pct(c[1])})` : '');
  return `grouped CV MAP ${pct(cv.MAP)}${ci(cv.ci.MAP)}, MRR ${pct(cv.MRR)}${ci(cv.ci.MRR)}: ${cv.folds} folds × ${cv.repeats} repeat${cv.repeats === 1 ? '' : 's'}`;
}

/**
 * The progress note of a training waiting for a slot of the training queue (a model's training or a live
 * retrain): "queued: 2 trainings ahead (at most 1 at once)". The Live panel tells a waiting retrain by it
 * (isQueuedTrainingNote), and says it itself, without `max`, from a status loaded while one waits.
 */
export function queuedTrainingNote(ahead: number, max?: number): string {
  return `queued: ${ahead} training${ahead === 1 ? '' : 's'} ahead${max === undefined ? '' : ` (at most ${max} at once)`}`;
}

/** Whether a training's progress note is queuedTrainingNote's. */
export function isQueuedTrainingNote(note: string): boolean {
  return note.startsWith('queued:');
}
