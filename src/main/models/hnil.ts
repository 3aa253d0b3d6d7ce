/**
 * `hnil`: Heterogeneous Network Integration Learning (Chen, Zhao, Zhang, Cai: "Question Retrieval for
 * Community-based Question Answering via Heterogeneous Network Integration Learning"), on the
 * forum data QPairs imports.
 *
 *  - The heterogeneous network (hnil-graph.ts): questions, askers, answerers and categories;
 *    DeepWalk (walks per vertex, walk length, window) + skip-gram give node vectors φ (fixed after
 *    this pre-training, the paper's Algorithm 1 step 1).
 *  - A question's representation joins the recurrent text encoding (encoders.ts: an LSTM over title
 *    and body, skip-gram-initialised words) with a fully connected layer over its graph vectors:
 *      g(q) = tanh(W·[φ(asker); φ(category); φ(q)] + b)   (a missing vertex contributes zeros),
 *      r(q) = [ t(q)/‖t(q)‖ ; γ · g(q)/‖g(q)‖ ]           (γ learned; g = 0 when q has no vertex),
 *      s(q, c) = cos(r(q), r(c)).
 *    φ(q) is the question's own vertex (it carries its answerers); questions first seen at score
 *    time still get their asker's and category's vectors.
 *  - Loss (the paper's Eq. 4 and 5 in this setting): the labeled pairs' hinge ranking loss
 *    max(0, max_{n} s(q, n) − s(q, p+) + δ) as the other encoders, plus λ · the category ranking
 *    loss over the walks: for question vertices q, q+ of one category within `graphWindow` steps of
 *    each other on a walk and a random question q− of another category,
 *    max(0, δ + s(q, q−) − s(q, q+)). Adam (the paper: AdaGrad-style SGD), gradient clipping.
 *    With `labeledPairs: false` only the category loss trains (the paper's own supervision): no
 *    label is read, so its scores can feed the fused ranker without cross-fitting.
 *  - Differences from the paper, on purpose: no friendship graph exists in forum dumps, so users
 *    are linked through the questions they ask and answer; the text is encoded as the other
 *    QPairs encoders do (mean pooling over title and body) rather than per sentence with max
 *    pooling; the asker part of the paper's loss (‖u − v_i‖) is carried by the DeepWalk pre-training.
 *
 * Training refuses data without askers or without categories: HNIL without its network is an
 * LSTM encoder, and `lstm` already is one.
 */
import * as tf from '@tensorflow/tfjs-core';
import { QPairsError } from '../errors';
import { initBackend } from './backend';
import { ENCODER_DEFAULTS, EncoderRanker, type EncoderConfig } from './encoders';
import { buildQaGraph, categoryNode, deepWalk, questionNode, userNode } from './hnil-graph';
import { textsOf, type TrainInstance, unitRows } from './neural-common';
import { glorotUniform, Rng } from './rng';
import { textKey } from './text';
import { checkAbort, nextTick } from './train-loop';
import type { QText, SavedModel, TrainOptions, TrainReport, TrainingData } from './types';

export type HnilConfig = EncoderConfig & {
  /** DeepWalk: walks started from each vertex (the paper: stable from 10). */
  graphWalks: number;
  /** Vertices per walk (the paper's best: 6). */
  graphWalkLength: number;
  /** Rounds of DeepWalk (fresh walks each round). */
  graphEpochs: number;
  /** Skip-gram window over a walk, and the reach of the category loss's question pairs. */
  graphWindow: number;
  graphDim: number;
  graphNegatives: number;
  graphLr: number;
  /** Width of the graph part g(q). */
  metaDim: number;
  /** λ, the weight of the category ranking loss (0 = labeled pairs only). */
  categoryLoss: number;
  /** Category triples (q, q+, q−) added to each batch. */
  categoryTriples: number;
  /** At most this many same-category pairs are kept from the walks (a uniform sample). */
  maxCategoryPairs: number;
  /**
   * Train on the labeled pairs (true) or on the network's category signal alone (false: the paper's
   * own supervision, no labels — e.g. a run to feed the fused ranker without cross-fitting).
   */
  labeledPairs: boolean;
  /** Category-only training: batches of `categoryTriples` per epoch. */
  categoryBatches: number;
};

export const HNIL_DEFAULTS: HnilConfig = {
  ...ENCODER_DEFAULTS,
  graphWalks: 10,
  graphWalkLength: 6,
  graphEpochs: 5,
  graphWindow: 2,
  graphDim: 64,
  graphNegatives: 5,
  graphLr: 0.025,
  metaDim: 32,
  categoryLoss: 0.5,
  categoryTriples: 8,
  maxCategoryPairs: 50_000,
  labeledPairs: true,
  categoryBatches: 200,
};

