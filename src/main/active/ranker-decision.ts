/**
 * Where the rankers stand after some queries are labeled: each ranker's estimated MAP (SemEval
 * convention: queries without a relevant candidate count 0) with its standard error, the best one,
 * and whether it is already decided — every other ranker's MAP is below the best's with Holm-
 * corrected p < alpha (two-sided paired test on the per-query AP differences: t = D̂ / SE(D̂), Student t
 * with n − 1 degrees of freedom, SE from the estimator in use). So a team can stop labeling.
 *
 * Estimator: for a random or fixed order the plain mean of the labeled queries; for an adaptive
 * order Des Raj's unbiased estimator over the ordered draws (des-raj.ts), model-assisted when the
 * draws carry predictions (assistedMean); both are linear in the values, so differences of
 * estimates are estimates of differences. Once every query is labeled,
 * the exact means (standard error 0).
 */
import { holm } from '../stats/holm';
import { studentTTwoSidedP } from '../stats/special';
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
}

export interface RankerStanding {
  maps: MeanEstimate[];
  best: number;
  /** Holm-adjusted p-value of "ranker r differs from the best" (NaN for the best itself). */
  adjustedP: number[];
  decided: boolean;
  /** z[r][s] = |MAP_r − MAP_s| / SE of the difference (Infinity when SE = 0 and they differ; 0 when equal). */
  z: number[][];
}

/** `pick` turns a per-ranker vector into the quantity estimated (one ranker's AP, or a difference). */
function estimate(draws: readonly LabeledDraw[], values: readonly number[], populationSize: number, pick: (v: readonly number[]) => number): MeanEstimate {
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
  const pRaw: number[] = [];
  const others: number[] = [];
  const n = draws.length;
  for (let r = 0; r < R; r++)
    for (let s = r + 1; s < R; s++) {
      const d = estimate(
        draws,
        draws.map((x) => x.aps[r]! - x.aps[s]!),
        populationSize,
        (v) => v[r]! - v[s]!,
      );
      const zz = d.mean === 0 ? 0 : d.se > 0 ? Math.abs(d.mean) / d.se : Number.isNaN(d.se) ? 0 : Infinity;
      z[r]![s] = z[s]![r] = zz;
    }
  for (let r = 0; r < R; r++) {
    if (r === best) continue;
    others.push(r);
    const zz = z[r]![best]!;
    pRaw.push(n < 2 ? 1 : zz === Infinity ? 0 : studentTTwoSidedP(zz, n - 1));
  }
  const h = others.length ? holm(pRaw, alpha) : { adjusted: [], reject: [] };
  const adjustedP = new Array<number>(R).fill(Number.NaN);
  others.forEach((r, i) => (adjustedP[r] = h.adjusted[i]!));
  const decided = others.length > 0 && n >= 2 && h.reject.every(Boolean);
  return { maps, best, adjustedP, decided, z };
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
