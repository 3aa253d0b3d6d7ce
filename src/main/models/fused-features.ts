/**
 * Per-pair features of the `fused` ranker, for candidate c in the query's candidate list C (list
 * features are normalised over C, so the whole list must be passed):
 *
 *  - runs (other rankers' scores, e.g. engine = −rank, out-of-fold neural scores): 1/rank within C
 *    and min–max score over C (0 when c lacks a score);
 *  - lexical, with document frequencies fitted on the corpus: tf-idf cosine (1–2-grams, stop words
 *    removed, sublinear tf) of title+body, of titles and of bodies; BM25 of the query's words in
 *    title+body and of the query title in the candidate title, each min–max over C;
 *  - character n-grams (when `charDf` is set): tf-idf cosine (sublinear tf, idf of `charDf`) over the
 *    character n_1–n_2-grams (lexical.ts charGrams: lower-cased, non-alphanumeric runs as one space,
 *    padded) of title+body, of titles and of bodies — robust to the forum's misspellings and inflections;
 *  - overlap of content words: |Q ∩ C| / |Q|, Jaccard(Q, C), Jaccard of titles;
 *  - lengths: ln(1 + tokens of c), |ln(1 + tokens of q) − ln(1 + tokens of c)|;
 *  - embeddings (PPMI-SVD word vectors, ppmi-svd.ts): cosine of the (idf-weighted when `embIdf`) mean unit
 *    word vectors of title+body (raw and min–max over C), of titles and of bodies, the words being
 *    `wordsOf(tokens, words)` (text.ts: stop list, optionally Porter-stemmed) and idf from `dfEmb`;
 *    with `align`, the soft word alignment of the query's words in the candidate (softAlignment); the
 *    same full-text cosine with skip-gram vectors when given;
 *    Text vectors have the corpus texts' common direction removed (first singular vector of their
 *    matrix, as in SIF: Arora, Liang & Ma 2017) when `UnitVectors.common` is set;
 *  - metadata: same category (when the query has one; else the share of C in c's category, the
 *    forum's own topic signal) and same asker (0 when unknown).
 */
import { bm25Counts, charGrams, DocFreq, sparseDot, terms, tfidfVector } from './lexical';
import { randomizedSvd, type Csr } from './ppmi-svd';
import { contentWords, countMap, fullText, ngrams, PLAIN_WORDS, STEMMED_WORDS, textKey, tokenize, wordsOf, type WordOptions } from './text';
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
  /** Words of the embedding features (default PLAIN_WORDS: basic stop list, unstemmed — models saved before the option). */
  words?: WordOptions;
  /** Document frequencies of those words (idf weights of text vectors and alignment); default dfBm25. */
  dfEmb?: DocFreq | null;
  /** Text vectors as idf-weighted (true, default) or plain means of the word vectors. */
  embIdf?: boolean;
  /** Soft word-alignment feature `ppmi:align` (needs ppmi). */
  align?: boolean;
  /** Character n-gram tf-idf features: document frequencies of charGrams(text, charN[0], charN[1]). */
  charDf?: DocFreq | null;
  charN?: [number, number];
  /** Document frequencies of stemmed word 1–2-grams (stemTerms): the `tfidf:stem:*` cosines. */
  dfStem?: DocFreq | null;
  /** Category centroids of the ppmi text vectors (categoryCentroids), for the `meta:category-sim` feature. */
  centroids?: Map<string, Float32Array> | null;
  /** Category centroids of the word tf-idf vectors (sparseCategoryCentroids): `meta:category-tfidf`. */
  tfidfCentroids?: Map<string, Map<string, number>> | null;
  /**
   * LSA term vectors (lsaTermVectors: right singular vectors of the corpus' tf-idf matrix over the
   * embedding words, idf of `dfEmb`): the `lsa:cos` feature, cos(t(q)ᵀV, t(c)ᵀV).
   */
  lsa?: UnitVectors | null;
  /**
   * Category classifier over the ppmi text vectors (trainCategoryClassifier): `meta:category-prob` =
   * P(cat(c) | q) and, with `topicSim`, `meta:topic-sim` = Σ_k P(k | q) P(k | c).
   */
  categoryModel?: CategoryModel | null;
  topicSim?: boolean;
}

