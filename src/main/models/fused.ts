/**
 * `fused`: learning to rank over per-pair features (fused-features.ts: runs such as the engine's
 * rank and out-of-fold neural scores, lexical similarities, PPMI-SVD and skip-gram embedding
 * cosines, metadata). Features are standardised, z = (f − μ)/σ over the training rows, then scored by
 *
 *  - learner 'ranksvm': s = w · z, w from the squared-hinge RankSVM on within-query pair differences
 *    (ranksvm.ts); one epoch = one dual coordinate-descent sweep, loss = the primal objective / #pairs;
 *  - learner 'lambdamart': s = Σ_t tree_t(z), boosted trees on LambdaRank gradients (lambdamart.ts);
 *    one epoch = one tree, loss = mean pairwise logistic loss ln(1 + e^{−(s_i − s_j)}).
 *
 * With opts.dev the epoch with the best dev MRR is kept. After training, the within-query
 * permutation importance of every feature on the training lists is kept in the saved meta
 * (`meta.importance`, permutation-importance.ts).
 *
 * The PPMI-SVD vectors and document frequencies are fitted on the corpus (all questions + extra
 * texts, no labels; the character n-gram document frequencies on the questions alone); the fit is
 * memoised for the last corpus, so cross-validation folds over the same corpus fit once.
 *
 * Word vectors (defaults chosen by grouped CV on SemEval-2016, scripts/bench/semeval-models.ts):
 * words = Porter-stemmed tokens minus the extended stop list (`ppmiWords`, text.ts wordsOf);
 * co-occurrence within 5 words weighted 1/distance (`ppmiWeighting: 'harmonic'`); 200 dimensions;
 * text vector = idf-weighted mean (`ppmiIdf`). The former vectors: ppmiWords PLAIN_WORDS,
 * ppmiWeighting 'uniform', ppmiWindow 10, ppmiDim 150.
 *
 * Topic features (issue 26, on by default): a category classifier (softmax regression on the ppmi
 * text vectors, fitted on the corpus questions' categories — metadata, no relevance labels — once
 * per corpus fit) gives `meta:category-prob` = P(cat(c) | q) and `meta:topic-sim` = Σ_k P(k|q) P(k|c).
 * Measured and left off (`lsa`: an LSA cosine; `ppmiAlign`; `ppmiRemoveCommon`): see the README.
 */
import { QPairsError } from '../errors';
import { evaluateRanker } from './dev-eval';
import { BM25_TERMS, categoryCentroids, lsaTermVectors, trainCategoryClassifier, sparseCategoryCentroids, FusedFeaturizer, stemTerms, LEX_TERMS, unitRows, type CategoryModel, type FeatureResources, type UnitVectors } from './fused-features';
import { lambdaMartScore, lambdaGradients, fitTree, treePredict, type Tree } from './lambdamart';
import { charGrams, corpusTexts, DocFreq } from './lexical';
import { buildVocab, embeddingMatrix, startingVectors } from './neural-common';
import { permutationImportance } from './permutation-importance';
import { ppmiSvdVectors } from './ppmi-svd';
import { featureStandardisation, labeledLists, noOrderToLearn, pairwiseDifferences, rankSvmObjective, RankSvmSolver, type RankList } from './ranksvm';
import { PLAIN_WORDS, STEMMED_WORDS, STOP_WORDS, fullText, tokenize, wordsOf, type WordOptions } from './text';
import { fnv1a } from '../../shared/fnv1a';
import type { Rng } from './rng';
import { runEpochs } from './train-loop';
import type { QText, Ranker, SavedModel, ScoreContext, TrainOptions, TrainReport, TrainingData, WordVectors } from './types';
import type { Vocab } from './vocab';

