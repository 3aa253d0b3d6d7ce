/** Labeling orders of a pool (how its next query is chosen; src/main/active/query-order.ts). */
export const QUERY_ORDERS = ['pool', 'random', 'uncertainty', 'decide-rankers'] as const;
export type QueryOrder = (typeof QUERY_ORDERS)[number];

export function isQueryOrder(x: string): x is QueryOrder {
  return (QUERY_ORDERS as readonly string[]).includes(x);
}

/** One line per order, for the CLI help and the Pools screen. */
export const QUERY_ORDER_HELP: Record<QueryOrder, string> = {
  pool: "the pool's own order (as imported or retrieved)",
  random: 'a seeded random order: plain means over the labeled queries are unbiased',
  uncertainty: 'queries whose candidates the relevance model is least sure about first (drawn at random with those weights)',
  'decide-rankers': "queries that can most change which of the pool's rankers is best first (drawn at random with those weights)",
};

/** Where a pool's rankers stand under its labeling order (eval.pool's `labelOrder`). */
export interface LabelOrderStanding {
  order: QueryOrder;
  /** Queries in the pool, queries drawn so far (adaptive and random orders), and those used below. */
  population: number;
  drawn: number;
  used: number;
  /** How `rankers[].map` is estimated. */
  estimator: 'plain mean' | 'Des Raj' | 'Des Raj (model-assisted)' | 'exact';
  /** A sentence on what the figures mean (e.g. which queries are left out and why). */
  note: string;
  /** Per run: the MAP estimate and its standard error (null before any query counts), 95% interval, Holm-adjusted p vs the best. */
  rankers: Array<{ run: string; map: number | null; se: number | null; ci: [number, number] | null; adjustedP: number | null }>;
  /** The run with the highest estimate; null without runs or labels. */
  best: string | null;
  /** Every other run is below the best with Holm-corrected p < 0.05. */
  decided: boolean;
}
