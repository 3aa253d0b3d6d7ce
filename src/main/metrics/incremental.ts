/**
 * Incremental evaluation of several runs over one candidate pool while its labels change (the
 * live metrics): a label changes only its query's contribution, for each run.
 *
 * Conventions: exactly those of `evaluateRun` (evaluate.ts), which this reproduces.
 * - Each run's ranking of each query is computed once, by `rankIndices` with the chosen tie and
 *   unscored rules (rankings do not depend on labels).
 * - A query is *counted* once `setQuery` gives it grades, and left out after `setQuery(id, null)`
 *   (which queries count — fully labeled only, or partially labeled too — is the caller's rule).
 *   A counted query's metrics are `evaluateRankedQuery` on its cached ranking, so per query they
 *   are identical to evaluateRun's; `included` (R ≥ 1, or convention 'zero') says whether it
 *   enters the means (AskUbuntu 'skip' leaves R = 0 queries out, SemEval 'zero' counts them as 0).
 * - Means (MAP = mean AP, MRR = mean RR, R-Prec, P@k, Success@k, nDCG@k) are running sums over
 *   the included counted queries divided by their number; 0 (with a note) when none is included,
 *   never NaN. A change subtracts the query's old contribution and adds its new one; the sums use
 *   Neumaier's compensated summation and restart from exact 0 whenever no query is included, so
 *   they agree with evaluateRun's direct sums to rounding (≤ 1e-12 after any edit sequence).
 *   `means` reads them in O(metrics). eval.pool, which also returns the learning curve (prefix
 *   means over the labeling order), instead re-sums `orderedResults` in that order, so that its
 *   numbers are bit for bit those of the CLI's full recompute (engine/live-metrics.ts).
 * - Counted queries keep an order key (e.g. the seq of their latest label); `orderedResults`
 *   lists them by key, ties in pool order — the order of eval.pool's curve and of the per-query
 *   values its confidence intervals are computed from.
 *
 * Cost: construction O(runs · Σ n log n) (one ranking per run and query); `setQuery` O(runs · n)
 * for a query of n candidates plus O(log Q) to place it in the order (O(Q) to move an array
 * slot); `means` O(metrics); `orderedResults` O(counted queries).
 */
import { QPairsError } from '../errors';
import { evaluateRankedQuery, metricNames, noQueryEvaluatedNote, type EvalOptions, type Grades, type QueryMetrics, type QueryResult, type RunEvaluation, type RunScores } from './evaluate';
import { countScored, hasTiedScores, hasUniformScores, rankIndices, type Scores } from './ranking';

/** A pool query: its id and candidates in the pool's (retriever's) order. */
export interface PoolQueryCandidates {
  queryId: string;
  candidates: readonly string[];
}

/** The means of one run over the counted queries: evaluateRun's result without `perQuery`. */
export type RunMeans = Omit<RunEvaluation, 'perQuery'>;

const DEFAULT_KS = [1, 5, 10];

function scoresFor(run: RunScores | undefined, queryId: string): Scores | undefined {
  if (run === undefined) return undefined;
  if (run instanceof Map) return run.get(queryId);
  return Object.hasOwn(run, queryId) ? (run as Record<string, Scores>)[queryId] : undefined;
}

/** Per-query metric key of a mean's name: MAP ← AP, MRR ← RR, the others keep their name. */
function perQueryKey(name: string): keyof QueryMetrics {
  return (name === 'MAP' ? 'AP' : name === 'MRR' ? 'RR' : name) as keyof QueryMetrics;
}

export class IncrementalEvaluator {
  /** Mean names in output order (MAP, MRR, R-Prec, then P@k, Success@k, nDCG@k). */
  readonly metricNames: readonly string[];
  private readonly keys: readonly (keyof QueryMetrics)[];
  private readonly queries: readonly PoolQueryCandidates[];
  private readonly indexOf = new Map<string, number>();
  /** [run][query]: ranking as indices into the query's candidates. */
  private readonly rankings: number[][][];
  /** [run][query]: candidates with a score, and whether two scores tie. */
  private readonly scored: Int32Array[];
  private readonly tied: Uint8Array[];
  /** [run][query]: whether every scored candidate shares one score (hasUniformScores). */
  private readonly uniform: Uint8Array[];
  /** [run][query]: the counted query's result, null when not counted. */
  private readonly results: Array<Array<QueryResult | null>>;
  /** [run]: running sums (and Neumaier compensations) per mean, over included counted queries. */
  private readonly sums: Float64Array[];
  private readonly comps: Float64Array[];
  private readonly orderKey: Float64Array;
  /** Counted query indices by (order key, pool index). */
  private readonly order: number[] = [];
  private readonly counted: Uint8Array;
  /** [query]: a counted query's inclusion in the means and R (both independent of the run). */
  private readonly queryIncluded: Uint8Array;
  private readonly queryRelevant: Int32Array;
  private included = 0;
  /** Smallest position in the order whose query or results changed since takeFirstChange. */
  private firstChange = 0;
  private withoutRelevant = 0;
  /** [run]: counted queries without any score, and with tied scores. */
  private readonly withoutScores: Int32Array;
  private readonly tiedQueries: Int32Array;

