/**
 * `bow-cnn` and `cnn`: dos Santos et al. (2015), "Learning hybrid representations to retrieve
 * semantically equivalent questions".
 *
 *  - BOW part: a learned weight t_w per vocabulary word, initialised with idf(w); the bag of a
 *    text d is r_bow(d)_w = t_w · count(w, d); cos_bow = cos(r_bow(q), r_bow(c)). Words outside the
 *    vocabulary keep the fixed weight idf(df = 0) and match only themselves.
 *  - CNN part: word embeddings (skip-gram initialised) of title+body (first `maxLen` tokens),
 *    a convolution over windows of k = 3 words, max pooling over positions, tanh:
 *      r_conv(d) = tanh(max_t (W [x_{t−1}; x_t; x_{t+1}] + b));  cos_conv = cos(r_conv(q), r_conv(c))
 *  - score s = β1·cos_bow + β2·cos_conv (`cnn`: β1 = 0, β2 = 1, no BOW weights);
 *  - loss per positive pair: Δ = s(q, p+) − max_{p ∈ 20 sampled negatives} s(q, p),
 *      L = ln(1 + exp(−γΔ)), γ = 10;  Adam (separate learning rate for the BOW weights).
 */
import * as tf from '@tensorflow/tfjs-core';
import { initBackend } from './backend';
import { evaluateRanker } from './dev-eval';
import { corpusTexts } from './lexical';
import {
  batchTexts,
  EncodingCache,
  epochBatches,
  lookupRows,
  padIds,
  textsOf,
  type TrainInstance,
  unitRows,
} from './neural-common';
import { clipByGlobalNorm, Params } from './params';
import { glorotUniform, Rng } from './rng';
import { fullText, textKey, tokenize } from './text';
import { SKIPGRAM_DEFAULTS } from './skipgram';
import { encoderStart, type StartVectorsConfig } from './fused';
import { runEpochs } from './train-loop';
import type { QText, Ranker, SavedModel, TrainOptions, TrainReport, TrainingData } from './types';
import { UNK, Vocab } from './vocab';

export type DosSantosConfig = {
  embDim: number;
  filters: number;
  window: number;
  maxLen: number;
  maxBowLen: number;
  beta1: number;
  beta2: number;
  gamma: number;
  negatives: number;
  negPool: number;
  lr: number;
  bowLr: number;
  batchSize: number;
  epochs: number;
  minCount: number;
  maxVocab: number;
  trainEmbeddings: boolean;
  clipNorm: number;
  seed: number;
  embeddingEpochs: number;
} & StartVectorsConfig;

export const DOSSANTOS_DEFAULTS: DosSantosConfig = {
  embDim: 100,
  filters: 200,
  window: 3,
  maxLen: 100,
  maxBowLen: 1000,
  beta1: 0.5,
  beta2: 0.5,
  gamma: 10,
  negatives: 20,
  negPool: 64,
  lr: 1e-3,
  bowLr: 0.02,
  batchSize: 16,
  epochs: 3,
  minCount: 1,
  maxVocab: 100_000,
  trainEmbeddings: false,
  clipNorm: 5,
  seed: 1,
  // As many as the skipgram model trains: the same vectors a separately trained skipgram gives.
  embeddingEpochs: SKIPGRAM_DEFAULTS.epochs,
};

interface Bag {
  known: Map<number, number>;
  unknown: Map<string, number>;
}

export class DosSantosRanker implements Ranker {
  readonly config: DosSantosConfig;
  private vocab = new Vocab(['<pad>', '<unk>']);
  private params = new Params();
  private tUnk = 1;
  private convCache = new EncodingCache();
  private bagCache = new Map<string, Bag>();
  private tw: Float32Array | null = null; // snapshot of the BOW weights for score()
  private embTable: Float32Array | null = null; // snapshot of the embeddings for lookups

  constructor(
    readonly kind: 'bow-cnn' | 'cnn',
    config: Partial<DosSantosConfig> = {},
  ) {
    this.config = { ...DOSSANTOS_DEFAULTS, ...(kind === 'cnn' ? { beta1: 0, beta2: 1 } : {}), ...config };
  }

  private get useBow(): boolean {
    return this.kind === 'bow-cnn' && this.config.beta1 !== 0;
  }

