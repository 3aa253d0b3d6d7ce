/**
 * A pool's labeled queries as evaluation sees them, for one label source (poolLabels), and the
 * label source evaluation uses when none is given (evalLabelSource). Shared by eval, compare,
 * live metrics, the label order and the models' evaluation.
 */
import { labelGrade } from '../../shared/labels';
import type { EvalQuery } from '../metrics';
import type { PoolQuery } from '../../shared/types';
import type { Workspace } from '../workspace/workspace';
import { defaultLabelSource, sourceLabels, type SourceLabels } from './state';

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
  return poolLabelsOf(ws.poolQueries(pool), sourceLabels(ws, pool, annotator), o);
}

/** poolLabels from the pool's queries (`pq`) and the source's labels (`src`) as already read. */
export function poolLabelsOf(pq: readonly PoolQuery[], src: SourceLabels, o: PoolLabelsOptions = {}): PoolLabels {
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
  if (annotator === undefined) return defaultLabelSource(ws, pool);
  return annotator;
}