/** How many questions carry an asker and a category; throws when either is missing everywhere. */
export function requireNetwork(data: TrainingData): { askers: number; categories: number } {
  let askers = 0;
  let categories = 0;
  for (const q of data.questions.values()) {
    if (q.user) askers++;
    if (q.category) categories++;
  }
  const n = data.questions.size;
  const missing = [askers === 0 ? 'askers (user ids)' : '', categories === 0 ? 'categories (or tags)' : ''].filter(Boolean);
  if (missing.length) {
    throw new QPairsError(
      `hnil needs the forum's network, and none of the workspace's ${n} questions has ${missing.join(' or ')}. ` +
        'Import data that keeps them (SemEval XML: RELQ_USERID and RELQ_CATEGORY; Stack Exchange dumps: OwnerUserId and Tags), ' +
        'or train lstm, which is HNIL without the network.',
      { reason: 'no network' },
    );
  }
  return { askers, categories };
}

export class HnilRanker extends EncoderRanker {
  declare readonly config: HnilConfig;
  private graphIndex = new Map<string, number>();
  private graphVectors: Float32Array = new Float32Array(0);
  /** Same-category question pairs met on the walks, and each category's questions. */
  private categoryPairs: Array<[string, string]> = [];
  private categoryOf = new Map<string, string>();
  private byCategory = new Map<string, string[]>();
  private categories: string[] = [];
  private tripleRng = new Rng(7);

  constructor(config: Partial<HnilConfig> = {}) {
    super('hnil', { ...HNIL_DEFAULTS, ...config }, 'lstm');
  }

  override async train(data: TrainingData, opts: TrainOptions = {}): Promise<TrainReport> {
    requireNetwork(data);
    if (!this.config.labeledPairs && !(this.config.categoryLoss > 0)) {
      throw new QPairsError('hnil with labeledPairs: false learns from the category loss alone; categoryLoss must be above 0', { reason: 'nothing to learn' });
    }
    return super.train(data, opts);
  }

  protected override async prepare(data: TrainingData, opts: TrainOptions, rng: Rng): Promise<string[]> {
    const cfg = this.config;
    const { askers, categories } = requireNetwork(data);
    const g = buildQaGraph(data.questions.values(), data.answerers);
    this.graphIndex = g.index;
    // Same-category question pairs within graphWindow steps on a walk, reservoir-sampled.
    const pairs: Array<[string, string]> = [];
    let seen = 0;
    const pairRng = new Rng(rng.u32());
    const qid = (v: number): string | null => {
      const name = g.nodes[v]!;
      return name.startsWith('q:') ? name.slice(2) : null;
    };
    const visit = (walk: Int32Array): void => {
      for (let i = 0; i < walk.length; i++) {
        const a = qid(walk[i]!);
        if (a === null) continue;
        const ca = data.questions.get(a)?.category;
        if (!ca) continue;
        for (let j = i + 1; j <= Math.min(walk.length - 1, i + cfg.graphWindow); j++) {
          const b = qid(walk[j]!);
          if (b === null || b === a || data.questions.get(b)?.category !== ca) continue;
          seen++;
          if (pairs.length < cfg.maxCategoryPairs) pairs.push([a, b]);
          else {
            const k = pairRng.int(seen);
            if (k < cfg.maxCategoryPairs) pairs[k] = [a, b];
          }
        }
      }
    };
    this.graphVectors = await deepWalk(
      g,
      { walksPerVertex: cfg.graphWalks, epochs: cfg.graphEpochs, walkLength: cfg.graphWalkLength, dim: cfg.graphDim, window: cfg.graphWindow, negatives: cfg.graphNegatives, lr: cfg.graphLr },
      rng,
      {
        visit,
        onPass: async (pass) => {
          checkAbort(opts.signal);
          opts.onProgress?.({ epoch: 0, epochs: opts.epochs ?? cfg.epochs, step: pass, steps: cfg.graphWalks * cfg.graphEpochs, loss: 0, phase: 'DeepWalk over the question network' });
          await nextTick();
        },
      },
    );
    this.categoryPairs = pairs;
    this.categoryOf = new Map();
    this.byCategory = new Map();
    for (const q of data.questions.values()) {
      if (!q.category || !(q.title || q.body)) continue;
      this.categoryOf.set(q.id, q.category);
      let list = this.byCategory.get(q.category);
      if (!list) this.byCategory.set(q.category, (list = []));
      list.push(q.id);
    }
    this.categories = [...this.byCategory.keys()].sort();
    if (!cfg.labeledPairs && (this.categoryPairs.length === 0 || this.categories.length < 2)) {
      throw new QPairsError(
        `hnil without labeled pairs learns from categories, and the walks met no two questions of one category (${this.categories.length} categories)`,
        { reason: 'no category signal' },
      );
    }
    this.tripleRng = new Rng(rng.u32());
    const G = 3 * cfg.graphDim;
    this.params.add('metaW', [G, cfg.metaDim], glorotUniform(rng, G, cfg.metaDim));
    this.params.add('metaB', [cfg.metaDim], new Float32Array(cfg.metaDim));
    this.params.add('metaGate', [1], Float32Array.of(1));
    this.invalidate();
    return [
      `network: ${g.counts.questions} questions, ${g.counts.users} users, ${g.counts.categories} categories, ${g.counts.edges} edges ` +
        `(${askers} questions with an asker, ${categories} with a category)`,
      `DeepWalk: ${cfg.graphEpochs} × ${cfg.graphWalks} walks of ${cfg.graphWalkLength} vertices per vertex, window ${cfg.graphWindow}, ${cfg.graphDim}-d vectors; ` +
        `${seen} same-category question pairs on the walks (${pairs.length} kept)`,
    ];
  }

