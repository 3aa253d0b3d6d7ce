import type { ParsedArgs, PoolEvaluation, QueryEvaluation, RunMetrics } from '../../shared/contract';
import { labelGrade } from '../../shared/labels';
import { aggregate, evaluateRankedQuery, rankIndices, type EvalOptions, type EvalQuery, type QueryResult } from '../metrics';
import { NotFoundError } from '../errors';
import type { Workspace } from '../workspace/workspace';
import { defaultLabelSource, sourceLabels } from '../gold/state';

export interface PoolLabels {
  /** Queries with at least one judged label, in the order they were last labeled. */
  queries: EvalQuery[];
}

/**
 * The evaluation set of a pool for one label source — an annotator, or `@aggregate` (the pool's
 * annotators' labels combined by its aggregation rule; unresolved pairs are unjudged): every
 * query with at least one label from that source (labels "?" count as unjudged), its candidates
 * in pool order and their grades. Queries are ordered by their latest label event, so prefixes
 * give "metrics after n labeled queries".
 */
export function poolLabels(ws: Workspace, pool: string, annotator: string): PoolLabels {
  const pq = ws.poolQueries(pool);
  const src = sourceLabels(ws, pool, annotator);
  const grades = new Map<string, Map<string, number | undefined>>();
  for (const [q, m] of src.values) {
    const g = new Map<string, number | undefined>();
    for (const [c, v] of m) g.set(c, labelGrade(v) ?? undefined);
    grades.set(q, g);
  }
  const lastSeq = src.lastSeq;
  const queries: EvalQuery[] = pq
    .filter((q) => grades.has(q.queryId))
    .map((q) => ({ queryId: q.queryId, candidates: q.candidates, grades: grades.get(q.queryId)! }));
  queries.sort((a, b) => lastSeq.get(a.queryId)! - lastSeq.get(b.queryId)!);
  return { queries };
}

/**
 * The label source eval uses when none is given: `gold` when the pool has gold labels, else the
 * aggregate of its annotators (see gold/state.ts defaultLabelSource).
 */
export function evalLabelSource(ws: Workspace, pool: string, annotator: string | undefined): string {
  return annotator ?? defaultLabelSource(ws, pool);
}

function pick(m: Record<string, number>): Omit<RunMetrics, 'queries'> {
  return { MAP: m.MAP!, MRR: m.MRR!, 'P@1': m['P@1']!, 'P@5': m['P@5']!, 'R-Prec': m['R-Prec']! };
}

/**
 * Metrics of every run of a pool against one annotator's labels (MAP, MRR, P@1, P@5, R-Prec and
 * the number of queries evaluated, under the chosen convention and tie rule), plus the curve of
 * each metric after the first n labeled queries. Cost: one ranking per run and query plus O(n)
 * prefix means — a few ms for 400 queries × 20 candidates.
 */
export function evaluatePool(ws: Workspace, a: ParsedArgs<'eval.pool'>): PoolEvaluation {
  const annotator = evalLabelSource(ws, a.pool, a.annotator);
  const { queries } = poolLabels(ws, a.pool, annotator);
  const opts: EvalOptions = { convention: a.convention, ties: a.ties, threshold: a.threshold, ks: [1, 5] };
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
    runs[r.name] = { queries: agg.queries!, ...pick(agg) };
    perRun.push({ name: r.name, results });
  }
  const curve: PoolEvaluation['curve'] = [];
  const keys = ['MAP', 'MRR', 'P@1', 'P@5', 'R-Prec'] as const;
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
      const v = {} as Omit<RunMetrics, 'queries'>;
      for (const k of keys) v[k] = s.n ? s[k] / s.n : 0;
      point.runs[pr.name] = v;
    });
    curve.push(point);
  }
  return { pool: a.pool, annotator, convention: a.convention, ties: a.ties, labeledQueries: queries.length, runs, curve };
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
