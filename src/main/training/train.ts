/**
 * Training a reranker on the workspace's data and scoring pools with it. Training runs in a
 * worker thread (the bundled train-worker) when one is available, so the app stays responsive;
 * progress (loss, dev MRR/MAP per epoch) is reported, cancel aborts it, and the best epoch by dev
 * MRR is kept. The trained model is stored in the workspace; scoring a pool stores a run named
 * after the model, so `eval`, the Evaluate screen and the comparisons see it.
 */
import { readFileSync } from 'node:fs';
import { LIVE_MODELS, liveRunName } from '../../shared/live';
import { MODEL_NAME_RE } from '../../shared/models';
import { QPairsError, throwIfAborted } from '../errors';
import { checkModelConfig, isModelId, MODEL_IDS, noOrderToLearn, parseWord2VecText, SkipGramRanker, evaluateRanker } from '../models';
import type { ModelId, TrainReport, WordVectorCache, WordVectors } from '../models/types';
import type { EncodedModel, TrainedOnRecord } from '../models/worker-protocol';
import { clusterCount, groupedFolds, nearDuplicateClusters } from '../overlap';
import type { Workspace } from '../workspace/workspace';
import { buildDevSet, joinTrainingData, labeledLists, readCounts, labeledTrainingPairs, readUnlabeled, unlabeledSpec, poolGrades, trainingDevSet, trainingQueries, type ExtraTextLimits, type TrainingQuery } from './data';
import { checkDevOverlap, type DevOverlap, type KeepOverlapControl } from './dev-overlap';
import { crossValidate, cvClusters, type CvResult, type CvSpec } from './cross-validate';
import { trainForStore, type RunOptions, type TrainingInput } from './run-model';
import { featureRunNames, scorePoolWith } from './pool-scores';
import { encodeForStore } from './model-bytes';
import { deleteModel, listedTraining, listModels, requireModel, savedModelMeta, storeEncodedModel, type TrainingInfo } from './store';
import { inheritTrainedOn, modelOverlap, storeTrainedOn, trainedOnIds } from './trained-on';
import { checkTrainingText } from './training-text';
import { NO_DEV_NOR_CV } from '../../shared/early-stopping';
import { distinctLabelPools, labelPoolRecords, modelLabelPools } from './label-pools';

export interface TrainSpec {
  model: string;
  name: string;
  trainPools?: string[];
  devPool?: string | null;
  epochs?: number;
  seed?: number;
  config?: Record<string, unknown>;
  /**
   * A word2vec text file (`word v1 … vd` per line, optional `count dim` header). For `skipgram`
   * the model is these vectors (no training); for the neural models and `ltr` they initialise the
   * embeddings instead of skip-gram trained on the corpus.
   */
  vectors?: string;
  /** Bounds on the answers/comments passed as unlabeled text (default EXTRA_TEXT_LIMITS in data.ts). */
  extraTexts?: ExtraTextLimits;
  /** Keep training queries that are dev-pool queries (default: drop them; dev-overlap.ts). */
  keepOverlap?: boolean;
  /** Who asks (dev-overlap.ts): a refusal names the CLI's --keep-overlap or the Models screen's checkbox. Default cli. */
  keepOverlapControl?: KeepOverlapControl;
  /** Grouped cross-validation: folds (≥ 2) and repeats (default 1); see cross-validate.ts. */
  cv?: { folds: number; repeats?: number };
}

/** Reads word2vec text vectors (at most maxWords words, in file order). */
export function readWordVectors(file: string, maxWords = 500_000): WordVectors {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new QPairsError(`cannot read word vectors ${file}: ${(e as Error).message}`, { file });
  }
  return parseWord2VecText(text, { file, maxWords });
}

export { defaultWorkerPath, type RunOptions } from './run-model';
export { missingFeatureRuns } from './pool-scores';