/**
 * LSA (Deerwester et al. 1990) term vectors: the corpus' document × term matrix A (terms = the words of
 * each text with df ≥ minDf, at most maxTerms most frequent; a_dt = (1 + ln tf) · idf(t), rows
 * L2-normalised) ≈ U_k Σ_k V_kᵀ by randomized SVD; a text t folds in as tᵀV_k (its cosine with another
 * folded-in text is that of their rows of U_k Σ_k for corpus texts). Returns the rows of V_k (Float32).
 */
export function lsaTermVectors(docs: ReadonlyArray<readonly string[]>, df: DocFreq, dim: number, o: { minDf?: number; maxTerms?: number; seed?: number } = {}): UnitVectors {
  const minDf = o.minDf ?? 2;
  const words = [...df.df]
    .filter(([, n]) => n >= minDf)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, o.maxTerms ?? 20_000)
    .map(([w]) => w);
  const index = new Map(words.map((w, i) => [w, i]));
  const indptr = [0];
  const indices: number[] = [];
  const values: number[] = [];
  for (const doc of docs) {
    const row: Array<[number, number]> = [];
    for (const [w, c] of countMap(doc)) {
      const j = index.get(w);
      if (j !== undefined) row.push([j, (1 + Math.log(c)) * df.idf(w)]);
    }
    row.sort((a, b) => a[0] - b[0]);
    const n = Math.sqrt(row.reduce((s, [, x]) => s + x * x, 0));
    for (const [j, x] of row) {
      indices.push(j);
      values.push(x / n);
    }
    indptr.push(indices.length);
  }
  const A: Csr = { rows: docs.length, cols: words.length, indptr: Int32Array.from(indptr), indices: Int32Array.from(indices), values: Float64Array.from(values) };
  const svd = randomizedSvd(A, dim, { seed: o.seed ?? 1, powerIterations: 3 });
  return { words, dim: svd.k, data: Float32Array.from(svd.v) };
}

/** Multinomial logistic regression: P(k | x) = softmax_k(W_k · [x, 1]); w row-major K × (dim + 1). */
export interface CategoryModel {
  categories: string[];
  dim: number;
  w: Float32Array;
}

/** Class probabilities of a text vector under a CategoryModel. */
export function categoryProbs(m: CategoryModel, x: ArrayLike<number>): Float64Array {
  const K = m.categories.length;
  const D = m.dim;
  const z = new Float64Array(K);
  let mx = -Infinity;
  for (let k = 0; k < K; k++) {
    let s = m.w[k * (D + 1) + D];
    for (let d = 0; d < D; d++) s += m.w[k * (D + 1) + d] * x[d];
    z[k] = s;
    if (s > mx) mx = s;
  }
  let tot = 0;
  for (let k = 0; k < K; k++) tot += z[k] = Math.exp(z[k] - mx);
  for (let k = 0; k < K; k++) z[k] /= tot;
  return z;
}

/**
 * Fits a CategoryModel on (category, vector) items by full-batch gradient descent with Adam (lr 0.05,
 * `iterations` steps) on the mean cross-entropy + (l2 / 2)‖W‖² (bias not penalised); categories with
 * < minSize items are left out (their items too). Deterministic (zero start, items in order).
 */
