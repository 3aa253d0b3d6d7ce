import type { Convention, MetricValues, ParsedArgs, PoolEvaluation, QueryEvaluation, RunMetrics } from '../../shared/contract';
import { AGGREGATE, noAnnotatorsNote } from '../../shared/gold';
import { labelGrade } from '../../shared/labels';
import { countScored, evaluateRankedQuery, hasTiedScores, hasUniformScores, rankIndices, type EvalOptions, type EvalQuery, type QueryResult } from '../metrics';
import { NotFoundError } from '../errors';
import type { Workspace } from '../workspace/workspace';
import { meanInterval } from '../stats/t-interval';
import { aggregationSummary, loadPoolState, sourceLabels } from '../gold/state';
import { evalLabelSource, poolLabels } from '../gold/pool-labels';

/** The sentence describing which queries count and how unlabeled candidates are treated. */
export function labelingConvention(partial: boolean): string {
  return partial
    ? 'partial: every query with at least one label counts; its unlabeled candidates and "?" (unsure) count as not similar'
    : 'fully labeled queries only: a query counts once every candidate has a label from the source ("?" counts as labeled, not similar)';
}

/**
 * eval.pool's arguments as the engine and the CLI give them (`partial` optional: default false;
 * `convention` omitted = the pool's own, see withPoolConvention; `conventionChosenBy` says which).
 */
export type EvalPoolArgs = Omit<ParsedArgs<'eval.pool'>, 'partial'> & { partial?: boolean; conventionChosenBy?: 'caller' | 'pool' };

/**
 * The arguments with the convention filled in (issue 24): the caller's, else the pool's own
 * (PoolInfo.convention: SemEval imports zero, AskUbuntu pools skip, own pools the owner's choice,
 * default zero), and which of the two it is.
 */
export function withPoolConvention<A extends { pool: string; convention?: Convention }>(ws: Workspace, a: A): A & { convention: Convention; conventionChosenBy: 'caller' | 'pool' } {
  return a.convention !== undefined ? { ...a, convention: a.convention, conventionChosenBy: 'caller' } : { ...a, convention: ws.poolConvention(a.pool), conventionChosenBy: 'pool' };
}

/** The evaluation options of eval.pool: its convention (zero when unresolved), tie rule and threshold; cutoffs 1 and 5. */
export function evalPoolOptions(a: EvalPoolArgs): EvalOptions {
  return { convention: a.convention ?? 'zero', ties: a.ties, threshold: a.threshold, ks: [1, 5] };
}

/**
 * Metrics of every run of a pool against one label source (MAP, MRR, P@1, P@5, R-Prec and the
 * number of queries evaluated, under the chosen convention and tie rule), plus the curve of each
 * metric after the first n counted queries. Only fully labeled queries count unless `partial`
 * (see poolLabels). When nothing can be evaluated the metrics are null with the reason: the
 * source has no labels in the pool, no query is fully labeled yet, or (convention `skip`) no
 * counted query has a relevant candidate. This recomputes everything (the CLI's path): one ranking
 * per run and query plus O(n) prefix means — a few ms for 400 queries × 20 candidates. The
 * engine's eval.pool keeps the per-query results between labels instead (live-metrics.ts) and
 * assembles the same result with poolEvaluationOf.
 */
export function evaluatePool(ws: Workspace, given: EvalPoolArgs): PoolEvaluation {
  const a = withPoolConvention(ws, given);
  const annotator = evalLabelSource(ws, a.pool, a.annotator);
  const partial = a.partial ?? false;
  const pl = poolLabels(ws, a.pool, annotator, { partial });
  const { queries } = pl;
  const opts = evalPoolOptions(a);
  const perRun: RunResults[] = ws.listRuns(a.pool).map((r) => {
    const scores = ws.runScores(r.id);
    const results = queries.map((q) => {
      const s = scores.get(q.queryId);
      const ranking = rankIndices(q.candidates, s, { ties: opts.ties });
      // The same per-query facts as the live path (metrics/incremental.ts) records.
      return evaluateRankedQuery(q, ranking, opts, { scored: countScored(q.candidates, s), tied: hasTiedScores(q.candidates, s), uniform: hasUniformScores(q.candidates, s) });
    });
    return { name: r.name, results };
  });
  const emptyReason = pl.full + pl.partial === 0 ? emptySourceReason(ws, a.pool, annotator) : null;
  return poolEvaluationOf(a, annotator, { total: pl.total, full: pl.full, partial: pl.partial, counted: queries.length, emptyReason }, perRun);
}