  protected override get representationWidth(): number {
    return this.config.hidden + this.config.metaDim;
  }

  protected override representationKey(q: QText): string {
    return `${textKey(q)}\u0000${q.user ?? ''}\u0000${q.category ?? ''}`;
  }

  /** [φ(asker); φ(category); φ(q)] per question (zeros for a missing vertex), and whether any exists. */
  private graphInputs(texts: readonly QText[]): { x: Float32Array; known: Float32Array } {
    const D = this.config.graphDim;
    const x = new Float32Array(texts.length * 3 * D);
    const known = new Float32Array(texts.length);
    texts.forEach((q, n) => {
      const parts = [q.user ? userNode(q.user) : null, q.category ? categoryNode(q.category) : null, questionNode(q.id)];
      parts.forEach((name, p) => {
        const v = name === null ? undefined : this.graphIndex.get(name);
        if (v === undefined) return;
        x.set(this.graphVectors.subarray(v * D, (v + 1) * D), (n * 3 + p) * D);
        known[n] = 1;
      });
    });
    return { x, known };
  }

  protected override represent(texts: readonly QText[], training: boolean): tf.Tensor2D {
    const text = unitRows(this.encodeTexts(texts, training));
    const { x, known } = this.graphInputs(texts);
    const N = texts.length;
    const g = tf.tanh(tf.add(tf.matMul(tf.tensor2d(x, [N, 3 * this.config.graphDim]), this.params.get('metaW')), this.params.get('metaB')));
    const graph = tf.mul(unitRows(g as tf.Tensor2D), tf.mul(tf.tensor2d(known, [N, 1]), this.params.get('metaGate')));
    return tf.concat([text, graph], 1) as tf.Tensor2D;
  }

  protected override planBatches(data: TrainingData, rng: Rng): TrainInstance[][] {
    if (this.config.labeledPairs) return super.planBatches(data, rng);
    return Array.from({ length: this.config.categoryBatches }, () => []);
  }

  /**
   * The labeled pairs' hinge loss + λ · the category ranking loss on triples from the walks
   * (category-only training: an empty batch, the category loss alone).
   */
  protected override batchLoss(data: TrainingData, batch: TrainInstance[]): tf.Scalar {
    const cfg = this.config;
    const labeled = batch.length ? super.batchLoss(data, batch) : tf.scalar(0);
    if (cfg.categoryLoss <= 0 || this.categoryPairs.length === 0 || this.categories.length < 2) return labeled;
    const triples: Array<[string, string, string]> = [];
    for (let t = 0; t < cfg.categoryTriples; t++) {
      const [q, p] = this.categoryPairs[this.tripleRng.int(this.categoryPairs.length)]!;
      const own = this.categoryOf.get(q)!;
      let other = this.categories[this.tripleRng.int(this.categories.length)]!;
      if (other === own) other = this.categories[(this.categories.indexOf(own) + 1) % this.categories.length]!;
      const pool = this.byCategory.get(other)!;
      triples.push([q, p, pool[this.tripleRng.int(pool.length)]!]);
    }
    const ids = [...new Set(triples.flat())];
    const row = new Map(ids.map((id, i) => [id, i]));
    const r = unitRows(this.represent(textsOf(data, ids), true));
    const pick = (k: number) => tf.gather(r, tf.tensor1d(triples.map((t) => row.get(t[k])!), 'int32'));
    const q = pick(0);
    const margin = tf.relu(tf.add(tf.sub(tf.sum(tf.mul(q, pick(2)), 1), tf.sum(tf.mul(q, pick(1)), 1)), cfg.margin));
    return tf.add(labeled, tf.mul(tf.mean(margin), cfg.categoryLoss)) as tf.Scalar;
  }

  override save(): SavedModel {
    const saved = super.save();
    const nodes = [...this.graphIndex.keys()];
    return {
      ...saved,
      weights: { ...saved.weights, graphVectors: { shape: [nodes.length, this.config.graphDim], data: this.graphVectors.slice() } },
      meta: { ...(saved.meta ?? {}), graphNodes: nodes },
    };
  }

  static override async load(saved: SavedModel): Promise<HnilRanker> {
    await initBackend();
    const r = new HnilRanker(saved.config as Partial<HnilConfig>);
    r.adoptWeights(saved, new Set(['graphVectors']));
    const nodes = (saved.meta?.graphNodes ?? []) as string[];
    r.graphIndex = new Map(nodes.map((n, i) => [n, i]));
    r.graphVectors = saved.weights.graphVectors?.data.slice() ?? new Float32Array(0);
    return r;
  }
}
