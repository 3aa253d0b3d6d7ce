/**
 * `dae`: a denoising auto-encoder over the questions' bag of words learns a dense semantic code
 * (after "Learning semantic representation with neural networks for community question answering
 * retrieval", Zhou et al., Knowledge-Based Systems 2016): the code's cosine between
 * query and candidate is this model's score, and — as in the paper — a feature of a pairwise
 * learning-to-rank model beside lexical features (pass its run to `ltr`/`fused`).
 *
 * Input: x ∈ {0,1}^V, the presence of each of the V most document-frequent content words (stop words
 * out, df ≥ minDf) in title + body (questions) or in an answer/comment (unlabeled texts).
 * Corruption (masking noise, Vincent et al. 2008): each present word is dropped with probability ν.
 * Encoder h = σ(W x̃ + b) (H units); decoder x̂ = σ(W' h + c) with W' = Wᵀ (tied, default) or its own
 * matrix (untied). Loss: cross-entropy of x̂ against the clean x, over the present words and
 * `negativeRatio`·|x| absent words drawn uniformly per example ("reconstruction sampling": the
 * absent-word terms are sampled, each weighted 1, as in negative sampling) — the full V-way
 * reconstruction costs V·H per text, which plain JS cannot afford on a workspace's worth of text.
 * Optimiser: AdaGrad (as the paper), per-example updates, seeded; the epoch with the best dev MRR is kept.
 * Score: cosine of the clean inputs' codes after subtracting the mean code of the training texts
 * (sigmoid codes are all positive, so raw cosines crowd near 1).
 */
import { QPairsError } from '../errors';
import { evaluateRanker } from './dev-eval';
import { corpusTexts } from './lexical';
import { Rng } from './rng';
import { QuestionVectors } from './question-vectors';
import { contentWords, fullText, tokenize } from './text';
import { runEpochs } from './train-loop';
import type { QText, Ranker, SavedModel, TrainOptions, TrainReport, TrainingData } from './types';

export type DaeConfig = {
  vocabSize: number;
  minDf: number;
  hidden: number;
  /** Masking noise ν: probability that a present word is dropped from the input. */
  noise: number;
  tied: boolean;
  /** Absent words reconstructed per present word. */
  negativeRatio: number;
  lr: number;
  epochs: number;
  useExtraTexts: boolean;
  seed: number;
};

export const DAE_DEFAULTS: DaeConfig = {
  vocabSize: 10_000,
  minDf: 2,
  hidden: 200,
  noise: 0.3,
  tied: true,
  negativeRatio: 5,
  lr: 0.05,
  epochs: 8,
  useExtraTexts: true,
  seed: 1,
};

const sigmoid = (z: number) => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

interface DaeWeights {
  /** V × H: row i is word i's encoder column (and decoder row when tied). */
  w: Float32Array;
  /** V × H decoder rows when untied, else empty. */
  w2: Float32Array;
  b: Float32Array;
  c: Float32Array;
}

export class DaeRanker implements Ranker {
  readonly kind = 'dae' as const;
  readonly config: DaeConfig;
  private words: string[] = [];
  private index = new Map<string, number>();
  private p: DaeWeights = { w: new Float32Array(0), w2: new Float32Array(0), b: new Float32Array(0), c: new Float32Array(0) };
  private meanCode = new Float32Array(0);
  private readonly cache = new QuestionVectors<Float32Array>((q) => this.computeCode(q));

  constructor(config: Partial<DaeConfig> = {}) {
    this.config = { ...DAE_DEFAULTS, ...config };
  }

  private setVocab(words: string[]): void {
    this.words = words;
    this.index = new Map(words.map((w, i) => [w, i]));
  }

  /** Vocabulary ids present in a text (distinct, ascending). */
  private present(text: string): Int32Array {
    const ids = new Set<number>();
    for (const w of contentWords(tokenize(text))) {
      const i = this.index.get(w);
      if (i !== undefined) ids.add(i);
    }
    return Int32Array.from([...ids].sort((a, b) => a - b));
  }

  /** h = σ(W x + b) for the given present ids, into `out` (pre-activations into `pre` when given). */
  private encodeIds(ids: ArrayLike<number>, out: Float32Array): void {
    const H = this.config.hidden;
    const { w, b } = this.p;
    out.set(b);
    for (let k = 0; k < ids.length; k++) {
      const o = ids[k]! * H;
      for (let j = 0; j < H; j++) out[j]! += w[o + j]!;
    }
    for (let j = 0; j < H; j++) out[j] = sigmoid(out[j]!);
  }

