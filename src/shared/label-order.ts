/**
 * Labeling orders of a pool: how its next query is chosen (src/main/active/query-order.ts), or — for
 * `decide-rankers-mtc` — its next (query, candidate) pair (src/main/active/candidate-order.ts).
 */
import { counted } from './plural';
import { describeSelectedOn, type SelectedOn } from './selected-on';

export const QUERY_ORDERS = ['pool', 'random', 'uncertainty', 'decide-rankers', 'decide-rankers-mtc'] as const;
export type QueryOrder = (typeof QUERY_ORDERS)[number];
/** The orders that choose whole queries (draws logged in pool_draws). */
export type WholeQueryOrder = Exclude<QueryOrder, 'decide-rankers-mtc'>;

/** Orders that choose one (query, candidate) pair at a time. */
export function isCandidateOrder(o: QueryOrder): o is 'decide-rankers-mtc' {
  return o === 'decide-rankers-mtc';
}

export function isQueryOrder(x: string): x is QueryOrder {
  return (QUERY_ORDERS as readonly string[]).includes(x);
}

/** One line per order, for the CLI help and the Pools screen. */
export const QUERY_ORDER_HELP: Record<QueryOrder, string> = {
  pool: "the pool's own order (as imported or retrieved)",
  random: 'a seeded random order: plain means over the labeled queries are unbiased',
  uncertainty: 'queries whose candidates the relevance model is least sure about first (drawn at random with those weights)',
  'decide-rankers': "queries that can most change which of the pool's rankers is best first (drawn at random with those weights)",
  'decide-rankers-mtc':
    "one candidate at a time: the pair whose label can most move the leading rankers' AP differences, inside queries opened in a seeded random order (minimal test collections); the query's other candidates stay reachable",
};

/**
 * When an adaptive order draws uniformly at random for now, why; else null. The relevance model
 * guesses P(relevant) from where the pool's runs put a candidate: with one run (say only BM25, no
 * model yet) it knows a candidate only by its position, so it cannot tell queries apart and
 * `uncertainty` draws them uniformly (active/query-order.ts; labels do not change that); `decide-rankers` has no two
 * rankers to tell apart. A second run (a trained model scored into the pool, or a live run) ends it.
 */
export function orderAtRandomReason(order: QueryOrder | undefined, runs: number): string | null {
  if (runs >= 2 || (order !== 'uncertainty' && order !== 'decide-rankers')) return null;
  const has = runs === 0 ? 'the pool has no run' : 'the pool has one run';
  return order === 'uncertainty'
    ? `drawn uniformly at random for now: ${has}, so the relevance model knows a candidate only by its position and cannot tell queries apart; it becomes adaptive once the pool has a second run (a model's or a live run)`
    : `drawn uniformly at random for now: ${has}, so there are no two rankers to decide between; it becomes adaptive once the pool has a second run (a model's or a live run)`;
}

/** The order as the pool list and Annotate name it: "uncertainty", or "uncertainty (at random for now)". */
export function orderLabel(order: QueryOrder, runs: number): string {
  return orderAtRandomReason(order, runs) ? `${order} (at random for now)` : order;
}

export type Convention = 'skip' | 'zero';

/**
 * How a standing counts queries and relevance — eval.pool's options, so that the standing and its
 * verdict are about the queries the metrics table counts: the label source (resolved), the convention
 * for a query without a relevant candidate, the tie rule, the grade from which a label is relevant, and
 * whether partly labeled queries count (their unlabeled candidates as not relevant).
 */
export interface LabelOrderCounting {
  annotator: string;
  convention: Convention;
  ties: 'pool-order' | 'trec-eval';
  threshold: number;
  partial: boolean;
}