export function checkModelName(ws: Workspace, name: string): void {
  if (!MODEL_NAME_RE.test(name)) throw new QPairsError(`model name "${name}" must be letters, digits, . _ + - (up to 100, starting with a letter or digit)`);
  // Learn-as-we-label writes these runs into its pools: a model of that name would have its runs replaced.
  if (LIVE_MODELS.some((m) => liveRunName(m) === name)) {
    throw new QPairsError(`"${name}" is the name of a live-retraining run (learn as we label replaces it in its pools); choose another model name`);
  }
  // One statement over the runs' names: listing every pool's runs counted each run's pairs (~130 ms
  // on a workspace whose pools hold runs of 60,000 pairs), on the thread that acknowledges labels.
  const clash = ws.stmt(`SELECT p.name AS pool, r.kind FROM runs r JOIN pools p ON p.id = r.pool_id WHERE r.name = ? AND r.kind <> 'model' AND r.staged IS NULL ORDER BY p.id, r.id LIMIT 1`).get(name) as
    | { pool: string; kind: string }
    | undefined;
  if (clash) throw new QPairsError(`"${name}" is already a run of pool "${clash.pool}" (kind ${clash.kind}); choose another model name`);
}

/** Share of the training clusters held out for early stopping when there is neither a dev pool nor --cv: one fold in 5. */
const HOLDOUT_FOLDS = 5;

/** What trainModel checked and prepared before any training (prepareTraining). */
export interface PreparedTraining {
  /** The workspace's change stamp before the checks read it: they hold while it is unchanged. */
  stamp: string;
  kind: ModelId;
  trainPools: string[];
  seed: number;
  exclude: Set<string>;
  /** Labeled training queries after the overlap check. */
  queries: TrainingQuery[];
  /** Queries whose labeled pairs are left out (overlapping training queries and the dev queries). */
  left: Set<string>;
  overlap?: DevOverlap;
  cvSpec?: CvSpec;
  cvClusterMap?: Map<string, number>;
  /** Runs left out of the features of a fusing model (ltr, fused): their models saw these training queries. */
  inSampleRuns: Array<{ run: string; trainedOn: number | null }>;
}

/** The refusal of a dev pool whose labeled queries have no similar candidate: it can choose no epoch. */
function noSimilarInDev(pool: string): string {
  return (
    `dev pool "${pool}" has no labeled query with a similar candidate (grade 1 or above, by its default label source): ` +
    `its dev MRR and MAP would be 0 at every epoch, so it cannot choose one; label a similar pair in it, or choose another dev pool (or none)`
  );
}

/**
 * The checks trainModel makes before training, without changing anything: the model and pools
 * exist, every training pool has labels, the dev overlap leaves training queries (unless
 * keepOverlap), and --cv has enough distinct questions. Throws QPairsError otherwise.
 */
export function prepareTraining(ws: Workspace, spec: TrainSpec): PreparedTraining {
  const stamp = ws.changeStamp();
  if (!isModelId(spec.model)) throw new QPairsError(`unknown model "${spec.model}" (models: ${MODEL_IDS.join(', ')})`);
  const kind = spec.model;
  // A misspelt key or a value of the wrong type would otherwise train with the defaults and report success.
  if (spec.config !== undefined) checkModelConfig(kind, spec.config);
  checkModelName(ws, spec.name);
  const trainPools = spec.trainPools ?? [];
  for (const p of trainPools) ws.pool(p);
  if (spec.devPool) {
    ws.pool(spec.devPool);
    // A dev pool without a similar pair scores every epoch 0: "the best epoch" would be the first, an
    // untrained model (ltr kept epoch 1 of 300, loss 0.69, dev MRR 0.00, and said nothing).
    const labeled = [...poolGrades(ws, spec.devPool).values()];
    // tfidf and skipgram train no epochs: their dev figures only report.
    const byEpochs = kind !== 'tfidf' && kind !== 'skipgram';
    if (byEpochs && labeled.length > 0 && !labeled.some((g) => [...g.values()].some((v) => v >= 1))) throw new QPairsError(noSimilarInDev(spec.devPool));
  }
  for (const p of trainPools) {
    if (poolGrades(ws, p).size === 0) throw new QPairsError(`training pool "${p}" has no labels (by its default label source: gold, else the annotators' aggregate); label it or import its labels first`);
  }
  checkTrainingText(ws, kind, trainPools);
  const seed = spec.seed ?? 1;
  const allQueries = trainingQueries(ws, trainPools);
  let overlap: DevOverlap | undefined;
  const left = new Set<string>();
  if (spec.devPool) {
    const checked = checkDevOverlap(ws, allQueries, spec.devPool, spec.keepOverlap ?? false, spec.keepOverlapControl);
    overlap = checked.report;
    for (const id of checked.drop) left.add(id);
    if (!spec.keepOverlap) for (const id of checked.devQueryIds) left.add(id);
  }
  const queries = allQueries.filter((q) => !left.has(q.id));
  const cvSpec: CvSpec | undefined = spec.cv ? { folds: spec.cv.folds, repeats: spec.cv.repeats ?? 1, seed } : undefined;
  const cvClusterMap = cvSpec ? cvClusters(queries, cvSpec) : undefined;
  const exclude = new Set([spec.name]);
  // The model's own run (it is being retrained) is never a feature: not one "left out" either.
  const inSampleRuns = kind === 'ltr' || kind === 'fused' ? inSampleModelRuns(ws, trainPools, queries.map((q) => q.id)).filter((r) => r.run !== spec.name) : [];
  for (const r of inSampleRuns) exclude.add(r.run);
  return { stamp, kind, trainPools, seed, exclude, queries, left, overlap, cvSpec, cvClusterMap, inSampleRuns };
}