  /** The mean-centred, L2-normalised code of a question (zeros when it has no known word). */
  code(q: QText): Float32Array {
    return this.cache.of(q);
  }

  private computeCode(q: QText): Float32Array {
    const H = this.config.hidden;
    const ids = this.present(fullText(q));
    const e = new Float32Array(H);
    if (ids.length === 0) return e;
    this.encodeIds(ids, e);
    let n = 0;
    for (let j = 0; j < H; j++) {
      e[j]! -= this.meanCode[j]!;
      n += e[j]! * e[j]!;
    }
    n = Math.sqrt(n);
    if (n > 0) for (let j = 0; j < H; j++) e[j]! /= n;
    return e;
  }

  score(query: QText, candidates: readonly QText[]): number[] {
    return this.cache.scores(query, candidates);
  }

  async train(data: TrainingData, opts: TrainOptions = {}): Promise<TrainReport> {
    const cfg = this.config;
    const H = cfg.hidden;
    const texts = corpusTexts(data, cfg.useExtraTexts);
    // Vocabulary: the vocabSize content words of highest document frequency (ties by word).
    const df = new Map<string, number>();
    for (const t of texts) for (const w of new Set(contentWords(tokenize(t)))) df.set(w, (df.get(w) ?? 0) + 1);
    const vocab = [...df]
      .filter(([, n]) => n >= cfg.minDf)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, cfg.vocabSize)
      .map(([w]) => w);
    if (vocab.length < 2) throw new QPairsError(`dae: the corpus has ${vocab.length} content word(s) in at least ${cfg.minDf} texts; it needs more text`, { reason: 'empty corpus' });
    this.setVocab(vocab);
    const V = vocab.length;
    const inputs = texts.map((t) => this.present(t)).filter((x) => x.length > 0);
    const rng = new Rng(opts.seed ?? cfg.seed);
    const scale = 1 / Math.sqrt(H);
    const w = new Float32Array(V * H);
    for (let i = 0; i < w.length; i++) w[i] = (rng.next() * 2 - 1) * scale;
    const w2 = cfg.tied ? new Float32Array(0) : Float32Array.from(w, () => (rng.next() * 2 - 1) * scale);
    this.p = { w, w2, b: new Float32Array(H), c: new Float32Array(V) };
    const dec = cfg.tied ? w : w2;
    // AdaGrad accumulators.
    const gw = new Float32Array(V * H);
    const gw2 = cfg.tied ? gw : new Float32Array(V * H);
    const gb = new Float32Array(H);
    const gc = new Float32Array(V);
    const h = new Float32Array(H);
    const dh = new Float32Array(H);
    const lr = cfg.lr;
    const EPS = 1e-8;
    const kept: number[] = [];
    const targets: number[] = [];
    const labels: number[] = [];

    const trainOne = (x: Int32Array): number => {
      // corrupt
      kept.length = 0;
      for (let k = 0; k < x.length; k++) if (rng.next() >= cfg.noise) kept.push(x[k]!);
      this.encodeIds(kept, h);
      // targets: every present word (1) and sampled absent words (0)
      targets.length = 0;
      labels.length = 0;
      for (let k = 0; k < x.length; k++) {
        targets.push(x[k]!);
        labels.push(1);
      }
      const nNeg = Math.min(V - x.length, cfg.negativeRatio * x.length);
      for (let s = 0; s < nNeg; s++) {
        const j = rng.int(V);
        if (binarySearch(x, j)) continue;
        targets.push(j);
        labels.push(0);
      }
      dh.fill(0);
      let loss = 0;
      for (let t = 0; t < targets.length; t++) {
        const j = targets[t]!;
        const o = j * H;
        let z = this.p.c[j]!;
        for (let k = 0; k < H; k++) z += dec[o + k]! * h[k]!;
        const y = sigmoid(z);
        const label = labels[t]!;
        loss -= Math.log(label ? y + 1e-7 : 1 - y + 1e-7);
        const dz = y - label;
        for (let k = 0; k < H; k++) dh[k]! += dz * dec[o + k]!;
        // decoder row and bias (AdaGrad)
        for (let k = 0; k < H; k++) {
          const g = dz * h[k]!;
          gw2[o + k]! += g * g;
          dec[o + k]! -= (lr * g) / (Math.sqrt(gw2[o + k]!) + EPS);
        }
        gc[j]! += dz * dz;
        this.p.c[j]! -= (lr * dz) / (Math.sqrt(gc[j]!) + EPS);
      }
      // encoder: da = dh ⊙ h(1 − h)
      for (let k = 0; k < H; k++) dh[k] = dh[k]! * h[k]! * (1 - h[k]!);
      for (let k = 0; k < H; k++) {
        const g = dh[k]!;
        gb[k]! += g * g;
        this.p.b[k]! -= (lr * g) / (Math.sqrt(gb[k]!) + EPS);
      }
      for (const i of kept) {
        const o = i * H;
        for (let k = 0; k < H; k++) {
          const g = dh[k]!;
          gw[o + k]! += g * g;
          w[o + k]! -= (lr * g) / (Math.sqrt(gw[o + k]!) + EPS);
        }
      }
      return loss / Math.max(1, targets.length);
    };

