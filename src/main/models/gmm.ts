/**
 * Gaussian mixture with diagonal covariances, fitted by expectation–maximisation — the "universal"
 * density of word embeddings under which M-NET's Fisher vectors are computed (Zhou et al. 2015, §3.3;
 * Sanchez et al. 2013). Plain Float64Array maths, no tfjs.
 *
 * Model: p(x) = Σ_k w_k N(x; μ_k, diag(σ²_k)). One EM iteration on n points x_i ∈ R^d:
 *   E-step  log ρ_ik = log w_k − ½ Σ_d [log 2π + log σ²_kd + (x_id − μ_kd)² / σ²_kd],
 *           r_ik = exp(log ρ_ik − logsumexp_k log ρ_ik);  mean log-likelihood ℓ = (1/n) Σ_i logsumexp_k log ρ_ik
 *   M-step  n_k = Σ_i r_ik + 10·ε_machine,  w_k = n_k / n,  μ_k = Σ_i r_ik x_i / n_k,
 *           σ²_k = Σ_i r_ik x_i² / n_k − μ_k² + reg   (reg = 1e-6 by default, keeps variances positive)
 * Stops when ℓ changes by less than `tol` (default 1e-3) or after `maxIter` iterations — the same
 * conventions as scikit-learn's GaussianMixture(covariance_type='diag'), against which the tests
 * compare parameters after a fixed number of iterations from the same start.
 *
 * Start: k-means++ seeding of the means (seeded), one hard assignment to the nearest mean, and
 * weights/variances from it, unless `init` gives the starting weights, means and variances.
 */
import { QPairsError } from '../errors';
import { Rng } from './rng';

export interface DiagonalGmm {
  k: number;
  dim: number;
  weights: Float64Array;
  /** k × dim, row-major. */
  means: Float64Array;
  /** k × dim, row-major. */
  variances: Float64Array;
}

export interface GmmFitOptions {
  maxIter?: number;
  tol?: number;
  regCovar?: number;
  seed?: number;
  init?: { weights: ArrayLike<number>; means: ArrayLike<number>; variances: ArrayLike<number> };
  signal?: AbortSignal;
}

export interface GmmFit {
  gmm: DiagonalGmm;
  /** Mean log-likelihood per point after the last E-step. */
  logLikelihood: number;
  iterations: number;
  converged: boolean;
}

const LOG_2PI = Math.log(2 * Math.PI);
const EPS = 2.220446049250313e-16;

/** log w_k + log N(x; μ_k, σ²_k) for every k, into `out` (length k). */
function weightedLogDensities(g: DiagonalGmm, x: Float64Array, xOff: number, logW: Float64Array, logDetHalf: Float64Array, out: Float64Array): void {
  const d = g.dim;
  for (let k = 0; k < g.k; k++) {
    let q = 0;
    const o = k * d;
    for (let j = 0; j < d; j++) {
      const diff = x[xOff + j]! - g.means[o + j]!;
      q += (diff * diff) / g.variances[o + j]!;
    }
    out[k] = logW[k]! - 0.5 * (d * LOG_2PI + q) - logDetHalf[k]!;
  }
}

function logSumExp(a: Float64Array): number {
  let m = -Infinity;
  for (const v of a) if (v > m) m = v;
  if (m === -Infinity) return m;
  let s = 0;
  for (const v of a) s += Math.exp(v - m);
  return m + Math.log(s);
}

function precomputed(g: DiagonalGmm): { logW: Float64Array; logDetHalf: Float64Array } {
  const logW = new Float64Array(g.k);
  const logDetHalf = new Float64Array(g.k);
  for (let k = 0; k < g.k; k++) {
    logW[k] = Math.log(g.weights[k]!);
    let s = 0;
    for (let j = 0; j < g.dim; j++) s += Math.log(g.variances[k * g.dim + j]!);
    logDetHalf[k] = 0.5 * s;
  }
  return { logW, logDetHalf };
}

/**
 * Posterior responsibilities γ_i(k) of every point (n × k, row-major) and the mean log-likelihood.
 */
export function responsibilities(g: DiagonalGmm, x: Float64Array, n: number): { resp: Float64Array; logLikelihood: number } {
  const { logW, logDetHalf } = precomputed(g);
  const resp = new Float64Array(n * g.k);
  const row = new Float64Array(g.k);
  let ll = 0;
  for (let i = 0; i < n; i++) {
    weightedLogDensities(g, x, i * g.dim, logW, logDetHalf, row);
    const lse = logSumExp(row);
    ll += lse;
    for (let k = 0; k < g.k; k++) resp[i * g.k + k] = Math.exp(row[k]! - lse);
  }
  return { resp, logLikelihood: ll / n };
}

