/**
 * Lexical statistics shared by tfidf, ltr and the bow-cnn initialisation.
 *
 * Smoothed idf: idf(t) = ln((1 + N) / (1 + df(t))) + 1, df = 0 for terms not kept.
 * BM25 (Robertson): Σ_{t ∈ q} ln(1 + (N − df + 0.5)/(df + 0.5)) · tf(t,d)(k1 + 1) / (tf(t,d) + k1(1 − b + b·|d|/avgdl)).
 */
import { countMap, fullText, ngrams, STOP_WORDS, tokenize } from './text';
import type { QText, SavedTensor, TrainingData } from './types';

/** Texts for unsupervised fitting: every question (title + body) plus the extra texts. */
export function corpusTexts(data: TrainingData, withExtra = true): string[] {
  const out: string[] = [];
  for (const q of data.questions.values()) out.push(fullText(q));
  if (withExtra && data.extraTexts) out.push(...data.extraTexts);
  return out;
}

export interface TermOptions {
  minN: number;
  maxN: number;
  stopWords: boolean;
}

export function terms(text: string, o: TermOptions): string[] {
  let toks = tokenize(text);
  if (o.stopWords) toks = toks.filter((t) => !STOP_WORDS.has(t));
  return ngrams(toks, o.minN, o.maxN);
}

/** Character n-grams (orders n1..n2) of the lower-cased text with non-alphanumerics collapsed to one space. */
export function charGrams(text: string, n1 = 3, n2 = 4): string[] {
  const t = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
  const out: string[] = [];
  for (let n = n1; n <= n2; n++) for (let i = 0; i + n <= t.length; i++) out.push(t.slice(i, i + n));
  return out;
}

export class DocFreq {
  constructor(
    readonly df: Map<string, number>,
    readonly numDocs: number,
    readonly avgLen: number,
  ) {}

  /** Counts document frequencies of the terms of each text; drops terms with df < minDf. */
  static fit(texts: Iterable<string>, o: TermOptions | ((text: string) => string[]), minDf = 1): DocFreq {
    const df = new Map<string, number>();
    let n = 0;
    let len = 0;
    for (const text of texts) {
      const ts = typeof o === 'function' ? o(text) : terms(text, o);
      len += ts.length;
      n++;
      for (const t of new Set(ts)) df.set(t, (df.get(t) ?? 0) + 1);
    }
    if (minDf > 1) for (const [t, c] of df) if (c < minDf) df.delete(t);
    return new DocFreq(df, n, n ? len / n : 0);
  }

  idf(term: string): number {
    return Math.log((1 + this.numDocs) / (1 + (this.df.get(term) ?? 0))) + 1;
  }

  bm25Idf(term: string): number {
    const df = this.df.get(term) ?? 0;
    return Math.log(1 + (this.numDocs - df + 0.5) / (df + 0.5));
  }

  toSaved(): { vocab: string[]; weights: Record<string, SavedTensor>; meta: { numDocs: number; avgLen: number } } {
    const vocab = [...this.df.keys()];
    const data = new Float32Array(vocab.length);
    vocab.forEach((t, i) => (data[i] = this.df.get(t)!));
    return { vocab, weights: { df: { shape: [vocab.length], data } }, meta: { numDocs: this.numDocs, avgLen: this.avgLen } };
  }

  /**
   * Appends named document-frequency tables to a saved model: each one's terms to `vocab` (in order),
   * its counts as weights[name] and its sizes as meta[name]; absent tables are skipped.
   */
  static saveAll(tables: ReadonlyArray<readonly [string, DocFreq | null | undefined]>, into: { vocab: string[]; weights: Record<string, SavedTensor>; meta: Record<string, unknown> }): void {
    for (const [name, d] of tables) {
      if (!d) continue;
      const a = d.toSaved();
      into.vocab.push(...a.vocab);
      into.weights[name] = a.weights.df!;
      into.meta[name] = a.meta;
    }
  }

  static fromSaved(vocab: string[], df: SavedTensor, meta: { numDocs: number; avgLen: number }): DocFreq {
    const m = new Map<string, number>();
    vocab.forEach((t, i) => m.set(t, df.data[i]));
    return new DocFreq(m, meta.numDocs, meta.avgLen);
  }
}

/** L2-normalised tf-idf vector (tf = 1 + ln(count) when sublinear). */
export function tfidfVector(ts: readonly string[], df: DocFreq, sublinear: boolean): Map<string, number> {
  const v = countMap(ts);
  let norm = 0;
  for (const [t, c] of v) {
    const w = (sublinear ? 1 + Math.log(c) : c) * df.idf(t);
    v.set(t, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [t, w] of v) v.set(t, w / norm);
  return v;
}

export function sparseDot(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  if (a.size > b.size) [a, b] = [b, a];
  let s = 0;
  for (const [t, w] of a) {
    const u = b.get(t);
    if (u !== undefined) s += w * u;
  }
  return s;
}

export function bm25(queryTerms: readonly string[], docTerms: readonly string[], df: DocFreq, k1 = 1.2, b = 0.75): number {
  return bm25Counts(queryTerms, countMap(docTerms), docTerms.length, df, k1, b);
}

/** BM25 (k1 = 1.2, b = 0.75) of query terms against a document given its term counts and length. */
export function bm25Counts(queryTerms: readonly string[], tf: ReadonlyMap<string, number>, dl: number, df: DocFreq, k1 = 1.2, b = 0.75): number {
  const avg = df.avgLen || 1;
  let s = 0;
  for (const t of new Set(queryTerms)) {
    const f = tf.get(t);
    if (!f) continue;
    s += (df.bm25Idf(t) * f * (k1 + 1)) / (f + k1 * (1 - b + (b * dl) / avg));
  }
  return s;
}

export function questionText(q: QText): string {
  return fullText(q);
}
