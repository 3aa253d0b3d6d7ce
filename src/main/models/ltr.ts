/**
 * `ltr`: learning-to-rank fusion. A linear scorer s(q, c) = w · z(q, c) over standardised
 * features z = (f − μ)/σ, trained with a pairwise logistic (RankNet) loss on labeled pairs of the
 * same query:
 *
 *   L = (1/|Q|) Σ_q (1/|P_q|) Σ_{(i ∈ rel, j ∈ nonrel)} ln(1 + exp(−(s_i − s_j)))  +  λ‖w‖²
 *
 * full-batch Adam, one "epoch" = one gradient step over every pair.
 *
 * Features of candidate c in the query's candidate list C (normalised per query, so score()
 * must be given the whole list):
 *  - for every run r (other rankers' scores, `ScoreContext.runs` / `TrainingData.runs`):
 *    min–max normalised score over C, and 1/rank of c by r within C (0 when c lacks a score);
 *  - lexical (df fitted on the corpus at train time): tf-idf cosine (1–2-grams, no stop words),
 *    raw and min–max; BM25 of the query's content words, min–max;
 *  - overlap of content words (stop words removed): |Q∩C|/|Q|, Jaccard(Q, C) on title+body,
 *    Jaccard of titles, |Qtitle ∩ Ctitle|/|Qtitle|, fraction of query-title words anywhere in c.
 *
 * score(query, candidates, ctx) needs `ctx.runs` with the same run names as training (missing
 * runs give 0 features). Training groups `positives`/`negatives` by query id; `randomPool` is
 * not used (random negatives would change the per-query normalisation).
 */
import { QPairsError } from '../errors';
import { evaluateRanker } from './dev-eval';
import { BM25_TERMS, coverage, jaccard, LEX_TERMS, minmax } from './fused-features';
import { bm25Counts, charGrams, corpusTexts, DocFreq, sparseDot, terms, tfidfVector } from './lexical';
import { dot, startingVectors } from './neural-common';
import { featureStandardisation, labeledLists, noOrderToLearn } from './ranksvm';
import { SKIPGRAM_DEFAULTS } from './skipgram';
import { contentWords, countMap, fullText, textKey, tokenize } from './text';
import { runEpochs } from './train-loop';
import type { QText, Ranker, RunScores, SavedModel, ScoreContext, TrainOptions, TrainReport, TrainingData } from './types';

export type LtrConfig = {
  /** Run names to use; null = every run present in the training data. */
  runs: string[] | null;
  lexical: boolean;
  overlap: boolean;
  /** Word-embedding features (vectors from opts.embeddings, else skip-gram trained here). */
  embedding: boolean;
  embeddingEpochs: number;
  /** Character 3–4-gram tf-idf cosine and title-to-title tf-idf cosine. */
  chars: boolean;
  l2: number;
  lr: number;
  epochs: number;
  seed: number;
};

export const LTR_DEFAULTS: LtrConfig = {
  runs: null,
  lexical: true,
  overlap: true,
  embedding: true,
  // As many as the skipgram model trains: the same vectors a separately trained skipgram gives.
  embeddingEpochs: SKIPGRAM_DEFAULTS.epochs,
  chars: false,
  l2: 1e-2,
  lr: 0.05,
  epochs: 300,
  seed: 1,
};

interface TextInfo {
  words: Set<string>;
  titleWords: Set<string>;
  content: string[];
  len: number;
  tfidf?: Map<string, number>;
  tf?: Map<string, number>;
  emb?: Array<{ row: number; w: number }>;
  titleEmb?: Array<{ row: number; w: number }>;
  mean?: Float32Array;
  chars?: Map<string, number>;
  titleTfidf?: Map<string, number>;
}