export function trainCategoryClassifier(
  items: ReadonlyArray<{ category?: string; vector: ArrayLike<number> }>,
  dim: number,
  o: { l2?: number; iterations?: number; minSize?: number } = {},
): CategoryModel | null {
  const counts = new Map<string, number>();
  for (const it of items) if (it.category) counts.set(it.category, (counts.get(it.category) ?? 0) + 1);
  const categories = [...counts].filter(([, n]) => n >= (o.minSize ?? 5)).map(([k]) => k).sort();
  if (categories.length < 2) return null;
  const index = new Map(categories.map((k, i) => [k, i]));
  const data = items.filter((it) => it.category && index.has(it.category));
  const K = categories.length;
  const D1 = dim + 1;
  const w = new Float64Array(K * D1);
  const m = new Float64Array(K * D1);
  const v = new Float64Array(K * D1);
  const l2 = o.l2 ?? 1e-3;
  const lr = 0.05;
  const g = new Float64Array(K * D1);
  const model: CategoryModel = { categories, dim, w: new Float32Array(0) };
  const iters = o.iterations ?? 150;
  for (let t = 1; t <= iters; t++) {
    g.fill(0);
    const probe = { ...model, w: w as unknown as Float32Array };
    for (const it of data) {
      const p = categoryProbs(probe, it.vector);
      p[index.get(it.category!)!] -= 1;
      for (let k = 0; k < K; k++) {
        const pk = p[k] / data.length;
        if (pk === 0) continue;
        const off = k * D1;
        for (let d = 0; d < dim; d++) g[off + d] += pk * it.vector[d];
        g[off + dim] += pk;
      }
    }
    for (let k = 0; k < K; k++) for (let d = 0; d < dim; d++) g[k * D1 + d] += l2 * w[k * D1 + d];
    for (let i = 0; i < w.length; i++) {
      m[i] = 0.9 * m[i] + 0.1 * g[i];
      v[i] = 0.999 * v[i] + 0.001 * g[i] * g[i];
      w[i] -= (lr * (m[i] / (1 - 0.9 ** t))) / (Math.sqrt(v[i] / (1 - 0.999 ** t)) + 1e-8);
    }
  }
  return { categories, dim, w: Float32Array.from(w) };
}

/**
 * The same nearest-centroid category model over sparse tf-idf vectors: μ_k = Σ_{x ∈ Q_k} t(x), cut to
 * its `maxTerms` largest weights (ties: term order) and L2-normalised; categories with < minSize
 * questions left out. Feature `meta:category-tfidf` = t(q) · μ_{cat(c)}.
 */
export function sparseCategoryCentroids(items: Iterable<{ category?: string; vector: ReadonlyMap<string, number> }>, maxTerms = 2000, minSize = 5): Map<string, Map<string, number>> {
  const sums = new Map<string, { v: Map<string, number>; n: number }>();
  for (const { category, vector } of items) {
    if (!category) continue;
    let s = sums.get(category);
    if (!s) sums.set(category, (s = { v: new Map(), n: 0 }));
    for (const [t, w] of vector) s.v.set(t, (s.v.get(t) ?? 0) + w);
    s.n++;
  }
  const out = new Map<string, Map<string, number>>();
  for (const [k, { v, n }] of [...sums].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (n < minSize) continue;
    const top = [...v].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, maxTerms);
    const norm = Math.sqrt(top.reduce((s2, [, w]) => s2 + w * w, 0));
    if (norm > 0) out.set(k, new Map(top.map(([t, w]) => [t, Math.fround(w / norm)])));
  }
  return out;
}

/**
 * Nearest-centroid category model over text vectors: for each category k with questions Q_k,
 *   μ_k = Σ_{x ∈ Q_k} v(x) / ‖Σ_{x ∈ Q_k} v(x)‖   (v = unit text vectors; categories with < minSize
 * questions are left out). The feature `meta:category-sim` of a candidate c is cos(v(q), μ_{cat(c)}):
 * how well the query's text fits the candidate's category (0 when c has no kept category) — the
 * query's own category is unknown on SemEval (original questions carry none).
 */