/**
 * The training pools' runs stored by models that were trained on some of these training queries
 * (or whose training queries are unknown: stored before QPairs recorded them). A fusing model must
 * not take them as features: their scores on these queries are in-sample, so the fuser would learn
 * to trust them far more than they deserve on unseen questions. Runs of models that never read a
 * label (tfidf, skipgram, mnet-fisher, dae), out-of-fold runs (kind `live`) and the pools' own
 * retrieval runs stay.
 */
export function inSampleModelRuns(ws: Workspace, trainPools: readonly string[], trainingQueryIds: readonly string[]): Array<{ run: string; trainedOn: number | null }> {
  // Models that learn from the text alone never saw a label: their scores are not in-sample.
  const kindOf = new Map(listModels(ws).map((m) => [m.name, m.kind]));
  // Per run, the training queries whose features it gives in-sample, over every training pool that
  // holds it (the count said is over all of them, not the first pool's share).
  const seen = new Map<string, Set<string>>();
  for (const p of trainPools) {
    // The features of a training query come from its own pool's runs.
    const inPool = new Set(ws.poolQueries(p).map((q) => q.queryId));
    const ids = trainingQueryIds.filter((id) => inPool.has(id));
    for (const r of ws.runKinds(p)) {
      const kind = kindOf.get(r.name);
      if (r.kind !== 'model' || kind === undefined || UNSUPERVISED_KINDS.has(kind)) continue;
      // Queries the run scores out of fold (its model was cross-validated on them) are fair features.
      const oof = ws.outOfFoldQueries(p, r.name);
      const set = seen.get(r.name) ?? new Set<string>();
      for (const id of ids) if (!oof.has(id)) set.add(id);
      seen.set(r.name, set);
    }
  }
  const out: Array<{ run: string; trainedOn: number | null }> = [];
  for (const [run, ids] of seen) {
    const o = modelOverlap(ws, run, [...ids]);
    if (o === null) out.push({ run, trainedOn: null });
    else if (o.trainedOn > 0) out.push({ run, trainedOn: o.trainedOn });
  }
  return out;
}

/**
 * The stored fusing models (ltr, fused) other than `name` that take the run `name` as a feature:
 * once that run is gone (its model deleted), scoring them again gives the feature 0 everywhere.
 */
export function modelsTakingRun(ws: Workspace, name: string): string[] {
  return fusingModelsByRun(ws).get(name) ?? [];
}

/**
 * For every run some stored fusing model (ltr, fused) takes as a feature, those models (a model's
 * own name left out): each model's saved header read once, for the whole list of models.
 */
export function fusingModelsByRun(ws: Workspace): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of listModels(ws)) {
    if (m.kind !== 'ltr' && m.kind !== 'fused') continue;
    const runs = savedModelMeta(ws, m.name)?.runNames;
    if (!Array.isArray(runs)) continue;
    for (const run of new Set(runs as string[])) if (run !== m.name) out.set(run, [...(out.get(run) ?? []), m.name]);
  }
  return out;
}

/**
 * Deletes a model and its runs (deleteModelAndRuns; `write` as its) and says what that does to the
 * fusing models that take its run as a feature (the CLI's and the app's delete both report it).
 */
