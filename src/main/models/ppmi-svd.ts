/**
 * Count-based word vectors: positive pointwise mutual information (PPMI) of word–context
 * co-occurrences, factorised by a truncated SVD (Levy, Goldberg & Dagan 2015). Pure functions over
 * Float64Arrays; `randomizedSvd` also serves LSA (the SVD of a document–term matrix).
 *
 * Co-occurrence: every pair of tokens at distance δ = 1..window inside one document, counted both ways
 * (#(w, c) symmetric), over the vocabulary of words with count ≥ minCount (most frequent first,
 * ties alphabetical; at most maxVocab words). Each pair adds 1 (weighting 'uniform') or 1/δ
 * (weighting 'harmonic', as GloVe and word2vec's dynamic window: near neighbours count more).
 *
 * PPMI with context-distribution smoothing α:
 *   PMI(w, c) = ln( #(w, c) · Σ_c' #(c')^α  /  ( #(w) · #(c)^α ) ),   #(w) = Σ_c #(w, c)
 *   PPMI(w, c) = max(0, PMI(w, c))
 *
 * Truncated SVD PPMI ≈ U_k Σ_k V_kᵀ by the randomized range finder (Halko, Martinsson & Tropp 2011):
 *   Y = A Ω (Ω Gaussian n × (k + p)), Q = orth(Y); q power iterations Q ← orth(A orth(Aᵀ Q));
 *   B = Qᵀ A;  B Bᵀ = W Λ Wᵀ (Jacobi);  U = Q W,  σ = √λ,  V = Bᵀ W / σ.
 * Word vectors: rows of U_k Σ_k^p (p = eigenvalue weighting, 0.5 by default).
 */
import { Rng } from './rng';

/** Compressed sparse rows. */
export interface Csr {
  rows: number;
  cols: number;
  indptr: Int32Array;
  indices: Int32Array;
  values: Float64Array;
}

export interface CooccurrenceOptions {
  window: number;
  minCount: number;
  maxVocab?: number;
  /** 'uniform': each pair in the window adds 1; 'harmonic': a pair at distance δ adds 1/δ. Default 'uniform'. */
  weighting?: 'uniform' | 'harmonic';
}

/** Vocabulary (most frequent first, ties alphabetical) and symmetric window co-occurrence counts. */
export function cooccurrence(docs: ReadonlyArray<readonly string[]>, o: CooccurrenceOptions): { words: string[]; counts: Csr } {
  const freq = new Map<string, number>();
  for (const d of docs) for (const t of d) freq.set(t, (freq.get(t) ?? 0) + 1);
  let words = [...freq].filter(([, c]) => c >= o.minCount).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([w]) => w);
  if (o.maxVocab !== undefined && words.length > o.maxVocab) words = words.slice(0, o.maxVocab);
  const index = new Map(words.map((w, i) => [w, i]));
  const V = words.length;
  const rowsMaps: Array<Map<number, number>> = Array.from({ length: V }, () => new Map());
  const harmonic = o.weighting === 'harmonic';
  for (const d of docs) {
    const ids = d.map((t) => index.get(t) ?? -1);
    for (let i = 0; i < ids.length; i++) {
      const a = ids[i];
      if (a < 0) continue;
      for (let j = i + 1; j <= i + o.window && j < ids.length; j++) {
        const b = ids[j];
        if (b < 0) continue;
        const w = harmonic ? 1 / (j - i) : 1;
        rowsMaps[a].set(b, (rowsMaps[a].get(b) ?? 0) + w);
        rowsMaps[b].set(a, (rowsMaps[b].get(a) ?? 0) + w);
      }
    }
  }
  return { words, counts: fromRowMaps(rowsMaps, V) };
}

function fromRowMaps(rowsMaps: Array<Map<number, number>>, cols: number): Csr {
  let nnz = 0;
  for (const m of rowsMaps) nnz += m.size;
  const indptr = new Int32Array(rowsMaps.length + 1);
  const indices = new Int32Array(nnz);
  const values = new Float64Array(nnz);
  let p = 0;
  rowsMaps.forEach((m, r) => {
    const cs = [...m.keys()].sort((a, b) => a - b);
    for (const c of cs) {
      indices[p] = c;
      values[p++] = m.get(c)!;
    }
    indptr[r + 1] = p;
  });
  return { rows: rowsMaps.length, cols, indptr, indices, values };
}

/** A CSR matrix from (row, col, value) triples; duplicates are summed. */
export function csrFromTriples(rows: number, cols: number, triples: Iterable<readonly [number, number, number]>): Csr {
  const maps: Array<Map<number, number>> = Array.from({ length: rows }, () => new Map());
  for (const [r, c, v] of triples) maps[r].set(c, (maps[r].get(c) ?? 0) + v);
  return fromRowMaps(maps, cols);
}

