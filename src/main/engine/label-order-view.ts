/**
 * A pool as the labeling orders see it (src/main/active/pool-model.ts): its queries ranked by each of
 * its runs, and the labels of the evaluation's label source — whole queries (the query-level orders)
 * or every judged pair (the candidate-level order). No import of annotate.ts, so annotate can use it.
 */
import type { Judgment } from '../active/ap-bounds';
import type { OrderedPool } from '../active/pool-model';
import { rankIndices } from '../metrics';
import type { Workspace } from '../workspace/workspace';
import { evalLabelSource, poolLabels } from './evaluate';

/** The pool's queries ranked by each of its runs, and the relevance (grade ≥ 1) of its fully labeled queries. */
export function orderedPool(ws: Workspace, pool: string, annotator?: string): OrderedPool {
  const pq = ws.poolQueries(pool);
  const runs = ws.listRuns(pool);
  const scores = runs.map((r) => ws.runScores(r.id));
  const queries = pq.map((q) => ({
    id: q.queryId,
    size: q.candidates.length,
    rankings: scores.map((s) => rankIndices(q.candidates, s.get(q.queryId))),
  }));
  const relevance = new Map<string, boolean[]>();
  for (const q of poolLabels(ws, pool, evalLabelSource(ws, pool, annotator)).queries) {
    const g = q.grades as ReadonlyMap<string, number | undefined>; // poolLabels builds Maps
    relevance.set(q.queryId, q.candidates.map((c) => (g.get(c) ?? 0) >= 1));
  }
  return { queries, runs: runs.map((r) => r.name), relevance };
}

/** The pool with every judged pair (partly labeled queries too): judged[i][c] relevant (grade ≥ 1), not ("?" or grade 0), or null. */
export function judgedPool(ws: Workspace, pool: string, annotator?: string): OrderedPool & { candidates: string[][]; judged: Judgment[][] } {
  const view = orderedPool(ws, pool, annotator);
  const pq = ws.poolQueries(pool);
  const index = new Map(pq.map((q, i) => [q.queryId, i]));
  const judged: Judgment[][] = pq.map((q) => new Array<Judgment>(q.candidates.length).fill(null));
  for (const q of poolLabels(ws, pool, evalLabelSource(ws, pool, annotator), { partial: true }).queries) {
    const i = index.get(q.queryId);
    if (i === undefined) continue;
    const g = q.grades as ReadonlyMap<string, number | undefined>;
    q.candidates.forEach((c, k) => {
      if (g.has(c)) judged[i]![k] = (g.get(c) ?? 0) >= 1;
    });
  }
  return { ...view, candidates: pq.map((q) => [...q.candidates]), judged };
}