  private bag(q: QText): Bag {
    const k = textKey(q);
    let b = this.bagCache.get(k);
    if (!b) {
      b = { known: new Map(), unknown: new Map() };
      for (const w of tokenize(fullText(q)).slice(0, this.config.maxBowLen)) {
        const id = this.vocab.id(w);
        if (id === UNK) b.unknown.set(w, (b.unknown.get(w) ?? 0) + 1);
        else b.known.set(id, (b.known.get(id) ?? 0) + 1);
      }
      if (this.bagCache.size > 50_000) this.bagCache.clear();
      this.bagCache.set(k, b);
    }
    return b;
  }

  private convIds(q: QText): number[] {
    return this.vocab.encode(tokenize(fullText(q)), this.config.maxLen);
  }

  private embData(): Float32Array {
    if (!this.embTable) this.embTable = (this.params.get('emb').dataSync() as Float32Array).slice();
    return this.embTable;
  }

  /**
   * r_conv for texts: [N, C] (before normalisation). Training: gather + window concat + matmul
   * (differentiable); scoring: JS embedding lookup + tf.conv1d (same maths, ~2× faster on wasm).
   */
  private convEncode(texts: readonly QText[], training: boolean): tf.Tensor2D {
    const cfg = this.config;
    const N = texts.length;
    const { ids, mask, T } = padIds(
      texts.map((q) => this.convIds(q)),
      false,
    );
    const D = cfg.embDim;
    const m3 = tf.tensor3d(mask, [N, T, 1]);
    const gather = training && cfg.trainEmbeddings;
    const x = tf.mul(
      gather
        ? tf.reshape(tf.gather(this.params.get('emb'), tf.tensor1d(ids, 'int32')), [N, T, D])
        : tf.tensor3d(lookupRows(this.embData(), D, ids), [N, T, D]),
      m3,
    );
    const has = tf.tensor2d(
      texts.map((_, n) => (mask[n * T] > 0 ? 1 : 0)),
      [N, 1],
    );
    const k = cfg.window;
    if (!training) {
      const conv = tf.add(tf.conv1d(x as tf.Tensor3D, tf.reshape(this.params.get('Wc'), [k, D, cfg.filters]) as tf.Tensor3D, 1, 'same'), this.params.get('bc'));
      const masked = tf.add(conv, tf.mul(tf.sub(m3, 1), 1e4));
      return tf.mul(tf.tanh(tf.max(masked, 1)), has) as tf.Tensor2D;
    }
    const left = Math.floor((k - 1) / 2);
    const xp = tf.pad(x, [
      [0, 0],
      [left, k - 1 - left],
      [0, 0],
    ]);
    const wins = tf.concat(
      Array.from({ length: k }, (_, j) => tf.slice(xp, [0, j, 0], [N, T, D])),
      2,
    );
    const conv = tf.reshape(tf.add(tf.matMul(tf.reshape(wins, [N * T, k * D]), this.params.get('Wc')), this.params.get('bc')), [N, T, cfg.filters]);
    const masked = tf.add(conv, tf.mul(tf.sub(m3, 1), 1e4));
    return tf.mul(tf.tanh(tf.max(masked, 1)), has) as tf.Tensor2D;
  }

