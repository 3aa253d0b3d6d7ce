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
 * The queries and AP are counted as eval counts them for the metrics table (the pool view carries the
 * label source, threshold, tie rule and, with `partial`, the partly labeled queries): under convention
 * `zero` a query without a relevant candidate scores 0, under `skip` it is left out — of the paired test
 * and of the estimates, which are then of the MAP over the pool's queries with a relevant candidate
 * (ranker-decision.ts). Once every query is labeled the figures are exact. "Decided": every other run is
 * below the best with Holm-corrected p < 0.05 (ranker-decision.ts); with two runs sharing the highest
 * estimate no run leads (best null). 95% intervals: estimate ± t(0.975, n − 1) · SE, clipped to [0, 1];
 * the estimate shown is clipped to [0, 1] too (the decision uses the unclipped estimates).
 */
import type { Convention, LabelOrderCounting, LabelOrderStanding } from '../../shared/label-order';
import { studentTQuantile } from '../stats/t-interval';
import type { DrawRecord } from './draw-log';
import { apsOf, type OrderedPool } from './pool-model';
import type { QueryOrder } from './query-order';
import { rankerStanding, type LabeledDraw } from './ranker-decision';

/** Whether a labeled query counts under the convention: `skip` leaves out one without a relevant candidate. */
export function countsUnder(convention: Convention, relevant: readonly boolean[]): boolean {
  return convention === 'zero' || relevant.some(Boolean);
}

/**
 * The draws up to the first one not labeled yet (not in `pool.relevance`: fully labeled, or with a label
 * at all when the view counts partly labeled queries), with each run's AP (predictions kept when they
 * cover the pool's runs and `assisted`) and whether it counts under the convention.
 */
export function labeledDraws(pool: OrderedPool, draws: readonly DrawRecord[], plain = false, convention: Convention = 'zero', assisted = true): LabeledDraw[] {
  const byId = new Map(pool.queries.map((q) => [q.id, q]));
  const out: LabeledDraw[] = [];
  for (const d of draws) {
    const q = byId.get(d.queryId);
    const rel = pool.relevance.get(d.queryId);
    if (!q || !rel) break;
    const aps = apsOf(q, rel);
    const pr = d.predictions;
    const idx = pr ? pool.runs.map((r) => pr.runs.indexOf(r)) : [];
    const predicted = assisted && pr && idx.every((i) => i >= 0) ? { predicted: idx.map((i) => pr.predicted[i]!), predictedRemaining: idx.map((i) => pr.predictedRemaining[i]!) } : {};
    out.push({ aps, p: plain ? null : d.probability, ...predicted, ...(countsUnder(convention, rel) ? {} : { counts: false }) });
  }
  // The model-assisted form needs predictions on every draw; otherwise plain Des Raj.
  if (!out.every((d) => d.predicted)) for (const d of out) delete d.predicted, delete d.predictedRemaining;
  return out;
}

/**
 * Where the pool's runs stand: `counting` is how `pool` was built (label source, threshold, ties,
 * partly labeled queries or not) and the convention applied here.
 */
export function labelOrderStanding(order: QueryOrder, pool: OrderedPool, draws: readonly DrawRecord[], counting: LabelOrderCounting): LabelOrderStanding {
  const N = pool.queries.length;
  const { convention } = counting;
  const labeled = counting.partial ? 'labeled (partly labeled ones too)' : 'fully labeled';
  let used: LabeledDraw[];
  let note: string;
  if (order === 'pool') {
    used = pool.queries
      .filter((q) => pool.relevance.has(q.id))
      .map((q) => {
        const rel = pool.relevance.get(q.id)!;
        return { aps: apsOf(q, rel), p: null, ...(countsUnder(convention, rel) ? {} : { counts: false }) };
      });
    note = `pool order: the ${labeled} queries are not a random sample of the pool, so these means describe them, not the pool`;
  } else {
    // The draws' predictions are of AP with relevance from grade 1: at another threshold, plain Des Raj.
    used = labeledDraws(pool, draws, order === 'random', convention, counting.threshold === 1);
    const labeledLater = draws.slice(used.length).filter((d) => pool.relevance.has(d.queryId)).length;
    const outside = [...pool.relevance.keys()].filter((id) => !draws.some((d) => d.queryId === id)).length;
    note =
      `${order} order: the first ${used.length} of ${draws.length} drawn queries are ${labeled}` +
      (labeledLater ? `; ${labeledLater} later draws wait for an earlier one` : '') +
      (outside ? `; ${outside} labeled queries were not drawn (opened by hand) and are left out` : '');
  }
  const leftOut = used.filter((d) => d.counts === false).length;
  if (leftOut) note += `; ${leftOut} of them without a similar candidate left out (convention skip)`;
  const exact = used.length === N && N > 0;
  const estimator: LabelOrderStanding['estimator'] = exact
    ? 'exact'
    : order === 'pool' || order === 'random'
      ? 'plain mean'
      : used.length > 0 && used.every((d) => d.predicted)
        ? 'Des Raj (model-assisted)'
        : 'Des Raj';
  const counted = used.length - leftOut;
  const base = { order, population: N, drawn: draws.length, used: counted, leftOut, counting, estimator, note };
  if (counted === 0 || pool.runs.length === 0) {
    return { ...base, rankers: pool.runs.map((run) => ({ run, map: null, se: null, ci: null, adjustedP: null })), best: null, decided: false };
  }
  const s = rankerStanding(used, N);
  const t = counted >= 2 ? studentTQuantile(0.975, counted - 1) : Number.NaN;
  // Two runs sharing the highest estimate: none leads (and none is decided best).
  const top = s.maps[s.best]!.mean;
  const tied = s.maps.some((m, r) => r !== s.best && Math.abs(m.mean - top) <= 1e-12);
  return {
    ...base,
    rankers: pool.runs.map((run, r) => {
      const m = s.maps[r]!;
      // AP lies in [0, 1], so the figure and its interval are clipped to it: Des Raj's estimate is
      // unbiased but can land outside (a pool MAP of 101.42 was shown above its own interval).
      const clip = (x: number): number => Math.min(1, Math.max(0, x));
      const ci: [number, number] | null = m.se === 0 ? [clip(m.mean), clip(m.mean)] : Number.isFinite(t) && Number.isFinite(m.se) ? [clip(m.mean - t * m.se), clip(m.mean + t * m.se)] : null;
      return { run, map: clip(m.mean), se: Number.isNaN(m.se) ? null : m.se, ci, adjustedP: Number.isNaN(s.adjustedP[r]!) ? null : s.adjustedP[r]! };
    }),
    best: tied ? null : (pool.runs[s.best] ?? null),
    decided: s.decided && !tied,
    ...(s.noSpread.length && !tied ? { noSpread: s.noSpread.map((r) => pool.runs[r]!) } : {}),
  };
}
