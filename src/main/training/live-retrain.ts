/**
 * One "learn as we label" retrain of a pool (src/main/engine/live-training.ts schedules them):
 *
 * - Labeled data: the training pools' labels plus this pool's *fully* labeled queries (by the pool's
 *   default label source); a query with some but not all candidates labeled — the one an annotator
 *   is on — is left out entirely (its text stays unlabeled text).
 * - Out of fold: the pool's fully labeled queries are split into up to `folds` (default 3) grouped folds
 *   (near-duplicates together, src/main/overlap); for each fold a model trained without it scores
 *   its queries. So every labeled query's score comes from a model that never saw its labels, and
 *   the learning-curve point (MAP/MRR over those queries, AP = 0 without a relevant candidate) is
 *   honest. A fold whose absence leaves nothing to learn from (no similar pair; for ltr/fused no query
 *   with both kinds) trains no model, and its queries stay unscored rather than take in-sample scores.
 *   A model trained on all fully labeled queries scores the rest of the pool.
 * - A training pool's query that is the same question as a held-out query (the overlap check,
 *   src/main/overlap: same id, same normalised text or near-duplicate text) leaves that fold's
 *   training too, with all its pairs: else the fold model would learn the held-out query's labels
 *   from its copy. How many were left out is reported (`trainingCopiesLeftOut`).
 * - The pool's runs are features of the fused ranker, except the live run itself and, as in `train`,
 *   runs of stored label-reading models trained on some of the training queries (in-sample there).
 * Training runs in the worker thread (run-model.ts), and so does scoring: each model scores its
 * queries where it trained (trainAndScore), reading their texts and the pool's runs there, so the
 * engine's thread, which acknowledges labels, reads neither. Nothing is written here.
 */
import { QPairsError, throwIfAborted } from '../errors';
import { apRr, rankOrder } from '../models/dev-eval';
import { hasOrderToLearn, noOrderToLearn } from '../models/ranksvm';
import { prepareLiveInWorker } from '../models';
import type { ModelId, WordVectorCache } from '../models/types';
import type { LivePreparation, LivePrepareSpec } from '../models/worker-protocol';
import { clusterCount, findOverlap, groupedFolds, nearDuplicateClusters, type OverlapReason } from '../overlap';
import type { Workspace } from '../workspace/workspace';
import { trainingStep } from '../../shared/models';
import { labeledLists, labeledTrainingPairs, relevantAmong, unlabeledSpec, poolGrades, trainingQueries } from './data';
import { resolveWorkerPath, trainAndScore, type RunOptions } from './run-model';
import { inSampleModelRuns } from './train';
import { distinctLabelPools, labelPoolRecords, poolModelsLabelPools, type LabelPoolRecord } from './label-pools';
import { labelEventsSince } from './live-store';

/**
 * Folds of a live retrain: each costs one more training (the fused ranker fits its corpus
 * statistics anew each time: about 6 s on SemEval-2016 dev's 550 questions and comments on 2 cores),
 * so a retrain is (folds + 1) trainings.
 */
export const LIVE_FOLDS = 3;

export interface LiveSpec {
  model: ModelId;
  config?: Record<string, unknown>;
  /** Other labeled pools trained on as well. */
  trainPools: readonly string[];
  /** The run the result is stored as (left out of the features). */
  runName: string;
  folds?: number;
  seed?: number;
}

