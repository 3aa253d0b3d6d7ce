/**
 * Pure helpers of the Annotate screen: progress that moves with every label (not only when the
 * engine's snapshot is re-read), the session's pace and ETA (candidate order: candidateSort.ts).
 */
import type { QueryView } from '../../shared/contract';

export interface Baseline {
  pool: string;
  queryId: string;
  /** Candidates of this query labeled in the engine's snapshot the progress figures come from. */
  labeled: number;
  complete: boolean;
}

export function baselineOf(v: QueryView): Baseline {
  const labeled = v.candidates.filter((c) => c.label != null).length;
  return { pool: v.pool, queryId: v.queryId, labeled, complete: v.candidates.length > 0 && labeled === v.candidates.length };
}

/**
 * The pool's progress with this query's saved labels as they are now (`labeledNow`: the screen
 * counts a label once it is saved, useLabeling.ts): the engine's counts minus this query's share
 * in its snapshot plus its share now.
 */
export function liveProgress(v: QueryView, base: Baseline | null, labeledNow: number): QueryView['progress'] {
  const p = v.progress;
  if (!base || base.queryId !== v.queryId || base.pool !== v.pool) return p;
  const completeNow = v.candidates.length > 0 && labeledNow === v.candidates.length;
  const clamp = (x: number, max: number): number => Math.max(0, Math.min(max, x));
  return {
    ...p,
    labeledPairs: clamp(p.labeledPairs - base.labeled + labeledNow, p.totalPairs),
    doneQueries: clamp(p.doneQueries - (base.complete ? 1 : 0) + (completeNow ? 1 : 0), p.totalQueries),
  };
}

/** A gap longer than this between two labels is a break: it counts as this long in the pace. */
export const IDLE_CAP_MS = 120_000;

/** Milliseconds per label over the session's labels (times in ms), breaks capped; null before 2 labels. */
export function msPerLabel(times: readonly number[], window = 40): number | null {
  const t = times.slice(-window);
  if (t.length < 2) return null;
  let total = 0;
  for (let i = 1; i < t.length; i++) total += Math.min(IDLE_CAP_MS, Math.max(0, t[i]! - t[i - 1]!));
  return total / (t.length - 1);
}