function mStep(x: Float64Array, n: number, d: number, k: number, resp: Float64Array, reg: number): DiagonalGmm {
  const nk = new Float64Array(k);
  const means = new Float64Array(k * d);
  const sq = new Float64Array(k * d);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < k; c++) {
      const r = resp[i * k + c]!;
      if (r === 0) continue;
      nk[c]! += r;
      const o = c * d;
      for (let j = 0; j < d; j++) {
        const v = x[i * d + j]!;
        means[o + j]! += r * v;
        sq[o + j]! += r * v * v;
      }
    }
  }
  const weights = new Float64Array(k);
  const variances = new Float64Array(k * d);
  for (let c = 0; c < k; c++) {
    nk[c]! += 10 * EPS;
    weights[c] = nk[c]! / n;
    const o = c * d;
    for (let j = 0; j < d; j++) {
      const mu = means[o + j]! / nk[c]!;
      means[o + j] = mu;
      variances[o + j] = sq[o + j]! / nk[c]! - mu * mu + reg;
    }
  }
  return { k, dim: d, weights, means, variances };
}

function kmeansPlusPlusStart(x: Float64Array, n: number, d: number, k: number, reg: number, seed: number): DiagonalGmm {
  const rng = new Rng(seed);
  const rnd = () => rng.next();
  const centers = new Float64Array(k * d);
  const dist = new Float64Array(n).fill(Infinity);
  let pick = Math.floor(rnd() * n);
  for (let c = 0; c < k; c++) {
    centers.set(x.subarray(pick * d, pick * d + d), c * d);
    let total = 0;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < d; j++) {
        const diff = x[i * d + j]! - centers[c * d + j]!;
        s += diff * diff;
      }
      if (s < dist[i]!) dist[i] = s;
      total += dist[i]!;
    }
    if (total === 0) {
      pick = Math.floor(rnd() * n);
      continue;
    }
    let u = rnd() * total;
    pick = n - 1;
    for (let i = 0; i < n; i++) {
      u -= dist[i]!;
      if (u <= 0) {
        pick = i;
        break;
      }
    }
  }
  // One hard assignment to the nearest center gives the starting responsibilities.
  const resp = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    let best = 0;
    let bestD = Infinity;
    for (let c = 0; c < k; c++) {
      let s = 0;
      for (let j = 0; j < d; j++) {
        const diff = x[i * d + j]! - centers[c * d + j]!;
        s += diff * diff;
      }
      if (s < bestD) {
        bestD = s;
        best = c;
      }
    }
    resp[i * k + best] = 1;
  }
  return mStep(x, n, d, k, resp, reg);
}

/** Fits a k-component diagonal GMM to n points of dimension d (x row-major, n × d). */
export function fitDiagonalGmm(x: Float64Array, n: number, d: number, k: number, opts: GmmFitOptions = {}): GmmFit {
  if (!Number.isInteger(k) || k < 1) throw new QPairsError(`GMM: the number of components must be a positive integer, got ${k}`);
  if (n < k) throw new QPairsError(`GMM: ${n} points cannot fit ${k} components`);
  if (x.length !== n * d) throw new QPairsError(`GMM: expected ${n} × ${d} values, got ${x.length}`);
  const reg = opts.regCovar ?? 1e-6;
  const maxIter = opts.maxIter ?? 100;
  const tol = opts.tol ?? 1e-3;
  let g: DiagonalGmm = opts.init
    ? { k, dim: d, weights: Float64Array.from(opts.init.weights), means: Float64Array.from(opts.init.means), variances: Float64Array.from(opts.init.variances) }
    : kmeansPlusPlusStart(x, n, d, k, reg, opts.seed ?? 1);
  let prev = -Infinity;
  let ll = -Infinity;
  let it = 0;
  let converged = false;
  while (it < maxIter) {
    if (opts.signal?.aborted) throw new QPairsError('GMM fitting was cancelled', { reason: 'cancelled' });
    const e = responsibilities(g, x, n);
    g = mStep(x, n, d, k, e.resp, reg);
    ll = e.logLikelihood;
    it++;
    if (Math.abs(ll - prev) < tol) {
      converged = true;
      break;
    }
    prev = ll;
  }
  return { gmm: g, logLikelihood: ll, iterations: it, converged };
}
