/**
 * Comparing rankers on a pool: each run's per-query metric (AP, RR, P@1, P@5 or R-Prec) on the
 * same labeled queries — the queries `eval` evaluates for the label source under the convention
 * (`skip` leaves out queries without a relevant candidate; whether a query is in does not
 * depend on the run) — then src/main/stats compareRankers: per pair of runs the mean difference
 * with a bootstrap-over-queries 95% CI, the paired t-test, the paired randomization (sign-flip)
 * test, and Holm's correction of both families of p-values over the compared pairs.
 */
import type { CompareMetric, CompareView, IntervalView, StatView } from '../../shared/gold';
import { COMPARE_METRICS, DEFAULT_COMPARE_METRIC } from '../../shared/gold';
import { DEFAULT_ALPHA, DEFAULT_PERMUTATIONS, DEFAULT_RESAMPLES, DEFAULT_SEED, DEFAULT_TIES } from '../../shared/stat-defaults';
import { DEFAULT_RELEVANCE_THRESHOLD } from '../../shared/labels';
import { evalLabelSource, poolLabels } from './pool-labels';
import { NotFoundError, QPairsError } from '../errors';
import { countScored, evaluateRankedQuery, hasUniformScores, rankIndices, type EvalOptions } from '../metrics';
import { compareRankers } from '../stats';
import type { Workspace } from '../workspace/workspace';
import { checkCompareBudget } from './budget';

export interface PoolCompareOptions {
  runs: readonly string[];
  metric?: CompareMetric;
  /** Label source (annotator or @aggregate); default as eval (defaultLabelSource). */
  annotator?: string;
  convention?: 'skip' | 'zero';
  ties?: 'pool-order' | 'trec-eval';
  threshold?: number;
  /** Bootstrap resamples (default 1000), permutations (default 10000), seed (default 1). */
  bootstrap?: number;
  permutations?: number;
  seed?: number;
  /** Family-wise level for Holm (default 0.05). */
  alpha?: number;
  /** Compare each run with this one instead of every pair. */
  baseline?: string;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** Work budget (default COMPARE_WORK_LIMIT, see budget.ts); a larger comparison is refused. */
  workLimit?: number;
  /**
   * How many of the compared queries (ids) a run's model was trained on; undefined for a run that is no
   * stored model's. The engine gives it (runModelOverlap): the comparison then flags in-sample runs.
   */
  overlapOf?: (run: string, queries: readonly string[]) => CompareView['runs'][number]['overlap'] | undefined;
  /** Whether a run's model was chosen on the compared queries (runSelectedOn); the engine gives it with overlapOf. */
  selectedOnOf?: (run: string, queries: readonly string[]) => CompareView['runs'][number]['selectedOn'];
}

/**
 * Per-query values of a metric for some runs of a pool, on the queries eval includes; `uniform`:
 * how many of those queries the run gives every candidate the same score (hasUniformScores);
 * `unscored`: how many it scores no candidate of (ranked in the pool's order there, as eval flags).
 */
export function perQueryMetric(
  ws: Workspace,
  pool: string,
  runs: readonly string[],
  o: { metric: CompareMetric; annotator: string; convention: 'skip' | 'zero'; ties: 'pool-order' | 'trec-eval'; threshold: number },
): { queries: string[]; rankers: Array<{ name: string; values: number[]; uniform: number; unscored: number }> } {
  const { queries } = poolLabels(ws, pool, o.annotator);
  const known = new Map(ws.listRuns(pool).map((r) => [r.name, r.id]));
  const opts: EvalOptions = { convention: o.convention, ties: o.ties, threshold: o.threshold, ks: [1, 5] };
  const ids: string[] = [];
  const rankers = runs.map((name) => {
    const id = known.get(name);
    if (id === undefined) throw new NotFoundError(`pool "${pool}" has no run "${name}" (runs: ${[...known.keys()].join(', ') || 'none'})`);
    const scores = ws.runScores(id);
    const values: number[] = [];
    const qs: string[] = [];
    let uniform = 0;
    let unscored = 0;
    for (const q of queries) {
      const s = scores.get(q.queryId);
      const res = evaluateRankedQuery(q, rankIndices(q.candidates, s, { ties: o.ties }), opts);
      if (!res.included) continue;
      values.push(res.metrics[o.metric as 'AP']);
      qs.push(q.queryId);
      if (hasUniformScores(q.candidates, s)) uniform++;
      if (countScored(q.candidates, s) === 0) unscored++;
    }
    if (ids.length === 0) ids.push(...qs);
    return { name, values, uniform, unscored };
  });
  return { queries: ids, rankers };
}

