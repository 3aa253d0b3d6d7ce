/**
 * `mnet-fisher`: Zhou et al. 2015, "Learning continuous word embedding with metadata for question
 * retrieval in community question answering" (M-NET + Fisher vectors).
 *
 * 1. Word embeddings: skip-gram with negative sampling on the workspace's questions and answers, with
 *    M-NET's category regulariser (skipgram.ts, `categoryWeight` β) when questions carry categories
 *    (SemEval RelQCategory, Stack Exchange tags' first tag); without categories it is plain skip-gram and
 *    the report says so.
 * 2. A diagonal-covariance GMM (gmm.ts, EM) fitted on up to `gmmSamples` word occurrences drawn
 *    (seeded) from the questions; K = `components`, or with `components: 0` and a dev set the K of
 *    1, 2, 4 … 64 with the best dev MAP (the paper's search; it found K = 16).
 * 3. Each question (title + body) is the bag of its words' embeddings, aggregated into a Fisher vector
 *    (fisher-vector.ts: gradients w.r.t. means and standard deviations, power ½ and L2 normalised);
 *    score(q, c) = FV(q) · FV(c).
 * Unsupervised: labeled pairs are not used (a dev set only picks K). The GMM parameters are kept as
 * Float32 (rounded once after fitting), so a saved model reloads to bit-identical scores.
 */
import { QPairsError } from '../errors';
import { evaluateRanker } from './dev-eval';
import { fisherVector } from './fisher-vector';
import { fitDiagonalGmm, type DiagonalGmm } from './gmm';
import { Rng } from './rng';
import { pretrainedSkipGram } from './neural-common';
import { SKIPGRAM_DEFAULTS, type SkipGramConfig } from './skipgram';
import { checkAbort, nextTick } from './train-loop';
import { QuestionVectors } from './question-vectors';
import { fullText, tokenize } from './text';
import type { EpochRecord, QText, Ranker, SavedModel, TrainOptions, TrainReport, TrainingData, WordVectors } from './types';

export type MnetFisherConfig = {
  dim: number;
  window: number;
  negatives: number;
  minCount: number;
  /** Skip-gram epochs. */
  epochs: number;
  /** M-NET's β (0 = plain skip-gram). */
  categoryWeight: number;
  /** GMM components; 0 = choose from 1, 2, 4 … 64 by dev MAP (needs a dev set, else 16). */
  components: number;
  /** Word occurrences the GMM is fitted on (drawn uniformly, seeded). */
  gmmSamples: number;
  gmmMaxIter: number;
  /** Power normalisation of the Fisher vectors. */
  power: number;
  useExtraTexts: boolean;
  seed: number;
};

export const MNET_FISHER_DEFAULTS: MnetFisherConfig = {
  dim: 100,
  window: 5,
  negatives: 5,
  minCount: 2,
  epochs: SKIPGRAM_DEFAULTS.epochs,
  categoryWeight: 0.05,
  components: 16,
  gmmSamples: 50_000,
  gmmMaxIter: 100,
  power: 0.5,
  useExtraTexts: true,
  seed: 1,
};

const K_CHOICES = [1, 2, 4, 8, 16, 32, 64];

function toF32Gmm(g: DiagonalGmm): { weights: Float32Array; means: Float32Array; variances: Float32Array } {
  return { weights: Float32Array.from(g.weights), means: Float32Array.from(g.means), variances: Float32Array.from(g.variances) };
}

export class MnetFisherRanker implements Ranker {
  readonly kind = 'mnet-fisher' as const;
  readonly config: MnetFisherConfig;
  private words: string[] = [];
  private index = new Map<string, number>();
  private vectors = new Float32Array(0);
  private gmm32: { weights: Float32Array; means: Float32Array; variances: Float32Array } | null = null;
  private gmm: DiagonalGmm | null = null;
  private readonly cache = new QuestionVectors<Float64Array>((q) => this.computeFisher(q));

  constructor(config: Partial<MnetFisherConfig> = {}) {
    this.config = { ...MNET_FISHER_DEFAULTS, ...config };
  }

  private setVectors(wv: WordVectors): void {
    this.words = [...wv.words];
    this.index = new Map(this.words.map((w, i) => [w, i]));
    this.vectors = wv.data.slice();
    this.config.dim = wv.dim;
  }

