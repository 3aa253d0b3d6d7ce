/**
 * "Learn as we label" in the workspace (migration 8): a pool's live-retraining setting, the label
 * events since its last retrain, the learning curve, and the live runs (kind 'live': scored out of
 * fold on labeled queries, so the model-overlap mark of stored models does not apply to them).
 */
import { LIVE_DEFAULTS, LIVE_MODELS, type LiveCopiesLeftOut, type LivePoint } from '../../shared/live';
import type { ChunkedRunOptions, Workspace } from '../workspace/workspace';
import type { LabelPoolRecord } from './label-pools';
import { labelsNotTrainedOnSince } from './live-since';

export interface LiveSetting {
  enabled: boolean;
  everyLabels: number;
  idleSeconds: number;
  models: string[];
  trainPools: string[];
  lastLabelSeq: number;
  lastError: string | null;
  /**
   * The setting's columns that could not be read as a list of names (a row damaged, or written by
   * another program: `{}`, a number, text that is not JSON): each reads as an empty list. A list of
   * models naming one that is not a learn-as-we-label model (LIVE_MODELS) is unreadable too.
   */
  unreadable: Array<'models' | 'train_pools'>;
  /** The stored models' names that are not learn-as-we-label models (then `models` reads as empty); [] when none. */
  unknownModels: string[];
}

/** A stored JSON list of names, or null when it is not one. */
function namesOf(stored: string): string[] | null {
  let v: unknown;
  try {
    v = JSON.parse(stored);
  } catch {
    return null;
  }
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : null;
}

export function readLiveSetting(ws: Workspace, pool: string): LiveSetting {
  const poolId = ws.poolId(pool);
  const r = ws
    .stmt(`SELECT enabled, every_labels AS e, idle_seconds AS i, models, train_pools AS t, last_label_seq AS s, last_error AS err FROM live_training WHERE pool_id = ?`)
    .get(poolId) as { enabled: number; e: number; i: number; models: string; t: string; s: number; err: string | null } | undefined;
  if (!r) return { enabled: false, everyLabels: LIVE_DEFAULTS.everyLabels, idleSeconds: LIVE_DEFAULTS.idleSeconds, models: [...LIVE_DEFAULTS.models], trainPools: [], lastLabelSeq: 0, lastError: null, unreadable: [], unknownModels: [] };
  const names = namesOf(r.models);
  // Names live.set would refuse (another program's, or a model no longer offered): the list reads as a damaged one does, not as
  // valid — a retrain would only fail on them.
  const unknownModels = (names ?? []).filter((m) => !(LIVE_MODELS as readonly string[]).includes(m));
  const models = unknownModels.length > 0 ? null : names;
  const trainPools = namesOf(r.t);
  const unreadable: LiveSetting['unreadable'] = [...(models ? [] : (['models'] as const)), ...(trainPools ? [] : (['train_pools'] as const))];
  return { enabled: r.enabled === 1, everyLabels: r.e, idleSeconds: r.i, models: models ?? [], trainPools: trainPools ?? [], lastLabelSeq: r.s, lastError: r.err, unreadable, unknownModels };
}

export function writeLiveSetting(ws: Workspace, pool: string, s: Omit<LiveSetting, 'lastLabelSeq' | 'lastError' | 'unreadable' | 'unknownModels'>): void {
  const poolId = ws.poolId(pool);
  ws
    .stmt(
      `INSERT INTO live_training(pool_id, enabled, every_labels, idle_seconds, models, train_pools) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(pool_id) DO UPDATE SET enabled = excluded.enabled, every_labels = excluded.every_labels,
         idle_seconds = excluded.idle_seconds, models = excluded.models, train_pools = excluded.train_pools`,
    )
    .run(poolId, s.enabled ? 1 : 0, s.everyLabels, s.idleSeconds, JSON.stringify(s.models), JSON.stringify(s.trainPools));
}

/**
 * Label events of the pool after `afterSeq`: how many, how many distinct (query, candidate) pairs they
 * labeled (relabeling a pair, or a second annotator on it, counts once), and the newest's seq
 * (afterSeq when none).
 */
export function labelEventsSince(ws: Workspace, pool: string, afterSeq: number): { count: number; pairs: number; lastSeq: number } {
  const poolId = ws.poolId(pool);
  const r = ws
    .stmt(`SELECT count(*) AS n, count(DISTINCT query_id || char(0) || candidate_id) AS p, max(seq) AS m FROM labels WHERE pool_id = ? AND seq > ?`)
    .get(poolId, afterSeq) as { n: number; p: number; m: number | null };
  return { count: r.n, pairs: r.p, lastSeq: r.m ?? afterSeq };
}

/**
 * What counts toward the pool's next retrain: the pairs of its label events after the last retrain's
 * mark (`afterSeq`), and those labeled before it on a query that retrain left out (still being labeled
 * then: live_uncovered) once that query is labeled on again — labels a retrain trained on never
 * count, a label it did not train on always does, each pair once. `fresh` counts the events after the
 * mark alone: without one there is nothing new to retrain on. Brought forward from the last answer
 * over the events since (live-since.ts): asked on every label and every live.status.
 */
