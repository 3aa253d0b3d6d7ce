/**
 * Where a pool's rankers stand under its labeling order (Evaluate's "labeling order" panel and
 * `eval --json`'s `labelOrder`), from the draw log and the fully labeled queries:
 *
 * - `pool` order: the plain mean AP over the fully labeled queries (they are not a random sample of
 *   the pool; the note says so);
 * - `random`: the plain mean over the drawn queries, up to the first drawn query not yet fully
 *   labeled (a simple random sample without replacement: unbiased);
 * - `uncertainty`, `decide-rankers`: Des Raj's ordered estimator over that prefix of draws, model-
 *   assisted when every draw carries predictions for the current runs (des-raj.ts; unbiased whatever
 *   the adaptive rule, since each draw's probability is recorded).
 * AP follows the SemEval convention (a query without a relevant candidate scores 0). Once every query
 * is labeled the figures are exact. "Decided": every other run is below the best with Holm-corrected
 * p < 0.05 (ranker-decision.ts). 95% intervals: estimate ± t(0.975, n − 1) · SE, clipped to [0, 1].
 */
import type { LabelOrderStanding } from '../../shared/label-order';
import { studentTQuantile } from '../stats/t-interval';
import type { DrawRecord } from './draw-log';
import { apsOf, type OrderedPool } from './pool-model';
import type { QueryOrder } from './query-order';
import { rankerStanding, type LabeledDraw } from './ranker-decision';

/** The draws up to the first one not fully labeled yet, with each run's AP (predictions kept when they cover the pool's runs). */
export function labeledDraws(pool: OrderedPool, draws: readonly DrawRecord[], plain = false): LabeledDraw[] {
  const byId = new Map(pool.queries.map((q) => [q.id, q]));
  const out: LabeledDraw[] = [];
  for (const d of draws) {
    const q = byId.get(d.queryId);
    const rel = pool.relevance.get(d.queryId);
    if (!q || !rel) break;
    const aps = apsOf(q, rel);
    const pr = d.predictions;
    const idx = pr ? pool.runs.map((r) => pr.runs.indexOf(r)) : [];
    const predicted = pr && idx.every((i) => i >= 0) ? { predicted: idx.map((i) => pr.predicted[i]!), predictedRemaining: idx.map((i) => pr.predictedRemaining[i]!) } : {};
    out.push({ aps, p: plain ? null : d.probability, ...predicted });
  }
  // The model-assisted form needs predictions on every draw; otherwise plain Des Raj.
  if (!out.every((d) => d.predicted)) for (const d of out) delete d.predicted, delete d.predictedRemaining;
  return out;
}

export function labelOrderStanding(order: QueryOrder, pool: OrderedPool, draws: readonly DrawRecord[]): LabelOrderStanding {
  const N = pool.queries.length;
  let used: LabeledDraw[];
  let note: string;
  if (order === 'pool') {
    used = pool.queries.filter((q) => pool.relevance.has(q.id)).map((q) => ({ aps: apsOf(q, pool.relevance.get(q.id)!), p: null }));
    note = "pool order: the fully labeled queries are not a random sample of the pool, so these means describe them, not the pool";
  } else {
    used = labeledDraws(pool, draws, order === 'random');
    const labeledLater = draws.slice(used.length).filter((d) => pool.relevance.has(d.queryId)).length;
    const outside = [...pool.relevance.keys()].filter((id) => !draws.some((d) => d.queryId === id)).length;
    note =
      `${order} order: the first ${used.length} of ${draws.length} drawn queries are fully labeled` +
      (labeledLater ? `; ${labeledLater} later draws wait for an earlier one` : '') +
      (outside ? `; ${outside} labeled queries were not drawn (opened by hand) and are left out` : '');
  }
  const exact = used.length === N && N > 0;
  const estimator: LabelOrderStanding['estimator'] = exact
    ? 'exact'
    : order === 'pool' || order === 'random'
      ? 'plain mean'
      : used.length > 0 && used.every((d) => d.predicted)
        ? 'Des Raj (model-assisted)'
        : 'Des Raj';
  if (used.length === 0 || pool.runs.length === 0) {
    return { order, population: N, drawn: draws.length, used: used.length, estimator, note, rankers: pool.runs.map((run) => ({ run, map: null, se: null, ci: null, adjustedP: null })), best: null, decided: false };
  }
  const s = rankerStanding(used, N);
  const t = used.length >= 2 ? studentTQuantile(0.975, used.length - 1) : Number.NaN;
  return {
    order,
    population: N,
    drawn: draws.length,
    used: used.length,
    estimator,
    note,
    rankers: pool.runs.map((run, r) => {
      const m = s.maps[r]!;
      // AP lies in [0, 1], so the interval is clipped to it.
      const ci: [number, number] | null = m.se === 0 ? [m.mean, m.mean] : Number.isFinite(t) && Number.isFinite(m.se) ? [Math.max(0, m.mean - t * m.se), Math.min(1, m.mean + t * m.se)] : null;
      return { run, map: m.mean, se: Number.isNaN(m.se) ? null : m.se, ci, adjustedP: Number.isNaN(s.adjustedP[r]!) ? null : s.adjustedP[r]! };
    }),
    best: pool.runs[s.best] ?? null,
    decided: s.decided,
  };
}