export class LtrRanker implements Ranker {
  readonly kind = 'ltr' as const;
  readonly config: LtrConfig;
  private runNames: string[] = [];
  private df: DocFreq | null = null;
  private dfBm25: DocFreq | null = null;
  private dfChar: DocFreq | null = null;
  private mu = new Float64Array(0);
  private sigma = new Float64Array(0);
  private w = new Float64Array(0);
  private emb: Float32Array = new Float32Array(0); // unit word vectors [words × embDim]
  private embWordsList: string[] = [];
  private embIndex = new Map<string, number>();
  private embDim = 0;
  private infoCache = new Map<string, TextInfo>();

  private setEmbeddings(words: string[], dim: number, unit: Float32Array): void {
    this.embWordsList = words;
    this.embIndex = new Map(words.map((w, i) => [w, i]));
    this.embDim = dim;
    this.emb = unit;
  }

  constructor(config: Partial<LtrConfig> = {}) {
    this.config = { ...LTR_DEFAULTS, ...config };
  }

  featureNames(): string[] {
    const names: string[] = [];
    for (const r of this.runNames) names.push(`run:${r}:minmax`, `run:${r}:rr`);
    if (this.config.lexical) names.push('tfidf', 'tfidf:minmax', 'bm25:minmax');
    if (this.config.overlap) names.push('cover', 'jaccard', 'title:jaccard', 'title:cover', 'qtitle:in:c');
    if (this.config.embedding) names.push('emb:cos', 'emb:align', 'emb:title:align');
    if (this.config.chars) names.push('char:cos', 'char:cos:minmax', 'title:tfidf');
    return names;
  }

  /** Learned weights per feature name (on standardised features). */
  weights(): Record<string, number> {
    const out: Record<string, number> = {};
    this.featureNames().forEach((n, i) => (out[n] = this.w[i] ?? 0));
    return out;
  }

  /** Raw (unstandardised) feature rows of each candidate. */
  features(query: QText, candidates: readonly QText[], runs?: RunScores): number[][] {
    const rows: number[][] = candidates.map(() => []);
    for (const r of this.runNames) {
      const m = runs?.[r];
      const raw = candidates.map((c) => m?.get(c.id));
      const present = raw.filter((x): x is number => x !== undefined && Number.isFinite(x));
      const lo = present.length ? Math.min(...present) : 0;
      const vals = raw.map((x) => (x !== undefined && Number.isFinite(x) ? x : lo));
      const mm = minmax(vals);
      const order = candidates.map((_, i) => i).filter((i) => raw[i] !== undefined && Number.isFinite(raw[i]!));
      order.sort((a, b) => (raw[b]! - raw[a]!) || a - b);
      const rr = new Array<number>(candidates.length).fill(0);
      order.forEach((i, k) => (rr[i] = 1 / (k + 1)));
      candidates.forEach((_, i) => rows[i].push(present.length ? mm[i] : 0, rr[i]));
    }
    const qi = this.info(query);
    const cis = candidates.map((c) => this.info(c));
    if (this.config.lexical && this.df && this.dfBm25) {
      const tf = cis.map((ci) => sparseDot(qi.tfidf!, ci.tfidf!));
      const bm = cis.map((ci) => bm25Counts(qi.content, ci.tf!, ci.len, this.dfBm25!));
      const tfm = minmax(tf);
      const bmm = minmax(bm);
      candidates.forEach((_, i) => rows[i].push(tf[i], tfm[i], bmm[i]));
    }
    if (this.config.overlap) {
      cis.forEach((ci, i) => {
        rows[i].push(coverage(qi.words, ci.words), jaccard(qi.words, ci.words), jaccard(qi.titleWords, ci.titleWords), coverage(qi.titleWords, ci.titleWords), coverage(qi.titleWords, ci.words));
      });
    }
    if (this.config.chars && this.dfChar && this.df) {
      const cc = cis.map((ci) => sparseDot(qi.chars!, ci.chars!));
      const ccm = minmax(cc);
      cis.forEach((ci, i) => rows[i].push(cc[i], ccm[i], sparseDot(qi.titleTfidf!, ci.titleTfidf!)));
    }
    if (this.config.embedding) {
      cis.forEach((ci, i) => {
        rows[i].push(dot(qi.mean!, ci.mean!), 0.5 * (this.align(qi.emb!, ci.emb!) + this.align(ci.emb!, qi.emb!)), 0.5 * (this.align(qi.titleEmb!, ci.titleEmb!) + this.align(ci.titleEmb!, qi.titleEmb!)));
      });
    }
    return rows;
  }