export function labelsNotTrainedOn(ws: Workspace, pool: string, afterSeq: number): { pairs: number; fresh: number } {
  return labelsNotTrainedOnSince(ws, ws.poolId(pool), afterSeq);
}

/** Every label event of the pool so far. */
export function labelEventCount(ws: Workspace, pool: string): number {
  return labelEventsSince(ws, pool, 0).count;
}

/**
 * Records that a retrain covered the label events up to `seq` (and why it failed, if it did). A
 * retrain that trained passes `uncovered`: the pairs labeled by `seq` on queries it did not train on,
 * which replace the pool's list (labelsNotTrainedOn); a failed one leaves the list as it was.
 */
export function markRetrained(ws: Workspace, pool: string, seq: number, error: string | null, uncovered?: ReadonlyArray<readonly [string, string]>): void {
  const poolId = ws.poolId(pool);
  ws.stmt(`UPDATE live_training SET last_label_seq = max(last_label_seq, ?), last_error = ? WHERE pool_id = ?`).run(seq, error, poolId);
  if (!uncovered) return;
  ws.stmt(`DELETE FROM live_uncovered WHERE pool_id = ?`).run(poolId);
  const add = ws.stmt(`INSERT OR IGNORE INTO live_uncovered(pool_id, query_id, candidate_id) VALUES (?, ?, ?)`);
  for (const [q, c] of uncovered) add.run(poolId, q, c);
}

/** Appends a finished retrain's point to the pool's curve, with the training copies its overlap check left out. */
export function appendCurvePoint(ws: Workspace, pool: string, pt: Omit<LivePoint, 'at'>, copiesLeftOut: LiveCopiesLeftOut): void {
  const poolId = ws.poolId(pool);
  const seq = ((ws.stmt(`SELECT max(seq) AS m FROM live_curve WHERE pool_id = ?`).get(poolId) as { m: number | null }).m ?? 0) + 1;
  ws
    .stmt(`INSERT INTO live_curve(pool_id, seq, model, labels, trained_queries, held_out_queries, map, mrr, seconds, at, copies_left_out) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(poolId, seq, pt.model, pt.labels, pt.trainedQueries, pt.heldOutQueries, pt.MAP, pt.MRR, pt.seconds, new Date().toISOString(), JSON.stringify(copiesLeftOut));
}

/** The training copies the pool's last finished retrain left out (its newest curve point); null before one has, or for a point older than schema 13. */
export function lastCopiesLeftOut(ws: Workspace, pool: string): LiveCopiesLeftOut | null {
  const json = ws.stmt(`SELECT copies_left_out FROM live_curve WHERE pool_id = ? ORDER BY seq DESC LIMIT 1`).pluck().get(ws.poolId(pool)) as string | null | undefined;
  return json ? (JSON.parse(json) as LiveCopiesLeftOut) : null;
}

export function readCurve(ws: Workspace, pool: string): LivePoint[] {
  const poolId = ws.poolId(pool);
  return ws
    .stmt(
      `SELECT model, labels, trained_queries AS trainedQueries, held_out_queries AS heldOutQueries, map AS MAP, mrr AS MRR, seconds, at
       FROM live_curve WHERE pool_id = ? ORDER BY seq`,
    )
    .all(poolId) as LivePoint[];
}

/**
 * Pairs per transaction when a live run is stored (and the run it replaces deleted): a fifth of a
 * stored model's (STAGE_CHUNK), so a label given meanwhile waits behind a slice of 1.5-5 ms of
 * writing, not a 5,000-pair chunk (4-14 ms on a quiet machine, 20-85 ms under load; 60,000 pairs).
 * The extra commits (about 50 ms per 60,000 pairs) cost little beside the retrain.
 */
export const LIVE_STAGE_CHUNK = 1000;

/**
 * Replaces the pool's live runs (each `runName` with its model's scores and the pools it learned from), stored in chunks of
 * LIVE_STAGE_CHUNK pairs out of sight and swapped in together in one short transaction (Workspace.replaceRunsInChunks; `o.write`
 * wraps each chunk: the engine passes its write gate). `o.beforeSwap` writes what goes with them
 * (the curve points), committed in that transaction or not at all: a reader never sees a curve
 * point without its run. Returns the pairs stored per run.
 */
export function storeLiveRuns(
  ws: Workspace,
  pool: string,
  runs: ReadonlyArray<{ runName: string; model: string; scores: ReadonlyMap<string, ReadonlyMap<string, number>>; labelPools: readonly LabelPoolRecord[] }>,
  o: ChunkedRunOptions = {},
): Promise<number[]> {
  return ws.replaceRunsInChunks(
    pool,
    runs.map((r) => ({
      name: r.runName,
      kind: 'live',
      // labelPools: whose labels the run learned, which decides whether annotators see it (run-visibility.ts).
      config: { model: r.model, scoring: 'out of fold on labeled queries', labelPools: r.labelPools },
      rows: [...r.scores].flatMap(([q, m]) => [...m].map(([c, v]) => [q, c, v] as const)),
    })),
    { chunk: LIVE_STAGE_CHUNK, ...o },
  );
}