/** A pool's queries (total), fully and partially labeled ones by the source, and those counted. */
export interface PoolLabelCounts {
  total: number;
  full: number;
  partial: number;
  counted: number;
  /** Why the source has no labels in the pool, when there is more to say than that (emptySourceReason). */
  emptyReason?: string | null;
}

/**
 * Why `source` has no labels in `pool`, when it is @aggregate over a pool without annotators (an
 * imported pool whose labels are gold's: "no pair is resolved yet" said nothing of the kind):
 * noAnnotatorsNote, as `qpairs aggregate` and the Team panel say it; null otherwise. Call only
 * when the source has no labels there (it reads the pool's state).
 */
export function emptySourceReason(ws: Workspace, pool: string, source: string): string | null {
  return source === AGGREGATE ? noAnnotatorsNote(aggregationSummary(loadPoolState(ws, pool))) : null;
}

/**
 * Curve points to share with an earlier result: the first `valid` points of `curve` were computed
 * from the very per-query results now at the same positions, so they are reused as they are (the
 * objects themselves: results are read-only).
 */
export interface CurveReuse {
  curve: PoolEvaluation['curve'];
  valid: number;
}

/** One run's per-query results over the counted queries, in labeling order. */
export interface RunResults {
  name: string;
  results: QueryResult[];
}

/**
 * eval.pool's result from each run's per-query results over the counted queries (in the order
 * they were last labeled; every run lists the same `counts.counted` queries) and the pool's
 * label counts. Means are summed in that order over the included queries (the additions
 * metrics' aggregate() makes), the 95% intervals of MAP, MRR, P@1, P@5 and R-Prec are meanInterval over
 * their per-query values in that order (Student t, clipped to the metric's range [0, 1]), and the curve holds the prefix means — so the same per-query results give
 * the same numbers, bit for bit, whoever computed them. O(counted queries × runs); with `reuse`,
 * the shared curve points are not rebuilt.
 */
export function poolEvaluationOf(
  a: EvalPoolArgs,
  annotator: string,
  counts: PoolLabelCounts,
  perRun: readonly RunResults[],
  reuse?: CurveReuse,
): PoolEvaluation {
  const partial = a.partial ?? false;
  const { counted } = counts;
  const kept = reuse ? Math.min(reuse.valid, reuse.curve.length, counted) : 0;
  let reason: string | null = null;
  if (counts.full + counts.partial === 0) {
    reason =
      counts.emptyReason ??
      (annotator === AGGREGATE
        ? `${annotator} has no labels in pool "${a.pool}": no pair is resolved yet (unlabeled, or disagreements and "?" waiting for a judge)`
        : `${annotator} has no labels in pool "${a.pool}"`);
  }
  else if (counted === 0) reason = `no query of pool "${a.pool}" is fully labeled by ${annotator} yet (${counts.partial} partially labeled; count them with --partial, or “include partially labeled queries” in the app)`;
  // One pass in labeling order: the curve's prefix sums, whose last values are the runs' sums
  // (the very additions aggregate() makes), and the included queries' AP and RR for the intervals.
  const curve: PoolEvaluation['curve'] = new Array(counted);
  const sums = perRun.map(() => ({ n: 0, unscored: 0, uniform: 0, MAP: 0, MRR: 0, 'P@1': 0, 'P@5': 0, 'R-Prec': 0, ap: [] as number[], rr: [] as number[], p1: [] as number[], p5: [] as number[], rp: [] as number[] }));
  for (let i = 0; i < counted; i++) {
    const reused = i < kept;
    const point: PoolEvaluation['curve'][number] = reused ? reuse!.curve[i]! : { labeledQueries: i + 1, runs: {} };
    for (let j = 0; j < perRun.length; j++) {
      const pr = perRun[j]!;
      const res = pr.results[i]!;
      const s = sums[j]!;
      if (res.included) {
        const m = res.metrics;
        s.n++;
        if (res.scored === 0) s.unscored++;
        if (res.uniform) s.uniform++;
        s.MAP += m.AP;
        s.MRR += m.RR;
        s['P@1'] += m['P@1'];
        s['P@5'] += m['P@5'];
        s['R-Prec'] += m['R-Prec'];
        s.ap.push(m.AP);
        s.rr.push(m.RR);
        s.p1.push(m['P@1']);
        s.p5.push(m['P@5']);
        s.rp.push(m['R-Prec']);
      }
      if (s.n === 0 || reused) continue;
      const v: MetricValues = { MAP: s.MAP / s.n, MRR: s.MRR / s.n, 'P@1': s['P@1'] / s.n, 'P@5': s['P@5'] / s.n, 'R-Prec': s['R-Prec'] / s.n };
      point.runs[pr.name] = v;
    }
    curve[i] = point;
  }
  // Whether a query has a similar candidate depends on its labels and the threshold, not on the run.
  let withoutRelevant = 0;
  for (let i = 0; i < counted; i++) if (perRun[0]?.results[i]?.relevant === 0) withoutRelevant++;
  const runs: Record<string, RunMetrics> = {};
  perRun.forEach(({ name }, j) => {
    const s = sums[j]!;
    if (s.n > 0) {
      // Each interval: mean ± t₀.₉₇₅,ₙ₋₁ · s/√n over the per-query values, clipped to [0, 1] (stats/t-interval.ts).
      const ci = { MAP: meanInterval(s.ap).value, MRR: meanInterval(s.rr).value, 'P@1': meanInterval(s.p1).value, 'P@5': meanInterval(s.p5).value, 'R-Prec': meanInterval(s.rp).value };
      runs[name] = { queries: s.n, MAP: s.MAP / s.n, MRR: s.MRR / s.n, 'P@1': s['P@1'] / s.n, 'P@5': s['P@5'] / s.n, 'R-Prec': s['R-Prec'] / s.n, ci };
      if (s.unscored > 0) runs[name]!.unscoredQueries = s.unscored;
      if (s.uniform > 0) runs[name]!.uniformQueries = s.uniform;
    }
    else {
      const why = reason ?? `none of the ${counted} counted queries has a similar candidate (convention skip leaves them out)`;
      runs[name] = { queries: 0, MAP: null, MRR: null, 'P@1': null, 'P@5': null, 'R-Prec': null, reason: why };
    }
  });
  return {
    pool: a.pool,
    annotator,
    annotatorChosenBy: a.annotator === undefined ? 'default' : 'caller',
    convention: a.convention ?? 'zero',
    conventionChosenBy: a.conventionChosenBy ?? 'caller',
    ties: a.ties,
    threshold: a.threshold,
    partial,
    withoutRelevant,
    labeling: labelingConvention(partial),
    labeledQueries: counted,
    fullyLabeledQueries: counts.full,
    partiallyLabeledQueries: counts.partial,
    totalQueries: counts.total,
    reason,
    runs,
    curve,
  };
}