  /** Per-text data for the features, cached by id + text hash. */
  private info(q: QText): TextInfo {
    const key = textKey(q);
    let t = this.infoCache.get(key);
    if (t) return t;
    const text = fullText(q);
    const toks = tokenize(text);
    const content = contentWords(toks);
    t = { words: new Set(content), titleWords: new Set(contentWords(tokenize(q.title))), content, len: toks.length };
    if (this.config.lexical && this.df) {
      t.tfidf = tfidfVector(terms(text, LEX_TERMS), this.df, true);
      t.tf = countMap(toks);
    }
    if (this.config.chars && this.dfChar && this.df) {
      t.chars = tfidfVector(charGrams(text), this.dfChar, true);
      t.titleTfidf = tfidfVector(terms(q.title, LEX_TERMS), this.df, true);
    }
    if (this.config.embedding) {
      t.emb = this.embWords(text);
      t.titleEmb = this.embWords(q.title);
      t.mean = this.meanVec(t.emb);
    }
    if (this.infoCache.size > 20_000) this.infoCache.clear();
    this.infoCache.set(key, t);
    return t;
  }

  /** Distinct known content words of a text with their idf weights. */
  private embWords(text: string): Array<{ row: number; w: number }> {
    const out: Array<{ row: number; w: number }> = [];
    const seen = new Set<string>();
    for (const t of contentWords(tokenize(text))) {
      if (seen.has(t)) continue;
      seen.add(t);
      const row = this.embIndex.get(t);
      if (row !== undefined) out.push({ row, w: this.dfBm25 ? this.dfBm25.idf(t) : 1 });
    }
    return out;
  }

  private meanVec(ws: Array<{ row: number; w: number }>): Float32Array {
    const D = this.embDim;
    const v = new Float32Array(D);
    for (const { row, w } of ws) for (let d = 0; d < D; d++) v[d] += w * this.emb[row * D + d];
    let n = 0;
    for (let d = 0; d < D; d++) n += v[d] * v[d];
    n = Math.sqrt(n);
    if (n > 0) for (let d = 0; d < D; d++) v[d] /= n;
    return v;
  }

  /** idf-weighted mean over words of a of the best cosine with a word of b. */
  private align(a: Array<{ row: number; w: number }>, b: Array<{ row: number; w: number }>): number {
    if (!a.length || !b.length) return 0;
    const D = this.embDim;
    let num = 0;
    let den = 0;
    for (const x of a) {
      let best = -1;
      for (const y of b) {
        let s = 0;
        for (let d = 0; d < D; d++) s += this.emb[x.row * D + d] * this.emb[y.row * D + d];
        if (s > best) best = s;
      }
      num += x.w * best;
      den += x.w;
    }
    return num / den;
  }

  private standardise(rows: number[][]): number[][] {
    return rows.map((r) => r.map((x, k) => (x - this.mu[k]) / this.sigma[k]));
  }

