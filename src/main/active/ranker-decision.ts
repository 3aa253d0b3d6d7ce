/**
 * Where the rankers stand after some queries are labeled. Two different questions, kept apart:
 *
 * 1. *This pool's MAP* — each ranker's MAP over the pool's N queries (SemEval convention: queries
 *    without a relevant candidate count 0), estimated from the labeled queries with its standard error
 *    (`maps`). Its sampling error falls to 0 as the pool fills: once every query is labeled the pool's
 *    MAP is known exactly.
 * 2. *Is the best ranker better than each other one on queries like these* — a claim about the queries
 *    the pool stands for, which a finite pool never settles exactly. It is the paired test over queries
 *    that `eval --compare R1,…,Rk --baseline BEST` runs: per-query AP differences d_i = AP_best − AP_r,
 *    t = d̄ / (s/√n), s² = Σ (d_i − d̄)² / (n − 1), two-sided Student t with n − 1 degrees of freedom,
 *    Holm over the k − 1 pairs (best vs each other). "Decided" needs every pair rejected at alpha.
 *
 * For an adaptive order (Des Raj's estimator over draws with unequal probabilities) the labeled queries
 * are not a simple random sample, so the difference is tested twice and the larger p counts: the paired
 * t-test over the labeled queries, and t = D̂ / SE_q with SE_q² = SE_design² + s²/N — the estimator's
 * design variance plus the pool's own spread around the population of queries (s² the sample variance
 * of the labeled differences). For a random sample the latter is the paired t-test again
 * (SE_design² = (1 − n/N)·s²/n, so SE_q² = s²/n), and with every query labeled SE_design = 0 and
 * SE_q = s/√N: the full-label paired test. A decision therefore never rests on a standard error of 0.
 *
 * Estimator: for a random or fixed order the plain mean of the labeled queries; for an adaptive
 * order Des Raj's unbiased estimator over the ordered draws (des-raj.ts), model-assisted when the
 * draws carry predictions (assistedMean); both are linear in the values, so differences of
 * estimates are estimates of differences. Once every query is labeled, the exact means (standard error 0).
 *
 * Convention `skip` (a draw with `counts: false`: a labeled query without a relevant candidate, which
 * eval leaves out): the quantity is the mean over the pool's queries that have a relevant candidate, a
 * domain of unknown size. Its estimate is the ratio of two estimates over the same draws — of the
 * total of the values over the domain and of the domain's size (Des Raj for an adaptive order, without
 * the model's predictions; the plain mean over the counted queries for a random or fixed order) — with
 * the linearised standard error; the paired test runs over the counted queries only, and the pool's
 * spread term uses the estimated domain size. Exact again once every query is labeled.
 */
import { holm } from '../stats/holm';
import { studentTTwoSidedP } from '../stats/special';
import { pairedTTest } from '../stats/ttest';
import { assistedMean, desRajMean, plainMean, type MeanEstimate } from './des-raj';

export interface LabeledDraw {
  /** AP of each ranker on the query. */
  aps: readonly number[];
  /** Probability the query was drawn with; null for random/fixed orders (plain mean). */
  p: number | null;
  /**
   * Adaptive orders with predictions (des-raj.ts assistedMean): each ranker's predicted AP on this
   * query, and the sum of the predictions over the queries remaining at this draw (this one included),
   * both made before the draw.
   */
  predicted?: readonly number[];
  predictedRemaining?: readonly number[];
  /**
   * Whether the query counts (default true). False under convention `skip` for a query without a
   * relevant candidate: eval leaves it out, so the estimates and the paired test do too (module comment).
   */
  counts?: boolean;
}

