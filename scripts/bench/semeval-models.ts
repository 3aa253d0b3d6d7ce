/**
 * Quality benchmark of the research rerankers on SemEval-2016 Task 3 subtask B (question–question
 * similarity, Qatar Living), leak-proof (`npm run bench:semeval`). MAP: AP = 0 for a query without a
 * relevant candidate, mean over every query. Protocols (data in scripts/bench/semeval-data.ts):
 *
 *  - CV: grouped 5-fold cross-validation over the 117 distinct training questions (near-duplicates
 *    of part1/part2 merged, clusters from src/main/overlap, folds by groupedFolds), repeated with
 *    different fold seeds. Settings with a choice (the grid of a model) are chosen by mean CV MAP on
 *    the first `--select` repeats and reported on the next `--report` repeats; the figure is the mean
 *    AP over queries (each query's AP averaged over the reporting repeats), 95% t-interval over queries.
 *  - clean dev: trained on train part2 alone (67 questions), evaluated on dev (50 questions).
 *  - leaky dev: the literal protocol (trained on part1 + part2, whose part1 holds all 50 dev
 *    questions with their candidates), flagged: supervised models are scored on their own training pairs.
 *
 * The scikit-learn peer (tests/reference/semeval_peer.py, Debian python3-sklearn) runs on the same
 * folds (written to a JSON file) in the same run, when /usr/bin/python3 has sklearn; each model is
 * then compared with it query by query (./paired-vs-peer.ts: mean AP difference with its 95% bootstrap
 * interval and permutation / t-test p, for CV and clean dev; in --json as `vsPeer`, beside every run's
 * per-query APs `cvAP` and `cleanDevAP`).
 *
 *   npm run bench:semeval -- [--json FILE] [--models engine,tfidf,ltr,fused,mnet-fisher,dae,fused+mnet-fisher,fused+dae,hnil-categories,fused+hnil-categories]
 *                            (also: hnil — supervised, ~500 s —, skipgram, fused+dae+mnet-fisher;
 *                             engine+<encoder> and its ablations engine+<encoder>@pretrain|random-init|dropout-0.3|
 *                             train-emb|seeds-3|fused-vectors; fused+oof-<encoder> with cross-fitted neural scores, ~10 min each)
 *                            [--neural bow-cnn,lstm]
 *                            [--neural-vectors fused (encoders start from fused's PPMI-SVD vectors, not skip-gram)]
 *                            [--select 2] [--report 3] [--no-peer] [--data DIR]
 *                            [--grid '[{...},...]' (settings of the named supervised models to compare)] [--selection-only]
 *
 * Unlabeled text used for vocabularies/embeddings/idf: every question text and comment of the three
 * files (no labels).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createModel, SkipGramRanker, type DevSet, type Ranker, type WordVectors } from '../../src/main/models';
import { backendName, initBackend } from '../../src/main/models/backend';
import { tokenVectorsOfFused } from '../../src/main/models/fused';
import { corpusTexts } from '../../src/main/models/lexical';
import { apRr, rankOrder } from '../../src/main/models/dev-eval';
import { groupedFolds } from '../../src/main/overlap';
import { meanInterval } from '../../src/main/stats/t-interval';
import { datasetsDir } from './datasets-dir';
import { formatPaired, pairedVsPeer, type PairedDifference } from './paired-vs-peer';
import { devSet, loadSemEvalData, trainingData, type SemEvalData, type SemOrg } from './semeval-data';
import { checkCounts, checkOptions, exitOnUsageError } from './bench-options';

exitOnUsageError('bench:semeval', () => {
  checkOptions(['data', 'select', 'report', 'models', 'neural', 'neural-vectors', 'grid', 'json'], ['no-peer', 'selection-only']);
  checkCounts(['select', 'report']);
});

const argv = process.argv.slice(2);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const has = (name: string) => argv.includes(`--${name}`);

interface ModelSpec {
  name: string;
  kind: string;
  /** Unsupervised models score every query the same way whatever the fold: trained once. */
  supervised: boolean;
  grid: Array<Record<string, unknown>>;
  /** Unsupervised models whose scores are added as runs (features of `fused`), computed once on all the text. */
  withRuns?: string[];
  /**
   * Score = z(model) + z(engine order) within each query (CombSUM of z-scores, nothing fitted):
   * the model combined with the retrieval score, honest under CV at the cost of the model alone.
   */
  withEngine?: boolean;
  /** Expensive supervised models: at most this many CV reporting repeats. */
  maxReportRepeats?: number;
  /**
   * Neural encoders whose cross-fitted (out-of-fold) scores are runs of `fused` (see oofRun): the
   * fuser never sees an encoder's score of a query whose labels that encoder was trained on.
   */
  withOofNeural?: string[];
  /** Seed ensemble: this many copies trained with seeds 1..n, scores = mean of their z-scores within each query. */
  ensemble?: number;
  /** Start from random word vectors instead of the shared skip-gram vectors (ablation). */
  randomInit?: boolean;
}

