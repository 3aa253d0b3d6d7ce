import type { AnnotatorProgress, AssignmentView } from '../../shared/gold';
import type { Workspace } from '../workspace/workspace';
import { loadPoolState, pairKey, type PoolState } from './state';

/**
 * A pool's assignment with each annotator's own progress over the queries assigned to them
 * (all queries under full overlap or without an assignment): a query is done when the annotator
 * labeled every candidate ("?" counts as given). With `annotator`, also whether the pool assigns
 * them and their query ids in pool order (what their labeling screen walks through).
 */
export function assignmentView(ws: Workspace, pool: string, annotator?: string, state?: PoolState): AssignmentView {
  const s = state ?? loadPoolState(ws, pool);
  const assignedTo = (a: string): typeof s.queries =>
    s.plan.perQueryAnnotators ? s.queries.filter((q) => s.plan.perQueryAnnotators!.get(q.queryId)?.includes(a)) : s.queries;
  const progressOf = (a: string): AnnotatorProgress => {
    const mine = s.labels.get(a);
    const qs = assignedTo(a);
    let doneQueries = 0;
    let assignedPairs = 0;
    let labeledPairs = 0;
    for (const q of qs) {
      let n = 0;
      for (const c of q.candidates) if (mine?.has(pairKey(q.queryId, c))) n++;
      assignedPairs += q.candidates.length;
      labeledPairs += n;
      if (n === q.candidates.length) doneQueries++;
    }
    return { annotator: a, assignedQueries: qs.length, doneQueries, assignedPairs, labeledPairs };
  };
  const view: AssignmentView = {
    pool: s.pool.name,
    mode: s.plan.mode,
    perQuery: s.plan.perQuery,
    seed: s.plan.seed,
    // Copies: the engine keeps the state for the reads that follow (engine/gold.ts).
    annotators: [...s.annotators],
    judges: [...s.judges],
    progress: s.annotators.map(progressOf),
  };
  if (annotator !== undefined) {
    // Someone the pool does not assign gets the plan, marked so (asking was refused before, and
    // the Annotate screen then asked twice: for the plan, then for the assignment).
    view.assigned = s.plan.mode === 'open' || s.annotators.includes(annotator);
    view.queries = view.assigned ? assignedTo(annotator).map((q) => q.queryId) : [];
    if (view.assigned && !s.annotators.includes(annotator)) view.progress.push(progressOf(annotator));
  }
  return view;
}
