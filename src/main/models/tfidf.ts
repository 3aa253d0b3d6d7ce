/**
 * `tfidf`: the thesis baseline. Cosine similarity of L2-normalised tf-idf vectors over word
 * n-grams (default 1–3) of title + body. train() fits the document frequencies on the corpus
 * (all questions + extra texts); it uses no labels.
 *
 *   w(t, d) = tf'(t, d) · idf(t),  tf' = 1 + ln tf (sublinear) or tf,  idf = ln((1+N)/(1+df)) + 1
 *   s(q, c) = Σ_t w(t,q) w(t,c) / (‖w(q)‖ ‖w(c)‖)
 *
 * n-grams seen in fewer than `minDf` documents are dropped from the table (treated as df = 0).
 */
import { corpusTexts, DocFreq, sparseDot, terms, tfidfVector } from './lexical';
import { checkAbort, nextTick } from './train-loop';
import { evaluateRanker } from './dev-eval';
import { fullText, textKey } from './text';
import type { QText, Ranker, SavedModel, TrainOptions, TrainReport, TrainingData } from './types';

export type TfIdfConfig = {
  minN: number;
  maxN: number;
  stopWords: boolean;
  sublinearTf: boolean;
  minDf: number;
  /** Fit df on the extra texts (answers/comments) as well as the questions. */
  useExtraTexts: boolean;
};

export const TFIDF_DEFAULTS: TfIdfConfig = {
  minN: 1,
  maxN: 3,
  stopWords: true,
  sublinearTf: true,
  minDf: 2,
  useExtraTexts: true,
};

export class TfIdfRanker implements Ranker {
  readonly kind = 'tfidf' as const;
  readonly config: TfIdfConfig;
  private df: DocFreq = new DocFreq(new Map(), 0, 0);
  private cache = new Map<string, Map<string, number>>();

  constructor(config: Partial<TfIdfConfig> = {}) {
    this.config = { ...TFIDF_DEFAULTS, ...config };
  }

  async train(data: TrainingData, opts: TrainOptions = {}): Promise<TrainReport> {
    const t0 = performance.now();
    checkAbort(opts.signal);
    const texts = corpusTexts(data, this.config.useExtraTexts);
    this.df = DocFreq.fit(texts, this.config, this.config.minDf);
    this.cache.clear();
    await nextTick();
    checkAbort(opts.signal);
    const seconds = (performance.now() - t0) / 1000;
    const dev = opts.dev ? evaluateRanker(this, opts.dev) : undefined;
    opts.onProgress?.({ epoch: 1, epochs: 1, step: 1, steps: 1, loss: 0, devMRR: dev?.mrr, devMAP: dev?.map });
    return {
      kind: this.kind,
      backend: 'js',
      epochs: 1,
      bestEpoch: 1,
      bestDevMRR: dev?.mrr,
      bestDevMAP: dev?.map,
      history: [{ epoch: 1, loss: 0, devMRR: dev?.mrr, devMAP: dev?.map, seconds }],
      examplesPerSecond: texts.length / Math.max(seconds, 1e-6),
      exampleUnit: 'docs',
      seconds,
    };
  }

  vector(q: QText): Map<string, number> {
    const key = textKey(q);
    let v = this.cache.get(key);
    if (!v) {
      v = tfidfVector(terms(fullText(q), this.config), this.df, this.config.sublinearTf);
      if (this.cache.size > 20_000) this.cache.clear();
      this.cache.set(key, v);
    }
    return v;
  }

  score(query: QText, candidates: readonly QText[]): number[] {
    const qv = this.vector(query);
    return candidates.map((c) => sparseDot(qv, this.vector(c)));
  }

  save(): SavedModel {
    const s = this.df.toSaved();
    return { format: 1, kind: this.kind, config: { ...this.config }, vocab: s.vocab, weights: s.weights, meta: s.meta };
  }

  static load(saved: SavedModel): TfIdfRanker {
    const r = new TfIdfRanker(saved.config as Partial<TfIdfConfig>);
    r.df = DocFreq.fromSaved(saved.vocab ?? [], saved.weights.df, saved.meta as { numDocs: number; avgLen: number });
    return r;
  }

  dispose(): void {
    this.cache.clear();
  }
}
