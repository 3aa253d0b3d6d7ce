/**
 * `skipgram`: word2vec skip-gram with negative sampling (Mikolov et al. 2013), plain
 * Float32Array SGD, trained on the corpus text (questions + extra texts). Its vectors
 * initialise the neural models; as a ranker it scores by the cosine of SIF-weighted mean word
 * vectors (Arora et al. 2017 weights a / (a + p(w)), unit word vectors):
 *
 *   e(d) = Σ_{w ∈ d} a/(a + p(w)) · v_w/‖v_w‖,   s(q, c) = cos(e(q), e(c))
 *
 * SGNS update for a (context c, word w) pair, k negatives n_i ~ U(w)^0.75:
 *   maximise log σ(v_c·u_w) + Σ_i log σ(−v_c·u_{n_i}), lr decays linearly to 0.
 * Frequent words are subsampled with keep probability (√(f/(tN)) + 1)·tN/f.
 *
 * M-NET (Zhou et al. 2015, §3.2), when `categoryWeight` β > 0 and questions carry a category: each
 * word's category is the one most of the questions containing it belong to (ties: the first in
 * name order; stop words have none — the paper removes them); whenever a word w with a category is the centre word, one word u of the same category
 * is drawn uniformly and both move towards each other by the gradient of β·½‖v_w − v_u‖²
 * (v_w −= lr·β·(v_w − v_u), v_u += the same), i.e. the skip-gram objective plus β times the
 * category regulariser E_c = Σ s(w, u)·d(w, u) over same-category pairs, minimised (the paper
 * writes "maximise J + βE_c"; words of one category are meant to end up close, so the distance
 * term enters with a negative sign). β = 0 is plain skip-gram.
 */
import { QPairsError } from '../errors';
import { evaluateRanker } from './dev-eval';
import { corpusTexts } from './lexical';
import { Rng } from './rng';
import { QuestionVectors } from './question-vectors';
import { fullText, STOP_WORDS, tokenize } from './text';
import { SgnsTrainer } from './sgns';
import { runEpochs } from './train-loop';
import type { QText, Ranker, SavedModel, TrainOptions, TrainReport, TrainingData, WordVectors } from './types';

export type SkipGramConfig = {
  dim: number;
  window: number;
  negatives: number;
  minCount: number;
  epochs: number;
  lr: number;
  subsample: number;
  maxVocab: number;
  /** SIF weight constant a. */
  sifA: number;
  useExtraTexts: boolean;
  seed: number;
  /** M-NET's category regulariser weight β (0 = plain skip-gram). */
  categoryWeight: number;
};

export const SKIPGRAM_DEFAULTS: SkipGramConfig = {
  dim: 100,
  window: 5,
  negatives: 5,
  minCount: 2,
  epochs: 5,
  lr: 0.025,
  subsample: 1e-4,
  maxVocab: 100_000,
  sifA: 1e-3,
  useExtraTexts: true,
  seed: 1,
  categoryWeight: 0,
};

export class SkipGramRanker implements Ranker {
  readonly kind = 'skipgram' as const;
  readonly config: SkipGramConfig;
  private words: string[] = [];
  private index = new Map<string, number>();
  private counts: Float64Array = new Float64Array(0);
  private total = 0;
  private syn0: Float32Array = new Float32Array(0);
  private unit: Float32Array = new Float32Array(0);
  private readonly cache = new QuestionVectors<Float32Array>((q) => this.embed(fullText(q)));

  constructor(config: Partial<SkipGramConfig> = {}) {
    this.config = { ...SKIPGRAM_DEFAULTS, ...config };
  }

  get dim(): number {
    return this.config.dim;
  }

  /** The learned (or imported) input vectors. */
  vectors(): WordVectors {
    return { words: [...this.words], dim: this.config.dim, data: this.syn0.slice() };
  }

  private setVocab(words: string[], counts: Float64Array): void {
    this.words = words;
    this.index = new Map(words.map((w, i) => [w, i]));
    this.counts = counts;
    this.total = counts.reduce((a, b) => a + b, 0);
  }

  private refreshUnit(): void {
    const D = this.config.dim;
    const V = this.words.length;
    this.unit = new Float32Array(V * D);
    for (let i = 0; i < V; i++) {
      let n = 0;
      for (let d = 0; d < D; d++) n += this.syn0[i * D + d] ** 2;
      n = Math.sqrt(n) || 1;
      for (let d = 0; d < D; d++) this.unit[i * D + d] = this.syn0[i * D + d] / n;
    }
    this.cache.clear();
  }