export async function deleteModelReporting(
  ws: Workspace,
  name: string,
  write?: <T>(f: () => T) => Promise<T>,
): Promise<{ deleted: boolean; featureOf: string[]; note: string | null }> {
  // Read in the deleting transaction: a fusing model stored meanwhile is named too.
  let featureOf: string[] = [];
  const deleted = await deleteModelAndRuns(ws, name, { ...(write ? { write } : {}), first: () => (featureOf = modelsTakingRun(ws, name)) });
  return deleted ? { deleted, featureOf, note: describeFeatureOf(name, featureOf) } : { deleted, featureOf: [], note: null };
}

/** What deleting `name` does to the fusing models that take its run as a feature, to say with the deletion; null when none does. */
export function describeFeatureOf(name: string, featureOf: readonly string[]): string | null {
  if (featureOf.length === 0) return null;
  const list = featureOf.join(', ');
  return `${list} ${featureOf.length === 1 ? 'takes' : 'take'} run "${name}" as a feature: scored again, ${featureOf.length === 1 ? 'it ranks' : 'they rank'} without it (the feature is 0); a new model named "${name}" gives ${featureOf.length === 1 ? 'it' : 'them'} that run again, or train ${list} again`;
}

/** The runs a fusing model takes as features that are stored models reading labels. */
function labelReadingModels(ws: Workspace, saved: Pick<EncodedModel, 'meta'>, self: string): string[] {
  const names = featureRunNames(saved);
  const kindOf = new Map(listModels(ws).map((m) => [m.name, m.kind]));
  return names.filter((r) => r !== self && kindOf.has(r) && !UNSUPERVISED_KINDS.has(kindOf.get(r)!));
}

/** Model kinds that fit on the corpus text without reading a label. */
const UNSUPERVISED_KINDS: ReadonlySet<string> = new Set(['tfidf', 'skipgram', 'mnet-fisher', 'dae']);

/**
 * Trains a model and stores it under spec.name; returns its report.
 *
 * Before any training, bad input is refused with a QPairsError and nothing changes: an unknown
 * model or pool, a training pool without labels, a dev pool whose queries are all the training
 * queries (dropping the overlap would leave nothing; --keep-overlap trains on them anyway), and
 * --cv with more folds than distinct training questions. With a dev pool, the training queries
 * that are dev queries (same id, text or near-duplicate; dev-overlap.ts) are dropped unless
 * keepOverlap. With --cv the model is cross-validated over grouped folds first
 * (cross-validate.ts), then trained on all the training data (the epochs chosen by CV when it
 * chose some). With neither a dev pool nor --cv, a model trained by epochs holds out one seeded
 * fifth of the training clusters for early stopping (best epoch by held-out MRR) and says so.
 * The stored model records which queries it was trained on (trained-on.ts).
 *
 * `prepared`: prepareTraining's result for this same spec when the caller has checked the request
 * already (the engine, before it starts the job). Used while nothing was committed since (its
 * stamp): the checks read the pools' labels and the training and dev queries' texts (380-600 ms
 * on a workspace of 100,000 questions, on the thread that acknowledges labels); else checked again.
 */