    const order = inputs.map((_, i) => i);
    const STEP = 500;
    const refreshMean = () => {
      this.meanCode = new Float32Array(H);
      const code = new Float32Array(H);
      for (const x of inputs) {
        this.encodeIds(x, code);
        for (let k = 0; k < H; k++) this.meanCode[k]! += code[k]!;
      }
      for (let k = 0; k < H; k++) this.meanCode[k]! /= Math.max(1, inputs.length);
      this.cache.clear();
    };
    return runEpochs<DaeWeights & { mean: Float32Array }>({
      kind: this.kind,
      backend: 'js',
      epochs: opts.epochs ?? cfg.epochs,
      opts,
      exampleUnit: 'texts',
      notes: [`vocabulary ${V} content words, ${inputs.length} texts, ${H} hidden units, masking noise ${cfg.noise}, ${cfg.tied ? 'tied' : 'untied'} weights`],
      planEpoch: () => {
        rng.shuffle(order);
        return {
          steps: Math.max(1, Math.ceil(order.length / STEP)),
          runStep: (step) => {
            let loss = 0;
            let n = 0;
            for (let k = step * STEP; k < Math.min(order.length, (step + 1) * STEP); k++) {
              loss += trainOne(inputs[order[k]!]!);
              n++;
            }
            return { loss: n ? loss / n : 0, examples: n };
          },
        };
      },
      afterEpoch: refreshMean,
      evalDev: () => evaluateRanker(this, opts.dev!),
      snapshot: () => ({ w: this.p.w.slice(), w2: this.p.w2.slice(), b: this.p.b.slice(), c: this.p.c.slice(), mean: this.meanCode.slice() }),
      restore: (s) => {
        this.p.w.set(s.w);
        this.p.w2.set(s.w2);
        this.p.b.set(s.b);
        this.p.c.set(s.c);
        this.meanCode = s.mean.slice();
        this.cache.clear();
      },
    });
  }

  save(): SavedModel {
    const H = this.config.hidden;
    const V = this.words.length;
    const weights: SavedModel['weights'] = {
      w: { shape: [V, H], data: this.p.w.slice() },
      b: { shape: [H], data: this.p.b.slice() },
      c: { shape: [V], data: this.p.c.slice() },
      meanCode: { shape: [H], data: this.meanCode.slice() },
    };
    if (!this.config.tied) weights.w2 = { shape: [V, H], data: this.p.w2.slice() };
    return { format: 1, kind: this.kind, config: { ...this.config }, vocab: [...this.words], weights };
  }

  static load(saved: SavedModel): DaeRanker {
    const r = new DaeRanker(saved.config as Partial<DaeConfig>);
    const w = saved.weights;
    if (!w.w || !w.b || !w.c || !w.meanCode) throw new QPairsError('saved dae model lacks its weights', { reason: 'bad format' });
    r.setVocab(saved.vocab ?? []);
    r.p = { w: w.w.data.slice(), w2: w.w2?.data.slice() ?? new Float32Array(0), b: w.b.data.slice(), c: w.c.data.slice() };
    r.meanCode = w.meanCode.data.slice();
    return r;
  }

  dispose(): void {
    this.cache.clear();
  }
}

function binarySearch(sorted: Int32Array, x: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid]!;
    if (v === x) return true;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
