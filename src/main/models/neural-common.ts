/** Pieces shared by the tfjs models: vocabulary, embedding initialisation, negative sampling, caches. */
import { createHash } from 'node:crypto';
import * as tf from '@tensorflow/tfjs-core';
import { QPairsError } from '../errors';
import { corpusTexts } from './lexical';
import { Rng } from './rng';
import { SKIPGRAM_DEFAULTS, SkipGramRanker, type SkipGramConfig } from './skipgram';
import { textKey, tokenize } from './text';
import type { QText, TrainOptions, TrainProgress, TrainingData, WordVectors } from './types';
import { PAD, UNK, Vocab } from './vocab';

export function buildVocab(data: TrainingData, minCount: number, maxVocab: number): Vocab {
  return Vocab.build(
    corpusTexts(data).map((t) => tokenize(t)),
    minCount,
    maxVocab,
  );
}

/**
 * The word vectors to start from: opts.embeddings when given, else skip-gram trained on the
 * corpus (`pretrainEpochs` > 0), else null (random initialisation). The skip-gram vectors are taken
 * from opts.wordVectorCache when it holds them under this training's pretrainKey (the same corpus
 * texts in the same order, seed and settings: skip-gram is deterministic, so they are the vectors it
 * would train), and added to it when trained here.
 */
export async function startingVectors(
  data: TrainingData,
  opts: TrainOptions,
  dim: number,
  pretrainEpochs: number,
  seed: number,
): Promise<WordVectors | null> {
  if (opts.embeddings) return opts.embeddings;
  if (pretrainEpochs <= 0) return null;
  return pretrainedSkipGram(data, opts, { ...SKIPGRAM_DEFAULTS, dim, epochs: pretrainEpochs, seed }, (p) => ({ ...p, phase: 'skip-gram pre-training', devMRR: undefined, devMAP: undefined }));
}

/**
 * Skip-gram word vectors trained on the corpus with `config` (its seed the one trained with): from
 * opts.wordVectorCache when it holds them under pretrainKey (skip-gram is deterministic: they are
 * the vectors this would train), else trained here and added to it. `progress` words its progress.
 */
export async function pretrainedSkipGram(
  data: TrainingData,
  opts: TrainOptions,
  config: SkipGramConfig,
  progress: (p: TrainProgress) => TrainProgress,
): Promise<WordVectors> {
  const key = opts.wordVectorCache ? pretrainKey(data, config) : null;
  const cached = key === null ? undefined : opts.wordVectorCache!.get(key);
  // A copy: whoever starts from them owns what it is given, as with vectors trained here.
  if (cached) return { words: [...cached.words], dim: cached.dim, data: cached.data.slice() };
  const sg = new SkipGramRanker(config);
  await sg.train(data, { seed: config.seed, signal: opts.signal, onProgress: (p) => opts.onProgress?.(progress(p)) });
  const v = sg.vectors();
  sg.dispose();
  if (key !== null) opts.wordVectorCache!.set(key, { words: [...v.words], dim: v.dim, data: v.data.slice() });
  return v;
}

/**
 * What skip-gram pre-training's vectors depend on, as a key: its settings (seed included) and a
 * SHA-256 of the texts it reads (corpusTexts: every question's title and body in the training
 * data's order, then the extra texts when the settings use them), each with its length, and of the
 * questions' categories when M-NET's category term is on. Two trainings with the same key train
 * bit-for-bit the same vectors.
 */
export function pretrainKey(data: TrainingData, config: SkipGramConfig): string {
  const h = createHash('sha256');
  // UTF-16 code units as they are (a lone surrogate included), each text after its length.
  for (const t of corpusTexts(data, config.useExtraTexts)) h.update(`${t.length}:`).update(t, 'utf16le');
  // M-NET's category term reads the questions' categories too.
  if (config.categoryWeight > 0) for (const q of data.questions.values()) h.update(`|${q.category?.length ?? -1}:${q.category ?? ''}`);
  // Settings in a fixed key order (the defaults' own order), so equal settings give equal keys.
  const settings = (Object.keys(SKIPGRAM_DEFAULTS) as Array<keyof SkipGramConfig>).map((k) => `${k}=${config[k]}`).join(',');
  return `skipgram ${settings} texts=${h.digest('hex')}`;
}

