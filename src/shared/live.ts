/** "Learn as we label" (live retraining) of a pool: the settings and what the engine reports. */

/** Models fast enough to retrain while annotators label (seconds on a pool of a few hundred queries). */
export const LIVE_MODELS = ['fused', 'ltr', 'tfidf', 'dae'] as const;
export type LiveModel = (typeof LIVE_MODELS)[number];

export const LIVE_DEFAULTS = { everyLabels: 20, idleSeconds: 60, models: ['fused'] as LiveModel[] };

/** The run a live model writes into the pool. */
export const liveRunName = (model: string): string => `live-${model}`;

export interface LivePoint {
  model: string;
  /**
   * Labeled pairs the retrain trained on in this pool: its fully labeled queries' (query, candidate)
   * pairs by the pool's default label source, each once however often it was relabeled.
   */
  labels: number;
  /** The pool's fully labeled queries the final model trained on. */
  trainedQueries: number;
  /** Queries scored out of fold, whose MAP/MRR this is (AP = 0 without a relevant candidate). */
  heldOutQueries: number;
  MAP: number | null;
  MRR: number | null;
  seconds: number;
  at: string;
}

/**
 * Training pools' queries a retrain left out of a fold's training because they are the same question
 * as one of the fold's held-out queries (the overlap check: same id, same or near-same text), by reason.
 */
export interface LiveCopiesLeftOut {
  queries: number;
  reasons: { 'same-id': number; 'same-text': number; 'near-duplicate': number };
}

/** "3 training-pool copies of held-out queries left out (1 same id, 2 same text)"; '' for none. */
export function describeCopiesLeftOut(c: LiveCopiesLeftOut | null): string {
  if (!c || c.queries === 0) return '';
  const why = (Object.entries(c.reasons) as Array<[string, number]>)
    .filter(([, n]) => n > 0)
    .map(([r, n]) => `${n} ${r.replace('-', ' ')}`)
    .join(', ');
  return `${c.queries} training-pool ${c.queries === 1 ? 'copy' : 'copies'} of held-out queries left out of their folds' training (${why})`;
}

export interface LiveStatus {
  pool: string;
  enabled: boolean;
  everyLabels: number;
  idleSeconds: number;
  models: string[];
  trainPools: string[];
  /**
   * The stored setting's lists that could not be read (a damaged row, or one another program wrote):
   * `models`, `train_pools`; each reads as an empty list until the setting is saved again. [] when read whole.
   * A list of models naming one that is not in LIVE_MODELS is `models` too, the names in `unknownModels`.
   */
  unreadable: Array<'models' | 'train_pools'>;
  /** The stored setting's model names that are not learn-as-we-label models (LIVE_MODELS); [] when none. */
  unknownModels: string[];
  /** A retrain is running now. */
  running: boolean;
  /** The running retrain's job (job.cancel stops it; the owner's), else null. */
  jobId: string | null;
  /**
   * While the retrain waits for a training slot (serve's `--max-trainings`, default 1): the trainings
   * ahead of it; null when it is not waiting.
   */
  queuedBehind: number | null;
  /** Distinct pairs labeled (or relabeled) since the last retrain started: the count `everyLabels` waits for. */
  labelsSinceLast: number;
  /** Why the last retrain did not finish (e.g. too few labels), else null. */
  lastError: string | null;
  /** Of the pool's last finished retrain, kept in the workspace (null before one has, or when QPairs older than schema 13 made it). */
  trainingCopiesLeftOut: LiveCopiesLeftOut | null;
  curve: LivePoint[];
}