  private setGmm(g: { weights: Float32Array; means: Float32Array; variances: Float32Array }): void {
    const k = g.weights.length;
    this.gmm32 = g;
    this.gmm = { k, dim: this.config.dim, weights: Float64Array.from(g.weights), means: Float64Array.from(g.means), variances: Float64Array.from(g.variances) };
    this.cache.clear();
  }

  /** The embedded words of a text (rows of known words), as Float64 rows. */
  private bag(text: string): { x: Float64Array; n: number } {
    const D = this.config.dim;
    const ids: number[] = [];
    for (const w of tokenize(text)) {
      const i = this.index.get(w);
      if (i !== undefined) ids.push(i);
    }
    const x = new Float64Array(ids.length * D);
    ids.forEach((i, r) => {
      for (let d = 0; d < D; d++) x[r * D + d] = this.vectors[i * D + d]!;
    });
    return { x, n: ids.length };
  }

  /** The question's Fisher vector (2·K·dim values, unit length; zeros without known words). */
  fisher(q: QText): Float64Array {
    return this.cache.of(q);
  }

  private computeFisher(q: QText): Float64Array {
    if (!this.gmm) throw new QPairsError('mnet-fisher: the model is not trained');
    const { x, n } = this.bag(fullText(q));
    return fisherVector(this.gmm, x, n, { power: this.config.power });
  }

  score(query: QText, candidates: readonly QText[]): number[] {
    return this.cache.scores(query, candidates);
  }