export type FusedConfig = {
  /** Run names to use; null = every run present in the training data. */
  runs: string[] | null;
  learner: 'ranksvm' | 'lambdamart';
  /** RankSVM: cost of a violated pair. */
  C: number;
  /** RankSVM: coordinate-descent sweeps; LambdaMART: trees. */
  epochs: number;
  learningRate: number;
  maxLeaves: number;
  minLeaf: number;
  /** PPMI-SVD embedding features. */
  ppmi: boolean;
  ppmiDim: number;
  ppmiWindow: number;
  ppmiMinCount: number;
  ppmiMaxVocab: number;
  ppmiAlpha: number;
  ppmiEigenPower: number;
  /** Co-occurrences over content words only (stop words removed before windowing). */
  ppmiContentOnly: boolean;
  /** Project the questions' common direction out of every text vector. */
  ppmiRemoveCommon: boolean;
  /** Words of the vectors and text vectors: stop list and stemming (text.ts WordOptions). */
  ppmiWords: WordOptions;
  /** Co-occurrence weighting within the window: 'uniform' (1) or 'harmonic' (1/distance). */
  ppmiWeighting: 'uniform' | 'harmonic';
  /** Text vectors as idf-weighted (true) or plain means of word vectors. */
  ppmiIdf: boolean;
  /** Soft word-alignment feature (fused-features.ts softAlignment). */
  ppmiAlign: boolean;
  /** Character n-gram tf-idf cosines (title+body, titles, bodies) over n-grams charMinN..charMaxN. */
  charGrams: boolean;
  charMinN: number;
  charMaxN: number;
  /** Query-text-to-candidate-category similarity over word tf-idf centroids (`meta:category-tfidf`). */
  categoryTfidf: boolean;
  /** Tf-idf cosines over stemmed word 1–2-grams (extended stop list): `tfidf:stem:*`. */
  stemTfidf: boolean;
  /** Query-text-to-candidate-category similarity (nearest-centroid category model, `meta:category-sim`). */
  categorySim: boolean;
  /** LSA cosine (`lsa:cos`): truncated SVD (lsaDim) of the corpus' tf-idf matrix over the embedding words. */
  lsa: boolean;
  lsaDim: number;
  /** Category classifier over the ppmi text vectors (`meta:category-prob`), L2 penalty categoryL2. */
  categoryClassifier: boolean;
  categoryL2: number;
  /** With the classifier: Σ_k P(k | q) P(k | c) (`meta:topic-sim`). */
  topicSim: boolean;
  /** Skip-gram mean-vector cosine (opts.embeddings, else skip-gram trained for `skipgramEpochs`). */
  skipgram: boolean;
  skipgramEpochs: number;
  /** Same category / same asker features. */
  metadata: boolean;
  importanceRepeats: number;
  seed: number;
};

export const FUSED_DEFAULTS: FusedConfig = {
  runs: null,
  learner: 'ranksvm',
  // chosen by grouped CV on SemEval-2016 (scripts/bench/semeval-models.ts)
  C: 0.001,
  epochs: 200,
  learningRate: 0.05,
  maxLeaves: 6,
  minLeaf: 20,
  ppmi: true,
  ppmiDim: 200,
  ppmiWindow: 5,
  ppmiMinCount: 3,
  ppmiMaxVocab: 20_000,
  ppmiAlpha: 0.75,
  ppmiEigenPower: 0.5,
  ppmiContentOnly: true,
  ppmiRemoveCommon: false,
  ppmiWords: STEMMED_WORDS,
  ppmiWeighting: 'harmonic',
  ppmiIdf: true,
  ppmiAlign: false,
  charGrams: true,
  charMinN: 2,
  charMaxN: 5,
  categorySim: true,
  stemTfidf: false,
  categoryTfidf: false,
  lsa: false,
  lsaDim: 100,
  categoryClassifier: true,
  categoryL2: 1e-3,
  topicSim: true,
  skipgram: false,
  skipgramEpochs: 5,
  metadata: true,
  importanceRepeats: 5,
  seed: 1,
};

/** Questions the category classifier is fitted on, at most. */
const CATEGORY_SAMPLE = 5000;

interface CorpusFit {
  key: string;
  df: DocFreq;
  dfBm25: DocFreq;
  ppmi: UnitVectors | null;
  dfEmb: DocFreq | null;
  charDf: DocFreq | null;
  dfStem: DocFreq | null;
  lsa: UnitVectors | null;
  /** The category classifier (label-free: fitted on the corpus questions' categories), once per fit. */
  categoryModel?: CategoryModel | null;
  /** Per-text feature data shared by the featurizers of this fit (CV folds). */
  textCache: Map<string, unknown>;
}
let lastFit: CorpusFit | null = null;