export interface LiveRetrain {
  /** query id → candidate id → score, for every query of the pool. */
  scores: Map<string, Map<string, number>>;
  /** The pool's fully labeled queries (trained on by the final model). */
  trainedQueries: number;
  /** Their labeled (query, candidate) pairs: the pool's labels trained on, each pair once. */
  labeledPairs: number;
  /** Queries scored out of fold (the curve's figure is over these). */
  heldOutQueries: number;
  /**
   * Fully labeled queries left without scores: their fold had nothing to learn from without them
   * (no similar pair, or for ltr/fused no query with both kinds), and the final model trained on
   * them, so its scores there would be in-sample. Evaluate ranks them in the pool's order and says so.
   */
  unscoredQueries: string[];
  /**
   * Runs of stored label-reading models trained on some of these training queries (ltr, fused): left
   * out of the features, as `train` leaves them out — their scores there are in-sample, and out of
   * fold the live model would find the similar candidates through them.
   */
  inSampleRunsLeftOut: Array<{ run: string; trainedOn: number | null }>;
  /**
   * Training pools' queries left out of some fold's training because they are the same question as
   * one of its held-out queries (same id, same or near-same text), by the reason of their first match.
   */
  trainingCopiesLeftOut: { queries: number; reasons: Record<OverlapReason, number> };
  MAP: number | null;
  MRR: number | null;
  folds: number;
  seconds: number;
  /** The pools whose labels it learned (the pool's own, its training pools, its feature runs' models'), as they were when it began (label-pools.ts). */
  labelPools: LabelPoolRecord[];
  /** The pool's last label event it read: it trained on the events up to it on its trained queries. */
  labelSeq: number;
  /** The pairs labeled by `labelSeq` on queries it did not train on (LivePreparation.uncovered). */
  uncovered: Array<[string, string]>;
}

/** The pool's fully and partially labeled query ids (by the default label source). */
export function labeledQueryIds(ws: Workspace, pool: string): { full: string[]; partial: string[] } {
  const grades = poolGrades(ws, pool);
  const full: string[] = [];
  const partial: string[] = [];
  for (const q of ws.poolQueries(pool)) {
    const g = grades.get(q.queryId);
    if (!g) continue;
    (q.candidates.every((c) => g.has(c)) ? full : partial).push(q.queryId);
  }
  return { full, partial };
}

/**
 * A live retrain's preparation (prepareLive) in one snapshot: in the model worker on its own
 * read-only connection when the workspace is a file (on the engine's thread these reads — the
 * pool's lists three times, its grades, the labeled queries' texts and their near-duplicate
 * clusters — held every label up, 0.5-1.4 s on a 60,000-pair pool), else on this thread. A refusal
 * (too few labels) is thrown here as the QPairsError it is.
 */
async function prepared(ws: Workspace, pool: string, spec: LiveSpec, o: RunOptions): Promise<LivePreparation> {
  throwIfAborted(o.signal);
  const workerPath = resolveWorkerPath(o);
  const path = workerPath ? ws.fileForWorkers() : null;
  const job = { model: spec.model, trainPools: [...spec.trainPools], runName: spec.runName, ...(spec.folds !== undefined ? { folds: spec.folds } : {}), ...(spec.seed !== undefined ? { seed: spec.seed } : {}) };
  let p: LivePreparation;
  if (workerPath && path) {
    const h = prepareLiveInWorker(path, pool, job, { workerPath });
    const onAbort = (): void => h.cancel();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      p = await h.promise;
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
    }
  } else p = ws.snapshot(() => prepareLive(ws, pool, job));
  if (p.refusal) throw new QPairsError(p.refusal, { reason: 'too few labels' });
  return p;
}

