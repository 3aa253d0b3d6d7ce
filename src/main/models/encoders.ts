/**
 * `lstm`, `gru`, `rcnn`: question encoders in the style of Lei et al. (2016), "Semi-supervised
 * question retrieval with gated convolutions".
 *
 *  - words → embeddings (skip-gram initialised, frozen by default) → dropout → recurrent scan
 *    (recurrent.ts; rcnn = the gated non-consecutive convolution) → pooling: mean over real
 *    tokens or the last state;
 *  - title and body are encoded separately and averaged: e(q) = (enc(title) + enc(body)) / 2
 *    (only the non-empty ones); s(q, c) = cos(e(q), e(c));
 *  - loss per positive pair (q, p+) with negatives Q− (labeled negatives of q first, then random):
 *      L = max(0, max_{p ∈ Q−} s(q, p) − s(q, p+) + δ),  Adam, gradient clipping, dropout.
 *
 * Optional pre-training (`pretrain: true`, a small-scale version of the paper's): the encoder
 * reads the body and a GRU decoder, initialised with tanh(Wd·enc(body) + bd), generates the title
 * (teacher forcing, softmax over the `decoderVocab` most frequent title words + UNK + EOS).
 * The decoder is discarded, the encoder fine-tuned.
 */
import * as tf from '@tensorflow/tfjs-core';
import { initBackend } from './backend';
import { evaluateRanker } from './dev-eval';
import {
  batchTexts,
  dot,
  EncodingCache,
  epochBatches,
  lookupRows,
  padIds,
  textsOf,
  type TrainInstance,
  unitRows,
} from './neural-common';
import { optimizerStep, Params } from './params';
import { type CellKind, GATES, scan, scanInference } from './recurrent';
import { glorotUniform, Rng } from './rng';
import { textKey, tokenize } from './text';
import { SKIPGRAM_DEFAULTS } from './skipgram';
import { encoderStart, type StartVectorsConfig } from './fused';
import { checkAbort, nextTick, runEpochs } from './train-loop';
import type { QText, Ranker, SavedModel, TrainOptions, TrainReport, TrainingData } from './types';
import { Vocab } from './vocab';

export type EncoderConfig = {
  hidden: number;
  pooling: 'mean' | 'last';
  embDim: number;
  trainEmbeddings: boolean;
  dropout: number;
  margin: number;
  lr: number;
  batchSize: number;
  negatives: number;
  /** Random negatives are drawn from a per-batch pool of this many ids (0 = independently). */
  negPool: number;
  maxTitleLen: number;
  maxBodyLen: number;
  epochs: number;
  minCount: number;
  maxVocab: number;
  clipNorm: number;
  seed: number;
  /** 'fused' (Float32Array recurrence with its own gradient) or 'plain' (tfjs ops per step). */
  impl: 'fused' | 'plain';
  /** Skip-gram epochs on the corpus when no embeddings are passed in (0 = random init). */
  embeddingEpochs: number;
  pretrain: boolean;
  pretrainEpochs: number;
  decoderVocab: number;
} & StartVectorsConfig;

export const ENCODER_DEFAULTS: EncoderConfig = {
  hidden: 100,
  pooling: 'mean',
  embDim: 100,
  trainEmbeddings: false,
  dropout: 0.1,
  margin: 0.2,
  lr: 1e-3,
  batchSize: 16,
  negatives: 20,
  negPool: 64,
  maxTitleLen: 25,
  maxBodyLen: 60,
  epochs: 5,
  minCount: 2,
  maxVocab: 50_000,
  clipNorm: 5,
  seed: 1,
  impl: 'fused',
  // As many as the skipgram model trains: the same vectors a separately trained skipgram gives.
  embeddingEpochs: SKIPGRAM_DEFAULTS.epochs,
  pretrain: false,
  pretrainEpochs: 2,
  decoderVocab: 2000,
};

type EncKind = 'lstm' | 'gru' | 'rcnn';