  async train(data: TrainingData, opts: TrainOptions = {}): Promise<TrainReport> {
    const cfg = this.config;
    const available = Object.keys(data.runs ?? {}).sort();
    this.runNames = cfg.runs ? [...cfg.runs] : available;
    if (this.featureNames().length === 0) {
      throw new QPairsError(
        `ltr: this configuration leaves no features (runs: ${this.runNames.length ? this.runNames.join(', ') : 'none'}; lexical, overlap, embedding and chars all off). ` +
          'Turn a feature group on, or train with runs in the training pools.',
        { reason: 'no features' },
      );
    }
    this.infoCache.clear();
    this.df = this.dfBm25 = this.dfChar = null;
    if (cfg.lexical) {
      const texts = corpusTexts(data);
      this.df = DocFreq.fit(texts, LEX_TERMS, 2);
      this.dfBm25 = DocFreq.fit(texts, BM25_TERMS, 1);
    }
    if (cfg.chars) {
      if (!this.df) this.df = DocFreq.fit(corpusTexts(data), LEX_TERMS, 2);
      this.dfChar = DocFreq.fit(corpusTexts(data), (t) => charGrams(t), 2);
    }
    if (cfg.embedding) {
      const wv = await startingVectors(data, opts, 100, cfg.embeddingEpochs, opts.seed ?? cfg.seed);
      if (!wv) throw new QPairsError('ltr: embedding features need word vectors (opts.embeddings or embeddingEpochs > 0)');
      // keep the words of the questions only, as unit vectors
      const keep = new Set<string>();
      for (const q of data.questions.values()) for (const t of contentWords(tokenize(fullText(q)))) keep.add(t);
      const words: string[] = [];
      const rows: number[] = [];
      wv.words.forEach((w, i) => {
        if (keep.has(w)) {
          words.push(w);
          rows.push(i);
        }
      });
      const D = wv.dim;
      const unit = new Float32Array(words.length * D);
      rows.forEach((r, k) => {
        let n = 0;
        for (let d = 0; d < D; d++) n += wv.data[r * D + d] ** 2;
        n = Math.sqrt(n) || 1;
        for (let d = 0; d < D; d++) unit[k * D + d] = wv.data[r * D + d] / n;
      });
      this.setEmbeddings(words, D, unit);
    }
    // group labeled pairs by query
    const groups = labeledLists(data, 'ltr');
    noOrderToLearn('ltr', groups);
    const lists: { rows: number[][]; rel: boolean[] }[] = [];
    for (const [qid, g] of groups) {
      const cands = [...g.keys()].map((id) => data.questions.get(id)!);
      const runs: Record<string, ReadonlyMap<string, number>> = {};
      for (const r of this.runNames) {
        const m = data.runs?.[r]?.get(qid);
        if (m) runs[r] = m;
      }
      lists.push({ rows: this.features(data.questions.get(qid)!, cands, runs), rel: cands.map((c) => g.get(c.id)!) });
    }
    const F = this.featureNames().length;
    // standardisation
    const all = lists.flatMap((l) => l.rows);
    ({ mu: this.mu, sigma: this.sigma } = featureStandardisation(all, F, false));
    // pairs as feature differences, weighted 1/(|Q| |P_q|)
    const diffs: Float64Array[] = [];
    const weights: number[] = [];
    const usable = lists.filter((l) => l.rel.some((x) => x) && l.rel.some((x) => !x));
    for (const l of usable) {
      const z = this.standardise(l.rows);
      const pos = l.rel.flatMap((r, i) => (r ? [i] : []));
      const neg = l.rel.flatMap((r, i) => (r ? [] : [i]));
      for (const i of pos)
        for (const j of neg) {
          diffs.push(Float64Array.from(z[i], (x, k) => x - z[j][k]));
          weights.push(1 / (usable.length * pos.length * neg.length));
        }
    }
    this.w = new Float64Array(F);
    const m = new Float64Array(F);
    const v = new Float64Array(F);
    const b1 = 0.9;
    const b2 = 0.999;
    let t = 0;
    const epochs = opts.epochs ?? cfg.epochs;
    const report = await runEpochs<Float64Array>({
      kind: this.kind,
      backend: 'js',
      epochs,
      opts,
      exampleUnit: 'pairs',
      notes: [`features: ${this.featureNames().join(', ')}`, `${usable.length} queries, ${diffs.length} pairs`],
      planEpoch: () => ({
        steps: 1,
        runStep: () => {
          const g = new Float64Array(F);
          let loss = 0;
          for (let p = 0; p < diffs.length; p++) {
            const d = diffs[p];
            let s = 0;
            for (let k = 0; k < F; k++) s += this.w[k] * d[k];
            // ln(1 + e^{−s}) and its derivative −σ(−s)
            loss += weights[p] * (s > 0 ? Math.log1p(Math.exp(-s)) : -s + Math.log1p(Math.exp(s)));
            const c = -weights[p] / (1 + Math.exp(s));
            for (let k = 0; k < F; k++) g[k] += c * d[k];
          }
          t++;
          for (let k = 0; k < F; k++) {
            loss += cfg.l2 * this.w[k] ** 2;
            const gk = g[k] + 2 * cfg.l2 * this.w[k];
            m[k] = b1 * m[k] + (1 - b1) * gk;
            v[k] = b2 * v[k] + (1 - b2) * gk * gk;
            this.w[k] -= (cfg.lr * (m[k] / (1 - b1 ** t))) / (Math.sqrt(v[k] / (1 - b2 ** t)) + 1e-8);
          }
          return { loss, examples: diffs.length };
        },
      }),
      evalDev: () => evaluateRanker(this, opts.dev!),
      snapshot: () => this.w.slice(),
      restore: (s) => this.w.set(s),
    });
    // float32 precision, so a saved and reloaded model scores identically
    this.w = this.w.map(Math.fround);
    this.mu = this.mu.map(Math.fround);
    this.sigma = this.sigma.map(Math.fround);
    return report;
  }