export function comparePoolRuns(ws: Workspace, pool: string, o: PoolCompareOptions): CompareView {
  ws.pool(pool);
  const metric = o.metric ?? DEFAULT_COMPARE_METRIC;
  if (!COMPARE_METRICS.includes(metric)) throw new QPairsError(`unknown metric "${metric}" (metrics: ${COMPARE_METRICS.join(', ')})`);
  if (o.runs.length < 2) throw new QPairsError('comparing needs at least two runs');
  if (new Set(o.runs).size !== o.runs.length) throw new QPairsError('a run is listed twice');
  if (o.baseline !== undefined && !o.runs.includes(o.baseline)) throw new QPairsError(`the baseline "${o.baseline}" is not among the compared runs`);
  const annotator = evalLabelSource(ws, pool, o.annotator);
  const convention = o.convention ?? ws.poolConvention(pool); // issue 24: the pool's own unless given
  const ties = o.ties ?? DEFAULT_TIES;
  const threshold = o.threshold ?? DEFAULT_RELEVANCE_THRESHOLD;
  const resamples = o.bootstrap ?? DEFAULT_RESAMPLES;
  const permutations = o.permutations ?? DEFAULT_PERMUTATIONS;
  const seed = o.seed ?? DEFAULT_SEED;
  const alpha = o.alpha ?? DEFAULT_ALPHA;
  const input = perQueryMetric(ws, pool, o.runs, { metric, annotator, convention, ties, threshold });
  const runPairs = o.baseline !== undefined ? o.runs.length - 1 : (o.runs.length * (o.runs.length - 1)) / 2;
  checkCompareBudget(runPairs, input.queries.length, resamples, permutations, o.workLimit);
  const r = compareRankers(input, { resamples, permutations, seed, alpha, baseline: o.baseline, signal: o.signal, onProgress: o.onProgress });
  return {
    pool,
    metric,
    annotator,
    convention,
    ties,
    threshold,
    queries: r.queries,
    bootstrap: { resamples, seed },
    permutations,
    alpha,
    runs: r.rankers.map((x) => {
      const { uniform, unscored } = input.rankers.find((i) => i.name === x.name)!;
      const overlap = o.overlapOf?.(x.name, input.queries);
      const selectedOn = o.selectedOnOf?.(x.name, input.queries);
      return {
        name: x.name,
        mean: x.mean as StatView,
        ...(unscored > 0 ? { unscoredQueries: unscored } : {}),
        ...(uniform > 0 ? { uniformQueries: uniform } : {}),
        ...(overlap !== undefined ? { overlap } : {}),
        ...(selectedOn ? { selectedOn } : {}),
      };
    }),
    pairs: r.pairs.map((p) => ({
      a: p.a,
      b: p.b,
      n: p.n,
      meanA: p.meanA as StatView,
      meanB: p.meanB as StatView,
      meanDiff: p.meanDiff as StatView,
      ci95: p.ci as IntervalView,
      t: p.tTest.t as StatView,
      df: p.tTest.df,
      pT: p.tTest.p as StatView,
      pPermutation: p.permutation.p as StatView,
      permutationMethod: p.permutation.method,
      pHolmT: p.holmT as StatView,
      pHolmPermutation: p.holmPermutation as StatView,
      rejectT: p.rejectT,
      rejectPermutation: p.rejectPermutation,
    })),
  };
}