export class EncoderRanker implements Ranker {
  readonly config: EncoderConfig;
  protected vocab = new Vocab(['<pad>', '<unk>']);
  protected params = new Params();
  protected cache = new EncodingCache();
  private dropRng = new Rng(1);
  private embTable: Float32Array | null = null;

  /** Embedding matrix snapshot for JS lookups (refreshed whenever the embeddings may change). */
  private embData(): Float32Array {
    if (!this.embTable) this.embTable = (this.params.get('emb').dataSync() as Float32Array).slice();
    return this.embTable;
  }

  protected invalidate(): void {
    this.cache.clear();
    this.embTable = null;
  }

  constructor(
    readonly kind: EncKind | 'hnil',
    config: Partial<EncoderConfig> = {},
    /** The recurrent cell (HNIL encodes its text with an LSTM). */
    private readonly cell: CellKind = kind as CellKind,
  ) {
    this.config = { ...ENCODER_DEFAULTS, ...config };
  }

  private initParams(rng: Rng, emb: Float32Array, D: number): void {
    const H = this.config.hidden;
    const G = GATES[this.cell] * H;
    const NU = this.cell === 'rcnn' ? H : G;
    this.params.dispose();
    this.params = new Params();
    this.params.add('emb', [this.vocab.size, D], emb, this.config.trainEmbeddings);
    this.params.add('W', [D, G], glorotUniform(rng, D, H, D * G));
    const b = new Float32Array(G);
    if (this.cell === 'lstm') b.fill(1, H, 2 * H); // forget-gate bias 1
    this.params.add('b', [G], b);
    this.params.add('U', [H, NU], glorotUniform(rng, H, H, H * NU));
    if (this.cell === 'gru') this.params.add('bias', [3 * H], new Float32Array(3 * H));
    if (this.cell === 'rcnn') this.params.add('bias', [H], new Float32Array(H));
  }

  private seqs(texts: readonly QText[]): { titles: number[][]; bodies: number[][] } {
    return {
      titles: texts.map((q) => this.vocab.encode(tokenize(q.title), this.config.maxTitleLen)),
      bodies: texts.map((q) => this.vocab.encode(tokenize(q.body), this.config.maxBodyLen)),
    };
  }

  /** Pooled encodings [N, H] of token sequences (sorted by length inside for shorter scans). */
  private encodeSeqs(seqs: number[][], training: boolean): tf.Tensor2D {
    const N = seqs.length;
    const perm = seqs.map((_, i) => i).sort((a, b) => seqs[b].length - seqs[a].length || a - b);
    const inv = new Int32Array(N);
    perm.forEach((p, i) => (inv[p] = i));
    const sorted = perm.map((p) => seqs[p]);
    const { ids, mask, T, lens } = padIds(sorted, true);
    const H = this.config.hidden;
    const G = GATES[this.cell] * H;
    const D = this.config.embDim;
    let x: tf.Tensor2D =
      training && this.config.trainEmbeddings
        ? (tf.gather(this.params.get('emb'), tf.tensor1d(ids, 'int32')) as tf.Tensor2D)
        : tf.tensor2d(lookupRows(this.embData(), D, ids), [ids.length, D]);
    if (training && this.config.dropout > 0) x = tf.dropout(x, this.config.dropout, undefined, this.dropRng.seed()) as tf.Tensor2D;
    const xp = tf.reshape(tf.add(tf.matMul(x, this.params.get('W')), this.params.get('b')), [T, N, G]);
    const inputs = {
      xp,
      U: this.params.get('U'),
      bias: this.params.has('bias') ? this.params.get('bias') : null,
      mask,
    };
    const hs = training ? scan(this.cell, inputs, this.config.impl) : scanInference(this.cell, inputs);
    let pooled: tf.Tensor2D;
    if (this.config.pooling === 'last') {
      pooled = tf.reshape(tf.slice(hs, [T - 1, 0, 0], [1, N, H]), [N, H]);
    } else {
      const m = tf.tensor3d(mask, [T, N, 1]);
      const len = tf.tensor2d(
        lens.map((l) => Math.max(1, l)),
        [N, 1],
      );
      pooled = tf.div(tf.sum(tf.mul(hs, m), 0), len) as tf.Tensor2D;
    }
    return tf.gather(pooled, tf.tensor1d(inv, 'int32')) as tf.Tensor2D;
  }