/**
 * [V × D] embedding matrix: rows of known words copied from `wv`, others drawn from
 * N(0, σ²) with σ the std of the given vectors (0.1 without vectors); PAD and UNK rows are 0.
 */
export function embeddingMatrix(vocab: Vocab, dim: number, wv: WordVectors | null, rng: Rng): { data: Float32Array; found: number } {
  const V = vocab.size;
  const out = new Float32Array(V * dim);
  let sigma = 0.1;
  const rows = new Map<string, number>();
  if (wv) {
    if (wv.dim !== dim) throw new QPairsError(`word vectors have dimension ${wv.dim}, the model expects ${dim}`);
    let s = 0;
    for (let i = 0; i < wv.data.length; i++) s += wv.data[i] * wv.data[i];
    sigma = Math.sqrt(s / Math.max(1, wv.data.length)) || 0.1;
    wv.words.forEach((w, i) => rows.set(w, i));
  }
  let found = 0;
  for (let i = 0; i < V; i++) {
    if (i === PAD || i === UNK) continue;
    const r = rows.get(vocab.words[i]);
    if (r !== undefined && wv) {
      out.set(wv.data.subarray(r * dim, (r + 1) * dim), i * dim);
      found++;
    } else {
      for (let d = 0; d < dim; d++) out[i * dim + d] = rng.normal() * sigma;
    }
  }
  return { data: out, found };
}

export interface TrainInstance {
  query: string;
  positive: string;
  negatives: string[];
}

/**
 * One epoch of batches. Each positive pair gets `negatives` negatives: the query's labeled
 * negatives first (shuffled), then random ids. With `negPool` > 0 the random ones are drawn
 * from a per-batch pool of that many random ids (shared by the batch: fewer texts to encode);
 * with 0 they are drawn independently from `randomPool`. A query's own positives and itself are
 * never used as its negatives.
 */
export function epochBatches(
  data: TrainingData,
  rng: Rng,
  batchSize: number,
  negatives: number,
  negPool: number,
): TrainInstance[][] {
  const posOf = new Map<string, Set<string>>();
  for (const [q, c] of data.positives) {
    let s = posOf.get(q);
    if (!s) posOf.set(q, (s = new Set()));
    s.add(c);
  }
  const negOf = new Map<string, string[]>();
  for (const [q, c] of data.negatives ?? []) {
    if (posOf.get(q)?.has(c)) continue;
    let s = negOf.get(q);
    if (!s) negOf.set(q, (s = []));
    if (!s.includes(c)) s.push(c);
  }
  const pool = data.randomPool.filter((id) => data.questions.has(id));
  const pairs = data.positives.filter(([q, c]) => data.questions.has(q) && data.questions.has(c));
  if (pairs.length === 0) throw new QPairsError('no positive pair has both texts in the training data', { reason: 'no training pairs' });
  const order = rng.shuffle(pairs.map((_, i) => i));
  const batches: TrainInstance[][] = [];
  for (let s = 0; s < order.length; s += batchSize) {
    const idx = order.slice(s, s + batchSize);
    const batchPool: string[] = [];
    if (negPool > 0 && pool.length) for (let k = 0; k < negPool; k++) batchPool.push(pool[rng.int(pool.length)]);
    const batch: TrainInstance[] = [];
    for (const i of idx) {
      const [q, p] = pairs[i];
      const bad = posOf.get(q)!;
      const negs: string[] = [];
      for (const n of rng.shuffle([...(negOf.get(q) ?? [])])) {
        if (negs.length >= negatives) break;
        if (data.questions.has(n)) negs.push(n);
      }
      const src = negPool > 0 && batchPool.length ? batchPool : pool;
      let tries = 0;
      while (negs.length < negatives && src.length && tries < negatives * 20) {
        tries++;
        const n = src[rng.int(src.length)];
        if (n === q || bad.has(n)) continue;
        negs.push(n);
      }
      if (negs.length) batch.push({ query: q, positive: p, negatives: negs });
    }
    if (batch.length) batches.push(batch);
  }
  return batches;
}

