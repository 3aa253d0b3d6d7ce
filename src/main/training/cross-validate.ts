/**
 * Grouped cross-validation of a model on the training pools (`qpairs train … --cv K`).
 *
 * Folds: the labeled training queries are clustered by the overlap check (same id, same
 * normalised text, near-duplicate text; src/main/overlap nearDuplicateClusters) and whole
 * clusters go to folds (groupedFolds, seeded with seed + repeat), so no question is in a training
 * fold and its held-out fold at once. Each fold trains on the other folds' queries (the held-out
 * queries lose their labeled pairs; their text stays unlabeled text, as for any pool) and ranks
 * the held-out queries' candidates; each query's AP and RR (AP = 0 without a relevant candidate,
 * the SemEval convention) come from the one fold that held it out.
 *
 * Epochs: for a model trained by epochs (every supervised model but tfidf), when --epochs is
 * not given and there are at least 2 repeats, the first ⌊R/2⌋ repeats *select* the epoch count:
 * each fold trains with its held-out fold as dev data, and the epoch with the best mean held-out
 * MAP over those folds is chosen. The other repeats *report*: they train exactly that many
 * epochs with no dev data (the last epoch is kept) — so the figure is not the selection's.
 * With --epochs, or one repeat, nothing is selected and every repeat reports.
 *
 * Scored once per distinct question: a cluster's queries (the same question asked again, or a
 * training file's partial copy of it, as SemEval-2016's part 2 repeats part 1) train together, but
 * only one of them — its representative, the one with the most labeled candidates (ties: the last
 * in training order) — is scored when the cluster is held out, so a question counts once however
 * often the training files repeat it (`scoredQuestions`, beside `queries` labeled).
 *
 * Figure: CV MAP (MRR) = the mean over report repeats of the mean out-of-fold AP (RR) over the
 * representatives; its 95% CI is the Student t interval (stats/t-interval.ts; clipped to [0, 1]) over the
 * representatives of their AP averaged over the report repeats.
 */
import { QPairsError, throwIfAborted } from '../errors';
import { apRr, rankOrder } from '../models/dev-eval';
import type { ModelId, TrainProgress, WordVectorCache, WordVectors } from '../models/types';
import { clusterCount, groupedFolds, nearDuplicateClusters } from '../overlap';
import { meanInterval } from '../stats/t-interval';
import type { Workspace } from '../workspace/workspace';
import { trainingStep } from '../../shared/models';
import { trainingDevSet, type TrainingQuery } from './data';
import { scoreSaved, trainSaved, type RunOptions, type TrainingInput } from './run-model';

export interface CvSpec {
  folds: number;
  repeats: number;
  seed: number;
}

/** The CV figures (stored with the model as TrainingInfo.cv). */
export interface CvResult {
  folds: number;
  repeats: number;
  seed: number;
  /** Labeled training queries (every copy of a question). */
  queries: number;
  /** Distinct questions (near-duplicate clusters) the folds are made of. */
  clusters: number;
  /** Questions scored: one representative per cluster (the figure's denominator; equals `clusters`). Absent in models cross-validated before it was recorded. */
  scoredQuestions?: number;
  MAP: number;
  MRR: number;
  ci: { MAP: [number, number] | null; MRR: [number, number] | null };
  perRepeat: Array<{ repeat: number; use: 'select' | 'report'; MAP: number; MRR: number }>;
  /** The epoch count chosen on the selection repeats, or null (none chosen). */
  selectedEpochs: number | null;
  /** How epochs were set, in a sentence. */
  selection: string;
  /** Training queries found in a held-out fold's near-duplicate cluster while that fold was held out (0: no leak). */
  leakedQueries: number;
  seconds: number;
}

export interface CvContext {
  kind: ModelId;
  config?: Record<string, unknown>;
  epochs?: number;
  embeddings?: WordVectors;
  /**
   * Skip-gram vectors pre-trained for seed `spec.seed` (the first repeat's, and the final model's):
   * its folds take them from here and add those they train. Each other repeat (its own seed) has its
   * own for its folds. A fold takes vectors only when its pre-training reads the same texts in the
   * same order with the same seed and settings (neural-common.ts pretrainKey), so every fold trains
   * and scores exactly as if it had pre-trained them itself. Without it every fold pre-trains its own.
   */
  wordVectors?: WordVectorCache;
  excludeRuns: ReadonlySet<string>;
  /** Training data without some queries' labeled pairs. */
  buildData: (exclude: ReadonlySet<string>) => TrainingInput;
  /** Whether the model is trained by epochs (so their number can be chosen). */
  epochsMatter: boolean;
  /** Called with each held-out query's candidate scores in the report repeats (the last repeat's win). */
  onOutOfFold?: (queryId: string, candidates: readonly string[], scores: readonly number[]) => void;
}

