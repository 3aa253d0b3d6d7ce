import type { MetricValues, ParsedArgs, PoolEvaluation, QueryEvaluation, RunMetrics } from '../../shared/contract';
import { AGGREGATE } from '../../shared/gold';
import { labelGrade } from '../../shared/labels';
import { aggregate, evaluateRankedQuery, rankIndices, type EvalOptions, type EvalQuery, type QueryResult } from '../metrics';
import { NotFoundError } from '../errors';
import type { Workspace } from '../workspace/workspace';
import { meanInterval } from '../stats/t-interval';
import { defaultLabelSource, sourceLabels } from '../gold/state';

export interface PoolLabels {
  /** The queries counted (see poolLabels), in the order they were last labeled. */
  queries: EvalQuery[];
  /** Queries of the pool; fully and partially labeled among them (by the source). */
  total: number;
  full: number;
  partial: number;
}

export interface PoolLabelsOptions {
  /** Also count partially labeled queries (default false: fully labeled ones only). */
  partial?: boolean;
}

/**
 * The evaluation set of a pool for one label source — an annotator, or `@aggregate` (the pool's
 * annotators' labels combined by its aggregation rule).
 *
 * A query is *fully labeled* when every one of its candidates has a label from the source. An
 * annotator's "?" (unsure) counts as labeled — a judgment was given — but not as relevant (its
 * grade is unjudged). For `@aggregate` a candidate is labeled when the rule resolves it: an
 * unresolved pair (a disagreement not settled, a tie, …) leaves its query not fully labeled.
 *
 * By default only fully labeled queries are counted; with `partial`, every query with at least
 * one label, its unlabeled candidates counting as non-relevant (trec_eval's unjudged = not
 * relevant). Queries are ordered by their latest label event, so prefixes give "metrics after n
 * labeled queries".
 */
export function poolLabels(ws: Workspace, pool: string, annotator: string, o: PoolLabelsOptions = {}): PoolLabels {
  const pq = ws.poolQueries(pool);
  const src = sourceLabels(ws, pool, annotator);
  const lastSeq = src.lastSeq;
  const queries: EvalQuery[] = [];
  let full = 0;
  let part = 0;
  for (const q of pq) {
    const m = src.values.get(q.queryId);
    if (!m) continue;
    let labeled = 0;
    const grades = new Map<string, number | undefined>();
    for (const c of q.candidates) {
      const v = m.get(c);
      if (v === undefined) continue;
      labeled++;
      grades.set(c, labelGrade(v) ?? undefined);
    }
    if (labeled === 0) continue;
    const isFull = labeled === q.candidates.length;
    if (isFull) full++;
    else part++;
    if (isFull || o.partial) queries.push({ queryId: q.queryId, candidates: q.candidates, grades });
  }
  queries.sort((a, b) => lastSeq.get(a.queryId)! - lastSeq.get(b.queryId)!);
  return { queries, total: pq.length, full, partial: part };
}

/**
 * The label source eval uses when none is given: `gold` when the pool has gold labels, else the
 * aggregate of its annotators (see gold/state.ts defaultLabelSource). The one rule for the CLI
 * (`qpairs eval`, `export`), `eval.pool`, `eval.compare` and `export.*`.
 */
export function evalLabelSource(ws: Workspace, pool: string, annotator: string | undefined): string {
  return annotator ?? defaultLabelSource(ws, pool);
}

/** The sentence describing which queries count and how unlabeled candidates are treated. */
export function labelingConvention(partial: boolean): string {
  return partial
    ? 'partial: every query with at least one label counts; its unlabeled candidates and "?" (unsure) count as not relevant'
    : 'fully labeled queries only: a query counts once every candidate has a label from the source ("?" counts as labeled, not relevant)';
}

const METRIC_KEYS = ['MAP', 'MRR', 'P@1', 'P@5', 'R-Prec'] as const;

/**
 * Metrics of every run of a pool against one label source (MAP, MRR, P@1, P@5, R-Prec and the
 * number of queries evaluated, under the chosen convention and tie rule), plus the curve of each
 * metric after the first n counted queries. Only fully labeled queries count unless `partial`
 * (see poolLabels). When nothing can be evaluated the metrics are null with the reason: the
 * source has no labels in the pool, no query is fully labeled yet, or (convention `skip`) no
 * counted query has a relevant candidate. Cost: one ranking per run and query plus O(n) prefix
 * means — a few ms for 400 queries × 20 candidates.
 */
