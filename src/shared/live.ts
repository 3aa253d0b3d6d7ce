/** "Learn as we label" (live retraining) of a pool: the settings and what the engine reports. */

/** Models fast enough to retrain while annotators label (seconds on a pool of a few hundred queries). */
export const LIVE_MODELS = ['fused', 'ltr', 'tfidf', 'dae'] as const;
export type LiveModel = (typeof LIVE_MODELS)[number];

export const LIVE_DEFAULTS = { everyLabels: 20, idleSeconds: 60, models: ['fused'] as LiveModel[] };

/** The run a live model writes into the pool. */
export const liveRunName = (model: string): string => `live-${model}`;

export interface LivePoint {
  model: string;
  /** Label events in the pool when the retrain started. */
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

export interface LiveStatus {
  pool: string;
  enabled: boolean;
  everyLabels: number;
  idleSeconds: number;
  models: string[];
  trainPools: string[];
  /** A retrain is running now. */
  running: boolean;
  /** The running retrain's job (job.cancel stops it; the owner's), else null. */
  jobId: string | null;
  /** Label events since the last retrain started. */
  labelsSinceLast: number;
  /** Why the last retrain did not finish (e.g. too few labels), else null. */
  lastError: string | null;
  curve: LivePoint[];
}
