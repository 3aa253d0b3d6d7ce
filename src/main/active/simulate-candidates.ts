/**
 * Replays gold labels one (query, candidate) pair at a time under a candidate-level order and counts
 * the labels until the decision is reached (candidate-order.ts):
 *
 * - `decide-rankers-mtc`: queries opened in a seeded random order, candidates chosen by their score;
 * - `random-candidates`: the next pair uniformly at random among the pool's unjudged pairs (the queries
 *   touched so far are then a random sample too).
 *
 * Stopping (the same rule the query-level simulation uses, simulate.ts `decisionStop`): (a) the paired
 * test over the sampled queries (at least `minQueries`) rejects for sure given the bounds — "decided: b
 * is best on queries like these"; or (b) the pool's full-label paired test has a certain outcome
 * (decided or undecided) from the bounds of every query. The result says whether the conclusion reached
 * is the full-label paired test's.
 */
import { mulberry32 } from '../stats/random';
import { queryBounds, type CandidateEffects, type QueryBounds } from './ap-bounds';
import { CandidateLedger, choosePair, DEFAULT_OPEN_THRESHOLD, headedUndecided, permutation } from './candidate-order';
import { certifiedStanding } from './certified-test';
import type { ActiveQuery } from './pool-model';

export const CANDIDATE_ORDERS = ['random-candidates', 'decide-rankers-mtc'] as const;
export type CandidateOrder = (typeof CANDIDATE_ORDERS)[number];

/** A decision: whether the best ranker is decided, and which ranker it is (null when undecided). */
export interface Conclusion {
  decided: boolean;
  best: number | null;
}

export interface DecisionResult {
  /** Labels until the decision was reached (every label of the pool when it never was earlier). */
  labels: number;
  conclusion: Conclusion;
  /** How the stop came: (a) the sample's test, (b) the pool's full-label test made certain. */
  by: 'sample' | 'pool';
  agreesWithFull: boolean;
  totalLabels: number;
  /** Queries in the sample when the decision came (opened / touched / labeled). */
  queries?: number;
}

/** The full-label paired test's conclusion on the pool (Holm over best vs each other, level alpha). */
export function fullConclusion(queries: readonly ActiveQuery[], gold: readonly (readonly boolean[])[], alpha = 0.05): Conclusion {
  const s = certifiedStanding(
    queries.map((q, i) => queryBounds(q, gold[i]!)),
    queries[0]?.rankings.length ?? 0,
    alpha,
  );
  return s.state === 'decided' ? { decided: true, best: s.best } : { decided: false, best: null };
}

export function sameConclusion(a: Conclusion, b: Conclusion): boolean {
  return a.decided === b.decided && (!a.decided || a.best === b.best);
}

export interface CandidateSimulationOptions {
  seed?: number;
  alpha?: number;
  minQueries?: number;
  openThreshold?: number;
  /** Zero-label bounds of the pool's queries (CandidateLedger.zeroLabel), shared across repetitions. */
  zeroLabel?: { bounds: QueryBounds[]; effects: CandidateEffects[] };
  /** The full-label conclusion, when already computed. */
  full?: Conclusion;
  /** Opened queries before a sample headed for "undecided" may become the whole pool (default: never). */
  switchAfter?: number;
  /** The projected t below which the sample is headed for "undecided" (candidate-order.ts headedUndecided; default 1). */
  switchBelow?: number;
}

export function simulateCandidates(
  queries: readonly ActiveQuery[],
  gold: readonly (readonly boolean[])[],
  order: CandidateOrder,
  opts: CandidateSimulationOptions = {},
): DecisionResult {
  const alpha = opts.alpha ?? 0.05;
  const minQueries = opts.minQueries ?? 5;
  const full = opts.full ?? fullConclusion(queries, gold, alpha);
  const rng = mulberry32(opts.seed ?? 1);
  const ledger = new CandidateLedger(queries, opts.zeroLabel);
  const N = queries.length;
  const all = [...Array(N).keys()];
  const totalLabels = queries.reduce((s, q) => s + q.size, 0);
  const openOrder = permutation(N, rng);
  let opened = 0;
  const sample: number[] = []; // random-candidates: queries in the order first touched
  const inSample = new Set<number>();
  const pending: Array<[number, number]> = [];
  if (order === 'random-candidates') queries.forEach((q, i) => { for (let c = 0; c < q.size; c++) pending.push([i, c]); });
  let labels = 0;
  const result = (conclusion: Conclusion, by: DecisionResult['by']): DecisionResult => ({
    labels,
    conclusion,
    by,
    agreesWithFull: sameConclusion(conclusion, full),
    totalLabels,
    queries: order === 'decide-rankers-mtc' ? opened : sample.length,
  });
  for (;;) {
    const S = order === 'decide-rankers-mtc' ? openOrder.slice(0, opened) : sample;
    const sampleStanding = ledger.standing(S, alpha);
    if (S.length >= minQueries && sampleStanding.state === 'decided') return result({ decided: true, best: sampleStanding.best }, 'sample');
    const pool = ledger.standing(all, alpha);
    if (pool.state !== 'open') return result(pool.state === 'decided' ? { decided: true, best: pool.best } : { decided: false, best: null }, 'pool');
    if (labels >= totalLabels) return result(full, 'pool'); // cannot happen: every label in makes the test exact
    let qi: number;
    let c: number;
    if (order === 'random-candidates') {
      const k = Math.floor(rng() * pending.length);
      [qi, c] = pending[k]!;
      pending[k] = pending[pending.length - 1]!;
      pending.pop();
      if (!inSample.has(qi)) {
        inSample.add(qi);
        sample.push(qi);
      }
    } else {
      // A sample headed for "undecided" (after `switchAfter` queries) becomes the whole pool.
      if (opened >= (opts.switchAfter ?? Infinity) && headedUndecided(sampleStanding, opened, N, opts.switchBelow ?? 1)) opened = N;
      const next = choosePair(ledger, openOrder, opened, { minQueries, openThreshold: opts.openThreshold ?? DEFAULT_OPEN_THRESHOLD, alpha });
      opened = next.opened;
      const pick = next.pick;
      if (!pick) return result(full, 'pool');
      qi = pick.query;
      c = pick.candidate;
    }
    ledger.judge(qi, c, Boolean(gold[qi]![c]));
    labels++;
  }
}