  async train(data: TrainingData, opts: TrainOptions = {}): Promise<TrainReport> {
    const cfg = this.config;
    const seed = opts.seed ?? cfg.seed;
    const epochs = opts.epochs ?? cfg.epochs;
    const rng = new Rng(seed);
    const sentences = corpusTexts(data, cfg.useExtraTexts).map(tokenize);
    // vocabulary
    const cnt = new Map<string, number>();
    for (const s of sentences) for (const w of s) cnt.set(w, (cnt.get(w) ?? 0) + 1);
    const kept = [...cnt.entries()]
      .filter(([, c]) => c >= cfg.minCount)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, cfg.maxVocab);
    this.setVocab(
      kept.map(([w]) => w),
      Float64Array.from(kept.map(([, c]) => c)),
    );
    const V = this.words.length;
    const D = (cfg.dim = opts.embeddings?.dim ?? cfg.dim);
    if (V === 0) throw new QPairsError('skipgram: the corpus has no word seen minCount times', { reason: 'empty corpus' });
    const ids = sentences.map((s) => {
      const out: number[] = [];
      for (const w of s) {
        const i = this.index.get(w);
        if (i !== undefined) out.push(i);
      }
      return Int32Array.from(out);
    });
    // init
    this.syn0 = new Float32Array(V * D);
    for (let i = 0; i < V * D; i++) this.syn0[i] = (rng.next() - 0.5) / D;
    if (opts.embeddings) {
      const e = opts.embeddings;
      e.words.forEach((w, r) => {
        const i = this.index.get(w);
        if (i !== undefined) this.syn0.set(e.data.subarray(r * D, (r + 1) * D), i * D);
      });
    }
    const categories = cfg.categoryWeight > 0 ? wordCategories(data.questions.values(), this.index) : null;
    const totalWords = ids.reduce((a, s) => a + s.length, 0);
    const syn0 = this.syn0;
    const sgns = new SgnsTrainer({
      counts: this.counts,
      dim: D,
      window: cfg.window,
      negatives: cfg.negatives,
      lr: cfg.lr,
      subsample: cfg.subsample,
      budget: totalWords * Math.max(1, epochs) + 1,
      syn0,
      seed: rng.u32(),
    });
    const order = ids.map((_, i) => i);
    const STEP_SENTENCES = 2000;
    this.refreshUnit();

    // M-NET's category term: the centre word and a random word of its category move together.
    const pullTogether = categories
      ? (w: number, alpha: number): void => {
          const c = categories.categoryOf[w];
          if (c < 0) return;
          const members = categories.members[c];
          const u = members[sgns.nextU32() % members.length];
          if (u === w) return;
          const step = alpha * cfg.categoryWeight;
          const lw = w * D;
          const lu = u * D;
          for (let d = 0; d < D; d++) {
            const diff = syn0[lw + d] - syn0[lu + d];
            syn0[lw + d] -= step * diff;
            syn0[lu + d] += step * diff;
          }
        }
      : undefined;
    const trainSentence = (sent: Int32Array): number => sgns.trainSequence(sent, pullTogether);

    return runEpochs<Float32Array>({
      kind: this.kind,
      backend: 'js',
      epochs,
      opts,
      exampleUnit: 'tokens',
      planEpoch: () => {
        rng.shuffle(order);
        return {
          steps: Math.max(1, Math.ceil(order.length / STEP_SENTENCES)),
          runStep: (step) => {
            let loss = 0;
            let n = 0;
            for (let k = step * STEP_SENTENCES; k < Math.min(order.length, (step + 1) * STEP_SENTENCES); k++) {
              loss += trainSentence(ids[order[k]]);
              n += ids[order[k]].length;
            }
            return { loss: n ? loss / n : 0, examples: n };
          },
        };
      },
      afterEpoch: () => this.refreshUnit(),
      evalDev: () => evaluateRanker(this, opts.dev!),
      snapshot: () => this.syn0.slice(),
      restore: (s) => this.syn0.set(s),
    });
  }

  /** SIF-weighted mean of unit word vectors, L2-normalised (zeros when no word is known). */
  embed(text: string): Float32Array {
    const D = this.config.dim;
    const e = new Float32Array(D);
    const a = this.config.sifA;
    for (const w of tokenize(text)) {
      const i = this.index.get(w);
      if (i === undefined) continue;
      const wt = a / (a + this.counts[i] / this.total);
      for (let d = 0; d < D; d++) e[d] += wt * this.unit[i * D + d];
    }
    let n = 0;
    for (let d = 0; d < D; d++) n += e[d] * e[d];
    n = Math.sqrt(n);
    if (n > 0) for (let d = 0; d < D; d++) e[d] /= n;
    return e;
  }

  score(query: QText, candidates: readonly QText[]): number[] {
    return this.cache.scores(query, candidates);
  }

  /** Cosine similarity of two words' vectors (null when either is unknown). */
  wordSimilarity(a: string, b: string): number | null {
    const i = this.index.get(a);
    const j = this.index.get(b);
    if (i === undefined || j === undefined) return null;
    const D = this.config.dim;
    let s = 0;
    for (let d = 0; d < D; d++) s += this.unit[i * D + d] * this.unit[j * D + d];
    return s;
  }

  /**
   * Adopts imported vectors (e.g. `parseWord2VecText`) as the model. Word frequencies for the SIF
   * weights come from `counts` when given, else from the file order (Zipf: count ∝ 1/rank).
   */
  static fromWordVectors(wv: WordVectors, counts?: ReadonlyMap<string, number>): SkipGramRanker {
    const r = new SkipGramRanker({ dim: wv.dim, epochs: 0 });
    r.setVocab(
      [...wv.words],
      Float64Array.from(wv.words, (w, i) => counts?.get(w) ?? 1e6 / (i + 10)),
    );
    r.syn0 = wv.data.slice();
    r.refreshUnit();
    return r;
  }

  save(): SavedModel {
    return {
      format: 1,
      kind: this.kind,
      config: { ...this.config },
      vocab: [...this.words],
      weights: {
        vectors: { shape: [this.words.length, this.config.dim], data: this.syn0.slice() },
        counts: { shape: [this.words.length], data: Float32Array.from(this.counts) },
      },
    };
  }

  static load(saved: SavedModel): SkipGramRanker {
    const r = new SkipGramRanker(saved.config as Partial<SkipGramConfig>);
    r.setVocab(saved.vocab ?? [], Float64Array.from(saved.weights.counts.data));
    r.syn0 = saved.weights.vectors.data.slice();
    r.refreshUnit();
    return r;
  }

  dispose(): void {
    this.cache.clear();
  }
}