  private batchLoss(data: TrainingData, batch: TrainInstance[]): tf.Scalar {
    const cfg = this.config;
    const { ids, row } = batchTexts(batch);
    const texts = textsOf(data, ids);
    const K = cfg.negatives;
    const P = batch.length;
    // pair list: instance i, slot 0 = positive, 1..K = negatives
    const pairQ: number[] = [];
    const pairC: number[] = [];
    for (const b of batch) {
      pairQ.push(row.get(b.query)!);
      pairC.push(row.get(b.positive)!);
      for (let k = 0; k < K; k++) {
        pairQ.push(row.get(b.query)!);
        pairC.push(row.get(b.negatives[k % b.negatives.length])!);
      }
    }
    const NP = pairQ.length;
    let s: tf.Tensor = tf.zeros([NP]);
    if (cfg.beta2 !== 0) {
      const r = this.convEncode(texts, true);
      const rn = unitRows(r);
      const cos = tf.sum(tf.mul(tf.gather(rn, tf.tensor1d(pairQ, 'int32')), tf.gather(rn, tf.tensor1d(pairC, 'int32'))), 1);
      s = tf.add(s, tf.mul(cos, cfg.beta2));
    }
    if (this.useBow) {
      const bags = texts.map((q) => this.bag(q));
      const tu2 = this.tUnk * this.tUnk;
      const nIds: number[] = [];
      const nCoef: number[] = [];
      const nSeg: number[] = [];
      const nConst = new Float32Array(texts.length);
      bags.forEach((b, i) => {
        for (const [id, c] of b.known) {
          nIds.push(id);
          nCoef.push(c * c);
          nSeg.push(i);
        }
        for (const c of b.unknown.values()) nConst[i] += tu2 * c * c;
      });
      const pIds: number[] = [];
      const pCoef: number[] = [];
      const pSeg: number[] = [];
      const pConst = new Float32Array(NP);
      for (let p = 0; p < NP; p++) {
        const a = bags[pairQ[p]];
        const b = bags[pairC[p]];
        for (const [id, c] of a.known) {
          const d = b.known.get(id);
          if (d) {
            pIds.push(id);
            pCoef.push(c * d);
            pSeg.push(p);
          }
        }
        for (const [w, c] of a.unknown) {
          const d = b.unknown.get(w);
          if (d) pConst[p] += tu2 * c * d;
        }
      }
      const t = this.params.get('t');
      const t2 = (idx: number[]) => tf.square(tf.gather(t, tf.tensor1d(idx, 'int32')));
      const normSq = tf.add(
        nIds.length ? tf.unsortedSegmentSum(tf.mul(t2(nIds), tf.tensor1d(nCoef)), tf.tensor1d(nSeg, 'int32'), texts.length) : tf.zeros([texts.length]),
        tf.tensor1d(nConst),
      );
      const num = tf.add(
        pIds.length ? tf.unsortedSegmentSum(tf.mul(t2(pIds), tf.tensor1d(pCoef)), tf.tensor1d(pSeg, 'int32'), NP) : tf.zeros([NP]),
        tf.tensor1d(pConst),
      );
      const den = tf.sqrt(tf.add(tf.mul(tf.gather(normSq, tf.tensor1d(pairQ, 'int32')), tf.gather(normSq, tf.tensor1d(pairC, 'int32'))), 1e-12));
      s = tf.add(s, tf.mul(tf.div(num, den), cfg.beta1));
    }
    const s2 = tf.reshape(s, [P, K + 1]);
    const sPos = tf.squeeze(tf.slice(s2, [0, 0], [P, 1]), [1]);
    const sNeg = tf.max(tf.slice(s2, [0, 1], [P, K]), 1);
    return tf.mean(tf.softplus(tf.mul(tf.sub(sPos, sNeg), -cfg.gamma))) as tf.Scalar;
  }

  async train(data: TrainingData, opts: TrainOptions = {}): Promise<TrainReport> {
    const backend = await initBackend();
    const cfg = this.config;
    const seed = opts.seed ?? cfg.seed;
    const rng = new Rng(seed);
    const { vocab, emb, found } = await encoderStart(data, opts, cfg, seed, rng, cfg.beta2 !== 0);
    this.vocab = vocab;
    this.bagCache.clear();
    const D = cfg.embDim;
    // idf initialisation of the BOW weights
    const docs = corpusTexts(data);
    const df = new Float64Array(this.vocab.size);
    for (const text of docs) for (const id of new Set(this.vocab.encode(tokenize(text)))) df[id]++;
    const idf = Float32Array.from(df, (d) => Math.log((1 + docs.length) / (1 + d)) + 1);
    this.tUnk = Math.log(1 + docs.length) + 1;
    idf[UNK] = this.tUnk;
    this.params.dispose();
    this.params = new Params();
    this.params.add('emb', [this.vocab.size, D], emb, cfg.trainEmbeddings && cfg.beta2 !== 0);
    this.params.add('Wc', [cfg.window * D, cfg.filters], glorotUniform(rng, cfg.window * D, cfg.filters));
    this.params.add('bc', [cfg.filters], new Float32Array(cfg.filters));
    if (this.kind === 'bow-cnn') this.params.add('t', [this.vocab.size], idf, this.useBow);
    this.clearCaches();
    const convVars = this.params.trainable().filter((v) => !this.params.has('t') || v !== this.params.get('t'));
    const bowVars = this.useBow ? [this.params.get('t')] : [];
    const optConv = tf.train.adam(cfg.lr);
    const optBow = tf.train.adam(cfg.bowLr);
    const step = (batch: TrainInstance[]): number => {
      const vars = [...convVars, ...bowVars];
      const { value, grads } = tf.variableGrads(() => this.batchLoss(data, batch), vars);
      const clipped = clipByGlobalNorm(grads, cfg.clipNorm);
      const gConv: tf.NamedTensorMap = {};
      const gBow: tf.NamedTensorMap = {};
      for (const v of convVars) gConv[v.name] = clipped[v.name];
      for (const v of bowVars) gBow[v.name] = clipped[v.name];
      if (convVars.length && cfg.beta2 !== 0) optConv.applyGradients(gConv as unknown as Record<string, tf.Variable>);
      if (bowVars.length) optBow.applyGradients(gBow as unknown as Record<string, tf.Variable>);
      const loss = (value.dataSync() as Float32Array)[0];
      value.dispose();
      tf.dispose(Object.values(grads));
      tf.dispose(Object.values(clipped));
      this.tw = null;
      if (cfg.trainEmbeddings) this.embTable = null;
      return loss;
    };
    try {
      return await runEpochs({
        kind: this.kind,
        backend,
        epochs: opts.epochs ?? cfg.epochs,
        opts,
        exampleUnit: 'pairs',
        notes: [`vocab ${this.vocab.size}, ${found} words with pre-trained vectors, backend ${backend}`],
        planEpoch: () => {
          const batches = epochBatches(data, rng, cfg.batchSize, cfg.negatives, cfg.negPool);
          return { steps: batches.length, runStep: (i) => ({ loss: step(batches[i]), examples: batches[i].length }) };
        },
        evalDev: () => evaluateRanker(this, opts.dev!),
        snapshot: () => this.params.snapshot(),
        restore: (s) => this.params.restore(s),
        afterEpoch: () => this.clearCaches(),
      });
    } finally {
      optConv.dispose();
      optBow.dispose();
      this.clearCaches();
    }
  }

