/**
 * A pool's labeling order and its draw log in the workspace (migration 8): which order the pool
 * uses, its seed, and every draw an ordered pool made — the query, the probability it had among the
 * queries not yet drawn, and the predictions the model-assisted estimator needs (made before the draw).
 */
import { QPairsError } from '../errors';
import type { Workspace } from '../workspace/workspace';
import { isCandidateOrder } from '../../shared/label-order';
import { isQueryOrder, type QueryOrder } from './query-order';

export interface PoolOrderSetting {
  order: QueryOrder;
  seed: number;
}

export interface DrawPredictions {
  /** The runs, in the order of the arrays below. */
  runs: string[];
  /** Each run's predicted AP on the drawn query. */
  predicted: number[];
  /** Σ of each run's predicted AP over the queries remaining at the draw (the drawn one included). */
  predictedRemaining: number[];
}

export interface DrawRecord {
  seq: number;
  queryId: string;
  probability: number;
  remaining: number;
  predictions: DrawPredictions | null;
}

/**
 * A pool's order: pools.label_order, or — for a candidate-level order, which migration 8's CHECK on
 * that column does not admit — pool_candidate_orders (migration 12), the column then holding
 * 'random' (the order in which the pool's queries are opened).
 */
export function readPoolOrder(ws: Workspace, pool: string): PoolOrderSetting {
  const poolId = ws.poolId(pool);
  const r = ws
    .stmt(`SELECT p.label_order AS o, p.order_seed AS s, c.label_order AS c FROM pools p LEFT JOIN pool_candidate_orders c ON c.pool_id = p.id WHERE p.id = ?`)
    .get(poolId) as { o: string; s: number; c: string | null };
  if (r.c === 'decide-rankers-mtc') return { order: 'decide-rankers-mtc', seed: r.s };
  return { order: isQueryOrder(r.o) ? r.o : 'pool', seed: r.s };
}

/** Sets the pool's order (and seed). Draws made so far stay: their probabilities keep the estimates unbiased. */
export function writePoolOrder(ws: Workspace, pool: string, order: QueryOrder, seed?: number): void {
  const poolId = ws.poolId(pool);
  if (seed !== undefined && !Number.isSafeInteger(seed)) throw new QPairsError(`the order seed must be an integer, got ${seed}`);
  ws.transaction(() => {
    ws.stmt(`UPDATE pools SET label_order = ?, order_seed = coalesce(?, order_seed) WHERE id = ?`).run(isCandidateOrder(order) ? 'random' : order, seed ?? null, poolId);
    if (isCandidateOrder(order)) ws.stmt(`INSERT OR REPLACE INTO pool_candidate_orders(pool_id, label_order) VALUES (?, ?)`).run(poolId, order);
    else ws.stmt(`DELETE FROM pool_candidate_orders WHERE pool_id = ?`).run(poolId);
  });
}

export function readDraws(ws: Workspace, pool: string): DrawRecord[] {
  const poolId = ws.poolId(pool);
  const rows = ws
    .stmt(`SELECT seq, query_id AS queryId, probability, remaining, predictions FROM pool_draws WHERE pool_id = ? ORDER BY seq`)
    .all(poolId) as Array<Omit<DrawRecord, 'predictions'> & { predictions: string | null }>;
  return rows.map((r) => ({ ...r, predictions: r.predictions ? (JSON.parse(r.predictions) as DrawPredictions) : null }));
}

/** Appends the next draw (seq = the log's length + 1), durably. */
export function appendDraw(ws: Workspace, pool: string, d: Omit<DrawRecord, 'seq'>): DrawRecord {
  const poolId = ws.poolId(pool);
  const seq = ((ws.stmt(`SELECT max(seq) AS m FROM pool_draws WHERE pool_id = ?`).get(poolId) as { m: number | null }).m ?? 0) + 1;
  ws
    .stmt(`INSERT INTO pool_draws(pool_id, seq, query_id, probability, remaining, predictions, drawn_at) VALUES (?, ?, ?, ?, ?, ?, ?)`)
    .run(poolId, seq, d.queryId, d.probability, d.remaining, d.predictions ? JSON.stringify(d.predictions) : null, new Date().toISOString());
  return { seq, ...d };
}