/**
 * fused settings compared on the selection repeats (defaults: FUSED_DEFAULTS; the first is the default,
 * also used by the fused + run rows). Issue 26: the skip-gram feature and LambdaMART (never chosen in
 * earlier runs) left the grid to keep one full run within budget; `--models fused-ablation` measures
 * each text feature on the selection repeats.
 */
const FUSED_GRID: Array<Record<string, unknown>> = [
  { learner: 'ranksvm', C: 0.001 },
  { learner: 'ranksvm', C: 0.0003 },
  { learner: 'ranksvm', C: 0.003 },
];

const SPECS: Record<string, ModelSpec> = {
  engine: { name: 'search engine order', kind: 'engine', supervised: false, grid: [{}] },
  tfidf: { name: 'tfidf', kind: 'tfidf', supervised: false, grid: [{}] },
  skipgram: { name: 'skipgram', kind: 'skipgram', supervised: false, grid: [{}] },
  ltr: { name: 'ltr', kind: 'ltr', supervised: true, grid: [{}] },
  fused: { name: 'fused', kind: 'fused', supervised: true, grid: FUSED_GRID },
};
for (const k of ['bow-cnn', 'cnn', 'lstm', 'gru', 'rcnn']) SPECS[k] = { name: k, kind: k, supervised: true, grid: [{}] };
for (const k of ['bow-cnn', 'cnn', 'lstm', 'gru', 'rcnn', 'hnil']) SPECS[`engine+${k}`] = { name: `${k} + the search engine order (z-score sum)`, kind: k, supervised: true, grid: [{}], withEngine: true, maxReportRepeats: 1 };
// Issue 9's seed systems: unsupervised alone (trained once on all the text, no labels), and as a
// feature (run) of the fused ranker with its chosen setting.
SPECS['mnet-fisher'] = { name: 'mnet-fisher (M-NET + Fisher vectors, K = 16)', kind: 'mnet-fisher', supervised: false, grid: [{ components: 16 }] };
SPECS['dae'] = { name: 'dae (denoising auto-encoder codes)', kind: 'dae', supervised: false, grid: [{}] };
SPECS['fused+mnet-fisher'] = { name: 'fused + mnet-fisher run', kind: 'fused', supervised: true, grid: [FUSED_GRID[0]!], withRuns: ['mnet-fisher'] };
SPECS['fused+dae'] = { name: 'fused + dae run', kind: 'fused', supervised: true, grid: [FUSED_GRID[0]!], withRuns: ['dae'] };
SPECS['hnil'] = { name: 'hnil (LSTM text + DeepWalk network, labeled pairs + category loss)', kind: 'hnil', supervised: true, grid: [{}], maxReportRepeats: 1 };
SPECS['hnil-categories'] = { name: 'hnil on the category signal alone (no labels)', kind: 'hnil', supervised: false, grid: [{ labeledPairs: false }] };
SPECS['fused+hnil-categories'] = { name: 'fused + the hnil-categories run', kind: 'fused', supervised: true, grid: [FUSED_GRID[0]!], withRuns: ['hnil-categories'] };
// Issue 15 item 3: the fused ranker with out-of-fold neural encoder scores as features (opt-in: each
// encoder trains 16 times — 10 per CV repeat, 3 for clean dev, 3 for leaky dev).
for (const k of ['bow-cnn', 'cnn', 'lstm', 'gru', 'rcnn'])
  SPECS[`fused+oof-${k}`] = { name: `fused + out-of-fold ${k} scores`, kind: 'fused', supervised: true, grid: [FUSED_GRID[0]!], withOofNeural: [k], maxReportRepeats: 1 };
