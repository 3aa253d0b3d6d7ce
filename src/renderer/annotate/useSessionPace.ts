/**
 * The session's pace on the Annotate screen: time per label (progress.ts, breaks capped) and time
 * per query of the pool on screen, from a query's arrival to its last label; a query that arrived
 * complete is not timed. The pace per label is the session's, whatever the pool.
 */
import { useEffect, useState, type RefObject } from 'react';
import type { QueryView } from '../../shared/contract';
import { msPerLabel } from './progress';
import type { Arrival } from './useQueryView';

export interface SessionPace {
  /** Milliseconds per label, null before two labels. */
  pace: number | null;
  /** Mean milliseconds per completed query of the pool on screen, null before the first. */
  avgMs: number | null;
  /** Queries of the pool on screen completed (and timed) this session. */
  timedQueries: number;
}

export function useSessionPace(view: QueryView | null, allLabeled: boolean, arrival: RefObject<Arrival>, labelTimes: readonly number[]): SessionPace {
  // By pool, then query: two pools may share a query id, and a query of a 20-candidate pool takes
  // longer than one of a pool that asks one pair at a time, so each pool's time per query is its own.
  const [durations, setDurations] = useState<ReadonlyMap<string, ReadonlyMap<string, number>>>(new Map());
  useEffect(() => {
    if (view && completedHere(allLabeled, arrival.current, labelTimes) && !durations.get(view.pool)?.has(view.queryId)) {
      const took = Date.now() - arrival.current.at;
      setDurations((d) => new Map(d).set(view.pool, new Map(d.get(view.pool)).set(view.queryId, took)));
    }
  }, [allLabeled, view, durations, arrival, labelTimes]);
  return { pace: msPerLabel(labelTimes), ...timePerQuery(view ? durations.get(view.pool) : undefined) };
}

/**
 * Whether the query on screen was just completed by this page's labels: complete now, not on
 * arrival, and with a label given here since it arrived — one completed in another tab or window
 * (the screen re-reads it) took this page no time and is not timed.
 */
export function completedHere(allLabeled: boolean, arrival: Arrival, labelTimes: readonly number[]): boolean {
  const last = labelTimes[labelTimes.length - 1];
  return allLabeled && !arrival.complete && last !== undefined && last >= arrival.at;
}

/** The mean of a pool's timed queries, and how many there are. */
export function timePerQuery(durations: ReadonlyMap<string, number> | undefined): Pick<SessionPace, 'avgMs' | 'timedQueries'> {
  const n = durations?.size ?? 0;
  return { avgMs: n ? [...durations!.values()].reduce((a, b) => a + b, 0) / n : null, timedQueries: n };
}