export async function trainModel(ws: Workspace, spec: TrainSpec, o: RunOptions = {}, prepared?: PreparedTraining): Promise<{ report: TrainReport; training: TrainingInfo }> {
  const { kind, trainPools, seed, exclude, queries, left, overlap, cvSpec, cvClusterMap, inSampleRuns } =
    prepared && prepared.stamp === ws.changeStamp() ? prepared : prepareTraining(ws, spec);
  // The labeled pairs only: every question's and answer's text is read where the model trains
  // (trainSaved: the worker, on its own connection), not on the engine's thread that acknowledges labels.
  const pairsWithout = (held: ReadonlySet<string>) => labeledTrainingPairs(ws, trainPools, held.size ? new Set([...left, ...held]) : left);
  const input = (pairs: ReturnType<typeof pairsWithout>): TrainingInput => ({ ws, pairs, unlabeled: unlabeledSpec(trainPools, pairs, { excludeRuns: exclude, extraTexts: spec.extraTexts }) });
  let pairs = pairsWithout(new Set());
  // Which pools the labels come from, and whether each is blind, as they are now (run-visibility.ts).
  const labelPools = labelPoolRecords(ws, [...trainPools, ...(spec.devPool ? [spec.devPool] : [])]);
  // tfidf and skipgram learn from the corpus text alone; the others train by epochs.
  const supervised = kind !== 'tfidf' && kind !== 'skipgram';
  // mnet-fisher and dae read no label either, nor hnil on its category loss alone: only the
  // others need labeled similar pairs (they were refused on a workspace without any).
  const needsLabels = !UNSUPERVISED_KINDS.has(kind) && !(kind === 'hnil' && spec.config?.labeledPairs === false);
  if (needsLabels && pairs.positives.length === 0) {
    throw new QPairsError(
      trainPools.length
        ? `the training pools (${trainPools.join(', ')}) have no similar labeled pair${left.size ? ' left after dropping the dev overlap' : ''} and the workspace no marked duplicates`
        : 'the workspace has no user-marked duplicate pairs to train on; give --train-pool P (a labeled pool)',
    );
  }
  // ltr and fused learn which labeled candidates of a query rank above the others: said before
  // their features are computed (ltr trains skip-gram vectors first), not after.
  if (kind === 'ltr' || kind === 'fused') noOrderToLearn(kind, labeledLists(pairs));
  let dev = spec.devPool ? buildDevSet(ws, spec.devPool, { excludeRuns: exclude }) : undefined;
  if (dev && dev.queries.length === 0) {
    const skip = ws.poolConvention(spec.devPool!) === 'skip';
    throw new QPairsError(`dev pool "${spec.devPool}" has no labeled query${skip ? ' with a similar candidate (its convention, skip, leaves out the others)' : ''}`);
  }
  if (supervised && dev && dev.queries.every((q) => q.relevant.size === 0)) throw new QPairsError(noSimilarInDev(spec.devPool!));
  const embeddings = spec.vectors ? readWordVectors(spec.vectors) : undefined;
  throwIfAborted(o.signal);

  let cv: CvResult | undefined;
  /** A supervised model's out-of-fold scores of its training queries (from --cv): query → candidate → score. */
  const outOfFold: Record<string, Record<string, number>> = {};
  // Skip-gram vectors pre-trained with this seed: the first CV repeat's folds and the final model
  // share them where they read the same texts (trained once, not once per fold and again at the end).
  const wordVectors: WordVectorCache = new Map();
  if (cvSpec && cvClusterMap) {
    cv = await crossValidate(ws, queries, cvClusterMap, cvSpec, {
      kind,
      config: spec.config,
      epochs: spec.epochs,
      embeddings,
      wordVectors,
      excludeRuns: exclude,
      buildData: (held) => input(pairsWithout(held)),
      epochsMatter: supervised,
      onOutOfFold: supervised ? (q, cands, scores) => (outOfFold[q] = Object.fromEntries(cands.map((c, i) => [c, scores[i]!]))) : undefined,
    }, o);
  }
  // Early stopping on held-out training clusters when nothing else can stop training.
  let earlyStopping: TrainingInfo['earlyStopping'];
  if (!dev && !cv && supervised) {
    const clusters = queries.length ? nearDuplicateClusters(queries) : new Map<string, number>();
    const n = clusterCount(clusters);
    if (n >= HOLDOUT_FOLDS) {
      const fold = groupedFolds(clusters, HOLDOUT_FOLDS, seed)[0]!;
      const byId = new Map(queries.map((q) => [q.id, q]));
      dev = trainingDevSet(ws, fold.map((id) => byId.get(id)!), { excludeRuns: exclude });
      pairs = pairsWithout(new Set(fold));
      const heldClusters = new Set(fold.map((id) => clusters.get(id))).size;
      earlyStopping = {
        heldOutQueries: fold.length,
        heldOutClusters: heldClusters,
        clusters: n,
        note: `${NO_DEV_NOR_CV}: ${heldClusters} of the ${n} training clusters (${fold.length} quer${fold.length === 1 ? 'y' : 'ies'}, seed ${seed}) held out for early stopping and not trained on`,
      };
    } else {
      earlyStopping = {
        heldOutQueries: 0,
        heldOutClusters: 0,
        clusters: n,
        note: trainPools.length
          ? `${NO_DEV_NOR_CV}, and only ${n} distinct training queries (fewer than ${HOLDOUT_FOLDS}): nothing held out, the last epoch is kept`
          : `${NO_DEV_NOR_CV}, and no training pool to hold queries out of: the last epoch is kept`,
      };
    }
  }
  const epochs = spec.epochs ?? cv?.selectedEpochs ?? undefined;
  const opts = { epochs, seed, embeddings };
  // Kept with the model: scorePool uses them for these queries, so the model's run on its own
  // training pool is out of fold (an honest feature for ltr/fused, an honest figure in eval).
  const storedMeta = Object.keys(outOfFold).length ? { outOfFold } : undefined;
  let saved: EncodedModel;
  let report: TrainReport;
  let read: { questions: number; extraTexts: number };
  // The queries the stored model was trained on: the query side of every labeled training pair,
  // and both questions of a marked duplicate pair — it has no query side (it is stored as the ids'
  // string order), so a pool asking either question is one the model was trained on. A worker
  // reading the texts fingerprints them (~1 ms a query, seconds for thousands on this thread).
  const duplicates = new Set(ws.duplicatePairs().map(([a, b]) => `${a}\u0000${b}`));
  const trainedOnQueryIds = [...new Set([...pairs.positives, ...pairs.negatives].flatMap(([q, c]) => (duplicates.has(`${q}\u0000${c}`) ? [q, c] : [q])))];
  let fingerprinted: TrainedOnRecord[] | undefined;
  if (embeddings && kind === 'skipgram') {
    // Nothing trains, so no worker reads the text: counted here, as for the others.
    const b = joinTrainingData(pairs, readUnlabeled(ws, input(pairs).unlabeled));
    read = readCounts(b);
    // Imported vectors are the model: nothing to train.
    const t0 = Date.now();
    const model = SkipGramRanker.fromWordVectors(embeddings);
    saved = encodeForStore(model.save(), storedMeta);
    const evaluation = dev ? evaluateRanker(model, dev) : null;
    model.dispose();
    report = {
      kind: 'skipgram',
      backend: 'js',
      epochs: 0,
      bestEpoch: 0,
      ...(evaluation ? { bestDevMRR: evaluation.mrr, bestDevMAP: evaluation.map } : {}),
      history: [],
      examplesPerSecond: 0,
      exampleUnit: 'words',
      seconds: (Date.now() - t0) / 1000,
      notes: [`imported ${embeddings.words.length} word vectors (dim ${embeddings.dim}) from ${spec.vectors}`],
    };
  } else {
    // The model comes back encoded as it is stored (the worker encodes it): this thread only writes it.
    ({ encoded: saved, report, read, trainedOn: fingerprinted } = await trainForStore({ kind, config: spec.config, input: { ...input(pairs), trainedOn: trainedOnQueryIds }, dev, opts, wordVectors }, o, storedMeta));
  }
  const trainedOn = fingerprinted
    ? { rows: fingerprinted }
    : trainedOnQueryIds.map((id) => {
        const q = ws.getQuestion(id);
        return { id, title: q?.title ?? '', body: q?.body ?? '' };
      });
  const training: TrainingInfo = {
    ...(spec.vectors ? { vectors: spec.vectors } : {}),
    ...(spec.config && Object.keys(spec.config).length ? { config: spec.config } : {}),
    trainPools,
    devPool: spec.devPool ?? null,
    epochs: spec.epochs ?? null,
    seed,
    positives: pairs.positives.length,
    negatives: pairs.negatives.length,
    questions: read.questions,
    extraTexts: read.extraTexts,
    trainedOnQueries: trainedOnQueryIds.length,
    // The dev queries (their ids: the dev pool's, or early stopping's held-out training queries), which
    // choose the version kept (selected-on.ts flags figures on them).
    ...(dev ? { selectedOnQueries: dev.queries.map((q) => q.query.id) } : {}),
    labelPools,
    ...(overlap ? { overlap } : {}),
    ...(cv ? { cv } : {}),
    ...(earlyStopping ? { earlyStopping } : {}),
    ...(inSampleRuns.length ? { inSampleRunsLeftOut: inSampleRuns } : {}),
    ...(Array.isArray(saved.meta?.importance) && saved.meta.importance.length ? { importance: saved.meta.importance as TrainingInfo['importance'] } : {}),
  };
  throwIfAborted(o.signal);
  // A fusing model's feature runs whose models read labels: where those were trained, this model's
  // scores carry their in-sample scores (a fused model on a dev pool that an ltr feature was trained
  // on led the dev table unmarked), so their training queries count as this model's.
  const featureModels = kind === 'ltr' || kind === 'fused' ? labelReadingModels(ws, saved, spec.name) : [];
  // Whose labels those learned is this model's too, whatever becomes of them (deleted, retrained, or
  // cross-validated so that featureModels leaves them out below): run-visibility.ts.
  if (featureModels.length) training.labelPools = distinctLabelPools([...labelPools, ...featureModels.flatMap((m) => modelLabelPools(ws, m))]);
  // Not the queries a feature's run scores out of fold (its model was cross-validated on them).
  const inherited = featureModels.map((run) => {
    const oof = new Set(ws.listPools().flatMap((p) => [...ws.outOfFoldQueries(p.name, run)]));
    return { run, oof, ids: trainedOnIds(ws, run).filter((id) => !oof.has(id)) };
  });
  if (inherited.some((f) => f.ids.length)) {
    training.featureModels = inherited.filter((f) => f.ids.length).map((f) => ({ run: f.run, trainedOn: f.ids.length }));
    training.trainedOnQueries = new Set([...trainedOnQueryIds, ...inherited.flatMap((f) => f.ids)]).size;
  }
  // A model replaced under its name takes its runs out of sight in the same transaction (their scores
  // deleted in chunks after it): they stayed until the new model had scored every pool, so meanwhile
  // (or for good, if that scoring never ended) Evaluate showed the old model's scores under the new
  // model's name and marked them with the new model's training queries.
  await ws.deleteRunsInChunks(() => {
    storeEncodedModel(ws, spec.name, saved, report, training);
    storeTrainedOn(ws, spec.name, trainedOn);
    for (const f of inherited) inheritTrainedOn(ws, spec.name, f.run, f.oof);
    return { result: undefined, runs: modelRuns(ws, spec.name) };
  });
  return { report, training: listedTraining(training) };
}