  /**
   * @param queries the pool's queries (no id twice, no candidate twice within a query)
   * @param runs each run's scores per query id (undefined = an empty run)
   * @param options evaluateRun's options (convention, ties, unscored, threshold, ks)
   */
  constructor(
    queries: readonly PoolQueryCandidates[],
    runs: ReadonlyArray<RunScores | undefined>,
    private readonly options: EvalOptions,
  ) {
    const ks = options.ks ?? DEFAULT_KS;
    this.metricNames = metricNames([...new Set(ks)]);
    this.keys = this.metricNames.map(perQueryKey);
    this.queries = queries;
    let maxN = 0;
    queries.forEach((q, i) => {
      if (this.indexOf.has(q.queryId)) throw new QPairsError(`evaluate: query ${q.queryId} is given twice`, { record: q.queryId, reason: 'duplicate query' });
      this.indexOf.set(q.queryId, i);
      if (new Set(q.candidates).size !== q.candidates.length) {
        throw new QPairsError(`evaluate: query ${q.queryId}: a candidate appears twice in the pool`, { record: q.queryId, reason: 'duplicate candidate' });
      }
      maxN = Math.max(maxN, q.candidates.length);
    });
    const buf = new Float64Array(maxN);
    const rankOpts = { ties: options.ties, unscored: options.unscored };
    this.rankings = runs.map((run) => queries.map((q) => rankIndices(q.candidates, scoresFor(run, q.queryId), rankOpts, buf)));
    this.scored = runs.map((run) => Int32Array.from(queries, (q) => countScored(q.candidates, scoresFor(run, q.queryId))));
    this.tied = runs.map((run) => Uint8Array.from(queries, (q) => (hasTiedScores(q.candidates, scoresFor(run, q.queryId)) ? 1 : 0)));
    this.uniform = runs.map((run) => Uint8Array.from(queries, (q) => (hasUniformScores(q.candidates, scoresFor(run, q.queryId)) ? 1 : 0)));
    this.results = runs.map(() => new Array<QueryResult | null>(queries.length).fill(null));
    this.sums = runs.map(() => new Float64Array(this.keys.length));
    this.comps = runs.map(() => new Float64Array(this.keys.length));
    this.orderKey = new Float64Array(queries.length);
    this.counted = new Uint8Array(queries.length);
    this.queryIncluded = new Uint8Array(queries.length);
    this.queryRelevant = new Int32Array(queries.length);
    this.withoutScores = new Int32Array(runs.length);
    this.tiedQueries = new Int32Array(runs.length);
    // Bad options (convention, threshold, cutoffs) fail here, not at the first setQuery.
    evaluateRankedQuery({ queryId: '', candidates: [], grades: {} }, [], options);
  }

  /** Number of runs. */
  get runs(): number {
    return this.rankings.length;
  }

  /** Number of counted queries (included in the means or not). */
  get countedQueries(): number {
    return this.order.length;
  }

  isCounted(queryId: string): boolean {
    return this.counted[this.queryIndex(queryId)] === 1;
  }

  private queryIndex(queryId: string): number {
    const i = this.indexOf.get(queryId);
    if (i === undefined) throw new QPairsError(`evaluate: query ${queryId} is not in the pool`, { record: queryId });
    return i;
  }