/** Distinct ids of a batch and each id's row. */
export function batchTexts(batch: TrainInstance[]): { ids: string[]; row: Map<string, number> } {
  const row = new Map<string, number>();
  const ids: string[] = [];
  const add = (id: string) => {
    if (!row.has(id)) {
      row.set(id, ids.length);
      ids.push(id);
    }
  };
  for (const b of batch) {
    add(b.query);
    add(b.positive);
    b.negatives.forEach(add);
  }
  return { ids, row };
}

/** A bounded map (cleared when full) of per-text encodings. */
export class EncodingCache {
  private readonly m = new Map<string, Float32Array>();
  constructor(private readonly limit = 50_000) {}
  get(k: string): Float32Array | undefined {
    return this.m.get(k);
  }
  set(k: string, v: Float32Array): void {
    if (this.m.size >= this.limit) this.m.clear();
    this.m.set(k, v);
  }
  clear(): void {
    this.m.clear();
  }
  get size(): number {
    return this.m.size;
  }

  /**
   * Unit-length encodings of texts, cached by `key` (default: id + text hash): the texts not cached yet are encoded
   * in one batch by `encode` (a [n, width] tensor, run inside tf.tidy). The results come from this
   * call's own list, so a cache clear while it fills cannot lose one of them.
   */
  encodeAll(texts: readonly QText[], width: number, encode: (texts: QText[]) => tf.Tensor, key: (q: QText) => string = textKey): Float32Array[] {
    const keys = texts.map(key);
    const out: Array<Float32Array | undefined> = keys.map((k) => this.m.get(k));
    const slot = new Map<string, number>();
    const missing: number[] = [];
    keys.forEach((k, i) => {
      if (!out[i] && !slot.has(k)) {
        slot.set(k, missing.length);
        missing.push(i);
      }
    });
    if (missing.length) {
      const t = tf.tidy(() => encode(missing.map((i) => texts[i]!)));
      const d = t.dataSync() as Float32Array;
      t.dispose();
      const fresh = missing.map((_, j) => l2normalize(d.slice(j * width, (j + 1) * width)));
      missing.forEach((i, j) => this.set(keys[i]!, fresh[j]!));
      keys.forEach((k, i) => {
        if (!out[i]) out[i] = fresh[slot.get(k)!];
      });
    }
    return out as Float32Array[];
  }
}

/**
 * Padded id matrix of token sequences. Time-major [T, N] (timeMajor) or [N, T]; mask likewise.
 * Empty sequences get length 0 (all padding).
 */
export function padIds(seqs: readonly number[][], timeMajor: boolean, minT = 1): { ids: Int32Array; mask: Float32Array; T: number; lens: number[] } {
  const N = seqs.length;
  const T = Math.max(minT, ...seqs.map((s) => s.length));
  const ids = new Int32Array(T * N);
  const mask = new Float32Array(T * N);
  seqs.forEach((s, n) => {
    for (let t = 0; t < s.length; t++) {
      const k = timeMajor ? t * N + n : n * T + t;
      ids[k] = s[t];
      mask[k] = 1;
    }
  });
  return { ids, mask, T, lens: seqs.map((s) => s.length) };
}

export function l2normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i] * v[i];
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

export function textsOf(data: TrainingData, ids: readonly string[]): QText[] {
  return ids.map((id) => data.questions.get(id)!);
}

/** Rows scaled to unit L2 length: x / sqrt(Σ x² + 1e-12) (differentiable without Pow). */
export function unitRows(x: tf.Tensor2D): tf.Tensor2D {
  return tf.div(x, tf.sqrt(tf.add(tf.sum(tf.square(x), 1, true), 1e-12))) as tf.Tensor2D;
}

/** Rows of a [V × D] matrix for the given ids, as one Float32Array [ids.length × D] (JS copy, no tfjs op). */
export function lookupRows(table: Float32Array, D: number, ids: Int32Array): Float32Array {
  const out = new Float32Array(ids.length * D);
  for (let i = 0; i < ids.length; i++) {
    const r = ids[i] * D;
    out.set(table.subarray(r, r + D), i * D);
  }
  return out;
}