export function categoryCentroids(items: Iterable<{ category?: string; vector: ArrayLike<number> }>, dim: number, minSize = 5): Map<string, Float32Array> {
  const sums = new Map<string, { v: Float64Array; n: number }>();
  for (const { category, vector } of items) {
    if (!category) continue;
    let s = sums.get(category);
    if (!s) sums.set(category, (s = { v: new Float64Array(dim), n: 0 }));
    for (let d = 0; d < dim; d++) s.v[d] += vector[d];
    s.n++;
  }
  const out = new Map<string, Float32Array>();
  for (const [k, { v, n }] of [...sums].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (n < minSize) continue;
    const norm = Math.hypot(...v);
    if (norm > 0) out.set(k, Float32Array.from(v, (x) => x / norm));
  }
  return out;
}

/**
 * Soft word alignment of a query in a candidate (Kenter & de Rijke 2015; Franco-Salvador et al. at
 * SemEval-2016): each query word's best cosine match among the candidate's words, idf-weighted,
 *
 *   A(q, c) = Σ_{w ∈ W(q)} idf(w) · max_{u ∈ W(c)} cos(v_w, v_u)  /  Σ_{w ∈ W(q)} idf(w),
 *
 * W(·) = the distinct words that have a vector (rows of `v`, unit length, so cos = dot); 0 when
 * W(q) or W(c) is empty. `q`, `c`: row indices into v; `idf`: weight of each of q's rows (same order).
 */
/** Word 1–2-grams of the Porter-stemmed words minus the extended stop list (text.ts STEMMED_WORDS). */
export function stemTerms(text: string): string[] {
  return ngrams(wordsOf(tokenize(text), STEMMED_WORDS), 1, 2);
}

export function softAlignment(q: readonly number[], idf: readonly number[], c: readonly number[], v: UnitVectors): number {
  if (q.length === 0 || c.length === 0) return 0;
  const D = v.dim;
  let num = 0;
  let den = 0;
  for (let i = 0; i < q.length; i++) {
    const a = q[i] * D;
    let best = -Infinity;
    for (const r of c) {
      if (r === q[i]) {
        best = 1;
        break;
      }
      const b = r * D;
      let s = 0;
      for (let d = 0; d < D; d++) s += v.data[a + d] * v.data[b + d];
      if (s > best) best = s;
    }
    num += idf[i] * best;
    den += idf[i];
  }
  return den > 0 ? num / den : 0;
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
  /** Distinct ppmi rows of the text's embedding words and their idf (alignment). */
  alignRows?: number[];
  alignIdf?: number[];
  char?: [Map<string, number>, Map<string, number>, Map<string, number>];
  stem?: [Map<string, number>, Map<string, number>, Map<string, number>];
  skipgram?: Float64Array;
  lsa?: Float64Array;
  catP?: Float64Array;
}

/** Computes feature rows from fitted resources (caches per-text data by id + text hash). */
export class FusedFeaturizer {
  private cache: Map<string, TextInfo>;
  private ppmiIndex: Map<string, number>;
  private sgIndex: Map<string, number>;

  /**
   * `shared`: a per-text cache to share between featurizers of the same fitted resources (the
   * cross-validation folds of one corpus fit); clearCache() then drops only this featurizer's reference.
   */
  constructor(
    readonly res: FeatureResources,
    private readonly shared?: Map<string, unknown>,
  ) {
    this.cache = (shared as Map<string, TextInfo> | undefined) ?? new Map();
    this.ppmiIndex = new Map(res.ppmi?.words.map((w, i) => [w, i]) ?? []);
    this.sgIndex = new Map(res.skipgram?.words.map((w, i) => [w, i]) ?? []);
  }