/** A live retrain's reads and checks before training (see LivePreparation); nothing is written. */
export function prepareLive(ws: Workspace, pool: string, spec: LivePrepareSpec): LivePreparation {
  const seed = spec.seed ?? 1;
  const exclude = new Set([spec.runName]);
  // Read in the same snapshot as the labels below (the caller's): what the retrain covers, exactly.
  const labelSeq = labelEventsSince(ws, pool, 0).lastSeq;
  const { full, partial } = labeledQueryIds(ws, pool);
  const fullSet = new Set(full);
  const queries = trainingQueries(ws, [pool]).filter((q) => fullSet.has(q.id));
  const refused = (refusal: string): LivePreparation => ({ refusal, trainedQueries: 0, labeledPairs: 0, k: 0, folds: [], copies: [], grades: new Map(), all: { positives: [], negatives: [], textIds: [] }, pools: [], inSampleRuns: [], exclude: [], labelSeq, uncovered: [] });
  if (queries.length < 2) return refused(`live retraining needs at least 2 fully labeled queries in pool "${pool}" (it has ${queries.length})`);
  const clusters = nearDuplicateClusters(queries);
  const k = Math.min(spec.folds ?? LIVE_FOLDS, clusterCount(clusters));
  if (k < 2) return refused(`live retraining needs 2 distinct fully labeled queries in pool "${pool}" (near-duplicates count once)`);
  const pools = [pool, ...spec.trainPools.filter((p) => p !== pool)];
  const pairwise = spec.model === 'ltr' || spec.model === 'fused';
  const otherQueries = trainingQueries(ws, pools.slice(1));
  const others = otherQueries.map((q) => q.id);
  const inSampleRuns = pairwise ? inSampleModelRuns(ws, pools, [...full, ...others]).filter((r) => !exclude.has(r.run)) : [];
  for (const r of inSampleRuns) exclude.add(r.run);
  const byId = new Map(queries.map((q) => [q.id, q]));
  const folds = groupedFolds(clusters, k, seed);
  // The training pools' copies of each fold's held-out queries (by id, text or near-same text).
  const copies = folds.map((fold) => findOverlap(fold.map((id) => byId.get(id)!), otherQueries).map((m): [string, OverlapReason] => [m.query, m.reason]));
  return {
    trainedQueries: queries.length,
    labeledPairs: queries.reduce((n, q) => n + q.grades.size, 0),
    k,
    folds,
    copies,
    grades: new Map(queries.map((q) => [q.id, q.grades])),
    // The labeled pairs, read once; each fold drops its queries' pairs.
    all: labeledTrainingPairs(ws, pools, new Set(partial)),
    pools,
    inSampleRuns,
    exclude: [...exclude],
    labelSeq,
    uncovered: pairsNotTrainedOn(ws, pool, labelSeq, queries.map((q) => q.id)),
  };
}

/** The pool's pairs labeled by `labelSeq` (any annotator, cleared ones too) outside the `trained` queries. */
function pairsNotTrainedOn(ws: Workspace, pool: string, labelSeq: number, trained: readonly string[]): Array<[string, string]> {
  const rows = ws
    .stmt(`SELECT DISTINCT query_id AS q, candidate_id AS c FROM labels WHERE pool_id = ? AND seq <= ? AND query_id NOT IN (SELECT value FROM json_each(?))`)
    .all(ws.poolId(pool), labelSeq, JSON.stringify(trained)) as Array<{ q: string; c: string }>;
  return rows.map((r) => [r.q, r.c]);
}

