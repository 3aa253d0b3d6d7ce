/**
 * Labeling order in the engine: builds a pool's ordered view (its queries as each run ranks them,
 * and the relevance of the fully labeled ones by the evaluation's label source), makes the draws an
 * annotator's next query needs, and adds the rankers' standing to an evaluation.
 */
import type { LabelOrderStanding } from '../../shared/label-order';
import { appendDraw, readDraws, readPoolOrder } from '../active/draw-log';
import { nextDraw } from '../active/draw-next';
import { labelOrderStanding } from '../active/order-standing';
import type { OrderedPool } from '../active/pool-model';
import { rankIndices } from '../metrics';
import type { Workspace } from '../workspace/workspace';
import { annotatorNeedsDraw } from './annotate';
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

/** Whether serving `annotator` their next query needs a new draw (an ordered pool whose drawn queries they have all done). */
export function needsDraw(ws: Workspace, pool: string, annotator: string): boolean {
  return readPoolOrder(ws, pool).order !== 'pool' && annotatorNeedsDraw(ws, pool, annotator, readDraws(ws, pool));
}

/** Draws until the annotator has an undone drawn query or every query is drawn; returns the draws made. Call inside the write gate. */
export function drawForAnnotator(ws: Workspace, pool: string, annotator: string): number {
  const { order, seed } = readPoolOrder(ws, pool);
  if (order === 'pool') return 0;
  let draws = readDraws(ws, pool);
  if (!annotatorNeedsDraw(ws, pool, annotator, draws)) return 0;
  const view = orderedPool(ws, pool);
  let made = 0;
  ws.db.transaction(() => {
    for (;;) {
      const d = nextDraw(order, seed, view, draws);
      if (!d) break;
      draws = [...draws, appendDraw(ws, pool, d)];
      made++;
      if (!annotatorNeedsDraw(ws, pool, annotator, draws)) break;
    }
  })();
  return made;
}

/** Where the pool's runs stand under its labeling order, by a label source (default: eval's rule). */
export function labelOrderOf(ws: Workspace, pool: string, annotator: string | undefined): LabelOrderStanding {
  const name = ws.pool(pool).name;
  return labelOrderStanding(readPoolOrder(ws, name).order, orderedPool(ws, name, annotator), readDraws(ws, name));
}