export function evaluatePool(ws: Workspace, a: Omit<ParsedArgs<'eval.pool'>, 'partial'> & { partial?: boolean }): PoolEvaluation {
  const annotator = evalLabelSource(ws, a.pool, a.annotator);
  const partial = a.partial ?? false;
  const pl = poolLabels(ws, a.pool, annotator, { partial });
  const { queries } = pl;
  const opts: EvalOptions = { convention: a.convention, ties: a.ties, threshold: a.threshold, ks: [1, 5] };
  let reason: string | null = null;
  if (pl.full + pl.partial === 0) {
    reason =
      annotator === AGGREGATE
        ? `${annotator} has no labels in pool "${a.pool}": no pair is resolved yet (unlabeled, or disagreements and "?" waiting for a judge)`
        : `${annotator} has no labels in pool "${a.pool}"`;
  }
  else if (queries.length === 0) reason = `no query of pool "${a.pool}" is fully labeled by ${annotator} yet (${pl.partial} partially labeled; ask for partial to count them)`;
  const runs: Record<string, RunMetrics> = {};
  const perRun: Array<{ name: string; results: QueryResult[] }> = [];
  for (const r of ws.listRuns(a.pool)) {
    const scores = ws.runScores(r.id);
    const results = queries.map((q) => {
      const s = scores.get(q.queryId);
      const ranking = rankIndices(q.candidates, s, { ties: opts.ties });
      return evaluateRankedQuery(q, ranking, opts);
    });
    const agg = aggregate(results, [1, 5]) as unknown as Record<string, number>;
    const n = agg.queries!;
    if (n > 0) {
      const counted = results.filter((x) => x.included);
      const ci = {
        MAP: meanInterval(counted.map((x) => x.metrics.AP)).value,
        MRR: meanInterval(counted.map((x) => x.metrics.RR)).value,
      };
      runs[r.name] = { queries: n, MAP: agg.MAP!, MRR: agg.MRR!, 'P@1': agg['P@1']!, 'P@5': agg['P@5']!, 'R-Prec': agg['R-Prec']!, ci };
    }
    else {
      const why = reason ?? `none of the ${queries.length} counted queries has a relevant candidate (convention skip leaves them out)`;
      runs[r.name] = { queries: 0, MAP: null, MRR: null, 'P@1': null, 'P@5': null, 'R-Prec': null, reason: why };
    }
    perRun.push({ name: r.name, results });
  }
  const curve: PoolEvaluation['curve'] = [];
  const sums = perRun.map(() => ({ n: 0, MAP: 0, MRR: 0, 'P@1': 0, 'P@5': 0, 'R-Prec': 0 }));
  for (let i = 0; i < queries.length; i++) {
    const point: PoolEvaluation['curve'][number] = { labeledQueries: i + 1, runs: {} };
    perRun.forEach((pr, j) => {
      const res = pr.results[i]!;
      const s = sums[j]!;
      if (res.included) {
        s.n++;
        s.MAP += res.metrics.AP;
        s.MRR += res.metrics.RR;
        s['P@1'] += res.metrics['P@1'];
        s['P@5'] += res.metrics['P@5'];
        s['R-Prec'] += res.metrics['R-Prec'];
      }
      if (s.n === 0) return;
      const v = {} as MetricValues;
      for (const k of METRIC_KEYS) v[k] = s[k] / s.n;
      point.runs[pr.name] = v;
    });
    curve.push(point);
  }
  return {
    pool: a.pool,
    annotator,
    annotatorChosenBy: a.annotator === undefined ? 'default' : 'caller',
    convention: a.convention,
    ties: a.ties,
    partial,
    labeling: labelingConvention(partial),
    labeledQueries: queries.length,
    fullyLabeledQueries: pl.full,
    partiallyLabeledQueries: pl.partial,
    totalQueries: pl.total,
    reason,
    runs,
    curve,
  };
}

/** Per-query drill-down: each ranker's order of the candidates with their labels, AP and RR. */
export function evaluateQuery(ws: Workspace, a: ParsedArgs<'eval.query'>): QueryEvaluation {
  const q = ws.poolQueries(a.pool).find((x) => x.queryId === a.queryId);
  if (!q) throw new NotFoundError(`query ${a.queryId} is not in pool "${a.pool}"`);
  const grades = new Map<string, number | undefined>();
  const src = sourceLabels(ws, a.pool, evalLabelSource(ws, a.pool, a.annotator));
  for (const [c, v] of src.values.get(a.queryId) ?? []) grades.set(c, labelGrade(v) ?? undefined);
  const eq: EvalQuery = { queryId: q.queryId, candidates: q.candidates, grades };
  const opts: EvalOptions = { convention: 'zero', threshold: 1, ks: [1, 5] };
  const labeled = grades.size > 0;
  return {
    pool: a.pool,
    queryId: a.queryId,
    rankers: ws.listRuns(a.pool).map((r) => {
      const s = ws.runScores(r.id).get(q.queryId);
      const ranking = rankIndices(q.candidates, s);
      const res = evaluateRankedQuery(eq, ranking, opts);
      return {
        run: r.name,
        order: ranking.map((i) => {
          const id = q.candidates[i]!;
          const g = grades.get(id);
          return { candidateId: id, score: s?.get(id) ?? null, grade: g ?? null, relevant: g !== undefined && g >= 1 };
        }),
        AP: labeled && res.relevant > 0 ? res.metrics.AP : null,
        RR: labeled && res.relevant > 0 ? res.metrics.RR : null,
      };
    }),
  };
}