export async function retrainLive(ws: Workspace, pool: string, spec: LiveSpec, o: RunOptions = {}): Promise<LiveRetrain> {
  const t0 = Date.now();
  const seed = spec.seed ?? 1;
  // Read before the labels are: a pool replaced in between counts as the one recorded (run-visibility.ts).
  // ltr and fused take the pools' model runs as features: their models' label pools are learned too.
  const read = [pool, ...spec.trainPools];
  const byFeatures = spec.model === 'ltr' || spec.model === 'fused' ? poolModelsLabelPools(ws, read) : [];
  const labelPools = distinctLabelPools([...labelPoolRecords(ws, read), ...byFeatures]);
  const prep = await prepared(ws, pool, spec, o);
  const { k, folds, all, pools, inSampleRuns } = prep;
  const exclude = new Set(prep.exclude);
  const pairwise = spec.model === 'ltr' || spec.model === 'fused';
  const scores = new Map<string, Map<string, number>>();
  let apSum = 0;
  let rrSum = 0;
  let heldOut = 0;
  const steps = folds.length + 1;
  // The questions' and answers' text is read by the worker that trains (trainAndScore).
  const unlabeled = unlabeledSpec(pools, all, { excludeRuns: exclude });
  const unscored: string[] = [];
  // Skip-gram vectors (ltr's embedding features) pre-trained once for the folds and the final model:
  // they read the same texts with the same seed, so each would train the same ones (neural-common.ts pretrainKey).
  const wordVectors: WordVectorCache = new Map();
  const copiesLeftOut = new Map<string, OverlapReason>();
  for (let f = 0; f < folds.length; f++) {
    throwIfAborted(o.signal);
    const held = new Set(folds[f]);
    // The training pools' copies of the held-out queries (by id, text or near-same text) leave too.
    for (const [query, reason] of prep.copies[f]!) {
      held.add(query);
      if (!copiesLeftOut.has(query)) copiesLeftOut.set(query, reason);
    }
    const keep = ([a, b]: readonly [string, string]): boolean => !held.has(a) && !held.has(b);
    const data = { positives: all.positives.filter(keep), negatives: all.negatives.filter(keep) };
    // Nothing to learn without this fold (no relevant pair, or for ltr/fused no query with both a
    // relevant and a non-relevant candidate): its queries stay unscored — the final model trains on
    // them, so its scores there would be in-sample and flatter the live run.
    if (data.positives.length === 0 || (pairwise && !hasOrderToLearn(labeledLists(data)))) {
      unscored.push(...folds[f]!);
      continue;
    }
    const onProgress = o.onProgress ? (p: Parameters<NonNullable<RunOptions['onProgress']>>[0]) => o.onProgress!({ ...p, phase: `fold ${f + 1}/${steps - 1}: ${trainingStep(p)}` }) : undefined;
    // The fold model scores its held-out queries where it trained (their texts and the pool's runs
    // read there, after training): what trainingDevSet would give them, the pool's candidates and runs.
    const { scored } = await trainAndScore(
      { kind: spec.model, config: spec.config, input: { ws, pairs: data, unlabeled }, opts: { seed }, wordVectors },
      { pool, excludeRuns: [...exclude], only: folds[f]! },
      { ...o, onProgress },
    );
    for (const it of scored) {
      // As trainingDevSet gives the fold's queries their relevant candidates.
      const relevant = relevantAmong(it.candidates, prep.grades.get(it.id)!);
      scores.set(it.id, new Map(it.candidates.map((c, j) => [c, it.scores[j]!])));
      const { ap, rr } = apRr(rankOrder(it.scores).map((j) => relevant.has(it.candidates[j]!)));
      apSum += ap;
      rrSum += rr;
      heldOut++;
    }
  }
  throwIfAborted(o.signal);
  const data = all;
  if (data.positives.length === 0) throw new QPairsError(`live retraining needs a similar candidate among the labeled pairs of pool "${pool}"`, { reason: 'too few labels' });
  // Said before training (a worker), in the same words as `train`.
  if (pairwise) noOrderToLearn(spec.model, labeledLists(data));
  const onProgress = o.onProgress ? (p: Parameters<NonNullable<RunOptions['onProgress']>>[0]) => o.onProgress!({ ...p, phase: `final model: ${trainingStep(p)}` }) : undefined;
  // The final model scores the rest of the pool where it trained: on this thread that read (every
  // candidate's text, ~0.6 s for 60,000 pairs) and the model's copy here held every label up.
  const { scored } = await trainAndScore(
    { kind: spec.model, config: spec.config, input: { ws, pairs: data, unlabeled }, opts: { seed }, wordVectors },
    { pool, excludeRuns: [...exclude], except: [...scores.keys(), ...unscored] },
    { ...o, onProgress },
  );
  for (const it of scored) scores.set(it.id, new Map(it.candidates.map((c, j) => [c, it.scores[j]!])));
  return {
    scores,
    trainedQueries: prep.trainedQueries,
    labeledPairs: prep.labeledPairs,
    heldOutQueries: heldOut,
    unscoredQueries: unscored,
    inSampleRunsLeftOut: inSampleRuns,
    trainingCopiesLeftOut: countReasons(copiesLeftOut),
    MAP: heldOut ? apSum / heldOut : null,
    MRR: heldOut ? rrSum / heldOut : null,
    folds: k,
    seconds: (Date.now() - t0) / 1000,
    labelPools,
    labelSeq: prep.labelSeq,
    uncovered: prep.uncovered,
  };
}

function countReasons(byQuery: ReadonlyMap<string, OverlapReason>): LiveRetrain['trainingCopiesLeftOut'] {
  const reasons: Record<OverlapReason, number> = { 'same-id': 0, 'same-text': 0, 'near-duplicate': 0 };
  for (const r of byQuery.values()) reasons[r]++;
  return { queries: byQuery.size, reasons };
}