/** Where a pool's rankers stand under its labeling order (eval.pool's `labelOrder`). */
export interface LabelOrderStanding {
  order: QueryOrder;
  /**
   * Queries in the pool, queries drawn so far (adaptive and random orders), and those used below (the
   * labeled ones that count; under convention skip those with a relevant candidate).
   */
  population: number;
  drawn: number;
  used: number;
  /** Labeled queries left out: under convention skip, those without a relevant candidate; 0 under zero. */
  leftOut: number;
  /** How queries and relevance were counted (the evaluation's options). */
  counting: LabelOrderCounting;
  /**
   * How `rankers[].map` is estimated; 'bounds' (decide-rankers-mtc): the mean over the opened queries of
   * the middle of each query's AP bounds, `ci` the bounds of that mean over every completion of the
   * missing labels, `adjustedP` an upper bound of the paired test's Holm p.
   */
  estimator: 'plain mean' | 'Des Raj' | 'Des Raj (model-assisted)' | 'exact' | 'bounds';
  /** A sentence on what the figures mean (e.g. which queries are left out and why). */
  note: string;
  /**
   * Per run: this pool's MAP estimate and its standard error (null before any query counts; 0 once every
   * query is labeled), 95% interval, and the Holm-adjusted p of the paired test over queries vs the best.
   */
  rankers: Array<{ run: string; map: number | null; se: number | null; ci: [number, number] | null; adjustedP: number | null }>;
  /** The run with the highest estimate; null without runs or labels, or when two runs share the highest. */
  best: string | null;
  /**
   * The best run is better than every other on queries like these: the paired t-test over the `used`
   * queries (as `eval --compare … --baseline BEST`) rejects each pair, Holm-corrected p < 0.05. Never
   * from the pool MAP's standard error, which is 0 once every query is labeled.
   */
  decided: boolean;
  /**
   * The best run is a model's that was trained on `trainedOn` of the `of` counted queries (same id, text
   * or near-duplicate): its lead there is in-sample, so `decided` is false whatever the test says.
   */
  bestTrainedOn?: { trainedOn: number; of: number };
  /**
   * The best run is a model's chosen on the counted queries (its dev pool, its CV's out-of-fold queries, or
   * a feature run's model's; RunMetrics.selectedOn): its lead there is optimistic, so `decided` is false.
   */
  bestSelectedOn?: SelectedOn;
  /**
   * Runs the best leads by the same AP on every query counted. With no spread the paired t-test's p is
   * 0 (a limit: a standard error of 0), so their p is the exact sign-flip test's, 2/2ⁿ for n queries.
   */
  noSpread?: string[];
}

/**
 * The queries a verdict is over, in one phrase (the app's and the CLI's verdicts): "8 queries counted
 * (1 without a similar candidate left out: convention skip)", "3 drawn queries counted", "5 opened queries".
 */
export function countedQueries(lo: Pick<LabelOrderStanding, 'estimator' | 'used' | 'order' | 'leftOut'>): string {
  if (lo.estimator === 'bounds') return counted(lo.used, 'opened query', 'opened queries');
  const drawn = lo.order === 'pool' ? '' : 'drawn ';
  return counted(lo.used, `${drawn}query counted`, `${drawn}queries counted`) + (lo.leftOut ? ` (${lo.leftOut} without a similar candidate left out: convention skip)` : '');
}

/** Why a leading run is not decided, in a clause (the app's and the CLI's verdicts). */
export function notDecidedReason(lo: Pick<LabelOrderStanding, 'noSpread' | 'used' | 'rankers' | 'best' | 'bestTrainedOn' | 'bestSelectedOn'>, queries: string): string {
  if (lo.bestTrainedOn) {
    return (
      `leads, but its model was trained on ${lo.bestTrainedOn.trainedOn} of the ${lo.bestTrainedOn.of} queries counted here (same id, text or near-duplicate): ` +
      `its lead over ${queries} is in-sample and says nothing of new queries — compare the runs on a pool it was not trained on`
    );
  }
  if (lo.bestSelectedOn && lo.best !== null) {
    return (
      `leads, but its model was ${describeSelectedOn(lo.best, lo.bestSelectedOn)}: ` +
      `its lead over ${queries} is optimistic — compare the runs on a pool that neither trained nor chose it`
    );
  }
  const failing = lo.rankers.filter((r) => r.run !== lo.best && (r.adjustedP === null || r.adjustedP >= 0.05)).map((r) => r.run);
  if (failing.length > 0 && failing.every((run) => lo.noSpread?.includes(run))) {
    return (
      `leads ${failing.join(', ')} by the same AP on every one of ${queries}; with no spread between queries the t-test's p = 0 is a limit, ` +
      `so the exact sign-flip test decides (p = 2/2^${lo.used} = ${Math.min(1, 2 ** (1 - lo.used)).toPrecision(2)} before Holm): not below 0.05 yet — label more queries`
    );
  }
  return `leads, but the paired t-test over ${queries} does not put every other run below it at Holm-corrected p < 0.05`;
}