export interface RankerStanding {
  maps: MeanEstimate[];
  best: number;
  /**
   * Holm-adjusted p-value of "ranker r differs from the best on queries like these" (NaN for the best
   * itself, and where the paired test has no p: under 2 queries, or no difference on any): the paired
   * test over queries (module comment), never the pool-MAP standard error.
   */
  adjustedP: number[];
  /** Every other ranker is below the best with Holm-adjusted p < alpha in the paired test over queries. */
  decided: boolean;
  /**
   * Rankers whose AP differences from the best are the same non-zero value on every one of the n
   * queries counted. The paired t-test's p is 0 there (the limit of t = d̄/(0/√n): a standard error of
   * 0), which would decide after two queries; such a pair is tested by the exact sign-flip
   * randomization test instead, whose p is 2/2ⁿ (only "all +" and "all −" reach the observed |d̄|):
   * 0.5 for 2 queries, under 0.05 from 6 on.
   */
  noSpread: number[];
  /** z[r][s] = |D̂_rs| / SE_q of the difference (SE_q as in the module comment; Infinity when it is 0 and they differ; 0 when equal). */
  z: number[][];
}

const counts = (d: LabeledDraw): boolean => d.counts !== false;

/**
 * The mean of `values` over the queries that count: every draw's when all count, else the domain
 * estimate of the module comment (its `n`: the draws that count).
 */
function estimate(draws: readonly LabeledDraw[], values: readonly number[], populationSize: number, pick: (v: readonly number[]) => number): MeanEstimate {
  if (draws.every(counts)) return estimateAll(draws, values, populationSize, pick);
  const inDomain = draws.map(counts);
  const dv = values.filter((_, i) => inDomain[i]);
  const nd = dv.length;
  if (nd === 0) return { mean: Number.NaN, se: Number.NaN, n: 0 };
  if (draws.length === populationSize) return { mean: dv.reduce((a, v) => a + v, 0) / nd, se: 0, n: nd };
  // Plain mean over the counted queries; the sampling fraction is the draws' (n / N), as for the domain.
  if (draws.every((d) => d.p === null)) return plainMean(dv, (nd * populationSize) / draws.length);
  const p = (d: LabeledDraw): number => d.p ?? 1;
  const total = desRajMean(draws.map((d, i) => ({ y: inDomain[i] ? values[i]! : 0, p: p(d) })), populationSize);
  const size = desRajMean(draws.map((d, i) => ({ y: inDomain[i] ? 1 : 0, p: p(d) })), populationSize);
  const ratio = total.mean / size.mean;
  const residual = desRajMean(draws.map((d, i) => ({ y: inDomain[i] ? values[i]! - ratio : 0, p: p(d) })), populationSize);
  return { mean: ratio, se: residual.se / size.mean, n: nd };
}

/** The estimated number of the pool's queries that count (the domain's size; populationSize when all count). */
function countingSize(draws: readonly LabeledDraw[], populationSize: number): number {
  if (draws.every(counts)) return populationSize;
  const nd = draws.filter(counts).length;
  if (draws.length === populationSize) return nd;
  if (draws.every((d) => d.p === null)) return (nd * populationSize) / draws.length;
  return desRajMean(draws.map((d) => ({ y: counts(d) ? 1 : 0, p: d.p ?? 1 })), populationSize).mean * populationSize;
}

/** `pick` turns a per-ranker vector into the quantity estimated (one ranker's AP, or a difference). */
function estimateAll(draws: readonly LabeledDraw[], values: readonly number[], populationSize: number, pick: (v: readonly number[]) => number): MeanEstimate {
  if (draws.length === populationSize) {
    // Every query is labeled: the mean is known exactly.
    let s = 0;
    for (const v of values) s += v;
    return { mean: s / populationSize, se: 0, n: populationSize };
  }
  if (draws.every((d) => d.p === null)) return plainMean(values, populationSize);
  if (draws.every((d) => d.predicted && d.predictedRemaining))
    return assistedMean(
      draws.map((d, i) => ({ y: values[i]!, p: d.p ?? 1, predicted: pick(d.predicted!), predictedRemaining: pick(d.predictedRemaining!) })),
      populationSize,
    );
  return desRajMean(
    draws.map((d, i) => ({ y: values[i]!, p: d.p ?? 1 })),
    populationSize,
  );
}

