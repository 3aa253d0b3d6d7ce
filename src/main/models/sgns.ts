/**
 * Skip-gram with negative sampling (Mikolov et al. 2013) over integer sequences: the shared core of
 * the `skipgram` word vectors and of HNIL's DeepWalk node embeddings (walks are the "sentences").
 *
 * For each centre position i of a (subsampled) sequence s, a window shrunk by b ~ U{0..window−1}
 * and each context position j ≠ i within it, with k negatives n ~ U(count)^0.75:
 *   maximise log σ(v_{s_j}·u_{s_i}) + Σ_k log σ(−v_{s_j}·u_{n_k}),
 * by SGD with a learning rate decaying linearly from `lr` to lr·1e-4 over `budget` centre words.
 * `v` = syn0 (the vectors kept), `u` = syn1. Frequent ids are kept with probability
 * (√(f/(tN)) + 1)·tN/f (t = `subsample`; 0 keeps everything). Random draws come from one LCG seeded
 * by the caller, so a run is reproducible from its seed.
 */

const TABLE_SIZE = 1_000_000;
const MAX_EXP = 6;

export interface SgnsOptions {
  /** Occurrence count of each id (length V): the negative-sampling and subsampling distribution. */
  counts: Float64Array;
  dim: number;
  window: number;
  negatives: number;
  lr: number;
  /** Subsampling threshold t (0 = keep every occurrence). */
  subsample: number;
  /** Centre words over the whole training run (for the learning-rate decay). */
  budget: number;
  /** Initial input vectors [V × dim]; trained in place. */
  syn0: Float32Array;
  /** Seed of the LCG (non-zero). */
  seed: number;
}

export class SgnsTrainer {
  readonly syn0: Float32Array;
  private readonly syn1: Float32Array;
  private readonly table = new Int32Array(TABLE_SIZE);
  private readonly keep: Float32Array;
  private readonly neu1e: Float32Array;
  private lcg: number;
  private processed = 0;

  constructor(private readonly o: SgnsOptions) {
    const V = o.counts.length;
    this.syn0 = o.syn0;
    this.syn1 = new Float32Array(V * o.dim);
    this.neu1e = new Float32Array(o.dim);
    let z = 0;
    for (let i = 0; i < V; i++) z += o.counts[i] ** 0.75;
    let i = 0;
    let cum = o.counts[0] ** 0.75 / z;
    for (let a = 0; a < TABLE_SIZE; a++) {
      this.table[a] = i;
      if (a / TABLE_SIZE > cum && i < V - 1) {
        i++;
        cum += o.counts[i] ** 0.75 / z;
      }
    }
    let total = 0;
    for (let k = 0; k < V; k++) total += o.counts[k];
    const tN = o.subsample * total;
    this.keep = new Float32Array(V);
    for (let k = 0; k < V; k++) this.keep[k] = o.subsample > 0 ? Math.min(1, (Math.sqrt(o.counts[k] / tN) + 1) * (tN / o.counts[k])) : 1;
    this.lcg = o.seed || 1;
  }

  /** The next draw of the trainer's LCG (callers' extra draws stay in the same reproducible stream). */
  nextU32(): number {
    this.lcg = (Math.imul(this.lcg, 1664525) + 1013904223) >>> 0;
    return this.lcg;
  }

  /**
   * One SGD pass over a sequence. `afterCentre(w, alpha)` runs after each centre word's updates
   * (M-NET's category term). Returns the summed negative log-likelihood of the scored pairs.
   */
  trainSequence(seq: Int32Array, afterCentre?: (w: number, alpha: number) => void): number {
    const { dim: D, window: win, negatives: K, lr, budget } = this.o;
    const { syn0, syn1, keep, table, neu1e } = this;
    const s: number[] = [];
    for (let i = 0; i < seq.length; i++) {
      const r = this.nextU32();
      if (keep[seq[i]] >= 1 || keep[seq[i]] > r / 4294967296) s.push(seq[i]);
    }
    let lossSum = 0;
    for (let i = 0; i < s.length; i++) {
      const alpha = lr * Math.max(1e-4, 1 - this.processed / budget);
      this.processed++;
      const b = this.nextU32() % win;
      const w = s[i];
      for (let j = i - win + b; j <= i + win - b; j++) {
        if (j < 0 || j >= s.length || j === i) continue;
        const l1 = s[j] * D;
        neu1e.fill(0);
        for (let k = 0; k <= K; k++) {
          let target: number;
          let label: number;
          if (k === 0) {
            target = w;
            label = 1;
          } else {
            target = table[this.nextU32() % TABLE_SIZE];
            if (target === w) continue;
            label = 0;
          }
          const l2 = target * D;
          let f = 0;
          for (let d = 0; d < D; d++) f += syn0[l1 + d] * syn1[l2 + d];
          let g: number;
          if (f > MAX_EXP) g = label - 1;
          else if (f < -MAX_EXP) g = label;
          else {
            const sg = 1 / (1 + Math.exp(-f));
            g = label - sg;
            lossSum -= Math.log(label ? sg + 1e-7 : 1 - sg + 1e-7);
          }
          g *= alpha;
          for (let d = 0; d < D; d++) {
            neu1e[d] += g * syn1[l2 + d];
            syn1[l2 + d] += g * syn0[l1 + d];
          }
        }
        for (let d = 0; d < D; d++) syn0[l1 + d] += neu1e[d];
      }
      afterCentre?.(w, alpha);
    }
    return lossSum;
  }
}