  private clearCaches(): void {
    this.convCache.clear();
    this.tw = null;
    this.embTable = null;
  }

  private convReps(texts: readonly QText[]): Float32Array[] {
    return this.convCache.encodeAll(texts, this.config.filters, (t) => this.convEncode(t, false));
  }

  private bowCos(a: Bag, b: Bag, tw: Float32Array): number {
    const tu2 = this.tUnk * this.tUnk;
    const norm = (x: Bag) => {
      let s = 0;
      for (const [id, c] of x.known) s += tw[id] * tw[id] * c * c;
      for (const c of x.unknown.values()) s += tu2 * c * c;
      return s;
    };
    let num = 0;
    for (const [id, c] of a.known) {
      const d = b.known.get(id);
      if (d) num += tw[id] * tw[id] * c * d;
    }
    for (const [w, c] of a.unknown) {
      const d = b.unknown.get(w);
      if (d) num += tu2 * c * d;
    }
    return num / Math.sqrt(norm(a) * norm(b) + 1e-12);
  }

  score(query: QText, candidates: readonly QText[]): number[] {
    if (candidates.length === 0) return [];
    const cfg = this.config;
    const out = new Array<number>(candidates.length).fill(0);
    if (cfg.beta2 !== 0) {
      const [q, ...cs] = this.convReps([query, ...candidates]);
      cs.forEach((c, i) => {
        let s = 0;
        for (let d = 0; d < q.length; d++) s += q[d] * c[d];
        out[i] += cfg.beta2 * s;
      });
    }
    if (this.useBow) {
      if (!this.tw) this.tw = (this.params.get('t').dataSync() as Float32Array).slice();
      const qb = this.bag(query);
      candidates.forEach((c, i) => (out[i] += cfg.beta1 * this.bowCos(qb, this.bag(c), this.tw!)));
    }
    return out;
  }

  save(): SavedModel {
    return {
      format: 1,
      kind: this.kind,
      config: { ...this.config },
      vocab: [...this.vocab.words],
      weights: this.params.toSaved(),
      meta: { tUnk: this.tUnk },
    };
  }

  static async load(saved: SavedModel): Promise<DosSantosRanker> {
    await initBackend();
    const r = new DosSantosRanker(saved.kind as 'bow-cnn' | 'cnn', saved.config as Partial<DosSantosConfig>);
    r.vocab = new Vocab(saved.vocab ?? ['<pad>', '<unk>']);
    r.tUnk = (saved.meta?.tUnk as number) ?? 1;
    for (const [name, t] of Object.entries(saved.weights)) r.params.add(name, t.shape, t.data);
    return r;
  }

  dispose(): void {
    this.params.dispose();
    this.clearCaches();
    this.bagCache.clear();
  }
}
