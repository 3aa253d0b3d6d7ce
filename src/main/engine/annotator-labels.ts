/**
 * What one annotate.query reads of a big pool, read for what it shows: her current labels of the
 * pool (kept and brought forward over the label events appended since, label-history.ts), the
 * pool's queries (kept while only label events were written), and the others' labels and the runs'
 * scores of the one query on screen. Each answer is the one a read from scratch gives
 * (Workspace.currentLabels, poolQueries, runScores); treat what is returned as read-only. What is kept
 * is bounded per workspace (KEPT_CURRENT_MAX, KEPT_QUERIES_MAX): the least recently used entry is
 * dropped first, and read again from scratch when next asked for.
 */
import type { PoolQuery } from '../../shared/types';
import { historyMark, onlyLabelsAppended, type HistoryMark } from '../workspace/label-history';
import type { Workspace } from '../workspace/workspace';

/** queryId -> candidateId -> value: an annotator's current labels of a pool. */
export type Current = Map<string, Map<string, string>>;

const annotatorId = (ws: Workspace, name: string): number | null => (ws.stmt(`SELECT id FROM annotators WHERE name = ?`).get(name) as { id: number } | undefined)?.id ?? null;

/** How many (pool, annotator) current labels are kept per workspace (a 60,000-pair pool's: a few MB each). */
export const KEPT_CURRENT_MAX = 16;
/** How many pools' queries are kept per workspace. */
export const KEPT_QUERIES_MAX = 8;

/** The entry kept for `key`, made the most recently used. */
function keptEntry<V>(kept: Map<string, V> | undefined, key: string): V | undefined {
  const v = kept?.get(key);
  if (v !== undefined) {
    kept!.delete(key);
    kept!.set(key, v);
  }
  return v;
}

/** Keeps `value` for `key` as the most recently used, dropping the least recently used beyond `max`. */
function keepEntry<V>(all: WeakMap<Workspace, Map<string, V>>, ws: Workspace, key: string, value: V, max: number): void {
  let kept = all.get(ws);
  if (!kept) all.set(ws, (kept = new Map()));
  kept.delete(key);
  kept.set(key, value);
  while (kept.size > max) kept.delete(kept.keys().next().value!);
}

/** Per workspace, per "poolId annotatorId": her current labels as read at `mark` (least recently used first). */
const keptCurrent = new WeakMap<Workspace, Map<string, { mark: HistoryMark; cur: Current }>>();

function setValue(cur: Current, queryId: string, candidateId: string, value: string | null): void {
  let m = cur.get(queryId);
  if (value === null) {
    if (!m) return;
    m.delete(candidateId);
    if (m.size === 0) cur.delete(queryId);
    return;
  }
  if (!m) cur.set(queryId, (m = new Map()));
  m.set(candidateId, value);
}

/**
 * An annotator's current labels of a pool (as Workspace.currentLabels(pool, annotator) gives them).
 * Kept per pool and annotator; while only label events were appended since (label-history.ts), only
 * her events after the kept read are applied, in order — not every event of hers in the pool read
 * again on each view (a pool's relabels and undos count too).
 */
export function annotatorCurrent(ws: Workspace, pool: string, annotator: string): Current {
  const poolId = ws.poolId(pool);
  const id = annotatorId(ws, annotator);
  if (id === null) return new Map();
  const mark = historyMark(ws);
  const key = `${poolId} ${id}`;
  const k = keptEntry(keptCurrent.get(ws), key);
  let cur: Current;
  if (k && mark !== null && onlyLabelsAppended(k.mark, mark)) {
    cur = k.cur;
    if (mark.newest > k.mark.newest) {
      const since = ws
        .stmt(`SELECT query_id AS queryId, candidate_id AS candidateId, value FROM labels WHERE annotator_id = ? AND seq > ? AND pool_id = ? ORDER BY seq`)
        .all(id, k.mark.newest, poolId) as Array<{ queryId: string; candidateId: string; value: string | null }>;
      for (const r of since) setValue(cur, r.queryId, r.candidateId, r.value);
    }
  } else {
    cur = new Map();
    for (const l of ws.currentLabels(pool, annotator)) setValue(cur, l.queryId, l.candidateId, l.value);
  }
  if (mark !== null) keepEntry(keptCurrent, ws, key, { mark, cur }, KEPT_CURRENT_MAX);
  return cur;
}