/** PPMI of a co-occurrence matrix with context smoothing α (formula in the file comment); zeros dropped. */
export function ppmi(counts: Csr, alpha = 0.75): Csr {
  const { rows, cols, indptr, indices, values } = counts;
  const rowSum = new Float64Array(rows);
  const colSum = new Float64Array(cols);
  for (let r = 0; r < rows; r++)
    for (let p = indptr[r]; p < indptr[r + 1]; p++) {
      rowSum[r] += values[p];
      colSum[indices[p]] += values[p];
    }
  const colPow = colSum.map((x) => x ** alpha);
  let colPowSum = 0;
  for (const x of colPow) colPowSum += x;
  const outPtr = new Int32Array(rows + 1);
  const outIdx: number[] = [];
  const outVal: number[] = [];
  for (let r = 0; r < rows; r++) {
    for (let p = indptr[r]; p < indptr[r + 1]; p++) {
      const c = indices[p];
      const pmi = Math.log((values[p] * colPowSum) / (rowSum[r] * colPow[c]));
      if (pmi > 0) {
        outIdx.push(c);
        outVal.push(pmi);
      }
    }
    outPtr[r + 1] = outIdx.length;
  }
  return { rows, cols, indptr: outPtr, indices: Int32Array.from(outIdx), values: Float64Array.from(outVal) };
}

/** A · X for X column-major (cols(A) × l); result column-major (rows(A) × l). */
function mulDense(A: Csr, X: Float64Array, l: number): Float64Array {
  const m = A.rows;
  const n = A.cols;
  const Y = new Float64Array(m * l);
  for (let r = 0; r < m; r++)
    for (let p = A.indptr[r]; p < A.indptr[r + 1]; p++) {
      const c = A.indices[p];
      const v = A.values[p];
      for (let j = 0; j < l; j++) Y[j * m + r] += v * X[j * n + c];
    }
  return Y;
}

/** Aᵀ · X for X column-major (rows(A) × l); result column-major (cols(A) × l). */
function mulDenseT(A: Csr, X: Float64Array, l: number): Float64Array {
  const m = A.rows;
  const n = A.cols;
  const Y = new Float64Array(n * l);
  for (let r = 0; r < m; r++)
    for (let p = A.indptr[r]; p < A.indptr[r + 1]; p++) {
      const c = A.indices[p];
      const v = A.values[p];
      for (let j = 0; j < l; j++) Y[j * n + c] += v * X[j * m + r];
    }
  return Y;
}

/** Orthonormalises the l columns (each of length m, column-major) in place: modified Gram–Schmidt, twice. */
function orthonormalise(Y: Float64Array, m: number, l: number): void {
  for (let pass = 0; pass < 2; pass++)
    for (let j = 0; j < l; j++) {
      const cj = j * m;
      for (let i = 0; i < j; i++) {
        const ci = i * m;
        let d = 0;
        for (let t = 0; t < m; t++) d += Y[ci + t] * Y[cj + t];
        for (let t = 0; t < m; t++) Y[cj + t] -= d * Y[ci + t];
      }
      let n = 0;
      for (let t = 0; t < m; t++) n += Y[cj + t] * Y[cj + t];
      n = Math.sqrt(n);
      if (n > 1e-12) for (let t = 0; t < m; t++) Y[cj + t] /= n;
      else for (let t = 0; t < m; t++) Y[cj + t] = 0;
    }
}

/**
 * Eigen-decomposition of a symmetric l × l matrix (row-major) by cyclic Jacobi rotations.
 * Returns eigenvalues (descending) and eigenvectors as columns of a row-major l × l matrix.
 */
export function symmetricEigen(S: Float64Array, l: number): { values: Float64Array; vectors: Float64Array } {
  const a = S.slice();
  const v = new Float64Array(l * l);
  for (let i = 0; i < l; i++) v[i * l + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    let diag = 0;
    for (let i = 0; i < l; i++) {
      diag += a[i * l + i] ** 2;
      for (let j = i + 1; j < l; j++) off += a[i * l + j] ** 2;
    }
    if (off <= 1e-30 * Math.max(diag, 1e-300)) break;
    for (let p = 0; p < l; p++)
      for (let q = p + 1; q < l; q++) {
        const apq = a[p * l + q];
        if (Math.abs(apq) < 1e-300) continue;
        const app = a[p * l + p];
        const aqq = a[q * l + q];
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < l; k++) {
          const akp = a[k * l + p];
          const akq = a[k * l + q];
          a[k * l + p] = c * akp - s * akq;
          a[k * l + q] = s * akp + c * akq;
        }
        for (let k = 0; k < l; k++) {
          const apk = a[p * l + k];
          const aqk = a[q * l + k];
          a[p * l + k] = c * apk - s * aqk;
          a[q * l + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < l; k++) {
          const vkp = v[k * l + p];
          const vkq = v[k * l + q];
          v[k * l + p] = c * vkp - s * vkq;
          v[k * l + q] = s * vkp + c * vkq;
        }
      }
  }
  const order = Array.from({ length: l }, (_, i) => i).sort((x, y) => a[y * l + y] - a[x * l + x]);
  const values = Float64Array.from(order, (i) => a[i * l + i]);
  const vectors = new Float64Array(l * l);
  order.forEach((src, dst) => {
    for (let k = 0; k < l; k++) vectors[k * l + dst] = v[k * l + src];
  });
  return { values, vectors };
}

