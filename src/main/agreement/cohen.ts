import { QPairsError } from '../errors';
import { type Stat, defined, finiteOr, undefinedStat } from '../stats/result';
import { NO_ITEM_IN_COMMON } from './reasons';
import { type Category, type CodedTable, type RatingTable, type Rows, allRows, annotatorIndex, encodeTable } from './table';

export type KappaWeights = 'none' | 'linear' | 'quadratic';

/**
 * Confusion matrix of annotators a (rows) and b (columns) over the items both labeled:
 * O[i·q + j] = # items with a = category i and b = category j. Returns the flat q×q matrix.
 */
export function confusionCoded(t: CodedTable, rows: Rows, a: number, b: number): Float64Array {
  const q = t.q;
  const o = new Float64Array(q * q);
  for (let r = 0; r < rows.length; r++) {
    const base = rows[r] * t.m;
    const x = t.codes[base + a];
    const y = t.codes[base + b];
    if (x >= 0 && y >= 0) o[x * q + y]++;
  }
  return o;
}

/**
 * Cohen's kappa from a q×q confusion matrix O (flat, row-major), N = Σ O:
 *
 *   E_ij = r_i c_j / N  (r, c: row and column sums),
 *   κ_w = 1 − Σ_ij w_ij O_ij / Σ_ij w_ij E_ij,
 *
 * with disagreement weights on category positions i, j (0..q−1, the order of `categories`):
 * none: w_ij = [i ≠ j] (so κ = (p_o − p_e)/(1 − p_e)); linear: |i − j|; quadratic: (i − j)².
 * Same as scikit-learn `cohen_kappa_score(..., labels=categories, weights=...)`.
 * Undefined when N = 0 or Σ w E = 0 (both annotators used one and the same category only).
 */
export function kappaFromConfusion(o: ArrayLike<number>, q: number, weights: KappaWeights = 'none'): Stat {
  const rs = new Float64Array(q);
  const cs = new Float64Array(q);
  let N = 0;
  for (let i = 0; i < q; i++) {
    for (let j = 0; j < q; j++) {
      const v = o[i * q + j];
      rs[i] += v;
      cs[j] += v;
      N += v;
    }
  }
  if (N === 0) return undefinedStat(NO_ITEM_IN_COMMON);
  let wo = 0;
  let we = 0;
  for (let i = 0; i < q; i++) {
    for (let j = 0; j < q; j++) {
      if (i === j) continue;
      const w = weights === 'none' ? 1 : weights === 'linear' ? Math.abs(i - j) : (i - j) * (i - j);
      wo += w * o[i * q + j];
      we += w * ((rs[i] * cs[j]) / N);
    }
  }
  if (we === 0) {
    return undefinedStat('both annotators used a single, identical category: chance agreement is 1 and kappa is 0/0');
  }
  return finiteOr(1 - wo / we, 'kappa is not finite');
}

/** Cohen's kappa of annotators `a` and `b` over the items both labeled (see kappaFromConfusion). */
export function cohenKappa(table: RatingTable, a: string, b: string, weights: KappaWeights = 'none'): Stat {
  const t = encodeTable(table);
  return kappaFromConfusion(confusionCoded(t, allRows(t), annotatorIndex(t, a), annotatorIndex(t, b)), t.q, weights);
}

/** Which categories count as "positive" for specific agreement. */
export type PositiveSpec = Category | readonly Category[];

/**
 * Resolves the positive categories to a mask over category indices: the given category/categories,
 * or by default the second (higher) category of a binary scale. Returns a reason string when a
 * non-binary scale has no positive categories given. Throws QPairsError for an unknown category.
 */
export function positiveMask(categories: readonly Category[], positive?: PositiveSpec): boolean[] | string {
  if (positive === undefined) {
    if (categories.length !== 2) {
      return `specific agreement needs a binary scale or the positive categories (scale has ${categories.length} categories)`;
    }
    return [false, true];
  }
  const pos = Array.isArray(positive) ? (positive as readonly Category[]) : [positive as Category];
  for (const p of pos) {
    if (!categories.includes(p)) {
      throw new QPairsError(`positive category ${JSON.stringify(p)} is not one of the categories`, { reason: 'unknown category' });
    }
  }
  return categories.map((c) => pos.includes(c));
}

export interface SpecificAgreement {
  /** Positive specific agreement PSA = 2a / (2a + b + c). */
  psa: Stat;
  /** Negative specific agreement NSA = 2d / (2d + b + c). */
  nsa: Stat;
}

/**
 * Positive and negative specific agreement (Spitzer & Fleiss 1974; Cicchetti & Feinstein 1990) of
 * two annotators on a binary (or binarized by `mask`) scale, from the 2×2 table
 * a = both positive, b = first positive only, c = second positive only, d = both negative:
 *   PSA = 2a / (2a + b + c),  NSA = 2d / (2d + b + c).
 * Each is undefined when its denominator is 0 (e.g. PSA when neither annotator used a positive label).
 */
export function specificAgreementFromConfusion(o: ArrayLike<number>, q: number, mask: boolean[] | string): SpecificAgreement {
  if (typeof mask === 'string') return { psa: undefinedStat(mask), nsa: undefinedStat(mask) };
  let a = 0;
  let bc = 0;
  let d = 0;
  for (let i = 0; i < q; i++) {
    for (let j = 0; j < q; j++) {
      const v = o[i * q + j];
      if (mask[i] && mask[j]) a += v;
      else if (!mask[i] && !mask[j]) d += v;
      else bc += v;
    }
  }
  return {
    psa: 2 * a + bc === 0 ? undefinedStat('no positive label from either annotator') : defined((2 * a) / (2 * a + bc)),
    nsa: 2 * d + bc === 0 ? undefinedStat('no negative label from either annotator') : defined((2 * d) / (2 * d + bc)),
  };
}

/** PSA and NSA of annotators `a` and `b` over the items both labeled. */
export function specificAgreement(table: RatingTable, a: string, b: string, positive?: PositiveSpec): SpecificAgreement {
  const t = encodeTable(table);
  const o = confusionCoded(t, allRows(t), annotatorIndex(t, a), annotatorIndex(t, b));
  return specificAgreementFromConfusion(o, t.q, positiveMask(t.categories, positive));
}
