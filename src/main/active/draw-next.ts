/**
 * The next draw of an ordered pool: which undrawn query its annotators label next, and with what
 * probability it was chosen (query-order.ts). Deterministic for a pool's seed and the labels so far:
 * the draw number seeds the random numbers, so replaying a workspace gives the same draws.
 *
 * - `random`: uniform over the undrawn queries (probability 1 / remaining);
 * - `uncertainty`, `decide-rankers`: weights from the relevance model fitted on every fully labeled
 *   query (pool-model.ts), mixed with a uniform 10% (selectionProbabilities); decide-rankers weighs
 *   ranker pairs by how undecided they still are (ranker-decision.ts on the labeled draws so far).
 *   Each run's predicted AP on every undrawn query is recorded with the draw, for the
 *   model-assisted estimator.
 */
import { QPairsError } from '../errors';
import { mulberry32 } from '../stats/random';
import type { DrawRecord } from './draw-log';
import { labeledDraws } from './order-standing';
import { predictedAps, RelevanceModel, type OrderedPool } from './pool-model';
import { drawIndex, orderWeights, selectionProbabilities, type QueryOrder } from './query-order';
import { rankerStanding } from './ranker-decision';

/** Share of uniform probability mixed into the adaptive orders (every query stays drawable). */
export const UNIFORM_SHARE = 0.1;

/** A 32-bit seed from the pool's seed, the draw number and a stream number. */
function streamSeed(seed: number, seq: number, stream: number): number {
  let h = (seed | 0) ^ Math.imul(seq, 0x9e3779b1) ^ Math.imul(stream + 1, 0x85ebca77);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

export function nextDraw(order: QueryOrder, seed: number, pool: OrderedPool, draws: readonly DrawRecord[]): Omit<DrawRecord, 'seq'> | null {
  if (order === 'pool') throw new QPairsError('a pool in pool order has no draws');
  if (order === 'decide-rankers-mtc') throw new QPairsError('decide-rankers-mtc chooses pairs, not query draws (candidate-order.ts)');
  const drawn = new Set(draws.map((d) => d.queryId));
  const remaining = pool.queries.filter((q) => !drawn.has(q.id));
  if (remaining.length === 0) return null;
  const seq = draws.length + 1;
  const u = mulberry32(streamSeed(seed, seq, 0))();
  const n = remaining.length;
  if (order === 'random') {
    const pick = Math.min(n - 1, Math.floor(u * n));
    return { queryId: remaining[pick]!.id, probability: 1 / n, remaining: n, predictions: null };
  }
  const model = new RelevanceModel();
  for (const q of pool.queries) {
    const rel = pool.relevance.get(q.id);
    if (rel) model.observe(q, rel);
  }
  const labeled = labeledDraws(pool, draws);
  const standing = labeled.length && pool.runs.length > 1 ? rankerStanding(labeled, pool.queries.length) : null;
  const pairWeight = standing ? standing.z.map((row) => row.map((z) => 1 / (1 + z * z))) : null;
  const weights = orderWeights(order, remaining, model, mulberry32(streamSeed(seed, seq, 1)), { pairWeight });
  const probs = selectionProbabilities(weights, UNIFORM_SHARE);
  const pick = drawIndex(probs, u);
  const mc = mulberry32(streamSeed(seed, seq, 2));
  const preds = remaining.map((q) => predictedAps(q, model, mc));
  const predictedRemaining = pool.runs.map((_, r) => preds.reduce((s, p) => s + p[r]!, 0));
  return {
    queryId: remaining[pick]!.id,
    probability: probs[pick]!,
    remaining: n,
    predictions: { runs: [...pool.runs], predicted: preds[pick]!, predictedRemaining },
  };
}
