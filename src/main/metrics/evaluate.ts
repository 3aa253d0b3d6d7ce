/**
 * Evaluating a run (scores per query) against graded labels over candidate pools.
 *
 * Relevance
 * - A candidate's label is a grade (number) or `undefined` = unjudged. A candidate is relevant
 *   iff grade ≥ `threshold` (default 1; SemEval: PerfectMatch = 2 and Relevant = 1 are relevant,
 *   Irrelevant = 0 is not). Unjudged candidates (undefined, absent from `grades`, or NaN) are
 *   non-relevant (trec_eval convention).
 * - R (the AP / R-Prec denominator) = number of *candidates in the pool* with grade ≥ threshold,
 *   whether or not the run ranks them (with `unscored: 'drop'` an unscored relevant candidate is
 *   "not retrieved" and still counts in R, as in trec_eval, which divides AP by the qrels'
 *   relevant count). Grades of ids that are not candidates of the query are ignored. For
 *   AskUbuntu this is |similar ∩ candidates|.
 * - nDCG gain = grade when grade > 0, else 0 (trec_eval `ndcg_cut`: gain = the qrels level, not
 *   thresholded); discount log2(rank + 1); ideal ranking = all pool candidates by gain.
 *
 * Conventions for queries with R = 0 (no relevant candidate), chosen by the caller:
 * - `'skip'`: left out of every mean (Lei et al. 2016); `queries` counts the others.
 * - `'zero'`: kept in every mean (trec_eval -c, the SemEval scorer). Their AP, RR, P@k, R-Prec
 *   and Success@k are 0 by definition. Their nDCG@k is what trec_eval gives: 0 unless some
 *   candidate has 0 < grade < threshold (impossible with integer grades and threshold 1).
 * With no query evaluated (`queries` = 0) every mean is 0 (never NaN) and `note` says why.
 *
 * Cost: O(Σ n log n) for a pool of n candidates per query, a handful of small arrays per query
 * (400 × 20 evaluates in about 2 ms on Node 22, both tie rules). For recomputation on each label edit, rank once
 * with `rankIndices` (ranking does not depend on labels), then call `evaluateRankedQuery` for the
 * edited query and `aggregate` over the per-query results.
 */
import { QPairsError } from '../errors';
import { DEFAULT_RELEVANCE_THRESHOLD } from '../../shared/labels';
import { DEFAULT_TIES } from '../../shared/stat-defaults';
import {
  averagePrecision,
  firstRelevantRank,
  ndcgAt,
  precisionAt,
  rPrecision,
  reciprocalRank,
  successAt,
} from './measures';
import { countScored, hasTiedScores, hasUniformScores, rankIndices, type Scores, type TieRule, type UnscoredRule } from './ranking';

export type Convention = 'skip' | 'zero';

/** Grades per candidate id: a number, or undefined = unjudged. */
export type Grades = ReadonlyMap<string, number | undefined> | Readonly<Record<string, number | undefined>>;

export interface EvalQuery {
  queryId: string;
  /** The pool's candidate ids in their original (retriever's) order; no duplicates. */
  candidates: readonly string[];
  grades: Grades;
}

/** Scores per query id: a Map or a record; a query absent here has an empty run. */
export type RunScores = ReadonlyMap<string, Scores> | Readonly<Record<string, Scores>>;

export interface EvalOptions {
  /** What to do with queries that have no relevant candidate (required: choose explicitly). */
  convention: Convention;
  /** Tie rule for equal scores; default `'pool-order'`. */
  ties?: TieRule;
  /** Where candidates without a score go; default `'append'` (after the scored ones, pool order). */
  unscored?: UnscoredRule;
  /** Relevant iff grade ≥ threshold; default 1. */
  threshold?: number;
  /** Cutoffs for P@k, Success@k and nDCG@k; default [1, 5, 10]. */
  ks?: readonly number[];
}

type CutoffKey = `P@${number}` | `Success@${number}` | `nDCG@${number}`;

/** Per-query metric values, all in [0, 1]. */
export type QueryMetrics = { AP: number; RR: number; 'R-Prec': number } & { [K in CutoffKey]: number };

export interface QueryResult {
  queryId: string;
  /** Counted in the means (R ≥ 1, or convention 'zero'). */
  included: boolean;
  /** R: relevant candidates in the pool (grade ≥ threshold). */
  relevant: number;
  /** Candidates with a grade (not unjudged). */
  judged: number;
  /** Candidates with a score in the run. */
  scored: number;
  /** Length of the ranked list (= candidates, or `scored` under unscored 'drop'). */
  retrieved: number;
  /** Two or more scored candidates share a score. */
  tied: boolean;
  /** Two or more candidates are scored and all share one score (see hasUniformScores): the run orders none of them. */
  uniform: boolean;
  /** 1-based rank of the first relevant candidate, or null when none is ranked. */
  firstRelevantRank: number | null;
  /** Ranked list as indices into the query's `candidates`, best first. */
  ranking: number[];
  metrics: QueryMetrics;
}