  /** e(q) = mean of the title and body encodings that are non-empty. [N, H] */
  protected encodeTexts(texts: readonly QText[], training: boolean): tf.Tensor2D {
    const { titles, bodies } = this.seqs(texts);
    const et = this.encodeSeqs(titles, training);
    const eb = this.encodeSeqs(bodies, training);
    const wt = titles.map((s) => (s.length ? 1 : 0));
    const wb = bodies.map((s) => (s.length ? 1 : 0));
    const den = wt.map((w, i) => Math.max(1, w + wb[i]));
    const N = texts.length;
    let e = tf.div(
      tf.add(tf.mul(et, tf.tensor2d(wt, [N, 1])), tf.mul(eb, tf.tensor2d(wb, [N, 1]))),
      tf.tensor2d(den, [N, 1]),
    ) as tf.Tensor2D;
    if (training && this.config.dropout > 0) e = tf.dropout(e, this.config.dropout, undefined, this.dropRng.seed()) as tf.Tensor2D;
    return e;
  }

  /** Width of `represent`'s rows. */
  protected get representationWidth(): number {
    return this.config.hidden;
  }

  /** The vectors whose cosine is the similarity: here the text encoding. [N, representationWidth] */
  protected represent(texts: readonly QText[], training: boolean): tf.Tensor2D {
    return this.encodeTexts(texts, training);
  }

  /** Cache key of a question's representation. */
  protected representationKey(q: QText): string {
    return textKey(q);
  }

  /** The hinge ranking loss of a batch: max(0, max_neg s(q, n) − s(q, p+) + δ), averaged. */
  protected batchLoss(data: TrainingData, batch: TrainInstance[]): tf.Scalar {
    const { ids, row } = batchTexts(batch);
    const K = this.config.negatives;
    const en = unitRows(this.represent(textsOf(data, ids), true));
    const qIdx = tf.tensor1d(batch.map((b) => row.get(b.query)!), 'int32');
    const pIdx = tf.tensor1d(batch.map((b) => row.get(b.positive)!), 'int32');
    const nIdx = tf.tensor1d(
      batch.flatMap((b) => Array.from({ length: K }, (_, k) => row.get(b.negatives[k % b.negatives.length])!)),
      'int32',
    );
    const eq = tf.gather(en, qIdx);
    const sPos = tf.sum(tf.mul(eq, tf.gather(en, pIdx)), 1);
    const sNeg = tf.sum(tf.mul(tf.expandDims(eq, 1), tf.reshape(tf.gather(en, nIdx), [batch.length, K, -1])), 2);
    return tf.mean(tf.relu(tf.add(tf.sub(tf.max(sNeg, 1), sPos), this.config.margin))) as tf.Scalar;
  }

