/**
 * Per-pair features of the `fused` ranker, for candidate c in the query's candidate list C (list
 * features are normalised over C, so the whole list must be passed):
 *
 *  - runs (other rankers' scores, e.g. engine = −rank, out-of-fold neural scores): 1/rank within C
 *    and min–max score over C (0 when c lacks a score);
 *  - lexical, with document frequencies fitted on the corpus: tf-idf cosine (1–2-grams, stop words
 *    removed, sublinear tf) of title+body, of titles and of bodies; BM25 of the query's words in
 *    title+body and of the query title in the candidate title, each min–max over C;
 *  - overlap of content words: |Q ∩ C| / |Q|, Jaccard(Q, C), Jaccard of titles;
 *  - lengths: ln(1 + tokens of c), |ln(1 + tokens of q) − ln(1 + tokens of c)|;
 *  - embeddings (PPMI-SVD word vectors, ppmi-svd.ts): cosine of idf-weighted mean unit word vectors of
 *    title+body (raw and min–max over C), of titles and of bodies (a soft word-alignment feature
 *    was tried and dropped: no CV gain, 3× the rerank time); the same full-text cosine with
 *    skip-gram vectors when given;
 *    Text vectors have the corpus texts' common direction removed (first singular vector of their
 *    matrix, as in SIF: Arora, Liang & Ma 2017) when `UnitVectors.common` is set;
 *  - metadata: same category (when the query has one; else the share of C in c's category, the
 *    forum's own topic signal) and same asker (0 when unknown).
 */
import { bm25Counts, DocFreq, sparseDot, terms, tfidfVector } from './lexical';
import { contentWords, countMap, fullText, textKey, tokenize } from './text';
import type { QText, RunScores } from './types';

export const LEX_TERMS = { minN: 1, maxN: 2, stopWords: true };
export const BM25_TERMS = { minN: 1, maxN: 1, stopWords: false };

/** Unit word vectors, row-major words × dim (Float32, so saved and loaded models agree bit for bit). */
export interface UnitVectors {
  words: string[];
  dim: number;
  data: Float32Array;
  /** Unit direction projected out of every text vector (the texts' common component), if any. */
  common?: Float32Array;
}

export interface FeatureResources {
  runNames: string[];
  df: DocFreq;
  dfBm25: DocFreq;
  ppmi: UnitVectors | null;
  skipgram: UnitVectors | null;
  metadata: boolean;
}

export function minmax(xs: readonly number[]): number[] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const x of xs) {
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  if (!(hi > lo)) return xs.map(() => 0.5);
  return xs.map((x) => (x - lo) / (hi - lo));
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

export function coverage(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0) return 0;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / a.size;
}