/** Document frequencies and PPMI-SVD vectors of a corpus (memoised for the last corpus + settings). */
function fitCorpus(texts: readonly string[], cfg: FusedConfig, questionTexts: readonly QText[]): CorpusFit {
  let h = 0;
  for (const t of texts) h = (Math.imul(h, 31) + fnv1a(t)) >>> 0;
  for (const q of questionTexts) h = (Math.imul(h, 31) + fnv1a(fullText(q))) >>> 0;
  const words = cfg.ppmiWords ?? PLAIN_WORDS;
  const key = JSON.stringify([texts.length, questionTexts.length, h, cfg.ppmi, cfg.ppmiDim, cfg.ppmiWindow, cfg.ppmiMinCount, cfg.ppmiMaxVocab, cfg.ppmiAlpha, cfg.ppmiEigenPower, cfg.ppmiContentOnly, cfg.ppmiRemoveCommon, words, cfg.ppmiWeighting, cfg.ppmiIdf, cfg.charGrams, cfg.charMinN, cfg.charMaxN, cfg.stemTfidf, cfg.seed, cfg.lsa && cfg.lsaDim, cfg.categoryClassifier && cfg.categoryL2]);
  if (lastFit?.key === key) return lastFit;
  const df = DocFreq.fit(texts, LEX_TERMS, 2);
  const dfBm25 = DocFreq.fit(texts, BM25_TERMS, 1);
  const plain = !words.stem && words.stopWords === 'basic';
  // idf of the embedding words (the former models used dfBm25's, the same for plain words)
  const dfEmb = cfg.ppmi && !plain ? DocFreq.fit(texts, (t) => wordsOf(tokenize(t), words), 1) : null;
  const charDf = cfg.charGrams ? DocFreq.fit(questionTexts.map(fullText), (t) => charGrams(t, cfg.charMinN, cfg.charMaxN), 2) : null;
  let ppmi: UnitVectors | null = null;
  if (cfg.ppmi) {
    const v = ppmiSvdVectors(
      texts.map((t) => (cfg.ppmiContentOnly ? wordsOf(tokenize(t), words) : tokenize(t))),
      { dim: cfg.ppmiDim, window: cfg.ppmiWindow, minCount: cfg.ppmiMinCount, maxVocab: cfg.ppmiMaxVocab, alpha: cfg.ppmiAlpha, eigenPower: cfg.ppmiEigenPower, seed: cfg.seed, weighting: cfg.ppmiWeighting ?? 'uniform' },
    );
    // the features average content words only: keep those rows
    const keep = v.words.flatMap((w, i) => (plain && STOP_WORDS.has(w) ? [] : [i]));
    const data = new Float64Array(keep.length * v.dim);
    keep.forEach((r, k) => data.set(v.data.subarray(r * v.dim, (r + 1) * v.dim), k * v.dim));
    ppmi = unitRows(
      keep.map((r) => v.words[r]),
      v.dim,
      data,
    );
  }
  if (ppmi && cfg.ppmiRemoveCommon) {
    const f = new FusedFeaturizer({ runNames: [], df, dfBm25, ppmi, skipgram: null, metadata: false, words, dfEmb, embIdf: cfg.ppmiIdf });
    ppmi.common = commonDirection(questionTexts.map((q) => f.meanVector(f.embWords(fullText(q)), ppmi!)), ppmi.dim);
  }
  const dfStem = cfg.stemTfidf ? DocFreq.fit(texts, stemTerms, 2) : null;
  const lsa = cfg.lsa ? lsaTermVectors(texts.map((t) => wordsOf(tokenize(t), words)), dfEmb ?? dfBm25, cfg.lsaDim, { seed: cfg.seed }) : null;
  lastFit = { key, df, dfBm25, ppmi, dfEmb, charDf, dfStem, lsa, textCache: new Map() };
  return lastFit;
}

/**
 * First right singular vector of the matrix whose rows are the given vectors (power iteration on
 * XᵀX from the normalised mean, 50 steps), as Float32 with unit length.
 */
export function commonDirection(rows: readonly Float64Array[], dim: number): Float32Array {
  let u = new Float64Array(dim);
  for (const r of rows) for (let d = 0; d < dim; d++) u[d] += r[d];
  for (let it = 0; it < 50; it++) {
    const next = new Float64Array(dim);
    for (const r of rows) {
      let p = 0;
      for (let d = 0; d < dim; d++) p += r[d] * u[d];
      for (let d = 0; d < dim; d++) next[d] += p * r[d];
    }
    let n = 0;
    for (let d = 0; d < dim; d++) n += next[d] * next[d];
    n = Math.sqrt(n);
    if (!(n > 0)) break;
    for (let d = 0; d < dim; d++) next[d] /= n;
    u = next;
  }
  return Float32Array.from(u);
}