  names(): string[] {
    const n: string[] = [];
    for (const r of this.res.runNames) n.push(`run:${r}:rr`, `run:${r}:minmax`);
    n.push('tfidf:cos', 'tfidf:title', 'tfidf:body', 'bm25:minmax', 'bm25:title:minmax');
    n.push('overlap:cover', 'overlap:jaccard', 'overlap:title-jaccard');
    n.push('len:cand', 'len:absdiff');
    if (this.res.charDf) n.push('char:cos', 'char:title', 'char:body');
    if (this.res.dfStem) n.push('tfidf:stem:cos', 'tfidf:stem:title', 'tfidf:stem:body');
    if (this.res.ppmi) n.push('ppmi:cos', 'ppmi:cos:minmax', 'ppmi:title', 'ppmi:body');
    if (this.res.ppmi && this.res.align) n.push('ppmi:align');
    if (this.res.skipgram) n.push('skipgram:cos');
    if (this.res.metadata) n.push('meta:category', 'meta:asker');
    if (this.res.ppmi && this.res.centroids) n.push('meta:category-sim');
    if (this.res.tfidfCentroids) n.push('meta:category-tfidf');
    if (this.res.lsa) n.push('lsa:cos');
    if (this.res.ppmi && this.res.categoryModel) n.push('meta:category-prob');
    if (this.res.ppmi && this.res.categoryModel && this.res.topicSim) n.push('meta:topic-sim');
    return n;
  }

  clearCache(): void {
    if (this.shared && this.cache === this.shared) this.cache = new Map();
    else this.cache.clear();
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
    if (this.res.charDf) cs.forEach((c, i) => rows[i].push(sparseDot(q.char![0], c.char![0]), sparseDot(q.char![1], c.char![1]), sparseDot(q.char![2], c.char![2])));
    if (this.res.dfStem) cs.forEach((c, i) => rows[i].push(sparseDot(q.stem![0], c.stem![0]), sparseDot(q.stem![1], c.stem![1]), sparseDot(q.stem![2], c.stem![2])));
    if (this.res.ppmi) {
      const full = cs.map((c) => dot(q.ppmi![0], c.ppmi![0]));
      const fm = minmax(full);
      cs.forEach((c, i) => rows[i].push(full[i], fm[i], dot(q.ppmi![1], c.ppmi![1]), dot(q.ppmi![2], c.ppmi![2])));
      if (this.res.align) cs.forEach((c, i) => rows[i].push(softAlignment(q.alignRows!, q.alignIdf!, c.alignRows!, this.res.ppmi!)));
    }
    if (this.res.skipgram) cs.forEach((c, i) => rows[i].push(dot(q.skipgram!, c.skipgram!)));
    if (this.res.metadata) {
      const cats = countMap(candidates.map((c) => c.category ?? ''));
      candidates.forEach((c, i) => {
        const category = query.category !== undefined ? Number(!!c.category && c.category === query.category) : c.category ? cats.get(c.category)! / candidates.length : 0;
        rows[i].push(category, Number(!!query.user && query.user === c.user));
      });
    }
    if (this.res.ppmi && this.res.centroids) {
      const qv = q.ppmi![0];
      candidates.forEach((c, i) => {
        const mu = c.category ? this.res.centroids!.get(c.category) : undefined;
        let s = 0;
        if (mu) for (let d = 0; d < mu.length; d++) s += qv[d] * mu[d];
        rows[i].push(s);
      });
    }
    if (this.res.tfidfCentroids) {
      candidates.forEach((c, i) => {
        const mu = c.category ? this.res.tfidfCentroids!.get(c.category) : undefined;
        rows[i].push(mu ? sparseDot(q.tfidf, mu) : 0);
      });
    }
    if (this.res.lsa) cs.forEach((c, i) => rows[i].push(dot(q.lsa!, c.lsa!)));
    if (this.res.ppmi && this.res.categoryModel) {
      const cm = this.res.categoryModel;
      const qp = this.catProbs(q);
      const idx = new Map(cm.categories.map((k, i) => [k, i]));
      candidates.forEach((c, i) => {
        const k = c.category !== undefined ? idx.get(c.category) : undefined;
        rows[i].push(k !== undefined ? qp[k] : 0);
        if (this.res.topicSim) rows[i].push(dot(qp, this.catProbs(cs[i])));
      });
    }
    return rows;
  }