/** Mean metrics of a run plus counts; mean keys: MAP, MRR, R-Prec, P@k, Success@k, nDCG@k. */
export type RunEvaluation = {
  /** Queries counted in the means. */
  queries: number;
  /** Queries given. */
  total: number;
  /** Queries with no relevant candidate (R = 0), skipped under 'skip', zeros under 'zero'. */
  withoutRelevant: number;
  /** Queries for which the run has no score at all (empty runs). */
  withoutScores: number;
  /** Queries with tied scores. */
  tiedQueries: number;
  MAP: number;
  MRR: number;
  'R-Prec': number;
  /** Metric names in output order (MAP, MRR, R-Prec, then P@k, Success@k, nDCG@k by k). */
  metricNames: string[];
  perQuery: QueryResult[];
  /** Set when no query was evaluated (all means are then 0). */
  note?: string;
} & { [K in CutoffKey]: number };

interface Resolved {
  convention: Convention;
  ties: TieRule;
  unscored: UnscoredRule;
  threshold: number;
  ks: number[];
}

const DEFAULT_KS = [1, 5, 10];

function resolve(options: EvalOptions): Resolved {
  const { convention } = options;
  if (convention !== 'skip' && convention !== 'zero') {
    throw new QPairsError(`evaluate: convention must be 'skip' or 'zero', got ${JSON.stringify(convention)}`);
  }
  const threshold = options.threshold ?? DEFAULT_RELEVANCE_THRESHOLD;
  if (typeof threshold !== 'number' || !Number.isFinite(threshold)) {
    throw new QPairsError(`evaluate: threshold must be a finite number, got ${String(threshold)}`);
  }
  const ks: number[] = [];
  for (const k of options.ks ?? DEFAULT_KS) {
    if (!Number.isInteger(k) || k < 1) throw new QPairsError(`evaluate: cutoff k must be a positive integer, got ${String(k)}`);
    if (!ks.includes(k)) ks.push(k);
  }
  return { convention, ties: options.ties ?? DEFAULT_TIES, unscored: options.unscored ?? 'append', threshold, ks };
}

function gradeOf(grades: Grades, id: string): number | undefined {
  let v: unknown;
  if (grades instanceof Map) v = grades.get(id);
  else if (Object.hasOwn(grades, id)) v = (grades as Record<string, unknown>)[id];
  return typeof v === 'number' && !Number.isNaN(v) ? v : undefined;
}

function scoresFor(run: RunScores | undefined, queryId: string): Scores | undefined {
  if (run === undefined) return undefined;
  if (run instanceof Map) return run.get(queryId);
  return Object.hasOwn(run, queryId) ? (run as Record<string, Scores>)[queryId] : undefined;
}

function checkCandidates(q: EvalQuery): void {
  if (!Array.isArray(q.candidates)) throw new QPairsError(`evaluate: query ${q.queryId}: candidates is not an array`, { record: q.queryId });
  const seen = new Set<string>();
  for (const c of q.candidates) {
    if (seen.has(c)) {
      throw new QPairsError(`evaluate: query ${q.queryId}: candidate ${c} appears twice in the pool`, {
        record: q.queryId,
        reason: 'duplicate candidate',
      });
    }
    seen.add(c);
  }
}

/** Metric names in output order for the given cutoffs. */
export function metricNames(ks: readonly number[] = DEFAULT_KS): string[] {
  return [
    'MAP',
    'MRR',
    'R-Prec',
    ...ks.map((k) => `P@${k}`),
    ...ks.map((k) => `Success@${k}`),
    ...ks.map((k) => `nDCG@${k}`),
  ];
}

/**
 * Evaluate one query from a ranking already computed by `rankIndices` (indices into
 * `query.candidates`, best first). Use this to recompute after a label edit without re-ranking.
 * `scored`, `tied` and `uniform` are only reported back (pass what `countScored` / `hasTiedScores` /
 * `hasUniformScores` gave; `uniform` defaults to false).
 */
export function evaluateRankedQuery(
  query: EvalQuery,
  ranking: number[],
  options: EvalOptions,
  info: { scored: number; tied: boolean; uniform?: boolean } = { scored: ranking.length, tied: false },
): QueryResult {
  const o = resolve(options);
  return evalRanked(query, ranking, o, info.scored, info.tied, info.uniform ?? false);
}

