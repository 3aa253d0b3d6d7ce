import { type Stat, finiteOr, undefinedStat } from '../stats/result';
import { itemCounts } from './counts';
import { type CodedTable, type RatingTable, type Rows, allRows, encodeTable } from './table';

export type AlphaMetric = 'nominal' | 'ordinal' | 'interval' | 'ratio';

/**
 * Coincidence matrix (Krippendorff 2011): over pairable units u (m_u ≥ 2 labels), with n_uc the
 * number of labels c in unit u,
 *   o_ck = Σ_u n_uc (n_uk − [c = k]) / (m_u − 1).
 * Flat q×q, row-major.
 */
export function coincidenceCoded(t: CodedTable, rows: Rows): Float64Array {
  const q = t.q;
  const o = new Float64Array(q * q);
  const counts = new Int32Array(q);
  for (let r = 0; r < rows.length; r++) {
    const mu = itemCounts(t, rows[r], counts);
    if (mu < 2) continue;
    for (let c = 0; c < q; c++) {
      if (counts[c] === 0) continue;
      for (let k = 0; k < q; k++) {
        const pairs = counts[c] * (counts[k] - (c === k ? 1 : 0));
        if (pairs > 0) o[c * q + k] += pairs / (mu - 1);
      }
    }
  }
  return o;
}

/**
 * Krippendorff's alpha from the coincidence matrix o (Krippendorff 2011, "Computing
 * Krippendorff's Alpha-Reliability"):
 *
 *   n_c = Σ_k o_ck,  n = Σ_c n_c,
 *   α = 1 − D_o / D_e = 1 − (n − 1) · Σ_{c,k} o_ck δ²_ck / Σ_{c,k} n_c n_k δ²_ck
 *
 * with the difference functions (c, k category positions; v = `scale` values):
 *   nominal   δ² = [c ≠ k]
 *   ordinal   δ² = (Σ_{g=min(c,k)}^{max(c,k)} n_g − (n_c + n_k)/2)²   (category order of the scale)
 *   interval  δ² = (v_c − v_k)²
 *   ratio     δ² = ((v_c − v_k) / (v_c + v_k))²   (needs v ≥ 0; 0 when v_c = v_k)
 *
 * Missing labels are allowed; units with < 2 labels are not pairable and are ignored.
 * Undefined when no unit is pairable or D_e = 0 (a single value in the pairable data —
 * note that NLTK returns 1 there), and ratio alpha when a used category has a negative value.
 */
export function alphaFromCoincidence(o: ArrayLike<number>, scale: readonly number[], metric: AlphaMetric): Stat {
  const q = scale.length;
  const nc = new Float64Array(q);
  let n = 0;
  for (let c = 0; c < q; c++) {
    for (let k = 0; k < q; k++) nc[c] += o[c * q + k];
    n += nc[c];
  }
  if (n === 0) return undefinedStat('no unit has labels from two annotators');
  if (metric === 'ratio') {
    for (let c = 0; c < q; c++) {
      if (nc[c] > 0 && scale[c] < 0) return undefinedStat(`ratio metric needs non-negative values (category value ${scale[c]})`);
    }
  }
  const cum = new Float64Array(q + 1); // cum[g] = Σ_{h<g} n_h
  for (let g = 0; g < q; g++) cum[g + 1] = cum[g] + nc[g];
  const delta2 = (c: number, k: number): number => {
    if (c === k) return 0;
    switch (metric) {
      case 'nominal':
        return 1;
      case 'ordinal': {
        const lo = Math.min(c, k);
        const hi = Math.max(c, k);
        const d = cum[hi + 1] - cum[lo] - (nc[c] + nc[k]) / 2;
        return d * d;
      }
      case 'interval':
        return (scale[c] - scale[k]) ** 2;
      case 'ratio': {
        const s = scale[c] + scale[k];
        return s === 0 ? 0 : ((scale[c] - scale[k]) / s) ** 2;
      }
    }
  };
  let dObs = 0;
  let dExp = 0;
  for (let c = 0; c < q; c++) {
    for (let k = 0; k < q; k++) {
      if (c === k) continue;
      const d2 = delta2(c, k);
      if (d2 === 0) continue;
      dObs += o[c * q + k] * d2;
      dExp += nc[c] * nc[k] * d2;
    }
  }
  if (dExp === 0) return undefinedStat('only one value occurs in the pairable data: expected disagreement is 0 and alpha is 0/0');
  return finiteOr(1 - ((n - 1) * dObs) / dExp, 'alpha is not finite');
}

export function krippendorffAlphaCoded(t: CodedTable, rows: Rows, metric: AlphaMetric): Stat {
  return alphaFromCoincidence(coincidenceCoded(t, rows), t.scale, metric);
}

/** Krippendorff's alpha of all annotators of `table` with the given metric (default nominal). */
export function krippendorffAlpha(table: RatingTable, metric: AlphaMetric = 'nominal'): Stat {
  const t = encodeTable(table);
  return krippendorffAlphaCoded(t, allRows(t), metric);
}

/** The coincidence matrix as q rows of q numbers (for display). */
export function coincidenceMatrix(table: RatingTable): number[][] {
  const t = encodeTable(table);
  const o = coincidenceCoded(t, allRows(t));
  return t.categories.map((_, c) => Array.from(o.subarray(c * t.q, (c + 1) * t.q)));
}