export class FusedRanker implements Ranker {
  readonly kind = 'fused' as const;
  readonly config: FusedConfig;
  private featurizer: FusedFeaturizer | null = null;
  private mu = new Float64Array(0);
  private sigma = new Float64Array(0);
  private w: Float64Array = new Float64Array(0);
  private trees: Tree[] = [];
  private importance: Array<{ feature: string; importance: number }> = [];

  constructor(config: Partial<FusedConfig> = {}) {
    this.config = { ...FUSED_DEFAULTS, ...config };
  }

  featureNames(): string[] {
    return this.featurizer?.names() ?? [];
  }

  /** Within-query permutation importance of each feature on the training lists (MAP drop). */
  featureImportance(): Array<{ feature: string; importance: number }> {
    return this.importance.map((x) => ({ ...x }));
  }

  /** RankSVM weights per feature (on standardised features); empty for LambdaMART. */
  weights(): Record<string, number> {
    const out: Record<string, number> = {};
    if (this.config.learner === 'ranksvm') this.featureNames().forEach((n, i) => (out[n] = this.w[i] ?? 0));
    return out;
  }

  /** Standardised feature rows of the candidates. */
  features(query: QText, candidates: readonly QText[], ctx?: ScoreContext): number[][] {
    if (!this.featurizer) throw new QPairsError('fused: the model is not trained');
    return this.featurizer.rows(query, candidates, ctx?.runs).map((r) => r.map((x, k) => (x - this.mu[k]) / this.sigma[k]));
  }

  private scoreRow(z: ArrayLike<number>): number {
    if (this.config.learner === 'lambdamart') return lambdaMartScore(this.trees, z);
    let s = 0;
    for (let k = 0; k < z.length; k++) s += z[k] * this.w[k];
    return s;
  }

