/**
 * The session's pace on the Annotate screen: time per label (progress.ts, breaks capped) and time
 * per query, from a query's arrival to its last label; a query that arrived complete is not timed.
 */
import { useEffect, useState, type RefObject } from 'react';
import type { QueryView } from '../../shared/contract';
import { msPerLabel } from './progress';
import type { Arrival } from './useQueryView';

export interface SessionPace {
  /** Milliseconds per label, null before two labels. */
  pace: number | null;
  /** Mean milliseconds per completed query, null before the first. */
  avgMs: number | null;
  /** Queries completed (and timed) this session. */
  timedQueries: number;
}

export function useSessionPace(view: QueryView | null, allLabeled: boolean, arrival: RefObject<Arrival>, labelTimes: readonly number[]): SessionPace {
  const [durations, setDurations] = useState<ReadonlyMap<string, number>>(new Map());
  useEffect(() => {
    if (view && allLabeled && !arrival.current.complete && !durations.has(view.queryId)) {
      setDurations((d) => new Map(d).set(view.queryId, Date.now() - arrival.current.at));
    }
  }, [allLabeled, view, durations, arrival]);
  const avgMs = durations.size ? [...durations.values()].reduce((a, b) => a + b, 0) / durations.size : null;
  return { pace: msPerLabel(labelTimes), avgMs, timedQueries: durations.size };
}