  async train(data: TrainingData, opts: TrainOptions = {}): Promise<TrainReport> {
    const backend = await initBackend();
    const cfg = this.config;
    const seed = opts.seed ?? cfg.seed;
    const rng = new Rng(seed);
    this.dropRng = new Rng(seed ^ 0x5bd1e995);
    const { vocab, emb, found } = await encoderStart(data, opts, cfg, seed, rng);
    this.vocab = vocab;
    this.initParams(rng, emb, cfg.embDim);
    this.invalidate();
    const notes = [`vocab ${this.vocab.size}, ${found} words with pre-trained vectors, backend ${backend}, scan ${cfg.impl}`];
    notes.push(...(await this.prepare(data, opts, rng)));
    if (cfg.pretrain) notes.push(await this.pretrainDecoder(data, opts, rng));
    const optimizer = tf.train.adam(cfg.lr);
    try {
      return await runEpochs({
        kind: this.kind,
        backend,
        epochs: opts.epochs ?? cfg.epochs,
        opts,
        exampleUnit: 'pairs',
        notes,
        planEpoch: () => {
          const batches = this.planBatches(data, rng);
          return {
            steps: batches.length,
            runStep: (i) => {
              const loss = optimizerStep(optimizer, this.params, () => this.batchLoss(data, batches[i]), cfg.clipNorm);
              if (cfg.trainEmbeddings) this.embTable = null;
              return { loss, examples: batches[i].length };
            },
          };
        },
        evalDev: () => evaluateRanker(this, opts.dev!),
        snapshot: () => this.params.snapshot(),
        restore: (s) => this.params.restore(s),
        afterEpoch: () => this.invalidate(),
      });
    } finally {
      optimizer.dispose();
      this.invalidate();
    }
  }

  /** Encoder-decoder pre-training (body → title). Returns a note for the report. */
  private async pretrainDecoder(data: TrainingData, opts: TrainOptions, rng: Rng): Promise<string> {
    const cfg = this.config;
    const H = cfg.hidden;
    const D = cfg.embDim;
    const items = [...data.questions.values()]
      .map((q) => ({ title: tokenize(q.title).slice(0, cfg.maxTitleLen), body: this.vocab.encode(tokenize(q.body), cfg.maxBodyLen) }))
      .filter((x) => x.title.length > 0 && x.body.length > 0);
    if (items.length === 0) return 'pre-training skipped: no question has both title and body';
    const tv = Vocab.build(
      items.map((x) => x.title),
      1,
      cfg.decoderVocab + 2,
    ); // 0 = EOS (the <pad> slot), 1 = UNK
    const Vd = tv.size;
    const dec = new Params();
    dec.add('Wd', [H, H], glorotUniform(rng, H, H));
    dec.add('bd', [H], new Float32Array(H));
    dec.add('Wx', [D, 3 * H], glorotUniform(rng, D, H, D * 3 * H));
    dec.add('bx', [3 * H], new Float32Array(3 * H));
    dec.add('Ud', [H, 3 * H], glorotUniform(rng, H, H, H * 3 * H));
    dec.add('bh', [3 * H], new Float32Array(3 * H));
    dec.add('Wo', [H, Vd], glorotUniform(rng, H, Vd));
    dec.add('bo', [Vd], new Float32Array(Vd));
    // optimise encoder + decoder together
    const vars = [...this.params.trainable(), ...dec.trainable()];
    const optimizer = tf.train.adam(cfg.lr);
    const B = 32;
    let lastLoss = NaN;
    try {
      for (let ep = 1; ep <= cfg.pretrainEpochs; ep++) {
        const order = rng.shuffle(items.map((_, i) => i));
        const steps = Math.ceil(order.length / B);
        let sum = 0;
        for (let s = 0; s < steps; s++) {
          checkAbort(opts.signal);
          const batch = order.slice(s * B, (s + 1) * B).map((i) => items[i]);
          const N = batch.length;
          const Tt = Math.max(...batch.map((x) => x.title.length)) + 1;
          const inIds = new Int32Array(Tt * N);
          const tgt = new Int32Array(Tt * N);
          const mask = new Float32Array(Tt * N);
          batch.forEach((x, n) => {
            for (let t = 0; t <= x.title.length; t++) {
              inIds[t * N + n] = t === 0 ? 0 : this.vocab.id(x.title[t - 1]);
              tgt[t * N + n] = t < x.title.length ? tv.id(x.title[t]) : 0;
              mask[t * N + n] = 1;
            }
          });
          const f = () =>
            tf.tidy(() => {
              const enc = this.encodeSeqs(
                batch.map((x) => x.body),
                true,
              );
              const h0 = tf.tanh(tf.add(tf.matMul(enc, dec.get('Wd')), dec.get('bd')));
              const x = tf.gather(this.params.get('emb'), tf.tensor1d(inIds, 'int32'));
              const xp = tf.reshape(tf.add(tf.matMul(x, dec.get('Wx')), dec.get('bx')), [Tt, N, 3 * H]);
              const hs = scan('gru', { xp, U: dec.get('Ud'), bias: dec.get('bh'), mask, h0 }, cfg.impl);
              const logits = tf.add(tf.matMul(tf.reshape(hs, [Tt * N, H]), dec.get('Wo')), dec.get('bo'));
              const logp = tf.logSoftmax(logits);
              const picked = tf.sum(tf.mul(logp, tf.oneHot(tf.tensor1d(tgt, 'int32'), Vd)), 1);
              const m = tf.tensor1d(mask);
              return tf.div(tf.neg(tf.sum(tf.mul(picked, m))), tf.sum(m)) as tf.Scalar;
            });
          const { value, grads } = tf.variableGrads(f, vars);
          optimizer.applyGradients(grads as unknown as Record<string, tf.Variable>);
          const l = (value.dataSync() as Float32Array)[0];
          value.dispose();
          tf.dispose(Object.values(grads));
          sum += l;
          lastLoss = l;
          opts.onProgress?.({ epoch: ep, epochs: cfg.pretrainEpochs, step: s + 1, steps, loss: sum / (s + 1), phase: 'encoder-decoder pre-training' });
          await nextTick();
        }
      }
    } finally {
      optimizer.dispose();
      dec.dispose();
      this.invalidate();
    }
    return `pre-trained body→title on ${items.length} questions, ${cfg.pretrainEpochs} epochs, final loss ${lastLoss.toFixed(3)}`;
  }