  async train(data: TrainingData, opts: TrainOptions = {}): Promise<TrainReport> {
    const cfg = this.config;
    // labeled lists by query
    const groups = labeledLists(data, 'fused');
    if (groups.size === 0) throw new QPairsError('fused: the training data has no labeled pairs', { reason: 'no labels' });
    noOrderToLearn('fused', groups);
    const runNames = cfg.runs ? [...cfg.runs] : Object.keys(data.runs ?? {}).sort();
    const fit = fitCorpus(corpusTexts(data), cfg, [...data.questions.values()]);
    let skipgram: UnitVectors | null = null;
    if (cfg.skipgram) {
      const wv = await startingVectors(data, opts, 100, cfg.skipgramEpochs, opts.seed ?? cfg.seed);
      if (!wv) throw new QPairsError('fused: skip-gram features need word vectors (opts.embeddings or skipgramEpochs > 0)');
      const keep = wv.words.flatMap((w, i) => (STOP_WORDS.has(w) ? [] : [i]));
      const d = new Float32Array(keep.length * wv.dim);
      keep.forEach((r, k) => d.set(wv.data.subarray(r * wv.dim, (r + 1) * wv.dim), k * wv.dim));
      skipgram = unitRows(
        keep.map((r) => wv.words[r]),
        wv.dim,
        d,
      );
    }
    const res: FeatureResources = {
      runNames,
      df: fit.df,
      dfBm25: fit.dfBm25,
      ppmi: fit.ppmi,
      skipgram,
      metadata: cfg.metadata,
      words: cfg.ppmiWords ?? PLAIN_WORDS,
      dfEmb: fit.dfEmb,
      embIdf: cfg.ppmiIdf,
      align: cfg.ppmiAlign,
      charDf: fit.charDf,
      charN: [cfg.charMinN, cfg.charMaxN],
      dfStem: fit.dfStem,
      lsa: fit.lsa,
      topicSim: cfg.topicSim,
    };
    if (cfg.categoryTfidf) {
      const f0 = new FusedFeaturizer(res, skipgram ? undefined : fit.textCache);
      res.tfidfCentroids = sparseCategoryCentroids([...data.questions.values()].filter((q) => q.category).map((q) => ({ category: q.category, vector: f0.tfidfVectorOf(q) })));
      f0.clearCache();
    }
    if (cfg.categorySim && res.ppmi) {
      // category centroids of every question's text vector (categories are text metadata, no relevance labels)
      const f0 = new FusedFeaturizer(res, skipgram ? undefined : fit.textCache);
      const qs = [...data.questions.values()].filter((q) => q.category);
      res.centroids = categoryCentroids(
        qs.map((q) => ({ category: q.category, vector: f0.textVector(q) })),
        res.ppmi.dim,
      );
      f0.clearCache();
    }
    if (cfg.categoryClassifier && res.ppmi) {
      // a category classifier of every question's text vector (category metadata, no relevance labels)
      if (fit.categoryModel === undefined) {
        const f0 = new FusedFeaturizer(res, skipgram ? undefined : fit.textCache);
        const qs = [...data.questions.values()].filter((q) => q.category);
        // at most CATEGORY_SAMPLE questions, evenly spaced (the fit costs questions × dim × categories × 150)
        const step = Math.max(1, qs.length / CATEGORY_SAMPLE);
        const sample = qs.length <= CATEGORY_SAMPLE ? qs : Array.from({ length: CATEGORY_SAMPLE }, (_, i) => qs[Math.floor(i * step)]!);
        fit.categoryModel = trainCategoryClassifier(
          sample.map((q) => ({ category: q.category, vector: f0.textVector(q) })),
          res.ppmi.dim,
          { l2: cfg.categoryL2 },
        );
        f0.clearCache();
      }
      res.categoryModel = fit.categoryModel;
    }
    // skip-gram vectors come from the options, not the fit: no shared cache then
    this.featurizer = new FusedFeaturizer(res, skipgram ? undefined : fit.textCache);
    const names = this.featurizer.names();
    const F = names.length;
    if (F === 0) throw new QPairsError('fused: the model has no features');
    const raw: Array<{ rows: number[][]; rel: number[] }> = [];
    for (const [qid, g] of groups) {
      const cands = [...g.keys()].map((id) => data.questions.get(id)!);
      const runs: Record<string, ReadonlyMap<string, number>> = {};
      for (const r of runNames) {
        const m = data.runs?.[r]?.get(qid);
        if (m) runs[r] = m;
      }
      raw.push({ rows: this.featurizer.rows(data.questions.get(qid)!, cands, runs), rel: cands.map((c) => Number(g.get(c.id)!)) });
    }
    // standardisation (float32 precision, so a saved and reloaded model scores identically)
    const all = raw.flatMap((l) => l.rows);
    ({ mu: this.mu, sigma: this.sigma } = featureStandardisation(all, F, true));
    const lists: RankList[] = raw.map((l) => ({ rows: l.rows.map((r) => r.map((x, k) => (x - this.mu[k]) / this.sigma[k])), rel: l.rel }));
    const usable = lists.filter((l) => l.rel.some((x) => x > 0) && l.rel.some((x) => x <= 0));
    const epochs = opts.epochs ?? cfg.epochs;
    const common = {
      kind: this.kind,
      backend: 'js',
      epochs,
      opts,
      evalDev: () => evaluateRanker(this, opts.dev!),
    };
    let report: TrainReport;
    if (cfg.learner === 'ranksvm') {
      const diffs = pairwiseDifferences(usable);
      const solver = new RankSvmSolver(diffs, F, cfg.C);
      this.trees = [];
      this.w = solver.w;
      report = await runEpochs<Float64Array>({
        ...common,
        exampleUnit: 'pairs',
        notes: [`features: ${names.join(', ')}`, `${usable.length} queries, ${diffs.length} pairs, RankSVM C = ${cfg.C}`],
        planEpoch: () => ({
          steps: 1,
          runStep: () => {
            solver.sweep();
            return { loss: rankSvmObjective(solver.w, diffs, cfg.C) / Math.max(1, diffs.length), examples: diffs.length };
          },
        }),
        snapshot: () => solver.w.slice(),
        restore: (s) => solver.w.set(s),
      });
      this.w = solver.w.map(Math.fround);
    } else {
      const x = usable.flatMap((l) => l.rows);
      const spans: Array<[number, number]> = [];
      let off = 0;
      for (const l of usable) spans.push([off, (off += l.rows.length)]);
      const scores = new Float64Array(x.length);
      const g = new Float64Array(x.length);
      const h = new Float64Array(x.length);
      this.trees = [];
      report = await runEpochs<number>({
        ...common,
        exampleUnit: 'candidates',
        notes: [`features: ${names.join(', ')}`, `${usable.length} queries, ${x.length} candidates, LambdaMART`],
        planEpoch: () => ({
          steps: 1,
          runStep: () => {
            usable.forEach((l, q) => {
              const [a, b] = spans[q];
              const r = lambdaGradients(scores.subarray(a, b), l.rel, 1);
              g.set(r.lambda, a);
              h.set(r.hess, a);
            });
            const tree = fitTree(x, g, h, { maxLeaves: cfg.maxLeaves, minLeaf: cfg.minLeaf });
            tree.value = tree.value.map((v) => v * cfg.learningRate);
            this.trees.push(tree);
            for (let i = 0; i < x.length; i++) scores[i] += treePredict(tree, x[i]);
            return { loss: pairwiseLogisticLoss(usable, spans, scores), examples: x.length };
          },
        }),
        snapshot: () => this.trees.length,
        restore: (n) => {
          this.trees = this.trees.slice(0, n);
        },
      });
    }
    this.importance = permutationImportance(lists, (z) => this.scoreRow(z), names, { repeats: cfg.importanceRepeats, seed: cfg.seed });
    report.notes = [...(report.notes ?? []), `importance: ${this.importance.map((x) => `${x.feature} ${(100 * x.importance).toFixed(2)}`).join(', ')}`];
    return report;
  }