/** Rows scaled to unit length (zero rows stay zero), as Float32. */
export function unitRows(words: string[], dim: number, data: ArrayLike<number>): UnitVectors {
  const out = new Float32Array(words.length * dim);
  for (let r = 0; r < words.length; r++) {
    let n = 0;
    for (let d = 0; d < dim; d++) n += data[r * dim + d] ** 2;
    n = Math.sqrt(n);
    if (n > 0) for (let d = 0; d < dim; d++) out[r * dim + d] = data[r * dim + d] / n;
  }
  return { words, dim, data: out };
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

interface TextInfo {
  words: Set<string>;
  titleWords: Set<string>;
  content: string[];
  titleContent: string[];
  len: number;
  tf: Map<string, number>;
  titleTf: Map<string, number>;
  titleLen: number;
  tfidf: Map<string, number>;
  titleTfidf: Map<string, number>;
  bodyTfidf: Map<string, number>;
  ppmi?: [Float64Array, Float64Array, Float64Array];
  skipgram?: Float64Array;
}

/** Computes feature rows from fitted resources (caches per-text data by id + text hash). */
export class FusedFeaturizer {
  private cache = new Map<string, TextInfo>();
  private ppmiIndex: Map<string, number>;
  private sgIndex: Map<string, number>;

  constructor(readonly res: FeatureResources) {
    this.ppmiIndex = new Map(res.ppmi?.words.map((w, i) => [w, i]) ?? []);
    this.sgIndex = new Map(res.skipgram?.words.map((w, i) => [w, i]) ?? []);
  }

  names(): string[] {
    const n: string[] = [];
    for (const r of this.res.runNames) n.push(`run:${r}:rr`, `run:${r}:minmax`);
    n.push('tfidf:cos', 'tfidf:title', 'tfidf:body', 'bm25:minmax', 'bm25:title:minmax');
    n.push('overlap:cover', 'overlap:jaccard', 'overlap:title-jaccard');
    n.push('len:cand', 'len:absdiff');
    if (this.res.ppmi) n.push('ppmi:cos', 'ppmi:cos:minmax', 'ppmi:title', 'ppmi:body');
    if (this.res.skipgram) n.push('skipgram:cos');
    if (this.res.metadata) n.push('meta:category', 'meta:asker');
    return n;
  }

  clearCache(): void {
    this.cache.clear();
  }

  rows(query: QText, candidates: readonly QText[], runs?: RunScores): number[][] {
    const rows: number[][] = candidates.map(() => []);
    for (const r of this.res.runNames) {
      const m = runs?.[r];
      const raw = candidates.map((c) => m?.get(c.id));
      const present = raw.filter((x): x is number => x !== undefined && Number.isFinite(x));
      const lo = present.length ? Math.min(...present) : 0;
      const mm = minmax(raw.map((x) => (x !== undefined && Number.isFinite(x) ? x : lo)));
      const order = candidates.map((_, i) => i).filter((i) => raw[i] !== undefined && Number.isFinite(raw[i]!));
      order.sort((a, b) => raw[b]! - raw[a]! || a - b);
      const rr = new Array<number>(candidates.length).fill(0);
      order.forEach((i, k) => (rr[i] = 1 / (k + 1)));
      candidates.forEach((_, i) => rows[i].push(rr[i], present.length ? mm[i] : 0));
    }
    const q = this.info(query);
    const cs = candidates.map((c) => this.info(c));
    const bm = minmax(cs.map((c) => bm25Counts(q.content, c.tf, c.len, this.res.dfBm25)));
    const bmt = minmax(cs.map((c) => bm25Counts(q.titleContent, c.titleTf, c.titleLen, this.res.dfBm25)));
    const qlen = Math.log1p(q.len);
    cs.forEach((c, i) => {
      rows[i].push(sparseDot(q.tfidf, c.tfidf), sparseDot(q.titleTfidf, c.titleTfidf), sparseDot(q.bodyTfidf, c.bodyTfidf), bm[i], bmt[i]);
      rows[i].push(coverage(q.words, c.words), jaccard(q.words, c.words), jaccard(q.titleWords, c.titleWords));
      rows[i].push(Math.log1p(c.len), Math.abs(qlen - Math.log1p(c.len)));
    });
    if (this.res.ppmi) {
      const full = cs.map((c) => dot(q.ppmi![0], c.ppmi![0]));
      const fm = minmax(full);
      cs.forEach((c, i) => rows[i].push(full[i], fm[i], dot(q.ppmi![1], c.ppmi![1]), dot(q.ppmi![2], c.ppmi![2])));
    }
    if (this.res.skipgram) cs.forEach((c, i) => rows[i].push(dot(q.skipgram!, c.skipgram!)));
    if (this.res.metadata) {
      const cats = countMap(candidates.map((c) => c.category ?? ''));
      candidates.forEach((c, i) => {
        const category = query.category !== undefined ? Number(!!c.category && c.category === query.category) : c.category ? cats.get(c.category)! / candidates.length : 0;
        rows[i].push(category, Number(!!query.user && query.user === c.user));
      });
    }
    return rows;
  }

  private info(t: QText): TextInfo {
    const key = textKey(t);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const text = fullText(t);
    const toks = tokenize(text);
    const titleToks = tokenize(t.title);
    const content = contentWords(toks);
    const titleContent = contentWords(titleToks);
    const info: TextInfo = {
      words: new Set(content),
      titleWords: new Set(titleContent),
      content,
      titleContent,
      len: toks.length,
      tf: countMap(toks),
      titleTf: countMap(titleToks),
      titleLen: titleToks.length,
      tfidf: tfidfVector(terms(text, LEX_TERMS), this.res.df, true),
      titleTfidf: tfidfVector(terms(t.title, LEX_TERMS), this.res.df, true),
      bodyTfidf: tfidfVector(terms(t.body, LEX_TERMS), this.res.df, true),
    };
    if (this.res.ppmi) {
      const body = contentWords(tokenize(t.body));
      info.ppmi = [this.meanVector(content, this.res.ppmi, this.ppmiIndex), this.meanVector(titleContent, this.res.ppmi, this.ppmiIndex), this.meanVector(body, this.res.ppmi, this.ppmiIndex)];
    }
    if (this.res.skipgram) info.skipgram = this.meanVector(content, this.res.skipgram, this.sgIndex);
    if (this.cache.size > 20_000) this.cache.clear();
    this.cache.set(key, info);
    return info;
  }

  /**
   * Unit-length idf-weighted mean of the unit vectors of the text's known content words (each word
   * once per occurrence), with the common component projected out when the vectors have one.
   */
  meanVector(words: readonly string[], v: UnitVectors, index: ReadonlyMap<string, number> = v === this.res.skipgram ? this.sgIndex : this.ppmiIndex): Float64Array {
    const D = v.dim;
    const out = new Float64Array(D);
    for (const w of words) {
      const r = index.get(w);
      if (r === undefined) continue;
      const idf = this.res.dfBm25.idf(w);
      for (let d = 0; d < D; d++) out[d] += idf * v.data[r * D + d];
    }
    if (v.common) {
      let p = 0;
      for (let d = 0; d < D; d++) p += out[d] * v.common[d];
      for (let d = 0; d < D; d++) out[d] -= p * v.common[d];
    }
    let n = 0;
    for (let d = 0; d < D; d++) n += out[d] * out[d];
    n = Math.sqrt(n);
    if (n > 0) for (let d = 0; d < D; d++) out[d] /= n;
    return out;
  }
}