/** Checks a CV request before any work: throws QPairsError when there are fewer clusters than folds. */
export function cvClusters(queries: readonly TrainingQuery[], spec: CvSpec): Map<string, number> {
  if (!Number.isInteger(spec.folds) || spec.folds < 2) throw new QPairsError(`--cv needs at least 2 folds (got ${spec.folds})`);
  if (!Number.isInteger(spec.repeats) || spec.repeats < 1) throw new QPairsError(`--repeats must be at least 1 (got ${spec.repeats})`);
  if (queries.length === 0) throw new QPairsError('cross-validation needs labeled training queries: give --train-pool P (a labeled pool)');
  const clusters = nearDuplicateClusters(queries);
  groupedFolds(clusters, spec.folds, spec.seed); // throws when folds > clusters
  return clusters;
}

export async function crossValidate(
  ws: Workspace,
  queries: readonly TrainingQuery[],
  clusters: ReadonlyMap<string, number>,
  spec: CvSpec,
  ctx: CvContext,
  o: RunOptions,
): Promise<CvResult> {
  const t0 = Date.now();
  const select = ctx.epochsMatter && ctx.epochs === undefined && spec.repeats >= 2 ? Math.floor(spec.repeats / 2) : 0;
  const byId = new Map(queries.map((q) => [q.id, q]));
  const scored = representatives(queries, clusters);
  const perRepeat: CvResult['perRepeat'] = [];
  const apSum = new Float64Array(scored.size);
  const rrSum = new Float64Array(scored.size);
  const index = new Map([...scored].map((id, i) => [id, i]));
  const epochCurves: number[][] = [];
  let selectedEpochs: number | null = null;
  let reportRepeats = 0;
  const leaks = new Set<string>();
  for (let r = 0; r < spec.repeats; r++) {
    const use: 'select' | 'report' = r < select ? 'select' : 'report';
    if (use === 'report' && r === select && select > 0) selectedEpochs = bestEpoch(epochCurves);
    const folds = groupedFolds(clusters, spec.folds, spec.seed + r);
    // Pre-trained once per repeat (its seed), not once per fold: the folds differ in their labeled pairs only.
    const wordVectors: WordVectorCache | undefined = ctx.wordVectors && (r === 0 ? ctx.wordVectors : new Map());
    let apTotal = 0;
    let rrTotal = 0;
    for (let f = 0; f < folds.length; f++) {
      throwIfAborted(o.signal);
      const heldOut = new Set(folds[f]);
      // Every held-out query gets out-of-fold scores (a later model's fair feature); the figure counts representatives only.
      const dev = trainingDevSet(ws, folds[f]!.map((id) => byId.get(id)!), { excludeRuns: ctx.excludeRuns });
      const devScored = { ...dev, queries: dev.queries.filter((q) => scored.has(q.query.id)) };
      const phase = `CV repeat ${r + 1}/${spec.repeats} (${use}) fold ${f + 1}/${folds.length}`;
      const onProgress = o.onProgress
        ? (p: TrainProgress) => o.onProgress!({ ...p, phase: `${phase}: ${trainingStep(p)}` })
        : undefined;
      const epochs = use === 'report' ? (selectedEpochs ?? ctx.epochs) : ctx.epochs;
      const run = { ...o, onProgress };
      const data = ctx.buildData(heldOut);
      // Whatever the folds, check the data itself: no labeled training pair may have its query in
      // a near-duplicate cluster of the held-out fold.
      const heldClusters = new Set(folds[f]!.map((id) => clusters.get(id)));
      for (const [q] of [...data.pairs.positives, ...data.pairs.negatives]) {
        const c = clusters.get(q);
        if (c !== undefined && heldClusters.has(c)) leaks.add(q);
      }
      const { saved, report } = await trainSaved(
        { kind: ctx.kind, config: ctx.config, input: data, dev: use === 'select' ? devScored : undefined, opts: { epochs, seed: spec.seed + r, embeddings: ctx.embeddings }, wordVectors },
        run,
      );
      if (use === 'select') {
        if (report.history.some((h) => h.devMAP !== undefined)) epochCurves.push(report.history.map((h) => h.devMAP ?? 0));
        // The fold's held-out figure (kept epoch) still counts for the selection repeat's line.
        apTotal += (report.bestDevMAP ?? 0) * devScored.queries.length;
        rrTotal += (report.bestDevMRR ?? 0) * devScored.queries.length;
        continue;
      }
      const { scores } = await scoreSaved(saved, dev.queries.map((q) => ({ query: q.query, candidates: q.candidates, ctx: q.context })), run);
      dev.queries.forEach((q, i) => {
        ctx.onOutOfFold?.(q.query.id, q.candidates.map((c) => c.id), scores[i]!);
        if (!scored.has(q.query.id)) return;
        const order = rankOrder(scores[i]!);
        const { ap, rr } = apRr(order.map((k) => q.relevant.has(q.candidates[k]!.id)));
        apTotal += ap;
        rrTotal += rr;
        apSum[index.get(q.query.id)!]! += ap;
        rrSum[index.get(q.query.id)!]! += rr;
      });
    }
    if (use === 'report') reportRepeats++;
    perRepeat.push({ repeat: r + 1, use, MAP: apTotal / scored.size, MRR: rrTotal / scored.size });
  }
  const reported = perRepeat.filter((p) => p.use === 'report');
  const meanAp = Array.from(apSum, (s) => s / reportRepeats);
  const meanRr = Array.from(rrSum, (s) => s / reportRepeats);
  return {
    folds: spec.folds,
    repeats: spec.repeats,
    seed: spec.seed,
    queries: queries.length,
    clusters: clusterCount(clusters),
    scoredQuestions: scored.size,
    MAP: reported.reduce((s, p) => s + p.MAP, 0) / reported.length,
    MRR: reported.reduce((s, p) => s + p.MRR, 0) / reported.length,
    ci: { MAP: meanInterval(meanAp).value, MRR: meanInterval(meanRr).value },
    perRepeat,
    selectedEpochs,
    selection:
      select > 0
        ? selectedEpochs === null
          ? `the model reported no per-epoch held-out MAP on repeat${select > 1 ? 's' : ''} 1${select > 1 ? `–${select}` : ''}: epochs stay at the model default`
          : `epochs chosen by held-out MAP on repeat${select > 1 ? 's' : ''} 1${select > 1 ? `–${select}` : ''} (${selectedEpochs}), reported on the other ${spec.repeats - select}`
        : !ctx.epochsMatter
          ? 'nothing to choose: the model is not trained by epochs'
          : ctx.epochs !== undefined
            ? `epochs fixed by --epochs (${ctx.epochs}); nothing chosen`
            : 'epochs fixed at the model default; with --repeats 2 or more they are chosen on some repeats and reported on the others',
    leakedQueries: leaks.size,
    seconds: (Date.now() - t0) / 1000,
  };
}

/**
 * One query per near-duplicate cluster, the one scored when its cluster is held out: the query with
 * the most labeled candidates (ties: the later in training order, so a later file's fuller copy wins).
 */
export function representatives(queries: readonly TrainingQuery[], clusters: ReadonlyMap<string, number>): Set<string> {
  const best = new Map<number, TrainingQuery>();
  for (const q of queries) {
    const c = clusters.get(q.id);
    if (c === undefined) continue;
    const b = best.get(c);
    if (!b || q.grades.size >= b.grades.size) best.set(c, q);
  }
  return new Set([...best.values()].map((q) => q.id));
}

/** The 1-based epoch with the highest mean held-out MAP over the selection folds (ties: the earlier); null without curves. */
function bestEpoch(curves: readonly number[][]): number | null {
  if (curves.length === 0) return null;
  const len = Math.min(...curves.map((c) => c.length));
  if (len < 1) return null;
  let best = 0;
  let bestMean = -Infinity;
  for (let e = 0; e < len; e++) {
    const m = curves.reduce((s, c) => s + c[e]!, 0) / curves.length;
    if (m > bestMean) {
      bestMean = m;
      best = e;
    }
  }
  return best + 1;
}