  score(query: QText, candidates: readonly QText[], ctx?: ScoreContext): number[] {
    if (candidates.length === 0) return [];
    return this.features(query, candidates, ctx).map((z) => this.scoreRow(z));
  }

  save(): SavedModel {
    const f = this.featurizer;
    if (!f) throw new QPairsError('fused: the model is not trained');
    const weights: SavedModel['weights'] = {
      w: { shape: [this.w.length], data: Float32Array.from(this.w) },
      mu: { shape: [this.mu.length], data: Float32Array.from(this.mu) },
      sigma: { shape: [this.sigma.length], data: Float32Array.from(this.sigma) },
    };
    const meta: Record<string, unknown> = {
      runNames: f.res.runNames,
      featureNames: f.names(),
      importance: this.importance,
      trees: this.trees,
      metadata: f.res.metadata,
      words: f.res.words ?? PLAIN_WORDS,
      embIdf: f.res.embIdf !== false,
      align: !!f.res.align,
      charN: f.res.charN ?? null,
      centroids: f.res.centroids ? [...f.res.centroids].map(([k, v]) => [k, Array.from(v)]) : null,
      tfidfCentroids: f.res.tfidfCentroids ? [...f.res.tfidfCentroids].map(([k, v]) => [k, [...v]]) : null,
      categoryModel: f.res.categoryModel ? { categories: f.res.categoryModel.categories, dim: f.res.categoryModel.dim } : null,
      topicSim: !!f.res.topicSim,
    };
    if (f.res.categoryModel) weights.categoryW = { shape: [f.res.categoryModel.categories.length, f.res.categoryModel.dim + 1], data: f.res.categoryModel.w.slice() };
    const vocab: string[] = [];
    for (const [name, v] of [
      ['ppmi', f.res.ppmi],
      ['skipgram', f.res.skipgram],
    ] as const) {
      if (!v) continue;
      weights[name] = { shape: [v.words.length, v.dim], data: v.data.slice() };
      if (v.common) weights[`${name}Common`] = { shape: [v.dim], data: v.common.slice() };
      vocab.push(...v.words);
    }
    DocFreq.saveAll(
      [
        ['df', f.res.df],
        ['dfBm25', f.res.dfBm25],
        ['dfEmb', f.res.dfEmb],
        ['charDf', f.res.charDf],
        ['dfStem', f.res.dfStem],
      ],
      { vocab, weights, meta },
    );
    // LSA term vectors after every table (models saved before them load unchanged)
    if (f.res.lsa) {
      weights.lsa = { shape: [f.res.lsa.words.length, f.res.lsa.dim], data: f.res.lsa.data.slice() };
      vocab.push(...f.res.lsa.words);
    }
    return { format: 1, kind: this.kind, config: { ...this.config }, weights, vocab, meta };
  }