  async train(data: TrainingData, opts: TrainOptions = {}): Promise<TrainReport> {
    const t0 = performance.now();
    const cfg = this.config;
    const notes: string[] = [];
    const categorised = [...data.questions.values()].filter((q) => q.category).length;
    if (cfg.categoryWeight > 0 && categorised === 0 && !opts.embeddings) {
      throw new QPairsError(
        `mnet-fisher's M-NET term needs categories, and none of the ${data.questions.size} questions has a category (or a tag). ` +
          `Import data that keeps them (SemEval RELQ_CATEGORY, Stack Exchange Tags), or train plain skip-gram + Fisher vectors with --config '{"categoryWeight":0}'.`,
        { reason: 'no categories' },
      );
    }
    if (opts.embeddings) {
      this.setVectors(opts.embeddings);
      notes.push(`word vectors given (${opts.embeddings.words.length} words); skip-gram not trained`);
    } else {
      if (cfg.categoryWeight > 0) notes.push(`M-NET category term β = ${cfg.categoryWeight} over ${categorised} categorised questions`);
      // From opts.wordVectorCache when an earlier training (a CV fold) trained these already.
      const sgConfig: SkipGramConfig = {
        ...SKIPGRAM_DEFAULTS,
        dim: cfg.dim,
        window: cfg.window,
        negatives: cfg.negatives,
        minCount: cfg.minCount,
        epochs: cfg.epochs,
        useExtraTexts: cfg.useExtraTexts,
        seed: opts.seed ?? cfg.seed,
        categoryWeight: cfg.categoryWeight,
      };
      this.setVectors(await pretrainedSkipGram(data, opts, sgConfig, (p) => ({ ...p, epochs: p.epochs + 1, phase: 'skip-gram word embeddings' })));
    }
    checkAbort(opts.signal);
    // Word occurrences of the questions, reservoir-sampled.
    const D = cfg.dim;
    const rng = new Rng((opts.seed ?? cfg.seed) + 101);
    const cap = Math.max(1, cfg.gmmSamples);
    const sample = new Int32Array(cap);
    let seen = 0;
    for (const q of data.questions.values())
      for (const w of tokenize(fullText(q))) {
        const i = this.index.get(w);
        if (i === undefined) continue;
        if (seen < cap) sample[seen] = i;
        else {
          const j = Math.floor(rng.next() * (seen + 1));
          if (j < cap) sample[j] = i;
        }
        seen++;
      }
    const n = Math.min(seen, cap);
    if (n === 0) throw new QPairsError('mnet-fisher: no question word has an embedding (the corpus is too small for minCount)', { reason: 'empty corpus' });
    const x = new Float64Array(n * D);
    for (let r = 0; r < n; r++) for (let d = 0; d < D; d++) x[r * D + d] = this.vectors[sample[r]! * D + d]!;
    const choices = cfg.components > 0 ? [cfg.components] : opts.dev ? K_CHOICES.filter((k) => k <= n) : [16];
    if (choices.length === 0 || choices.some((k) => k > n)) {
      throw new QPairsError(
        `mnet-fisher: the questions have ${n} embedded word occurrences, too few for K = ${cfg.components > 0 ? cfg.components : choices.length ? 16 : 1} Gaussians. ` +
          `Import more questions, or choose fewer Gaussians with --config '{"components":K}' (K ≤ ${n}).`,
        { reason: 'too few questions' },
      );
    }
    if (cfg.components === 0 && !opts.dev) notes.push('no dev set to choose K: K = 16 (the paper\'s choice)');
    const history: EpochRecord[] = [];
    let best: { k: number; g: ReturnType<typeof toF32Gmm>; map: number; mrr: number } | null = null;
    for (const [step, k] of choices.entries()) {
      checkAbort(opts.signal);
      const t = performance.now();
      const fit = fitDiagonalGmm(x, n, D, k, { seed: (opts.seed ?? cfg.seed) + k, maxIter: cfg.gmmMaxIter, signal: opts.signal });
      const g = toF32Gmm(fit.gmm);
      this.setGmm(g);
      const dev = opts.dev ? evaluateRanker(this, opts.dev) : undefined;
      history.push({ epoch: step + 1, loss: -fit.logLikelihood, devMAP: dev?.map, devMRR: dev?.mrr, seconds: (performance.now() - t) / 1000 });
      opts.onProgress?.({
        epoch: cfg.epochs + 1,
        epochs: cfg.epochs + 1,
        step: step + 1,
        steps: choices.length,
        loss: -fit.logLikelihood,
        devMAP: dev?.map,
        devMRR: dev?.mrr,
        phase: `GMM K = ${k} (EM ${fit.iterations} iterations${fit.converged ? '' : ', not converged'})`,
      });
      if (!best || (dev && dev.map > best.map)) best = { k, g, map: dev?.map ?? Number.NaN, mrr: dev?.mrr ?? Number.NaN };
      await nextTick();
    }
    this.setGmm(best!.g);
    if (choices.length > 1) notes.push(`K chosen by dev MAP: ${best!.k} (tried ${choices.join(', ')})`);
    const seconds = (performance.now() - t0) / 1000;
    return {
      kind: this.kind,
      backend: 'js',
      epochs: choices.length,
      bestEpoch: choices.indexOf(best!.k) + 1,
      bestDevMAP: opts.dev ? best!.map : undefined,
      bestDevMRR: opts.dev ? best!.mrr : undefined,
      history,
      examplesPerSecond: n / Math.max(seconds, 1e-6),
      exampleUnit: 'word occurrences (GMM)',
      seconds,
      notes,
    };
  }

  save(): SavedModel {
    if (!this.gmm32) throw new QPairsError('mnet-fisher: the model is not trained');
    const k = this.gmm32.weights.length;
    return {
      format: 1,
      kind: this.kind,
      config: { ...this.config, components: k },
      vocab: [...this.words],
      weights: {
        vectors: { shape: [this.words.length, this.config.dim], data: this.vectors.slice() },
        gmmWeights: { shape: [k], data: this.gmm32.weights.slice() },
        gmmMeans: { shape: [k, this.config.dim], data: this.gmm32.means.slice() },
        gmmVariances: { shape: [k, this.config.dim], data: this.gmm32.variances.slice() },
      },
    };
  }

  static load(saved: SavedModel): MnetFisherRanker {
    const r = new MnetFisherRanker(saved.config as Partial<MnetFisherConfig>);
    const w = saved.weights;
    if (!w.vectors || !w.gmmWeights || !w.gmmMeans || !w.gmmVariances) throw new QPairsError('saved mnet-fisher model lacks its vectors or GMM', { reason: 'bad format' });
    r.setVectors({ words: saved.vocab ?? [], dim: w.vectors.shape[1]!, data: w.vectors.data });
    r.setGmm({ weights: w.gmmWeights.data.slice(), means: w.gmmMeans.data.slice(), variances: w.gmmVariances.data.slice() });
    return r;
  }

  dispose(): void {
    this.cache.clear();
  }
}