/** Per-query drill-down: each ranker's order of the candidates (ties broken by `ties`) with their labels (relevant from `threshold` on), AP and RR. */
export function evaluateQuery(ws: Workspace, a: ParsedArgs<'eval.query'>): QueryEvaluation {
  const q = ws.poolQueries(a.pool).find((x) => x.queryId === a.queryId);
  if (!q) throw new NotFoundError(`query ${a.queryId} is not in pool "${a.pool}"`);
  const grades = new Map<string, number | undefined>();
  const src = sourceLabels(ws, a.pool, evalLabelSource(ws, a.pool, a.annotator));
  for (const [c, v] of src.values.get(a.queryId) ?? []) grades.set(c, labelGrade(v) ?? undefined);
  const eq: EvalQuery = { queryId: q.queryId, candidates: q.candidates, grades };
  const opts: EvalOptions = { convention: 'zero', threshold: a.threshold, ks: [1, 5] };
  const labeled = grades.size > 0;
  return {
    pool: a.pool,
    queryId: a.queryId,
    rankers: ws.listRuns(a.pool).map((r) => {
      const s = ws.runScores(r.id).get(q.queryId);
      const ranking = rankIndices(q.candidates, s, { ties: a.ties });
      const res = evaluateRankedQuery(eq, ranking, opts);
      return {
        run: r.name,
        order: ranking.map((i) => {
          const id = q.candidates[i]!;
          const g = grades.get(id);
          return { candidateId: id, score: s?.get(id) ?? null, grade: g ?? null, relevant: g !== undefined && g >= a.threshold };
        }),
        AP: labeled && res.relevant > 0 ? res.metrics.AP : null,
        RR: labeled && res.relevant > 0 ? res.metrics.RR : null,
      };
    }),
  };
}

/**
 * Refuses a label source nobody has (`qpairs eval --annotator alcie`, a typo, evaluated nothing and
 * said only "alcie has no labels"), as export refuses it. The CLI's check: the app's Annotate panel
 * evaluates a person who has not labeled yet (no annotator row until the first label), so eval.pool
 * takes any name.
 */
export function checkLabelSourceName(ws: Workspace, annotator: string | undefined): void {
  if (annotator === undefined || annotator === AGGREGATE || ws.listAnnotators().some((a) => a.name === annotator)) return;
  throw new NotFoundError(`no annotator named "${annotator}" (label sources: ${[...ws.listAnnotators().map((a) => a.name), AGGREGATE].join(', ')})`);
}