export interface SvdOptions {
  oversample?: number;
  powerIterations?: number;
  seed?: number;
}

export interface TruncatedSvd {
  k: number;
  /** Left singular vectors, row-major rows(A) × k. */
  u: Float64Array;
  /** Singular values, descending. */
  s: Float64Array;
  /** Right singular vectors, row-major cols(A) × k. */
  v: Float64Array;
}

/**
 * Rank-k SVD of a sparse matrix by the randomized range finder (file comment). Each singular
 * vector's sign is fixed so that its largest-magnitude entry in U is positive.
 */
export function randomizedSvd(A: Csr, k: number, o: SvdOptions = {}): TruncatedSvd {
  const m = A.rows;
  const n = A.cols;
  const kk = Math.min(k, m, n);
  const l = Math.min(kk + (o.oversample ?? 10), m, n);
  const rng = new Rng(o.seed ?? 1);
  const omega = new Float64Array(n * l);
  for (let i = 0; i < omega.length; i++) omega[i] = rng.normal();
  const Q = mulDense(A, omega, l);
  orthonormalise(Q, m, l);
  for (let it = 0; it < (o.powerIterations ?? 4); it++) {
    const Z = mulDenseT(A, Q, l);
    orthonormalise(Z, n, l);
    Q.set(mulDense(A, Z, l));
    orthonormalise(Q, m, l);
  }
  // Bᵀ = Aᵀ Q (n × l, column-major); B Bᵀ = (AᵀQ)ᵀ(AᵀQ)
  const Bt = mulDenseT(A, Q, l);
  const G = new Float64Array(l * l);
  for (let i = 0; i < l; i++)
    for (let j = i; j < l; j++) {
      let d = 0;
      for (let t = 0; t < n; t++) d += Bt[i * n + t] * Bt[j * n + t];
      G[i * l + j] = G[j * l + i] = d;
    }
  const { values, vectors: W } = symmetricEigen(G, l);
  const s = new Float64Array(kk);
  const u = new Float64Array(m * kk);
  const v = new Float64Array(n * kk);
  for (let j = 0; j < kk; j++) {
    const sj = Math.sqrt(Math.max(values[j], 0));
    s[j] = sj;
    // u_j = Q w_j
    for (let i = 0; i < l; i++) {
      const w = W[i * l + j];
      if (w === 0) continue;
      for (let r = 0; r < m; r++) u[r * kk + j] += w * Q[i * m + r];
    }
    let big = 0;
    for (let r = 0; r < m; r++) if (Math.abs(u[r * kk + j]) > Math.abs(big)) big = u[r * kk + j];
    const sign = big < 0 ? -1 : 1;
    if (sign < 0) for (let r = 0; r < m; r++) u[r * kk + j] = -u[r * kk + j];
    // v_j = Bᵀ w_j / σ_j
    if (sj > 1e-12)
      for (let i = 0; i < l; i++) {
        const w = (sign * W[i * l + j]) / sj;
        if (w === 0) continue;
        for (let c = 0; c < n; c++) v[c * kk + j] += w * Bt[i * n + c];
      }
  }
  return { k: kk, u, s, v };
}

export interface PpmiSvdOptions extends CooccurrenceOptions {
  dim: number;
  /** Context-distribution smoothing exponent α. */
  alpha: number;
  /** Eigenvalue weighting p: vectors = U Σ^p. */
  eigenPower: number;
  powerIterations: number;
  seed: number;
}

export const PPMI_SVD_DEFAULTS: PpmiSvdOptions = { window: 5, minCount: 3, maxVocab: 20_000, dim: 150, alpha: 0.75, eigenPower: 0.5, powerIterations: 3, seed: 1 };

/** Word vectors (row-major words × dim, not normalised) from tokenised documents. */
export function ppmiSvdVectors(docs: ReadonlyArray<readonly string[]>, opts: Partial<PpmiSvdOptions> = {}): { words: string[]; dim: number; data: Float64Array } {
  const o = { ...PPMI_SVD_DEFAULTS, ...opts };
  const { words, counts } = cooccurrence(docs, o);
  if (words.length === 0) return { words, dim: 0, data: new Float64Array(0) };
  const svd = randomizedSvd(ppmi(counts, o.alpha), o.dim, { powerIterations: o.powerIterations, seed: o.seed });
  const data = new Float64Array(words.length * svd.k);
  const scale = Float64Array.from(svd.s, (x) => x ** o.eigenPower);
  for (let r = 0; r < words.length; r++) for (let j = 0; j < svd.k; j++) data[r * svd.k + j] = svd.u[r * svd.k + j] * scale[j];
  return { words, dim: svd.k, data };
}
