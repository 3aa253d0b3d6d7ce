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
  return desRajLike(
    draws.map((d) => d.y),
    draws.map((d, t) => {
      if (!(d.p > 0 && d.p <= 1)) throw new QPairsError(`desRajMean: draw ${t + 1} has probability ${d.p}, not in (0, 1]`);
      return d.y / d.p;
    }),
    populationSize,
  );
}

export interface AssistedDraw extends Draw {
  /** The prediction of this unit's value, made before it was drawn. */
  predicted: number;
  /** Σ of the predictions (made before this draw) over the units remaining at this draw, the drawn one included. */
  predictedRemaining: number;
}

/**
 * Model-assisted version of Des Raj's estimator: the remaining units' total is estimated by their
 * predictions plus the drawn unit's prediction error scaled by its draw probability,
 *
 *   Z_t = Σ_{i<t} y_{u_i} + Σ_{j remaining at t} ŷ_j + (y_{u_t} − ŷ_{u_t}) / p_t(u_t),
 *
 * so E[Z_t | draws 1..t−1] = T for any predictions fixed before draw t (their errors are what is
 * sampled, as in difference estimators; ŷ ≡ 0 gives Des Raj). Mean and standard error as in
 * desRajMean. With good predictions the Z_t barely move, so the estimate settles with far fewer draws;
 * a unit whose value is known in advance (ŷ = y, e.g. a query on which every ranker orders the
 * candidates alike, whose AP differences are 0 whatever the labels) adds no variance at all.
 */
export function assistedMean(draws: readonly AssistedDraw[], populationSize: number): MeanEstimate {
  return desRajLike(
    draws.map((d) => d.y),
    draws.map((d, t) => {
      if (!(d.p > 0 && d.p <= 1)) throw new QPairsError(`assistedMean: draw ${t + 1} has probability ${d.p}, not in (0, 1]`);
      return d.predictedRemaining + (d.y - d.predicted) / d.p;
    }),
    populationSize,
  );
}

/** Mean and SE of Z_t = Σ_{i<t} y_i + rest_t over the draws (see desRajMean). */
function desRajLike(y: readonly number[], rest: readonly number[], populationSize: number): MeanEstimate {
  const n = y.length;
  if (!Number.isInteger(populationSize) || populationSize < 1) throw new QPairsError(`population size must be a positive integer, got ${populationSize}`);
  if (n > populationSize) throw new QPairsError(`${n} draws from a population of ${populationSize}`);
  if (n === 0) return { mean: Number.NaN, se: Number.NaN, n: 0 };
  const z = new Float64Array(n);
  let before = 0;
  for (let t = 0; t < n; t++) {
    z[t] = before + rest[t]!;
    before += y[t]!;
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