  /** One epoch's batches of labeled instances (shuffled; negatives drawn per instance). */
  protected planBatches(data: TrainingData, rng: Rng): TrainInstance[][] {
    return epochBatches(data, rng, this.config.batchSize, this.config.negatives, this.config.negPool);
  }

  /** Set-up after the encoder's parameters exist and before the first epoch (subclasses add theirs); returns report notes. */
  protected async prepare(_data: TrainingData, _opts: TrainOptions, _rng: Rng): Promise<string[]> {
    return [];
  }

  /** Unit-length representations of the texts (cached by `representationKey`). */
  encodings(texts: readonly QText[]): Float32Array[] {
    return this.cache.encodeAll(texts, this.representationWidth, (t) => this.represent(t, false), (q) => this.representationKey(q));
  }

  score(query: QText, candidates: readonly QText[]): number[] {
    if (candidates.length === 0) return [];
    const [q, ...cs] = this.encodings([query, ...candidates]);
    return cs.map((c) => dot(q, c));
  }

  save(): SavedModel {
    return { format: 1, kind: this.kind, config: { ...this.config }, vocab: [...this.vocab.words], weights: this.params.toSaved() };
  }

  static async load(saved: SavedModel): Promise<EncoderRanker> {
    await initBackend();
    const r = new EncoderRanker(saved.kind as EncKind, saved.config as Partial<EncoderConfig>);
    r.adoptWeights(saved);
    return r;
  }

  /** Takes the vocabulary and the tensors of `saved` (the tensors named in `skip` are the subclass's). */
  protected adoptWeights(saved: SavedModel, skip: ReadonlySet<string> = new Set()): void {
    this.vocab = new Vocab(saved.vocab ?? ['<pad>', '<unk>']);
    for (const [name, t] of Object.entries(saved.weights)) {
      if (!skip.has(name)) this.params.add(name, t.shape, t.data, name !== 'emb' || this.config.trainEmbeddings);
    }
  }

  dispose(): void {
    this.params.dispose();
    this.cache.clear();
  }
}