  static load(saved: SavedModel): FusedRanker {
    const r = new FusedRanker(saved.config as Partial<FusedConfig>);
    const meta = saved.meta as {
      runNames: string[];
      importance: Array<{ feature: string; importance: number }>;
      trees: Tree[];
      metadata: boolean;
      df: { numDocs: number; avgLen: number };
      dfBm25: { numDocs: number; avgLen: number };
      dfEmb?: { numDocs: number; avgLen: number };
      charDf?: { numDocs: number; avgLen: number };
      dfStem?: { numDocs: number; avgLen: number };
      words?: WordOptions;
      embIdf?: boolean;
      align?: boolean;
      charN?: [number, number] | null;
      centroids?: Array<[string, number[]]> | null;
      tfidfCentroids?: Array<[string, Array<[string, number]>]> | null;
      categoryModel?: { categories: string[]; dim: number } | null;
      topicSim?: boolean;
    };
    const vocab = saved.vocab ?? [];
    let off = 0;
    const take = (n: number) => vocab.slice(off, (off += n));
    const vectors = (name: string): UnitVectors | null => {
      const t = saved.weights[name];
      if (!t) return null;
      const common = saved.weights[`${name}Common`]?.data.slice();
      return { words: take(t.shape[0]), dim: t.shape[1], data: t.data.slice(), ...(common ? { common } : {}) };
    };
    const ppmi = vectors('ppmi');
    const skipgram = vectors('skipgram');
    const df = DocFreq.fromSaved(take(saved.weights.df.shape[0]), saved.weights.df, meta.df);
    const dfBm25 = DocFreq.fromSaved(take(saved.weights.dfBm25.shape[0]), saved.weights.dfBm25, meta.dfBm25);
    const dfEmb = saved.weights.dfEmb && meta.dfEmb ? DocFreq.fromSaved(take(saved.weights.dfEmb.shape[0]), saved.weights.dfEmb, meta.dfEmb) : null;
    const charDf = saved.weights.charDf && meta.charDf ? DocFreq.fromSaved(take(saved.weights.charDf.shape[0]), saved.weights.charDf, meta.charDf) : null;
    const dfStem = saved.weights.dfStem && meta.dfStem ? DocFreq.fromSaved(take(saved.weights.dfStem.shape[0]), saved.weights.dfStem, meta.dfStem) : null;
    const lsa = vectors('lsa');
    const cw = saved.weights.categoryW;
    r.featurizer = new FusedFeaturizer({
      dfStem,
      runNames: [...meta.runNames],
      df,
      dfBm25,
      ppmi,
      skipgram,
      metadata: meta.metadata,
      words: meta.words ?? PLAIN_WORDS,
      dfEmb,
      embIdf: meta.embIdf !== false,
      align: !!meta.align,
      charDf,
      ...(meta.charN ? { charN: meta.charN } : {}),
      centroids: meta.centroids ? new Map(meta.centroids.map(([k, v]) => [k, Float32Array.from(v)])) : null,
      tfidfCentroids: meta.tfidfCentroids ? new Map(meta.tfidfCentroids.map(([k, v]) => [k, new Map(v)])) : null,
      lsa,
      categoryModel: meta.categoryModel && cw ? { categories: [...meta.categoryModel.categories], dim: meta.categoryModel.dim, w: cw.data.slice() } : null,
      topicSim: !!meta.topicSim,
    });
    r.w = Float64Array.from(saved.weights.w.data);
    r.mu = Float64Array.from(saved.weights.mu.data);
    r.sigma = Float64Array.from(saved.weights.sigma.data);
    r.trees = structuredClone(meta.trees);
    r.importance = meta.importance.map((x) => ({ ...x }));
    return r;
  }

  dispose(): void {
    this.featurizer?.clearCache();
  }
}

/** Mean over pairs (y_i > y_j, same list) of ln(1 + e^{−(s_i − s_j)}). */
function pairwiseLogisticLoss(lists: readonly RankList[], spans: ReadonlyArray<[number, number]>, scores: Float64Array): number {
  let loss = 0;
  let n = 0;
  lists.forEach((l, q) => {
    const a = spans[q][0];
    for (let i = 0; i < l.rel.length; i++)
      for (let j = 0; j < l.rel.length; j++) {
        if (!(l.rel[i] > l.rel[j])) continue;
        const d = scores[a + i] - scores[a + j];
        loss += d > 0 ? Math.log1p(Math.exp(-d)) : -d + Math.log1p(Math.exp(d));
        n++;
      }
  });
  return n ? loss / n : 0;
}