/** Per workspace, per pool name: its queries as read at `mark` (least recently used first). */
const keptQueries = new WeakMap<Workspace, Map<string, { mark: HistoryMark; queries: PoolQuery[] }>>();

/** The pool's queries (Workspace.poolQueries), kept while nothing but label events was written since. */
export function poolQueriesKept(ws: Workspace, pool: string): PoolQuery[] {
  const mark = historyMark(ws);
  const k = keptEntry(keptQueries.get(ws), pool);
  if (k && mark !== null && onlyLabelsAppended(k.mark, mark)) return k.queries;
  const queries = ws.poolQueries(pool);
  if (mark !== null) keepEntry(keptQueries, ws, pool, { mark, queries }, KEPT_QUERIES_MAX);
  return queries;
}

/**
 * The current labels of one query of the pool, everyone's, oldest first (Workspace.currentLabels(pool) of that query).
 * Each (annotator, candidate) latest event is found by seeks along index labels_current — the pool's
 * annotators one after the other (the next id above the last), the query's candidates each labeled
 * one after the other, then each pair's max(seq) — not by reading every event of the query: one
 * relabeled thousands of times costs what a query labeled once does.
 */
export function queryCurrentLabels(ws: Workspace, pool: string, queryId: string): Array<{ annotator: string; candidateId: string; value: string }> {
  return ws
    .stmt(
      `WITH RECURSIVE
         ann(id) AS (
           SELECT (SELECT min(annotator_id) FROM labels WHERE pool_id = @pool)
           UNION ALL
           SELECT (SELECT min(annotator_id) FROM labels WHERE pool_id = @pool AND annotator_id > ann.id) FROM ann WHERE ann.id IS NOT NULL),
         pair(annotator_id, candidate_id) AS (
           SELECT ann.id, (SELECT min(candidate_id) FROM labels WHERE pool_id = @pool AND annotator_id = ann.id AND query_id = @query) FROM ann WHERE ann.id IS NOT NULL
           UNION ALL
           SELECT pair.annotator_id, (SELECT min(candidate_id) FROM labels
                                      WHERE pool_id = @pool AND annotator_id = pair.annotator_id AND query_id = @query AND candidate_id > pair.candidate_id)
           FROM pair WHERE pair.candidate_id IS NOT NULL)
       SELECT a.name AS annotator, l.candidate_id AS candidateId, l.value FROM pair
       JOIN labels l ON l.seq = (SELECT max(seq) FROM labels
                                 WHERE pool_id = @pool AND annotator_id = pair.annotator_id AND query_id = @query AND candidate_id = pair.candidate_id)
       JOIN annotators a ON a.id = pair.annotator_id
       WHERE pair.candidate_id IS NOT NULL AND l.value IS NOT NULL ORDER BY l.seq`,
    )
    .all({ pool: ws.poolId(pool), query: queryId }) as Array<{ annotator: string; candidateId: string; value: string }>;
}

/** The pool's runs (id and name, in listRuns order) without counting their scores. */
export function poolRunNames(ws: Workspace, pool: string): Array<{ id: number; name: string }> {
  return ws.stmt(`SELECT id, name FROM runs WHERE pool_id = ? AND staged IS NULL ORDER BY id`).all(ws.poolId(pool)) as Array<{ id: number; name: string }>;
}

/** A run's scores of one query: candidateId -> score (runScores(runId).get(queryId)). */
export function queryRunScores(ws: Workspace, runId: number, queryId: string): Map<string, number> {
  const rows = ws.stmt(`SELECT candidate_id AS candidateId, score FROM run_scores WHERE run_id = ? AND query_id = ?`).all(runId, queryId) as Array<{ candidateId: string; score: number }>;
  return new Map(rows.map((r) => [r.candidateId, r.score]));
}