  /**
   * Counts the query with these grades (candidate id → grade, undefined = unjudged; see
   * evaluate.ts), placed in the order by `orderKey`; `null` leaves it out. Updates only this
   * query's contribution to every run's sums.
   */
  setQuery(queryId: string, grades: Grades | null, orderKey = 0): void {
    const qi = this.queryIndex(queryId);
    if (this.counted[qi]) this.remove(qi);
    if (grades === null) return;
    const q = this.queries[qi]!;
    const query = { queryId: q.queryId, candidates: q.candidates, grades };
    let first: QueryResult | null = null;
    for (let j = 0; j < this.rankings.length; j++) {
      const res = evaluateRankedQuery(query, this.rankings[j]![qi]!, this.options, { scored: this.scored[j]![qi]!, tied: this.tied[j]![qi] === 1, uniform: this.uniform[j]![qi] === 1 });
      this.results[j]![qi] = res;
      this.contribute(j, qi, res, 1);
      first ??= res;
    }
    // Whether a query is included depends on its grades only (R and the convention), not on the run.
    const probe = first ?? evaluateRankedQuery(query, [], this.options);
    this.queryIncluded[qi] = probe.included ? 1 : 0;
    this.queryRelevant[qi] = probe.relevant;
    if (probe.included) this.included++;
    if (probe.relevant === 0) this.withoutRelevant++;
    this.counted[qi] = 1;
    this.orderKey[qi] = orderKey;
    const at = this.position(qi);
    this.order.splice(at, 0, qi);
    this.firstChange = Math.min(this.firstChange, at);
  }

  private remove(qi: number): void {
    for (let j = 0; j < this.rankings.length; j++) {
      this.contribute(j, qi, this.results[j]![qi]!, -1);
      this.results[j]![qi] = null;
    }
    if (this.queryIncluded[qi]) this.included--;
    if (this.queryRelevant[qi] === 0) this.withoutRelevant--;
    this.counted[qi] = 0;
    const at = this.position(qi);
    this.order.splice(at, 1);
    this.firstChange = Math.min(this.firstChange, at);
    if (this.included === 0) {
      for (const s of this.sums) s.fill(0);
      for (const c of this.comps) c.fill(0);
    }
  }

  /** Adds (sign 1) or removes (sign −1) one query's result from run j's sums and counts. */
  private contribute(j: number, qi: number, res: QueryResult, sign: 1 | -1): void {
    if (this.scored[j]![qi] === 0) this.withoutScores[j]! += sign;
    if (this.tied[j]![qi] === 1) this.tiedQueries[j]! += sign;
    if (!res.included) return;
    const sum = this.sums[j]!;
    const comp = this.comps[j]!;
    for (let m = 0; m < this.keys.length; m++) {
      const x = sign * res.metrics[this.keys[m]!];
      const s = sum[m]!;
      const t = s + x;
      comp[m]! += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
      sum[m] = t;
    }
  }

  /** Index in `order` where query qi sits (or would be inserted), by binary search on (key, index). */
  private position(qi: number): number {
    const key = this.orderKey[qi]!;
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const o = this.order[mid]!;
      const k = this.orderKey[o]!;
      if (k < key || (k === key && o < qi)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Run j's means over the counted queries (evaluateRun's result over them, without perQuery). */
  means(j: number): RunMeans {
    const sum = this.sums[j];
    if (!sum) throw new QPairsError(`evaluate: no run ${j}`);
    const comp = this.comps[j]!;
    const out = {
      queries: this.included,
      total: this.order.length,
      withoutRelevant: this.withoutRelevant,
      withoutScores: this.withoutScores[j]!,
      tiedQueries: this.tiedQueries[j]!,
      metricNames: [...this.metricNames],
    } as RunMeans;
    const rec = out as unknown as Record<string, number>;
    for (let m = 0; m < this.metricNames.length; m++) rec[this.metricNames[m]!] = this.included === 0 ? 0 : (sum[m]! + comp[m]!) / this.included;
    if (this.included === 0) out.note = noQueryEvaluatedNote(this.order.length);
    return out;
  }

  /** Run j's results of the counted queries, in order (order key, then pool order). */
  orderedResults(j: number): QueryResult[] {
    const res = this.results[j];
    if (!res) throw new QPairsError(`evaluate: no run ${j}`);
    return this.order.map((qi) => res[qi]!);
  }

  /**
   * The first position in the order (see orderedResults) whose query or results changed since
   * the previous call (the first call: 0); the positions before it hold the same queries with the
   * same results. `countedQueries` when nothing changed. Resets the mark.
   */
  takeFirstChange(): number {
    const first = Math.min(this.firstChange, this.order.length);
    this.firstChange = Infinity;
    return first;
  }

  /** The counted query ids, in order. */
  orderedQueryIds(): string[] {
    return this.order.map((qi) => this.queries[qi]!.queryId);
  }
}
