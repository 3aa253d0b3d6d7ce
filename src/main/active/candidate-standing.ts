/**
 * Where the rankers stand under the candidate-level order `decide-rankers-mtc` (candidate-order.ts),
 * for Evaluate, `qpairs eval` and eval.order. The pool's queries are opened in a seeded random order
 * (`openOrder`); the opened ones are the first `opened` of it, where `opened` reaches the furthest query
 * anyone has labeled (and at least `minQueries`). Each query's AP bounds come from its judged pairs
 * (ap-bounds.ts), so:
 *
 * - `rankers[].map`: the mean over the opened queries of the middle of each query's AP interval;
 *   `ci`: [mean of the lower bounds, mean of the upper bounds] — where the opened queries' MAP lies
 *   whatever the missing labels say (not a sampling interval); `se`: null;
 * - `adjustedP`: an upper bound of the Holm-adjusted p of the paired t-test over the opened queries,
 *   best vs each other run (certified-test.ts);
 * - `decided`: that test rejects for every completion of the missing labels (at least `minQueries`
 *   opened), or the pool's full-label paired test (every query) does — "decided" only when the paired
 *   test over queries is sure to reject.
 */
import type { LabelOrderCounting, LabelOrderStanding } from '../../shared/label-order';
import { mulberry32 } from '../stats/random';
import type { Judgment } from './ap-bounds';
import { CandidateLedger, permutation } from './candidate-order';
import type { ActiveQuery } from './pool-model';

export const MIN_OPENED = 5;

/** The pool's query-opening order for a seed (indices into the pool's queries). */
export function openOrderOf(N: number, seed: number): number[] {
  return permutation(N, mulberry32(seed));
}

/** Queries open: up to the furthest touched query in the opening order, at least `minQueries`. */
export function openedCount(openOrder: readonly number[], touched: ReadonlySet<number>, minQueries = MIN_OPENED): number {
  let k = Math.min(openOrder.length, minQueries);
  openOrder.forEach((q, pos) => {
    if (touched.has(q)) k = Math.max(k, pos + 1);
  });
  return k;
}

/**
 * A ledger holding every judged pair of the pool (`zeroLabel`: the queries' CandidateLedger.zeroLabel, when
 * kept): each query's bounds computed once from its judged pairs, not once per pair.
 */
export function ledgerOf(queries: readonly ActiveQuery[], judged: readonly (readonly Judgment[])[], zeroLabel?: ReturnType<typeof CandidateLedger.zeroLabel>): CandidateLedger {
  const ledger = new CandidateLedger(queries, zeroLabel);
  judged.forEach((row, i) => ledger.judgeQuery(i, row));
  return ledger;
}

export function candidateOrderStanding(
  pool: { queries: readonly ActiveQuery[]; runs: readonly string[]; judged: readonly (readonly Judgment[])[] },
  seed: number,
  touched: ReadonlySet<number>,
  counting: LabelOrderCounting,
  alpha = 0.05,
): LabelOrderStanding {
  const N = pool.queries.length;
  const order = openOrderOf(N, seed);
  const opened = openedCount(order, touched);
  const S = order.slice(0, opened);
  const labels = pool.judged.reduce((s, row) => s + row.filter((j) => j !== null).length, 0);
  const note =
    `decide-rankers-mtc: ${opened} of ${N} queries opened (in a seeded random order), ${labels} pairs judged; ` +
    'MAP over the opened queries from each query\'s AP bounds (interval: whatever the missing labels say), p an upper bound' +
    // The bounds cover the missing labels themselves and count a query without a relevant candidate 0.
    (counting.convention === 'skip' || counting.partial
      ? `; unlike the table, ${[counting.convention === 'skip' ? 'a query without a similar candidate counts 0 (not skipped)' : '', counting.partial ? 'unlabeled pairs are bounded, not taken as not similar' : ''].filter(Boolean).join(', and ')}`
      : '');
  const base = { order: 'decide-rankers-mtc' as const, population: N, drawn: opened, used: opened, leftOut: 0, counting, estimator: 'bounds' as const, note };
  if (labels === 0 || pool.runs.length === 0)
    return { ...base, rankers: pool.runs.map((run) => ({ run, map: null, se: null, ci: null, adjustedP: null })), best: null, decided: false };
  const ledger = ledgerOf(pool.queries, pool.judged);
  const s = ledger.standing(S, alpha);
  const whole = ledger.standing([...Array(N).keys()], alpha);
  const decided = (S.length >= MIN_OPENED && s.state === 'decided') || (whole.state === 'decided' && whole.best === s.best);
  const mean = (f: (i: number) => number) => S.reduce((a, i) => a + f(i), 0) / Math.max(1, S.length);
  return {
    ...base,
    rankers: pool.runs.map((run, r) => {
      const lo = mean((i) => ledger.bounds[i]!.apLo[r]!);
      const hi = mean((i) => ledger.bounds[i]!.apHi[r]!);
      return { run, map: (lo + hi) / 2, se: null, ci: [lo, hi] as [number, number], adjustedP: Number.isNaN(s.pHi[r]!) ? null : s.pHi[r]! };
    }),
    best: pool.runs[s.best] ?? null,
    decided,
  };
}