SPECS['fused+oof-gru+bow-cnn'] = { name: 'fused + out-of-fold gru and bow-cnn scores', kind: 'fused', supervised: true, grid: [FUSED_GRID[0]!], withOofNeural: ['gru', 'bow-cnn'], maxReportRepeats: 1 };
// Issue 15 item 4: what each ingredient of a neural encoder is worth, measured as the encoder combined
// with the search engine order (z-score sum) against the default setting's row `engine+<k>`.
const ABLATIONS: Record<string, { what: string; config?: Record<string, unknown>; ensemble?: number; randomInit?: boolean }> = {
  pretrain: { what: 'body→title encoder-decoder pre-training on all questions', config: { pretrain: true } },
  'random-init': { what: 'random word vectors instead of the workspace skip-gram', config: { embeddingEpochs: 0 }, randomInit: true },
  'dropout-0.3': { what: 'dropout 0.3 (default 0.1)', config: { dropout: 0.3 } },
  'train-emb': { what: 'word vectors fine-tuned (default frozen)', config: { trainEmbeddings: true } },
  'seeds-3': { what: 'seed ensemble of 3', ensemble: 3 },
  // issue 26 item 3 (selection repeats: bow-cnn 73.90 vs 72.83 from skip-gram)
  'fused-vectors': { what: "fused's stemmed PPMI-SVD vectors instead of the workspace skip-gram", config: { startVectors: 'fused' } },
};
for (const k of ['bow-cnn', 'cnn', 'lstm', 'gru', 'rcnn'])
  for (const [a, v] of Object.entries(ABLATIONS)) {
    // pre-training and dropout belong to the recurrent encoders (the CNNs have neither)
    if (k.endsWith('cnn') && (a === 'pretrain' || a === 'dropout-0.3')) continue;
    SPECS[`engine+${k}@${a}`] = {
      name: `${k} + engine, ${v.what}`,
      kind: k,
      supervised: true,
      grid: [v.config ?? {}],
      withEngine: true,
      maxReportRepeats: 1,
      ensemble: v.ensemble,
      randomInit: v.randomInit,
    };
  }
// Issue 26: what each text feature of fused is worth, on the selection repeats: the defaults
// (FUSED_DEFAULTS) against one change each (read the "selection repeats" line; C = the default's).
const PLAIN_VECTORS = { ppmiWords: { stopWords: 'basic', stem: false }, ppmiWeighting: 'uniform', ppmiWindow: 10, ppmiDim: 150 };
SPECS['fused-ablation'] = {
  name: 'fused, feature ablation',
  kind: 'fused',
  supervised: true,
  maxReportRepeats: 1,
  grid: [
    {},
    { topicSim: false },
    { categoryClassifier: false },
    { lsa: true },
    { ppmiRemoveCommon: true },
    { ppmiAlign: true },
    { charGrams: false },
    { categorySim: false },
    { stemTfidf: true },
    { categoryTfidf: true },
    { ppmiIdf: false },
    { ppmiDim: 150 },
    { ppmiWeighting: 'uniform', ppmiWindow: 10 },
    { ppmiWords: { stopWords: 'basic', stem: false } },
    { ppmiWords: { stopWords: 'extended', stem: false } },
    PLAIN_VECTORS,
    { ...PLAIN_VECTORS, charGrams: false, categorySim: false, categoryClassifier: false },
  ],
};
SPECS['fused+dae+mnet-fisher'] = { name: 'fused + dae + mnet-fisher runs', kind: 'fused', supervised: true, grid: [FUSED_GRID[0]!], withRuns: ['dae', 'mnet-fisher'] };