function evalRanked(query: EvalQuery, ranking: number[], o: Resolved, scored: number, tied: boolean, uniform: boolean): QueryResult {
  const cands = query.candidates;
  const n = cands.length;
  // Pool grades (by candidate index), R and judged count.
  const poolGains = new Float64Array(n);
  const relByIndex = new Uint8Array(n);
  let R = 0;
  let judged = 0;
  for (let i = 0; i < n; i++) {
    const g = gradeOf(query.grades, cands[i]);
    if (g === undefined) continue;
    judged++;
    if (g >= o.threshold) {
      R++;
      relByIndex[i] = 1;
    }
    poolGains[i] = g > 0 ? g : 0;
  }
  const m = ranking.length;
  const rel = new Uint8Array(m);
  const gains = new Float64Array(m);
  for (let r = 0; r < m; r++) {
    const i = ranking[r];
    if (!(i >= 0 && i < n)) {
      throw new QPairsError(`evaluate: query ${query.queryId}: ranking index ${String(i)} is out of range`, { record: query.queryId });
    }
    rel[r] = relByIndex[i];
    gains[r] = poolGains[i];
  }
  const metrics = {
    AP: averagePrecision(rel, R),
    RR: reciprocalRank(rel),
    'R-Prec': rPrecision(rel, R),
  } as QueryMetrics;
  for (const k of o.ks) metrics[`P@${k}`] = precisionAt(rel, k);
  for (const k of o.ks) metrics[`Success@${k}`] = successAt(rel, k);
  for (const k of o.ks) metrics[`nDCG@${k}`] = ndcgAt(gains, poolGains, k);
  const first = firstRelevantRank(rel);
  return {
    queryId: query.queryId,
    included: R > 0 || o.convention === 'zero',
    relevant: R,
    judged,
    scored,
    retrieved: m,
    tied,
    uniform,
    firstRelevantRank: first === 0 ? null : first,
    ranking,
    metrics,
  };
}

/** Rank and evaluate one query. `scores` undefined = empty run for this query. */
export function evaluateQuery(query: EvalQuery, scores: Scores | undefined, options: EvalOptions): QueryResult {
  const o = resolve(options);
  checkCandidates(query);
  return evalOne(query, scores, o);
}

function evalOne(query: EvalQuery, scores: Scores | undefined, o: Resolved, buf?: Float64Array): QueryResult {
  const ranking = rankIndices(query.candidates, scores, { ties: o.ties, unscored: o.unscored }, buf);
  return evalRanked(query, ranking, o, countScored(query.candidates, scores), hasTiedScores(query.candidates, scores), hasUniformScores(query.candidates, scores));
}

/**
 * Means over per-query results: each metric's mean over the results with `included` true
 * (so the convention is the one the results were computed with). MAP = mean AP, MRR = mean RR,
 * the others keep their per-query name. `ks` must be the cutoffs the results were computed with.
 */
export function aggregate(perQuery: QueryResult[], ks: readonly number[] = DEFAULT_KS): RunEvaluation {
  const names = metricNames(ks);
  const perQueryKeys = names.map((nm) => (nm === 'MAP' ? 'AP' : nm === 'MRR' ? 'RR' : nm)) as (keyof QueryMetrics)[];
  const sums = new Float64Array(names.length);
  let included = 0;
  let withoutRelevant = 0;
  let withoutScores = 0;
  let tiedQueries = 0;
  for (const q of perQuery) {
    if (q.relevant === 0) withoutRelevant++;
    if (q.scored === 0) withoutScores++;
    if (q.tied) tiedQueries++;
    if (!q.included) continue;
    included++;
    for (let j = 0; j < names.length; j++) {
      const v = q.metrics[perQueryKeys[j]];
      if (typeof v !== 'number') {
        throw new QPairsError(`aggregate: query ${q.queryId} has no ${perQueryKeys[j]} (computed with other cutoffs?)`, {
          record: q.queryId,
        });
      }
      sums[j] += v;
    }
  }
  const out = {
    queries: included,
    total: perQuery.length,
    withoutRelevant,
    withoutScores,
    tiedQueries,
    metricNames: names,
    perQuery,
  } as RunEvaluation;
  const rec = out as unknown as Record<string, number>;
  for (let j = 0; j < names.length; j++) rec[names[j]] = included === 0 ? 0 : sums[j] / included;
  if (included === 0) out.note = noQueryEvaluatedNote(perQuery.length);
  return out;
}

/** Why a run's means are all 0 when no query was evaluated (this file's and incremental.ts's): none was given, or none had a relevant candidate. */
export function noQueryEvaluatedNote(queriesGiven: number): string {
  return queriesGiven === 0 ? 'no query given; all means are 0' : 'no query has a similar candidate (convention skip); all means are 0';
}

/**
 * Evaluate a run over queries: rank each query's candidates by `scores` (per query id; a query
 * without an entry has an empty run), compute the per-query metrics and their means under the
 * chosen convention. See the module comment for the definitions.
 */
export function evaluateRun(queries: readonly EvalQuery[], scores: RunScores | undefined, options: EvalOptions): RunEvaluation {
  const o = resolve(options);
  let maxN = 0;
  const ids = new Set<string>();
  for (const q of queries) {
    if (ids.has(q.queryId)) {
      throw new QPairsError(`evaluate: query ${q.queryId} is given twice`, { record: q.queryId, reason: 'duplicate query' });
    }
    ids.add(q.queryId);
    checkCandidates(q);
    if (q.candidates.length > maxN) maxN = q.candidates.length;
  }
  const buf = new Float64Array(maxN);
  const perQuery: QueryResult[] = new Array(queries.length);
  for (let i = 0; i < queries.length; i++) perQuery[i] = evalOne(queries[i], scoresFor(scores, queries[i].queryId), o, buf);
  return aggregate(perQuery, o.ks);
}