  score(query: QText, candidates: readonly QText[], ctx?: ScoreContext): number[] {
    if (candidates.length === 0) return [];
    const z = this.standardise(this.features(query, candidates, ctx?.runs));
    return z.map((r) => r.reduce((s, x, k) => s + x * (this.w[k] ?? 0), 0));
  }

  save(): SavedModel {
    const weights: SavedModel['weights'] = {
      w: { shape: [this.w.length], data: Float32Array.from(this.w) },
      mu: { shape: [this.mu.length], data: Float32Array.from(this.mu) },
      sigma: { shape: [this.sigma.length], data: Float32Array.from(this.sigma) },
    };
    let vocab: string[] | undefined;
    const meta: Record<string, unknown> = { runNames: this.runNames, embWords: this.embWordsList, embDim: this.embDim };
    if (this.emb.length) weights.emb = { shape: [this.embWordsList.length, this.embDim], data: this.emb.slice() };
    vocab = [];
    DocFreq.saveAll(
      [
        ['df', this.df],
        ['dfBm25', this.dfBm25],
        ['dfChar', this.dfChar],
      ],
      { vocab, weights, meta },
    );
    return { format: 1, kind: this.kind, config: { ...this.config }, weights, vocab, meta };
  }

  static load(saved: SavedModel): LtrRanker {
    const r = new LtrRanker(saved.config as Partial<LtrConfig>);
    const meta = saved.meta as {
      runNames: string[];
      df?: { numDocs: number; avgLen: number };
      dfBm25?: { numDocs: number; avgLen: number };
      embWords?: string[];
      embDim?: number;
    };
    r.runNames = [...meta.runNames];
    if (saved.weights.emb && meta.embWords && meta.embDim) r.setEmbeddings([...meta.embWords], meta.embDim, saved.weights.emb.data.slice());
    // Float32 round trip: keep the saved precision so save → load → save is stable
    r.w = Float64Array.from(saved.weights.w.data);
    r.mu = Float64Array.from(saved.weights.mu.data);
    r.sigma = Float64Array.from(saved.weights.sigma.data);
    const vocab = saved.vocab ?? [];
    let off = 0;
    const m = meta as unknown as Record<string, { numDocs: number; avgLen: number } | undefined>;
    for (const name of ['df', 'dfBm25', 'dfChar'] as const) {
      const w = saved.weights[name];
      const dm = m[name];
      if (!w || !dm) continue;
      const d = DocFreq.fromSaved(vocab.slice(off, off + w.shape[0]), w, dm);
      off += w.shape[0];
      if (name === 'df') r.df = d;
      else if (name === 'dfBm25') r.dfBm25 = d;
      else r.dfChar = d;
    }
    return r;
  }

  dispose(): void {
    this.infoCache.clear();
  }
}