/** Unsupervised models are trained once per setting (their data — all the text, no labels — is the same in every fold). */
const unsupervised = new Map<string, Ranker>();
async function unsupervisedModel(d: SemEvalData, kind: string, config: Record<string, unknown>): Promise<Ranker> {
  const key = `${kind} ${JSON.stringify(config)}`;
  let m = unsupervised.get(key);
  if (!m) {
    const t0 = performance.now();
    m = await createModel(kind, config);
    // mnet-fisher trains its own (category-aware) skip-gram; the others may start from the shared vectors.
    await m.train(trainingData(d, []), { embeddings: kind === 'mnet-fisher' ? undefined : (embeddings ?? undefined), seed: 1 });
    console.error(`  ${kind} trained on the unlabeled text in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    unsupervised.set(key, m);
  }
  return m;
}

/**
 * A model's scores of every query of the three files as a run: query id → candidate id → score (a
 * query id in two files: the later file's list). `engineContext`: score with the engine run in the
 * query's context, as the evaluation lists do.
 */
function scoresOfEveryQuery(d: SemEvalData, m: Ranker, engineContext: boolean): Map<string, Map<string, number>> {
  const run = new Map<string, Map<string, number>>();
  for (const o of [...d.part1, ...d.part2, ...d.dev]) {
    const cands = o.rel.map((r) => d.questions.get(r.id)!);
    const scores = engineContext ? m.score(d.questions.get(o.id)!, cands, { runs: { engine: d.engine.get(o.id)! } }) : m.score(d.questions.get(o.id)!, cands);
    run.set(o.id, new Map(cands.map((c, i) => [c.id, scores[i]!])));
  }
  return run;
}

/** An unsupervised model's scores as a run over every query of the three files: query id → candidate id → score. */
const runCache = new Map<string, Map<string, Map<string, number>>>();
async function runOf(d: SemEvalData, kind: string): Promise<Map<string, Map<string, number>>> {
  let run = runCache.get(kind);
  if (!run) {
    const m = await unsupervisedModel(d, SPECS[kind]!.kind, SPECS[kind]!.grid[0]!);
    run = scoresOfEveryQuery(d, m, false);
    runCache.set(kind, run);
  }
  return run;
}

let embeddings: WordVectors | null = null;

/**
 * Scores of a neural encoder trained on exactly the labeled queries `train` (one training per distinct
 * training set, cached): query id → candidate id → score, for every query of the three files.
 */
const neuralScores = new Map<string, Map<string, Map<string, number>>>();
async function neuralScoresOf(d: SemEvalData, kind: string, train: readonly SemOrg[]): Promise<Map<string, Map<string, number>>> {
  const key = `${kind}|${train.map((o) => o.id).sort().join(',')}`;
  let run = neuralScores.get(key);
  if (!run) {
    const t0 = performance.now();
    const m = await createModel(kind, {});
    await m.train(trainingData(d, train), { embeddings: embeddings ?? undefined, seed: 1 });
    run = scoresOfEveryQuery(d, m, true);
    m.dispose();
    neuralScores.set(key, run);
    console.error(`  ${kind} trained on ${train.length} queries for out-of-fold scores in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  return run;
}

/**
 * A neural encoder's scores as a run of `fused`, cross-fitted over `innerFolds` (a partition of the
 * training queries `train`): a training query's score comes from the encoder trained on the other inner
 * folds (never on its own labels); an evaluated query's score is the mean over those inner models of
 * their z-scored scores (none of them saw any evaluated query). Under CV the inner folds are the other
 * outer folds, so the encoder trained without folds {i, j} serves both fold i's and fold j's fuser:
 * C(5, 2) = 10 trainings per repeat.
 */
async function oofRun(d: SemEvalData, kind: string, train: readonly SemOrg[], innerFolds: readonly (readonly string[])[], evaluated: readonly SemOrg[]): Promise<Map<string, Map<string, number>>> {
  const run = new Map<string, Map<string, number>>();
  const evalSums = new Map<string, number[]>();
  for (const fold of innerFolds) {
    const held = new Set(fold);
    const scores = await neuralScoresOf(
      d,
      kind,
      train.filter((o) => !held.has(o.id)),
    );
    for (const o of train) if (held.has(o.id)) run.set(o.id, scores.get(o.id)!);
    for (const o of evaluated) {
      const z = zScores(o.rel.map((r) => scores.get(o.id)!.get(r.id)!));
      const acc = evalSums.get(o.id) ?? new Array<number>(z.length).fill(0);
      z.forEach((x, i) => (acc[i] = acc[i]! + x / innerFolds.length));
      evalSums.set(o.id, acc);
    }
  }
  for (const o of evaluated) run.set(o.id, new Map(o.rel.map((r, i) => [r.id, evalSums.get(o.id)![i]!])));
  return run;
}

/** (x − mean) / sd within a list (all 0 when the list is constant). */
function zScores(xs: readonly number[]): number[] {
  const m = xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / Math.max(1, xs.length));
  return xs.map((x) => (sd > 0 ? (x - m) / sd : 0));
}

/** AP of each evaluated query (in order) for a model trained on `train` with `config`. */
async function fitAndScore(
  d: SemEvalData,
  spec: ModelSpec,
  config: Record<string, unknown>,
  train: readonly SemOrg[],
  evalOrgs: readonly SemOrg[],
  innerFolds?: readonly (readonly string[])[],
): Promise<number[]> {
  const evalSet = devSet(d, evalOrgs);
  let scoreOf: (q: DevSet['queries'][number]) => number[];
  const models: Ranker[] = [];
  if (spec.kind === 'engine') scoreOf = (q) => q.candidates.map((c) => q.context!.runs!.engine.get(c.id)!);
  else if (!spec.supervised) {
    const m = await unsupervisedModel(d, spec.kind, config);
    scoreOf = (q) => m.score(q.query, q.candidates, q.context);
  } else {
    const extra: Record<string, Map<string, Map<string, number>>> = {};
    for (const k of spec.withRuns ?? []) extra[k] = await runOf(d, k);
    if (spec.withOofNeural?.length) {
      const folds =
        innerFolds ?? groupedFolds(new Map(train.map((o) => [o.id, d.trainClusterOf.get(o.id)!])), 3, 1);
      for (const k of spec.withOofNeural) extra[`oof-${k}`] = await oofRun(d, k, train, folds, evalOrgs);
    }
    const data = { ...trainingData(d, train), runs: { engine: d.engine, ...extra } };
    const seeds = Array.from({ length: spec.ensemble ?? 1 }, (_, i) => i + 1);
    for (const seed of seeds) {
      const m = await createModel(spec.kind, seeds.length > 1 ? { ...config, seed } : config);
      await m.train(data, { embeddings: spec.randomInit ? undefined : (embeddings ?? undefined), seed });
      models.push(m);
    }
    const scoreOne = (m: Ranker, q: DevSet['queries'][number]) => {
      const runs = { ...q.context?.runs };
      for (const [k, run] of Object.entries(extra)) runs[k] = run.get(q.query.id)!;
      return m.score(q.query, q.candidates, { ...q.context, runs });
    };
    scoreOf =
      models.length === 1
        ? (q) => scoreOne(models[0]!, q)
        : (q) => {
            const sum = new Array<number>(q.candidates.length).fill(0);
            for (const m of models) zScores(scoreOne(m, q)).forEach((z, i) => (sum[i] = sum[i]! + z));
            return sum;
          };
  }
  if (spec.withEngine) {
    const modelScore = scoreOf;
    scoreOf = (q) => {
      const engine = q.candidates.map((c) => q.context!.runs!.engine.get(c.id)!);
      const a = zScores(modelScore(q));
      const b = zScores(engine);
      return a.map((x, i) => x + b[i]!);
    };
  }
  const aps = evalSet.queries.map((q) => apRr(rankOrder(scoreOf(q)).map((i) => q.relevant.has(q.candidates[i].id))).ap);
  for (const m of models) m.dispose();
  return aps;
}

/** Per-query APs (aligned with d.distinct) of grouped k-fold CV with the given fold seed. */
async function cvRepeat(d: SemEvalData, spec: ModelSpec, config: Record<string, unknown>, folds: string[][]): Promise<number[]> {
  const index = new Map(d.distinct.map((o, i) => [o.id, i]));
  const aps = new Array<number>(d.distinct.length).fill(NaN);
  for (const fold of folds) {
    const held = new Set(fold);
    const test = d.distinct.filter((o) => held.has(o.id));
    const train = d.distinct.filter((o) => !held.has(o.id));
    const r = await fitAndScore(d, spec, config, train, test, folds.filter((f) => f !== fold));
    test.forEach((o, i) => (aps[index.get(o.id)!] = r[i]));
  }
  return aps;
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);

interface ModelResult {
  /** Model id (the --models name, the key in --json). */
  id: string;
  name: string;
  cvMAP: number;
  cvCI: [number, number] | null;
  cvRepeatSd: number;
  cleanDevMAP: number;
  cleanDevCI: [number, number] | null;
  leakyDevMAP: number;
  seconds: number;
  chosen?: string;
  /** Per-query APs: CV (aligned with d.distinct, averaged over the reporting repeats) and clean dev (aligned with d.dev). */
  cvPerQuery: number[];
  cleanDevPerQuery: number[];
}

async function benchModel(d: SemEvalData, id: string, spec: ModelSpec, selectFolds: string[][][], reportFolds: string[][][]): Promise<ModelResult> {
  const t0 = performance.now();
  let config = spec.grid[0];
  let chosen: string | undefined;
  if (spec.grid.length > 1 || (has('selection-only') && spec.supervised)) {
    let best = -Infinity;
    const lines: string[] = [];
    for (const c of spec.grid) {
      const maps: number[] = [];
      for (const folds of selectFolds) maps.push(mean(await cvRepeat(d, spec, c, folds)));
      const m = mean(maps);
      lines.push(`${JSON.stringify(c)} ${(100 * m).toFixed(2)}`);
      if (has('selection-only')) console.error(`    ${JSON.stringify(c)} ${(100 * m).toFixed(2)} (repeats ${maps.map((x) => (100 * x).toFixed(2)).join(', ')}; ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
      if (m > best) {
        best = m;
        config = c;
      }
    }
    chosen = JSON.stringify(config);
    console.error(`  ${spec.name} selection repeats: ${lines.join('; ')} → ${chosen}`);
  }
  if (has('selection-only'))
    return { id, name: spec.name, cvMAP: NaN, cvCI: null, cvRepeatSd: 0, cleanDevMAP: NaN, cleanDevCI: null, leakyDevMAP: NaN, seconds: (performance.now() - t0) / 1000, chosen, cvPerQuery: [], cleanDevPerQuery: [] };
  const perRepeat: number[][] = [];
  if (spec.supervised) for (const folds of reportFolds.slice(0, spec.maxReportRepeats ?? reportFolds.length)) perRepeat.push(await cvRepeat(d, spec, config, folds));
  else perRepeat.push(await fitAndScore(d, spec, config, d.distinct, d.distinct));
  const perQuery = d.distinct.map((_, i) => mean(perRepeat.map((r) => r[i])));
  const repMaps = perRepeat.map(mean);
  const sd = repMaps.length > 1 ? Math.sqrt(repMaps.reduce((s, x) => s + (x - mean(repMaps)) ** 2, 0) / (repMaps.length - 1)) : 0;
  const clean = await fitAndScore(d, spec, config, d.part2, d.dev);
  const leaky = await fitAndScore(d, spec, config, [...d.part1, ...d.part2], d.dev);
  const ci = (xs: number[]) => {
    const r = meanInterval(xs);
    return r.value;
  };
  return {
    id,
    name: spec.name,
    cvMAP: mean(perQuery),
    cvCI: ci(perQuery),
    cvRepeatSd: sd,
    cleanDevMAP: mean(clean),
    cleanDevCI: ci(clean),
    leakyDevMAP: mean(leaky),
    seconds: (performance.now() - t0) / 1000,
    chosen,
    cvPerQuery: perQuery,
    cleanDevPerQuery: clean,
  };
}

interface PeerResult {
  cvMAP: number;
  cleanDevMAP: number;
  cvCI?: [number, number];
  cleanDevCI?: [number, number];
  leakyDevMAP?: number;
  chosen?: string;
  seconds: number;
  /** Per-query APs: CV aligned with the folds file's `distinct`, clean dev with devIds. */
  cvPerQuery: number[];
  devIds: string[];
  cleanDevPerQuery: number[];
}

function runPeer(dir: string, foldsFile: string, here: string): PeerResult | string {
  const py = '/usr/bin/python3';
  const check = spawnSync(py, ['-c', 'import sklearn, numpy, scipy'], { encoding: 'utf8' });
  if (check.error) return `peer not run (${py} not found)`;
  if (check.status !== 0) return `peer not run (python3-sklearn/numpy/scipy missing: apt-get install python3-sklearn)`;
  const script = path.resolve(here, '../../tests/reference/semeval_peer.py');
  const t0 = performance.now();
  try {
    const out = execFileSync(py, [script, '--data', dir, '--folds', foldsFile], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 });
    const r = JSON.parse(out.trim().split('\n').pop()!) as Omit<PeerResult, 'seconds'>;
    return { ...r, seconds: (performance.now() - t0) / 1000 };
  } catch (e) {
    return `peer not run (${(e as Error).message.split('\n')[0]})`;
  }
}

const pct = (x: number) => (100 * x).toFixed(2);
/** Query id → AP, for --json (per-query figures for analyses of one's own). */
const byQuery = (ids: readonly string[], aps: readonly number[]) => Object.fromEntries(ids.map((id, i) => [id, aps[i]]));
const ciText = (c: [number, number] | null | undefined) => (c ? ` (${pct(c[0])}–${pct(c[1])})` : '');

async function main() {
  const tStart = performance.now();
  const here = path.dirname(fileURLToPath(import.meta.url));
  const dir = opt('data') ?? path.join(datasetsDir(), 'semeval2016-task3');
  const d = loadSemEvalData(dir);
  const nSelect = Number(opt('select') ?? 2);
  const nReport = Number(opt('report') ?? 3);
  const k = 5;
  const names = [...(opt('models') ?? 'engine,tfidf,ltr,fused,mnet-fisher,dae,fused+mnet-fisher,fused+dae,hnil-categories,fused+hnil-categories').split(','), ...(opt('neural')?.split(',') ?? [])];
  for (const n of names) if (!SPECS[n]) throw new Error(`unknown model ${n} (known: ${Object.keys(SPECS).join(', ')})`);
  // --grid '[{...}, ...]': compare these settings (of every named supervised model) on the selection repeats
  const gridOpt = opt('grid');
  if (gridOpt) for (const n of names) if (SPECS[n]!.supervised) SPECS[n] = { ...SPECS[n]!, grid: JSON.parse(gridOpt) as Array<Record<string, unknown>> };
  await initBackend();
  const selectFolds = Array.from({ length: nSelect }, (_, r) => groupedFolds(d.clusterOf, k, r + 1));
  const reportFolds = Array.from({ length: nReport }, (_, r) => groupedFolds(d.clusterOf, k, nSelect + r + 1));
  console.error(
    `SemEval-2016 3B: ${d.part1.length} + ${d.part2.length} training questions → ${d.distinct.length} distinct ` +
      `(${d.distinct.reduce((s, o) => s + o.rel.length, 0)} candidates); ${d.dev.length} dev queries; grouped ${k}-fold CV, ` +
      `${nSelect} selection + ${nReport} reporting repeats; backend ${backendName()}`,
  );
  if (names.some((n) => ['ltr', 'bow-cnn', 'cnn', 'lstm', 'gru', 'rcnn', 'skipgram', 'hnil', 'hnil-categories'].includes(n) || n.startsWith('fused+') || n.startsWith('engine+'))) {
    // skip-gram vectors of the unlabeled text (no labels), shared by ltr and the neural models
    const sg = new SkipGramRanker();
    await sg.train(trainingData(d, []));
    embeddings = sg.vectors();
    sg.dispose();
  }
  if (opt('neural-vectors') === 'fused') {
    // issue 26 item 3: the neural encoders start from fused's PPMI-SVD vectors (each token → its stem's vector)
    embeddings = tokenVectorsOfFused(corpusTexts(trainingData(d, [])));
    console.error(`  neural encoders start from fused's PPMI-SVD vectors (${embeddings.words.length} tokens, dim ${embeddings.dim})`);
  }
  const results: ModelResult[] = [];
  for (const n of names) {
    const r = await benchModel(d, n, SPECS[n], selectFolds, reportFolds);
    results.push(r);
    console.error(`${r.name}: CV ${pct(r.cvMAP)}${ciText(r.cvCI)}, clean dev ${pct(r.cleanDevMAP)}, leaky dev ${pct(r.leakyDevMAP)} (${r.seconds.toFixed(0)} s)`);
  }
  let peer: PeerResult | string = 'peer not run (--no-peer)';
  if (!has('no-peer')) {
    const foldsFile = path.join(mkdtempSync(path.join(tmpdir(), 'qpairs-peer-')), 'folds.json');
    writeFileSync(
      foldsFile,
      JSON.stringify({ distinct: d.distinct.map((o) => o.id), select: selectFolds, report: reportFolds, cleanTrain: d.part2.map((o) => o.id), leakyTrain: [...d.part1, ...d.part2].map((o) => o.id) }),
    );
    peer = runPeer(dir, foldsFile, here);
    console.error(typeof peer === 'string' ? peer : `peer: CV ${pct(peer.cvMAP)}, clean dev ${pct(peer.cleanDevMAP)} (${peer.seconds.toFixed(0)} s)`);
  }
  console.log(
    `\n## SemEval-2016 Task 3 subtask B — grouped ${k}-fold CV over ${d.distinct.length} distinct questions (${nReport} reporting repeats after ${nSelect} selection repeats), clean dev (train part2 → dev, ${d.dev.length} queries)\n`,
  );
  console.log('| model | CV MAP (95% CI) | sd over repeats | clean-dev MAP (95% CI) | leaky dev MAP ⚠ | seconds | chosen setting |\n|---|---|---|---|---|---|---|');
  for (const r of results)
    console.log(`| ${r.name} | ${pct(r.cvMAP)}${ciText(r.cvCI)} | ${pct(r.cvRepeatSd)} | ${pct(r.cleanDevMAP)}${ciText(r.cleanDevCI)} | ${pct(r.leakyDevMAP)} | ${r.seconds.toFixed(0)} | ${r.chosen ?? ''} |`);
  if (typeof peer === 'string') console.log(`| peer (scikit-learn RankSVM) | ${peer} | | | | | |`);
  else
    console.log(
      `| peer (scikit-learn RankSVM) | ${pct(peer.cvMAP)}${ciText(peer.cvCI)} | | ${pct(peer.cleanDevMAP)}${ciText(peer.cleanDevCI)} | ${peer.leakyDevMAP !== undefined ? pct(peer.leakyDevMAP) : ''} | ${peer.seconds.toFixed(0)} | ${peer.chosen ?? ''} |`,
    );
  const distinctIds = d.distinct.map((o) => o.id);
  const devIds = d.dev.map((o) => o.id);
  const paired: Record<string, { cv: PairedDifference; cleanDev: PairedDifference }> = {};
  if (typeof peer !== 'string') {
    console.log('\n### Each model − the peer, paired by query (MAP points; 95% bootstrap interval, two-sided p)\n');
    console.log('| model | CV: model − peer | clean dev: model − peer |\n|---|---|---|');
    for (const r of results.filter((m) => m.cvPerQuery.length > 0)) {
      const p = {
        cv: pairedVsPeer({ ids: distinctIds, values: r.cvPerQuery }, { ids: distinctIds, values: peer.cvPerQuery }),
        cleanDev: pairedVsPeer({ ids: devIds, values: r.cleanDevPerQuery }, { ids: peer.devIds, values: peer.cleanDevPerQuery }),
      };
      paired[r.id] = p;
      console.log(`| ${r.name} | ${formatPaired(p.cv)} | ${formatPaired(p.cleanDev)} |`);
    }
  }
  console.log(`\n⚠ leaky: the literal protocol trains on part1, which holds all 50 dev questions with their candidates. Wall time ${((performance.now() - tStart) / 1000).toFixed(0)} s.`);
  const json = opt('json');
  if (json) {
    const out = {
      peer:
        typeof peer === 'string'
          ? { error: peer }
          : {
              cvMAP: peer.cvMAP,
              cleanDevMAP: peer.cleanDevMAP,
              cvCI: peer.cvCI,
              cleanDevCI: peer.cleanDevCI,
              leakyDevMAP: peer.leakyDevMAP,
              cvAP: byQuery(distinctIds, peer.cvPerQuery),
              cleanDevAP: byQuery(peer.devIds, peer.cleanDevPerQuery),
            },
      models: Object.fromEntries(
        results.map((r) => [
          r.id,
          {
            cvMAP: r.cvMAP,
            cvCI: r.cvCI,
            cleanDevMAP: r.cleanDevMAP,
            cleanDevCI: r.cleanDevCI,
            leakyDevMAP: r.leakyDevMAP,
            seconds: r.seconds,
            chosen: r.chosen,
            vsPeer: paired[r.id],
            cvAP: byQuery(distinctIds, r.cvPerQuery),
            cleanDevAP: byQuery(devIds, r.cleanDevPerQuery),
          },
        ]),
      ),
    };
    writeFileSync(json, JSON.stringify(out, null, 1) + '\n');
  }
}

await main();