/** "pool p has no run "search-engine", a feature of fused1: …" (the CLI's note; null when none is missing). */
export function describeMissingRuns(model: string, pool: string, missing: readonly string[]): string | null {
  if (missing.length === 0) return null;
  const runs = missing.map((r) => `"${r}"`).join(', ');
  return `note: pool ${pool} has no run ${runs}, ${missing.length === 1 ? 'a feature' : 'features'} of ${model}: ${missing.length === 1 ? 'its features are' : 'their features are'} 0 there, so ${model} ranks that pool without ${missing.length === 1 ? 'it' : 'them'}`;
}

/**
 * Scores every query of a pool with a stored model and stores the scores as the run `name`;
 * `missingRuns`: the feature runs the pool lacks (missingFeatureRuns). The model worker reads the
 * model, the pool's lists, texts and runs on its own connection and scores them (scorePoolWith):
 * on the engine's thread that read held every label up for ~1 s on a pool of 60,000 pairs. This
 * thread only stores the scores, in chunks out of sight (Workspace.replaceRunInChunks); `write`
 * wraps each chunk (the engine passes its write gate); a cancel (`signal`) leaves the old run.
 */
export async function scorePool(
  ws: Workspace,
  name: string,
  pool: string,
  o: RunOptions & { write?: <T>(f: () => T) => Promise<T> } = {},
): Promise<{ queries: number; pairs: number; backend: string; missingRuns: string[]; uniformQueries: number; uniformWithoutText: number }> {
  // Refused here, with the errors this thread gives (the worker's would lose their kind).
  requireModel(ws, name);
  ws.pool(pool);
  const r = await scorePoolWith(ws, name, pool, o);
  throwIfAborted(o.signal);
  const config = { model: name, kind: r.kind, ...(r.outOfFoldQueries.length ? { outOfFold: r.outOfFoldQueries } : {}) };
  const rows = r.queries.flatMap((q) => q.candidates.map((c, j) => [q.id, c, q.scores[j]!] as const));
  const unchanged = (): void => {
    // The model may have been deleted or trained anew while it scored: then these scores are not its run.
    const now = ws.stmt(`SELECT created FROM models WHERE name = ?`).pluck().get(name) as string | undefined;
    if (now !== r.created) throw new QPairsError(`model "${name}" changed while it scored pool "${pool}": its scores were not stored`);
  };
  // Stored in chunks out of sight, then swapped in (one transaction held every label up for about
  // half a second at 60,000 pairs); checked before the first chunk and again at the swap.
  if (o.write) await o.write(unchanged);
  else unchanged();
  const pairs = await ws.replaceRunInChunks(pool, name, 'model', config, rows, {
    ...(o.write ? { write: o.write } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
    beforeSwap: unchanged,
  });
  return { queries: r.queries.length, pairs, backend: r.backend, missingRuns: r.missingRuns, uniformQueries: r.uniformQueries, uniformWithoutText: r.uniformWithoutText };
}

/**
 * "note: tf gives every candidate the same score in 200 of pool au-dev's 200 queries: …" (the CLI's
 * note after scoring; null when the model tells candidates apart in every query). The hint about
 * text only when some of those queries or all their candidates have none (`uniformWithoutText`):
 * a model can also score every candidate of a query with text alike (no word in common).
 */
export function describeUniformScores(model: string, pool: string, s: { uniformQueries: number; uniformWithoutText: number; queries: number }): string | null {
  if (s.uniformQueries === 0) return null;
  const text =
    s.uniformWithoutText === 0
      ? ''
      : ` — ${s.uniformWithoutText === s.uniformQueries ? 'in all of them' : `in ${s.uniformWithoutText} of them`} the query or its candidates have no text (AskUbuntu ids imported without --format askubuntu-corpus have none)`;
  return `note: ${model} gives every candidate the same score in ${s.uniformQueries} of pool ${pool}'s ${s.queries} queries: it ranks nothing there (eval orders them by its tie rule and flags them)${text}`;
}

/**
 * Scores every pool of the workspace with model `name` (its run there), as the app does after
 * training, so a later model that takes runs as features (ltr, fused) finds it in whatever pools
 * it trains on, from the CLI as from the app. `write` wraps each pool's write (the engine passes
 * its write gate; see scorePool); `workerPath` as RunOptions'; `onPool` is told as each pool's scoring
 * begins. Returns the pools scored, in pool order.
 */
export async function scoreEveryPool(
  ws: Workspace,
  name: string,
  write?: <T>(f: () => T) => Promise<T>,
  workerPath?: string | null,
  onPool?: (pool: string, index: number, pools: number) => void,
): Promise<Array<{ pool: string; queries: number; pairs: number; missingRuns: string[]; uniformQueries: number; uniformWithoutText: number }>> {
  const scored: Array<{ pool: string; queries: number; pairs: number; missingRuns: string[]; uniformQueries: number; uniformWithoutText: number }> = [];
  const pools = ws.listPools();
  for (const [i, p] of pools.entries()) {
    onPool?.(p.name, i, pools.length);
    const s = await scorePool(ws, name, p.name, { ...(write ? { write } : {}), ...(workerPath !== undefined ? { workerPath } : {}) });
    scored.push({ pool: p.name, queries: s.queries, pairs: s.pairs, missingRuns: s.missingRuns, uniformQueries: s.uniformQueries, uniformWithoutText: s.uniformWithoutText });
  }
  return scored;
}

/**
 * Deletes a stored model and the runs it scored into pools (runs of kind "model" with its name). The
 * model and its runs leave every reader's sight in one short transaction through `write` (the engine
 * passes its write gate); the runs' scores (60,000 pairs a pool) are then deleted in chunks, each its
 * own transaction through `write` (Workspace.deleteRunsInChunks): one transaction held every label
 * up while it deleted them all. True when there was such a model.
 */
export function deleteModelAndRuns(ws: Workspace, name: string, o: { write?: <T>(f: () => T) => Promise<T>; first?: () => void } = {}): Promise<boolean> {
  return ws.deleteRunsInChunks(
    () => ({
      result: (o.first?.(), deleteModel(ws, name)),
      runs: modelRuns(ws, name),
    }),
    o.write ? { write: o.write } : {},
  );
}

/** The runs model `name` scored into pools (runs of kind "model" with its name), one per pool. */
function modelRuns(ws: Workspace, name: string): Array<{ pool: string; name: string }> {
  return ws
    .listPools()
    .filter((p) => ws.runKinds(p.name).some((r) => r.name === name && r.kind === 'model'))
    .map((p) => ({ pool: p.name, name }));
}
