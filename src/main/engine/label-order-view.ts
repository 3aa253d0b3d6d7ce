/**
 * A pool as the labeling orders see it (src/main/active/pool-model.ts): its queries ranked by each of
 * its runs, and the labels of the evaluation's label source — whole queries (the query-level orders)
 * or every judged pair (the candidate-level order). No import of annotate.ts, so annotate can use it.
 *
 * The view counts as eval's metrics table does when given eval's options (`ViewCounting`): the tie
 * rule ranks the candidates, a label is relevant from the threshold on ("?" never), and `partial`
 * takes partly labeled queries in, their unlabeled candidates not relevant. Omitted: pool-order ties,
 * threshold 1, fully labeled queries only — what the draws of the ordered pools use.
 */
import type { Judgment } from '../active/ap-bounds';
import type { OrderedPool } from '../active/pool-model';
import { rankIndices } from '../metrics';
import type { Workspace } from '../workspace/workspace';
import { DEFAULT_RELEVANCE_THRESHOLD } from '../../shared/labels';
import { DEFAULT_TIES } from '../../shared/stat-defaults';
import { evalLabelSource, poolLabels, poolLabelsOf } from '../gold/pool-labels';
import { defaultLabelSourceOf, sourceLabels, type SourceLabels } from '../gold/state';
import type { PoolQuery } from '../../shared/types';

export interface ViewCounting {
  ties?: 'pool-order' | 'trec-eval';
  threshold?: number;
  partial?: boolean;
  /** Runs left out, as if the pool had none of them (those an annotator is not shown; access.ts runsHiddenFrom). */
  hiddenRuns?: ReadonlySet<string>;
}

/** A label's grade makes its pair relevant: a grade (not "?", not unlabeled) at or above the threshold. */
const relevantGrade = (g: number | undefined, threshold: number): boolean => g !== undefined && g >= threshold;

/** The pool's queries ranked by each of its runs, without relevance. */
export type RankedPool = Omit<OrderedPool, 'relevance'>;

/** The pool's queries (`pq`: ws.poolQueries(pool)) ranked by each of its runs not hidden. */
export function rankedPool(ws: Workspace, pool: string, counting: Omit<ViewCounting, 'partial'>, pq: readonly PoolQuery[] = ws.poolQueries(pool)): RankedPool {
  const runs = ws.listRuns(pool).filter((r) => !counting.hiddenRuns?.has(r.name));
  const scores = runs.map((r) => ws.runScores(r.id));
  const queries = pq.map((q) => ({
    id: q.queryId,
    size: q.candidates.length,
    rankings: scores.map((s) => rankIndices(q.candidates, s.get(q.queryId), { ties: counting.ties ?? DEFAULT_TIES })),
  }));
  return { queries, runs: runs.map((r) => r.name) };
}

/** The pool's queries ranked by each of its runs, and the relevance of its labeled queries (fully labeled ones unless `partial`). */
export function orderedPool(ws: Workspace, pool: string, annotator?: string, counting: ViewCounting = {}): OrderedPool {
  const threshold = counting.threshold ?? DEFAULT_RELEVANCE_THRESHOLD;
  const ranked = rankedPool(ws, pool, counting);
  const relevance = new Map<string, boolean[]>();
  for (const q of poolLabels(ws, pool, evalLabelSource(ws, pool, annotator), { partial: counting.partial ?? false }).queries) {
    const g = q.grades as ReadonlyMap<string, number | undefined>; // poolLabels builds Maps
    relevance.set(q.queryId, q.candidates.map((c) => relevantGrade(g.get(c), threshold)));
  }
  return { ...ranked, relevance };
}

/** The labels of `annotator`, or of the default source (evalLabelSource's rule), its aggregate from the state read to choose it. */
function readSourceLabels(ws: Workspace, pool: string, annotator: string | undefined, pq: readonly PoolQuery[]): SourceLabels {
  if (annotator !== undefined) return sourceLabels(ws, pool, annotator);
  const { source, state } = defaultLabelSourceOf(ws, pool, { queries: pq });
  return sourceLabels(ws, pool, source, state);
}

/**
 * The pool with every judged pair (partly labeled queries too): judged[i][c] relevant (grade ≥ threshold), not ("?" or
 * below), or null; its queries ranked as orderedPool ranks them. Without orderedPool's relevance of fully labeled
 * queries (which the candidate order does not use): the pool's queries and its labels are read once, not twice (the
 * default source's aggregate from the state read to choose it).
 */
export function judgedPool(ws: Workspace, pool: string, annotator?: string, counting: Omit<ViewCounting, 'partial'> = {}): RankedPool & { candidates: string[][]; judged: Judgment[][] } {
  const pq = ws.poolQueries(pool);
  const view = rankedPool(ws, pool, counting, pq);
  return { ...view, candidates: pq.map((q) => [...q.candidates]), judged: judgedPairs(pq, readSourceLabels(ws, pool, annotator, pq), counting.threshold) };
}

/** Every judged pair of the pool's queries `pq` by the source's labels `src`: judged[i][c] relevant (grade ≥ threshold), not ("?" or below), or null. */
export function judgedPairs(pq: readonly PoolQuery[], src: SourceLabels, threshold = DEFAULT_RELEVANCE_THRESHOLD): Judgment[][] {
  const index = new Map(pq.map((q, i) => [q.queryId, i]));
  const judged: Judgment[][] = pq.map((q) => new Array<Judgment>(q.candidates.length).fill(null));
  for (const q of poolLabelsOf(pq, src, { partial: true }).queries) {
    const i = index.get(q.queryId);
    if (i === undefined) continue;
    const g = q.grades as ReadonlyMap<string, number | undefined>;
    q.candidates.forEach((c, k) => {
      if (g.has(c)) judged[i]![k] = relevantGrade(g.get(c), threshold);
    });
  }
  return judged;
}
