/**
 * Fisher vectors of bags of embedded words under a diagonal GMM (Zhou et al. 2015, eq. 12–14, after
 * Sanchez et al. 2013, "Image classification with the Fisher vector: theory and practice"): for a
 * question's N word vectors x_1..x_N with responsibilities γ_j(k) (gmm.ts), per component k
 *
 *   G_μ,k = 1/(N √w_k)  Σ_j γ_j(k) (x_j − μ_k) / σ_k
 *   G_σ,k = 1/(N √(2w_k)) Σ_j γ_j(k) [ (x_j − μ_k)² / σ²_k − 1 ]
 *
 * (term by term over the d dimensions), concatenated as [G_μ,1 … G_μ,K, G_σ,1 … G_σ,K] (2Kd values),
 * then the usual improvements of Sanchez et al.: power normalisation z ← sign(z)·|z|^α (α = ½) and L2
 * normalisation, so the similarity of two questions is the dot product of their vectors. A question
 * with no embedded word gets the zero vector (similarity 0 with everything).
 */
import type { DiagonalGmm } from './gmm';
import { responsibilities } from './gmm';

export interface FisherOptions {
  /** Power normalisation exponent (default 0.5; 1 = none). */
  power?: number;
  /** L2-normalise the result (default true). */
  l2?: boolean;
}

/** Fisher vector of n word vectors (x row-major, n × gmm.dim). */
export function fisherVector(gmm: DiagonalGmm, x: Float64Array, n: number, opts: FisherOptions = {}): Float64Array {
  const K = gmm.k;
  const d = gmm.dim;
  const out = new Float64Array(2 * K * d);
  if (n === 0) return out;
  const { resp } = responsibilities(gmm, x, n);
  for (let k = 0; k < K; k++) {
    const muOff = k * d;
    const sgOff = K * d + k * d;
    for (let i = 0; i < n; i++) {
      const g = resp[i * K + k]!;
      if (g === 0) continue;
      for (let j = 0; j < d; j++) {
        const sd = Math.sqrt(gmm.variances[k * d + j]!);
        const z = (x[i * d + j]! - gmm.means[k * d + j]!) / sd;
        out[muOff + j]! += g * z;
        out[sgOff + j]! += g * (z * z - 1);
      }
    }
    const w = gmm.weights[k]!;
    const a = 1 / (n * Math.sqrt(w));
    const b = 1 / (n * Math.sqrt(2 * w));
    for (let j = 0; j < d; j++) {
      out[muOff + j]! *= a;
      out[sgOff + j]! *= b;
    }
  }
  const power = opts.power ?? 0.5;
  if (power !== 1) for (let i = 0; i < out.length; i++) out[i] = Math.sign(out[i]!) * Math.abs(out[i]!) ** power;
  if (opts.l2 ?? true) {
    let s = 0;
    for (const v of out) s += v * v;
    if (s > 0) {
      const inv = 1 / Math.sqrt(s);
      for (let i = 0; i < out.length; i++) out[i]! *= inv;
    }
  }
  return out;
}