/** Sample variance Σ (v − v̄)² / (n − 1) (NaN for n < 2). */
function sampleVariance(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return Number.NaN;
  let m = 0;
  for (const v of values) m += v;
  m /= n;
  let ss = 0;
  for (const v of values) ss += (v - m) ** 2;
  return ss / (n - 1);
}

export function rankerStanding(draws: readonly LabeledDraw[], populationSize: number, alpha = 0.05): RankerStanding {
  const R = draws[0]?.aps.length ?? 0;
  const maps: MeanEstimate[] = [];
  for (let r = 0; r < R; r++)
    maps.push(
      estimate(
        draws,
        draws.map((d) => d.aps[r]!),
        populationSize,
        (v) => v[r]!,
      ),
    );
  let best = 0;
  for (let r = 1; r < R; r++) if (maps[r]!.mean > maps[best]!.mean) best = r;
  const z: number[][] = Array.from({ length: R }, () => new Array<number>(R).fill(0));
  // The paired test and the pool's spread are over the draws that count (all of them under convention zero).
  const counted = draws.filter(counts);
  const n = counted.length;
  const Nc = countingSize(draws, populationSize);
  const plain = draws.every((d) => d.p === null) || draws.length === populationSize;
  for (let r = 0; r < R; r++)
    for (let s = r + 1; s < R; s++) {
      const diffs = draws.map((x) => x.aps[r]! - x.aps[s]!);
      const d = estimate(draws, diffs, populationSize, (v) => v[r]! - v[s]!);
      // The superpopulation standard error: design variance + the pool's spread over N (module comment).
      const seQ = Math.sqrt((Number.isNaN(d.se) ? 0 : d.se ** 2) + sampleVariance(counted.map((x) => x.aps[r]! - x.aps[s]!)) / Nc);
      const zz = d.mean === 0 ? 0 : seQ > 0 ? Math.abs(d.mean) / seQ : Number.isNaN(seQ) ? 0 : Infinity;
      z[r]![s] = z[s]![r] = zz;
    }
  const pRaw: number[] = [];
  const others: number[] = [];
  let undefinedPairs = 0;
  const noSpread: number[] = [];
  for (let r = 0; r < R; r++) {
    if (r === best) continue;
    const t = pairedTTest(
      counted.map((d) => d.aps[best]!),
      counted.map((d) => d.aps[r]!),
    );
    // Undefined p (fewer than 2 queries, or every difference 0): no p-value, nothing rejected, and
    // (as `eval --compare`) left out of Holm's family, so the other pairs' p match the comparison's.
    if (t.p.value === null) {
      undefinedPairs++;
      continue;
    }
    others.push(r);
    // p = 0 from a standard error of 0 (t infinite): the exact randomization p instead (noSpread).
    const spreadless = t.t.value === null;
    if (spreadless) noSpread.push(r);
    const pPaired = spreadless ? Math.min(1, 2 ** (1 - n)) : t.p.value;
    const zz = z[r]![best]!;
    const pEstimator = n < 2 ? 1 : zz === Infinity ? 0 : studentTTwoSidedP(zz, n - 1);
    pRaw.push(plain ? pPaired : Math.max(pPaired, pEstimator));
  }
  const h = others.length ? holm(pRaw, alpha) : { adjusted: [], reject: [] };
  const adjustedP = new Array<number>(R).fill(Number.NaN);
  others.forEach((r, i) => (adjustedP[r] = h.adjusted[i]!));
  const decided = others.length > 0 && undefinedPairs === 0 && n >= 2 && h.reject.every(Boolean);
  return { maps, best, adjustedP, decided, noSpread, z };
}

/**
 * Kendall's τ-a between two score vectors over the same items: (concordant − discordant) / (n(n−1)/2);
 * a pair tied in either vector counts as neither.
 */
export function kendallTau(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  if (n < 2) return 1;
  let s = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) s += Math.sign(a[i]! - a[j]!) * Math.sign(b[i]! - b[j]!);
  return s / ((n * (n - 1)) / 2);
}