  private catProbs(info: TextInfo): Float64Array {
    return (info.catP ??= categoryProbs(this.res.categoryModel!, info.ppmi![0]));
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
    if (this.res.charDf) {
      const [n1, n2] = this.res.charN ?? [2, 5];
      const df = this.res.charDf;
      info.char = [tfidfVector(charGrams(text, n1, n2), df, true), tfidfVector(charGrams(t.title, n1, n2), df, true), tfidfVector(charGrams(t.body, n1, n2), df, true)];
    }
    if (this.res.dfStem) {
      const df = this.res.dfStem;
      info.stem = [tfidfVector(stemTerms(text), df, true), tfidfVector(stemTerms(t.title), df, true), tfidfVector(stemTerms(t.body), df, true)];
    }
    if (this.res.ppmi) {
      const w = this.res.words ?? PLAIN_WORDS;
      const full = wordsOf(toks, w);
      info.ppmi = [this.meanVector(full, this.res.ppmi, this.ppmiIndex), this.meanVector(wordsOf(titleToks, w), this.res.ppmi, this.ppmiIndex), this.meanVector(wordsOf(tokenize(t.body), w), this.res.ppmi, this.ppmiIndex)];
      {
        const rows = [...new Set(full.flatMap((x) => this.ppmiIndex.get(x) ?? []))];
        info.alignRows = rows;
        info.alignIdf = rows.map((r) => this.idf(this.res.ppmi!.words[r]));
      }
    }
    if (this.res.skipgram) info.skipgram = this.meanVector(content, this.res.skipgram, this.sgIndex);
    if (this.res.lsa) info.lsa = this.lsaVector(wordsOf(toks, this.res.words ?? PLAIN_WORDS));
    if (this.cache.size > 20_000) this.cache.clear();
    this.cache.set(key, info);
    return info;
  }

  /** Unit LSA vector of a text's words: tᵀV, t = sublinear tf · idf (res.dfEmb) over the LSA terms. */
  private lsaVector(words: readonly string[]): Float64Array {
    const v = this.res.lsa!;
    this.lsaIndex ??= new Map(v.words.map((w, i) => [w, i]));
    const D = v.dim;
    const out = new Float64Array(D);
    for (const [w, c] of countMap(words)) {
      const r = this.lsaIndex.get(w);
      if (r === undefined) continue;
      const a = (1 + Math.log(c)) * this.idf(w);
      for (let d = 0; d < D; d++) out[d] += a * v.data[r * D + d];
    }
    let n = 0;
    for (let d = 0; d < D; d++) n += out[d] * out[d];
    n = Math.sqrt(n);
    if (n > 0) for (let d = 0; d < D; d++) out[d] /= n;
    return out;
  }

  private lsaIndex: Map<string, number> | undefined;

  /** L2-normalised word tf-idf vector of a question's title + body. */
  tfidfVectorOf(t: QText): ReadonlyMap<string, number> {
    return this.info(t).tfidf;
  }

  /** Unit ppmi text vector of a question's title + body (zero without ppmi vectors). */
  textVector(t: QText): Float64Array {
    return this.info(t).ppmi?.[0] ?? new Float64Array(0);
  }

  /** Embedding words of a text (res.words). */
  embWords(text: string): string[] {
    return wordsOf(tokenize(text), this.res.words ?? PLAIN_WORDS);
  }

  private idf(w: string): number {
    return (this.res.dfEmb ?? this.res.dfBm25).idf(w);
  }

  /**
   * Unit-length mean of the unit vectors of the text's known words (each word once per occurrence),
   * each weighted by idf(w) when res.embIdf (default) else 1, with the common component projected out
   * when the vectors have one:  v(T) = Σ_{w ∈ T} a_w u_w / ‖Σ_{w ∈ T} a_w u_w‖.
   */
  meanVector(words: readonly string[], v: UnitVectors, index: ReadonlyMap<string, number> = v === this.res.skipgram ? this.sgIndex : this.ppmiIndex): Float64Array {
    const D = v.dim;
    const out = new Float64Array(D);
    for (const w of words) {
      const r = index.get(w);
      if (r === undefined) continue;
      const idf = this.res.embIdf === false ? 1 : this.idf(w);
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