/** How a neural encoder (bow-cnn, cnn, lstm, gru, rcnn) picks its starting word vectors. */
export type StartVectorsConfig = {
  /**
   * Starting word vectors: 'skipgram' (opts.embeddings, else skip-gram trained for embeddingEpochs) or
   * 'fused' (fused's PPMI-SVD vectors of the corpus, each token → its Porter stem's vector, ignoring
   * opts.embeddings; embDim becomes their dimension). Issue 26: bow-cnn + engine 73.90 vs 72.83 CV on
   * the selection repeats of bench:semeval; opt-in (the encoder table was measured with 'skipgram').
   */
  startVectors?: 'skipgram' | 'fused';
  /** fused settings of those vectors (FUSED_DEFAULTS otherwise). */
  fusedVectors?: Partial<FusedConfig>;
};

/** The starting word vectors of a neural encoder, as its `startVectors` setting says (null: start at random). */
export async function encoderStartVectors(
  data: TrainingData,
  opts: TrainOptions,
  cfg: StartVectorsConfig & { embDim: number; embeddingEpochs: number },
  seed: number,
): Promise<WordVectors | null> {
  return cfg.startVectors === 'fused' ? tokenVectorsOfFused(corpusTexts(data), cfg.fusedVectors) : await startingVectors(data, opts, cfg.embDim, cfg.embeddingEpochs, seed);
}

/**
 * What a neural encoder's training starts from: the vocabulary of `data` (minCount, maxVocab), and its
 * embedding matrix, rows from the starting word vectors (encoderStartVectors; `withVectors` false: all at
 * random), `cfg.embDim` set to their dimension. `found`: the words that had a vector.
 */
export async function encoderStart(
  data: TrainingData,
  opts: TrainOptions,
  cfg: StartVectorsConfig & { embDim: number; embeddingEpochs: number; minCount: number; maxVocab: number },
  seed: number,
  rng: Rng,
  withVectors = true,
): Promise<{ vocab: Vocab; emb: Float32Array; found: number }> {
  const vocab = buildVocab(data, cfg.minCount, cfg.maxVocab);
  const wv = withVectors ? await encoderStartVectors(data, opts, cfg, seed) : null;
  cfg.embDim = wv?.dim ?? cfg.embDim;
  const { data: emb, found } = embeddingMatrix(vocab, cfg.embDim, wv, rng);
  return { vocab, emb, found };
}

/**
 * fused's word vectors (PPMI-SVD over `cfg.ppmiWords`, e.g. Porter stems) as vectors of the raw tokens
 * of `texts` (tokenize), for the neural encoders' vocabularies: each token gets the unit vector of its
 * word (its stem); tokens whose word is a stop word or has no vector get none (the encoders then start
 * them at random).
 */
export function tokenVectorsOfFused(texts: readonly string[], config: Partial<FusedConfig> = {}): WordVectors {
  const cfg = { ...FUSED_DEFAULTS, ...config };
  const words = cfg.ppmiWords ?? PLAIN_WORDS;
  const v = ppmiSvdVectors(
    texts.map((t) => (cfg.ppmiContentOnly ? wordsOf(tokenize(t), words) : tokenize(t))),
    { dim: cfg.ppmiDim, window: cfg.ppmiWindow, minCount: cfg.ppmiMinCount, maxVocab: cfg.ppmiMaxVocab, alpha: cfg.ppmiAlpha, eigenPower: cfg.ppmiEigenPower, seed: cfg.seed, weighting: cfg.ppmiWeighting ?? 'uniform' },
  );
  const unit = unitRows(v.words, v.dim, v.data);
  const row = new Map(unit.words.map((w, i) => [w, i]));
  const tokens = new Map<string, number>();
  for (const t of texts)
    for (const tok of tokenize(t)) {
      if (tokens.has(tok)) continue;
      const w = wordsOf([tok], words)[0];
      const r = w === undefined ? undefined : row.get(w);
      if (r !== undefined) tokens.set(tok, r);
    }
  const out = new Float32Array(tokens.size * unit.dim);
  [...tokens.values()].forEach((r, i) => out.set(unit.data.subarray(r * unit.dim, (r + 1) * unit.dim), i * unit.dim));
  return { words: [...tokens.keys()], dim: unit.dim, data: out };
}
