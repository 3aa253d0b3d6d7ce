/**
 * Labeling order in the engine: builds a pool's ordered view (its queries as each run ranks them,
 * and the relevance of the fully labeled ones by the evaluation's label source), makes the draws an
 * annotator's next query needs, and adds the rankers' standing to an evaluation (the candidate-level
 * order: label-order-candidates.ts).
 */
import type { Convention, LabelOrderCounting, LabelOrderStanding } from '../../shared/label-order';
import { appendDraw, readDraws, readPoolOrder } from '../active/draw-log';
import { nextDraw } from '../active/draw-next';
import { labelOrderStanding } from '../active/order-standing';
import { isCandidateOrder } from '../../shared/label-order';
import { DEFAULT_RELEVANCE_THRESHOLD } from '../../shared/labels';
import { DEFAULT_TIES } from '../../shared/stat-defaults';
import type { Workspace } from '../workspace/workspace';
import { annotatorNeedsDraw } from './annotate';
import { withPoolConvention } from './evaluate';
import { evalLabelSource, poolLabels } from '../gold/pool-labels';
import { evaluateRankedQuery } from '../metrics/evaluate';
import { runModelOverlap } from '../training/trained-on';
import { runSelectedOn } from '../training/selected-on';
import { candidateStandingOf } from './label-order-candidates';
import { orderedPool } from './label-order-view';
import { runsOnBlindLabels } from './run-visibility';

export { orderedPool } from './label-order-view';

/**
 * Whether serving `annotator` their next query needs a new draw (an ordered pool whose drawn queries
 * they have all done). The candidate-level order makes no draws: its next pair follows from the labels.
 */
export function needsDraw(ws: Workspace, pool: string, annotator: string): boolean {
  const { order } = readPoolOrder(ws, pool);
  return order !== 'pool' && !isCandidateOrder(order) && annotatorNeedsDraw(ws, pool, annotator, readDraws(ws, pool));
}

/**
 * Draws until the annotator has an undone drawn query or every query is drawn; returns the draws made. Call inside the write gate.
 * The draw log is the pool's, shared by everyone who labels it, so draws are made from the runs its
 * annotators are shown (without those on blind labels, run-visibility.ts), whoever's request makes them.
 */
export function drawForAnnotator(ws: Workspace, pool: string, annotator: string): number {
  const { order, seed } = readPoolOrder(ws, pool);
  if (order === 'pool' || isCandidateOrder(order)) return 0;
  let draws = readDraws(ws, pool);
  if (!annotatorNeedsDraw(ws, pool, annotator, draws)) return 0;
  const view = orderedPool(ws, pool, undefined, { hiddenRuns: runsOnBlindLabels(ws, pool) });
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

/** eval's options as `qpairs eval` and eval.pool take them; each omitted one as eval defaults it. */
export interface LabelOrderArgs {
  /** Label source; omitted: eval's rule (evalLabelSource). */
  annotator?: string;
  /** Omitted: the pool's own convention (withPoolConvention). */
  convention?: Convention;
  ties?: 'pool-order' | 'trec-eval';
  threshold?: number;
  partial?: boolean;
}

/** The counting eval uses for these options: the label source and convention resolved as eval.pool resolves them. */
export function labelOrderCounting(ws: Workspace, pool: string, a: LabelOrderArgs): LabelOrderCounting {
  return {
    annotator: evalLabelSource(ws, pool, a.annotator),
    convention: withPoolConvention(ws, { pool, convention: a.convention }).convention,
    ties: a.ties ?? DEFAULT_TIES,
    threshold: a.threshold ?? DEFAULT_RELEVANCE_THRESHOLD,
    partial: a.partial ?? false,
  };
}

/**
 * Where the pool's runs stand under its labeling order, counted as eval counts the metrics table for
 * the same options (label source, convention, ties, threshold, partly labeled queries): the verdict
 * "decided" is about the queries and figures that table shows.
 */
export function labelOrderOf(ws: Workspace, pool: string, a: LabelOrderArgs = {}, hiddenRuns?: ReadonlySet<string>): LabelOrderStanding {
  const name = ws.pool(pool).name;
  const counting = labelOrderCounting(ws, name, a);
  const { order } = readPoolOrder(ws, name);
  const standing = isCandidateOrder(order)
    ? candidateStandingOf(ws, name, counting, hiddenRuns)
    : labelOrderStanding(order, orderedPool(ws, name, counting.annotator, { ...counting, ...(hiddenRuns ? { hiddenRuns } : {}) }), readDraws(ws, name), counting);
  return withInSampleLeader(ws, name, counting, standing);
}

/**
 * A leader whose model was trained on some of the counted queries is never "decided": its lead there is
 * in-sample (`qpairs eval` said "decided: ltr1 is best on queries like these — labeling can stop here"
 * on SemEval's train part 2, all 67 of whose queries ltr1 trained on). `bestTrainedOn` says how many.
 * The queries are the table's (fully labeled, or partly with `partial`; under skip, those with a
 * relevant candidate).
 */
function withInSampleLeader(ws: Workspace, pool: string, counting: LabelOrderCounting, lo: LabelOrderStanding): LabelOrderStanding {
  if (lo.best === null || lo.used === 0) return lo;
  const opts = { convention: counting.convention, threshold: counting.threshold };
  const counted = poolLabels(ws, pool, counting.annotator, { partial: counting.partial })
    .queries.filter((q) => evaluateRankedQuery(q, q.candidates.map((_, i) => i), opts).included)
    .map((q) => q.queryId);
  const o = runModelOverlap(ws, pool, lo.best, counted);
  if (o && o.trainedOn > 0) return { ...lo, decided: false, bestTrainedOn: { trainedOn: o.trainedOn, of: o.of } };
  // A model chosen on these queries (its dev pool) leads there optimistically: never "decided" either.
  const chosen = o === undefined ? undefined : runSelectedOn(ws, pool, lo.best, counted);
  return chosen ? { ...lo, decided: false, bestSelectedOn: chosen } : lo;
}
