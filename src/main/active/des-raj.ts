/**
 * Unbiased estimation of a population mean from queries chosen one at a time with
 * unequal, adaptive probabilities (sampling without replacement) — the estimator behind the
 * "decide-rankers" and "uncertainty" labeling orders, whose choice of the next query depends
 * on the labels so far (so the plain mean over the labeled queries is biased).
 *
 * Des Raj's ordered estimator (Des Raj 1956, "Some estimators in sampling with varying
 * probabilities without replacement", JASA 51; Murthy 1957). Population of N units with values
 * y_j and total T = Σ y_j. At draw t (t = 1..n) unit u_t is chosen from the units not yet drawn
 * with probability p_t(u_t), where p_t may depend on everything observed before draw t. Then
 *
 *   Z_t = Σ_{i<t} y_{u_i} + y_{u_t} / p_t(u_t)
 *
 * satisfies E[Z_t | draws 1..t−1] = T, so every Z_t and their mean T̂ = (1/n) Σ_t Z_t are unbiased
 * for T, whatever the (adaptive) rule producing p_t. Mean estimate μ̂ = T̂ / N. Variance estimate
 * (unbiased for n ≥ 2, the Z_t − T being martingale differences):
 *
 *   v̂(T̂) = Σ_t (Z_t − T̂)² / (n (n − 1)),   SE(μ̂) = √v̂ / N.
 *
 * A draw with p_t = 1 (the last remaining unit, or a deterministic choice) is allowed: Z_t is then
 * the exact total of the units drawn so far plus nothing, which is only unbiased when no unit is
 * left; deterministic orders should use the plain mean instead (see `plainMean`).
 */
import { QPairsError } from '../errors';

export interface Draw {
  /** The drawn unit's value (e.g. AP of ranker A − AP of ranker B on the query). */
  y: number;
  /** The probability with which it was drawn among the units remaining at that draw (0 < p ≤ 1). */
  p: number;
}

export interface MeanEstimate {
  /** Estimated population mean. */
  mean: number;
  /** Standard error of `mean` (NaN with fewer than 2 draws). */
  se: number;
  /** Draws used. */
  n: number;
}

/** Des Raj's estimate of the population mean of N units from ordered draws (see the file comment). */
export function desRajMean(draws: readonly Draw[], populationSize: number): MeanEstimate {
  const n = draws.length;
  if (!Number.isInteger(populationSize) || populationSize < 1) throw new QPairsError(`desRajMean: population size must be a positive integer, got ${populationSize}`);
  if (n > populationSize) throw new QPairsError(`desRajMean: ${n} draws from a population of ${populationSize}`);
  if (n === 0) return { mean: Number.NaN, se: Number.NaN, n: 0 };
  const z = new Float64Array(n);
  let before = 0;
  for (let t = 0; t < n; t++) {
    const { y, p } = draws[t]!;
    if (!(p > 0 && p <= 1)) throw new QPairsError(`desRajMean: draw ${t + 1} has probability ${p}, not in (0, 1]`);
    z[t] = before + y / p;
    before += y;
  }
  let total = 0;
  for (let t = 0; t < n; t++) total += z[t]!;
  total /= n;
  let ss = 0;
  for (let t = 0; t < n; t++) ss += (z[t]! - total) ** 2;
  const se = n >= 2 ? Math.sqrt(ss / (n * (n - 1))) / populationSize : Number.NaN;
  return { mean: total / populationSize, se, n };
}

/**
 * The plain mean over the drawn units with the usual standard error s/√n (finite-population
 * correction √(1 − n/N) applied): unbiased when every order of draws is equally likely (a seeded
 * random order); for a fixed or adaptive order it is the mean of the labeled queries only.
 */
export function plainMean(values: readonly number[], populationSize: number): MeanEstimate {
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, se: Number.NaN, n: 0 };
  let m = 0;
  for (const v of values) m += v;
  m /= n;
  let ss = 0;
  for (const v of values) ss += (v - m) ** 2;
  const fpc = Math.max(0, 1 - n / populationSize);
  const se = n >= 2 ? Math.sqrt((ss / (n - 1) / n) * fpc) : Number.NaN;
  return { mean: m, se, n };
}
