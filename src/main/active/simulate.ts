/**
 * Replays existing gold labels as a simulated annotator under a labeling order, and counts the
 * labels (candidate pairs) needed until
 *  (a) the rankers' estimated MAP order matches the full-label order (Kendall τ ≥ `tau`, default 0.9)
 *      and keeps matching for every later query, and
 *  (b) the best ranker is decided (ranker-decision.ts: the paired test over the labeled queries,
 *      Holm-corrected p < `alpha`) — the point where a team would stop; whether the decided ranker is
 *      the full-label best is reported too;
 *  (c) `decision`: the same stopping rule as the candidate-level orders (simulate-candidates.ts): (b), or
 *      the pool's full-label paired test made certain by the bounds (labeled queries exact, the others
 *      at their zero-label bounds), with whether the conclusion is the full-label test's.
 * The annotator labels a whole query at a time (all its candidates), as in the thesis recipe.
 */
import { mulberry32 } from '../stats/random';
import { queryBounds, type QueryBounds } from './ap-bounds';
import { certifiedStanding } from './certified-test';
import { fullConclusion, sameConclusion, type Conclusion, type DecisionResult } from './simulate-candidates';
import { apsOf, predictedAps, RankLogitModel, RelevanceModel, type ActiveQuery } from './pool-model';
import type { WholeQueryOrder } from '../../shared/label-order';
import { drawIndex, orderWeights, selectionProbabilities } from './query-order';
import { kendallTau, rankerStanding, type LabeledDraw } from './ranker-decision';

export interface SimulationOptions {
  seed?: number;
  tau?: number;
  alpha?: number;
  /** Queries labeled before the stopping rule (b) is consulted (default 5). */
  minQueries?: number;
  epsilon?: number;
  samples?: number;
  /** The relevance model behind the adaptive orders' weights and predictions (default 'buckets'). */
  relevance?: 'buckets' | 'logit';
  /** Zero-label bounds of the queries (ap-bounds.ts queryBounds with nothing judged), shared across repetitions. */
  zeroBounds?: QueryBounds[];
  /** The full-label conclusion, when already computed. */
  full?: Conclusion;
}

export interface SimulationResult {
  order: WholeQueryOrder;
  /** Labels until the MAP order settles at τ ≥ tau (null: never within the pool). */
  labelsToOrder: number | null;
  /** Labels until the best ranker is decided (null: never). */
  labelsToDecide: number | null;
  /** Whether the ranker decided best is the full-label best (null when never decided). */
  decidedCorrectly: boolean | null;
  totalLabels: number;
  /** Labels until the decision under rule (c), and whether it agrees with the full-label paired test. */
  decision: DecisionResult;
}

/** Full-label MAP of every ranker (SemEval convention). */
export function fullMaps(queries: readonly ActiveQuery[], gold: readonly (readonly boolean[])[]): number[] {
  const R = queries[0]?.rankings.length ?? 0;
  const sums = new Array<number>(R).fill(0);
  queries.forEach((q, i) => apsOf(q, gold[i] as boolean[]).forEach((ap, r) => (sums[r] += ap)));
  return sums.map((s) => s / Math.max(1, queries.length));
}

export function simulateAnnotator(
  queries: readonly ActiveQuery[],
  gold: readonly (readonly boolean[])[],
  order: WholeQueryOrder,
  opts: SimulationOptions = {},
): SimulationResult {
  const tau = opts.tau ?? 0.9;
  const alpha = opts.alpha ?? 0.05;
  const minQueries = opts.minQueries ?? 5;
  const rng = mulberry32(opts.seed ?? 1);
  const mcRng = mulberry32(((opts.seed ?? 1) * 7919) ^ 0x9e3779b9);
  const truth = fullMaps(queries, gold);
  const trueBest = truth.indexOf(Math.max(...truth));
  const N = queries.length;
  const remaining = queries.map((_, i) => i);
  const model = opts.relevance === 'logit' ? new RankLogitModel() : new RelevanceModel();
  const draws: LabeledDraw[] = [];
  let labels = 0;
  let labelsToDecide: number | null = null;
  let decidedCorrectly: boolean | null = null;
  const labelsAfterStep: number[] = [];
  let lastUnsettledStep = -1; // the last step after which the order did not match
  let pairWeight: number[][] | null = null;
  const full = opts.full ?? fullConclusion(queries, gold, alpha);
  const current: QueryBounds[] = opts.zeroBounds ? [...opts.zeroBounds] : queries.map((q) => queryBounds(q, new Array<boolean | null>(q.size).fill(null)));
  const totalLabels = queries.reduce((s, q) => s + q.size, 0);
  let decision: DecisionResult | null = null;
  const decide = (conclusion: Conclusion, by: DecisionResult['by']) => (decision = { labels, conclusion, by, agreesWithFull: sameConclusion(conclusion, full), totalLabels });
  while (remaining.length > 0) {
    let pick: number;
    let p: number | null = null;
    let predicted: number[] | undefined;
    let predictedRemaining: number[] | undefined;
    if (order === 'pool') pick = 0;
    else if (order === 'random') pick = Math.floor(rng() * remaining.length);
    else {
      // Predictions for the model-assisted estimator, made before the draw.
      const preds = remaining.map((i) => predictedAps(queries[i]!, model, mcRng, opts.samples));
      predictedRemaining = preds[0]!.map((_, r) => preds.reduce((s, x) => s + x[r]!, 0));
      const w = orderWeights(
        order,
        remaining.map((i) => queries[i]!),
        model,
        mcRng,
        { samples: opts.samples, pairWeight },
      );
      const probs = selectionProbabilities(w, opts.epsilon ?? 0.1);
      pick = drawIndex(probs, rng());
      p = probs[pick]!;
      predicted = preds[pick];
    }
    const qi = remaining.splice(pick, 1)[0]!;
    const q = queries[qi]!;
    const rel = gold[qi]! as boolean[];
    model.observe(q, rel);
    draws.push({ aps: apsOf(q, rel), p, ...(predicted ? { predicted, predictedRemaining } : {}) });
    labels += q.size;
    labelsAfterStep.push(labels);
    const standing = rankerStanding(draws, N, alpha);
    const means = standing.maps.map((m) => m.mean);
    if (kendallTau(means, truth) < tau) lastUnsettledStep = labelsAfterStep.length - 1;
    if (labelsToDecide === null && draws.length >= minQueries && standing.decided) {
      labelsToDecide = labels;
      decidedCorrectly = standing.best === trueBest;
    }
    current[qi] = queryBounds(q, rel);
    if (!decision) {
      if (draws.length >= minQueries && standing.decided) decide({ decided: true, best: standing.best }, 'sample');
      else {
        const c = certifiedStanding(current, standing.maps.length, alpha);
        if (c.state !== 'open') decide(c.state === 'decided' ? { decided: true, best: c.best } : { decided: false, best: null }, 'pool');
      }
    }
    pairWeight = standing.z.map((row) => row.map((z) => 1 / (1 + z * z)));
  }
  // With every query labeled the estimates are the full-label MAPs, so the order matches at the last
  // step unless the truth has ties (τ-a then stays below 1): null when it never settled.
  const labelsToOrder = lastUnsettledStep + 1 < labelsAfterStep.length ? labelsAfterStep[lastUnsettledStep + 1]! : null;
  return { order, labelsToOrder, labelsToDecide, decidedCorrectly, totalLabels: labels, decision: decision ?? { labels, conclusion: full, by: 'pool', agreesWithFull: true, totalLabels } };
}