/**
 * Each vocabulary word's category: the category of most of the questions it occurs in (ties: the
 * first in name order), −1 for stop words and words of no categorised question; and the words of
 * each category.
 */
export function wordCategories(questions: Iterable<QText>, index: ReadonlyMap<string, number>): { categoryOf: Int32Array; members: Int32Array[]; names: string[] } {
  const perWord = new Map<number, Map<string, number>>();
  for (const q of questions) {
    if (!q.category) continue;
    for (const w of new Set(tokenize(fullText(q)))) {
      if (STOP_WORDS.has(w)) continue;
      const i = index.get(w);
      if (i === undefined) continue;
      let m = perWord.get(i);
      if (!m) perWord.set(i, (m = new Map()));
      m.set(q.category, (m.get(q.category) ?? 0) + 1);
    }
  }
  const names = [...new Set([...perWord.values()].flatMap((m) => [...m.keys()]))].sort();
  const id = new Map(names.map((n, i) => [n, i]));
  const categoryOf = new Int32Array(index.size).fill(-1);
  const lists: number[][] = names.map(() => []);
  for (const [w, m] of perWord) {
    let best = '';
    let bestN = 0;
    for (const [c, n] of m) if (n > bestN || (n === bestN && c < best)) [best, bestN] = [c, n];
    const c = id.get(best)!;
    categoryOf[w] = c;
    lists[c]!.push(w);
  }
  return { categoryOf, members: lists.map((l) => Int32Array.from(l)), names };
}

/**
 * Parses word2vec text vectors: an optional header line "count dim", then one `word v1 … vdim`
 * per line. Blank lines are skipped; a line with the wrong number of values is an error.
 */
export function parseWord2VecText(text: string, opts: { file?: string; maxWords?: number; keep?: (w: string) => boolean } = {}): WordVectors {
  const lines = text.split(/\r?\n/);
  let dim = 0;
  let start = 0;
  const first = lines[0]?.trim().split(/\s+/) ?? [];
  if (first.length === 2 && /^\d+$/.test(first[0]) && /^\d+$/.test(first[1])) {
    dim = Number(first[1]);
    start = 1;
  }
  const words: string[] = [];
  const vals: number[] = [];
  const seen = new Set<string>();
  for (let li = start; li < lines.length; li++) {
    const line = lines[li].trim();
    if (!line) continue;
    const parts = line.split(/\s+/);
    if (dim === 0) dim = parts.length - 1;
    if (parts.length - 1 !== dim || dim <= 0) {
      throw new QPairsError(`${opts.file ?? 'word vectors'}:${li + 1}: expected a word and ${dim} numbers, found ${parts.length - 1}`, {
        file: opts.file,
        line: li + 1,
        reason: 'bad vector line',
      });
    }
    const w = parts[0];
    if (seen.has(w) || (opts.keep && !opts.keep(w))) continue;
    for (let d = 1; d <= dim; d++) {
      const v = Number(parts[d]);
      if (!Number.isFinite(v)) {
        throw new QPairsError(`${opts.file ?? 'word vectors'}:${li + 1}: "${parts[d]}" is not a number`, {
          file: opts.file,
          line: li + 1,
          reason: 'bad number',
        });
      }
      vals.push(v);
    }
    seen.add(w);
    words.push(w);
    if (opts.maxWords && words.length >= opts.maxWords) break;
  }
  if (words.length === 0) throw new QPairsError(`${opts.file ?? 'word vectors'}: no vectors found`, { file: opts.file, reason: 'empty' });
  return { words, dim, data: Float32Array.from(vals) };
}

/** word2vec text format (with header) of vectors. */
export function formatWord2VecText(wv: WordVectors): string {
  const lines = [`${wv.words.length} ${wv.dim}`];
  wv.words.forEach((w, i) => {
    const row = Array.from(wv.data.subarray(i * wv.dim, (i + 1) * wv.dim), (v) => v.toPrecision(6));
    lines.push(`${w} ${row.join(' ')}`);
  });
  return lines.join('\n') + '\n';
}
