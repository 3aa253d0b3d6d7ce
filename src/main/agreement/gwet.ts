import { type Stat, finiteOr, undefinedStat } from '../stats/result';
import { itemCounts } from './counts';
import { NO_ITEM_LABELED_TWICE } from './reasons';
import { type CodedTable, type RatingTable, type Rows, allRows, encodeTable } from './table';

/**
 * Gwet's AC1 (Gwet 2008; Handbook of Inter-Rater Reliability, 4th ed., ch. 2, multiple raters
 * with missing ratings), q = number of categories of the scale (`categories.length`, used or not):
 *
 *   p_a = (1/n₂) Σ_{i: r_i ≥ 2} Σ_k r_ik (r_ik − 1) / (r_i (r_i − 1))
 *   π_k = (1/n₁) Σ_{i: r_i ≥ 1} r_ik / r_i
 *   p_e = (1/(q − 1)) Σ_k π_k (1 − π_k)
 *   AC1 = (p_a − p_e) / (1 − p_e)
 *
 * (r_ik: raters giving item i category k; r_i = Σ_k r_ik; n₂, n₁: items with ≥ 2 / ≥ 1 ratings.)
 * For two raters without missing data this is (p_o − p_e)/(1 − p_e) with π_k the mean of the two
 * raters' marginal proportions. Since p_e ≤ 1/q < 1, AC1 is defined whenever q ≥ 2 and some item
 * has two ratings (a single category used by everyone gives AC1 = 1).
 */
export function gwetAC1Coded(t: CodedTable, rows: Rows): Stat {
  if (t.q < 2) return undefinedStat('AC1 needs a scale with at least two categories');
  const counts = new Int32Array(t.q);
  const pi = new Float64Array(t.q);
  let n1 = 0;
  let n2 = 0;
  let pa = 0;
  for (let r = 0; r < rows.length; r++) {
    const ri = itemCounts(t, rows[r], counts);
    if (ri === 0) continue;
    n1++;
    for (let k = 0; k < t.q; k++) pi[k] += counts[k] / ri;
    if (ri < 2) continue;
    n2++;
    let s = 0;
    for (let k = 0; k < t.q; k++) s += counts[k] * (counts[k] - 1);
    pa += s / (ri * (ri - 1));
  }
  if (n2 === 0) return undefinedStat(NO_ITEM_LABELED_TWICE);
  pa /= n2;
  let pe = 0;
  for (let k = 0; k < t.q; k++) {
    const p = pi[k] / n1;
    pe += p * (1 - p);
  }
  pe /= t.q - 1;
  return finiteOr((pa - pe) / (1 - pe), 'AC1 is not finite');
}

export function gwetAC1(table: RatingTable): Stat {
  const t = encodeTable(table);
  return gwetAC1Coded(t, allRows(t));
}

