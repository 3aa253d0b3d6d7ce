import { type Stat, defined, finiteOr, undefinedStat } from '../stats/result';
import { itemCounts } from './counts';
import { NO_ITEM_LABELED_TWICE } from './reasons';
import { type CodedTable, type RatingTable, type Rows, allRows, encodeTable } from './table';

/**
 * Fleiss' kappa (Fleiss 1971) for items each rated by the same number of raters m:
 *
 *   P_i = (Σ_c n_ic² − m) / (m (m − 1)),   P̄ = (1/N) Σ_i P_i,
 *   p_c = Σ_i n_ic / (N m),                 P̄_e = Σ_c p_c²,
 *   κ = (P̄ − P̄_e) / (1 − P̄_e).
 *
 * Items with differing numbers of labels: the statistic is computed on the items having the
 * MODAL number of labels m (among items with ≥ 2 labels; ties go to the larger m); the other
 * items are dropped and the note says how many were used. (Same as statsmodels `fleiss_kappa`
 * on that subset.) Undefined when no item has two labels or P̄_e = 1 (a single category used).
 */
export function fleissKappaCoded(t: CodedTable, rows: Rows): Stat {
  const counts = new Int32Array(t.q);
  const freq = new Map<number, number>();
  let rated = 0;
  for (let r = 0; r < rows.length; r++) {
    const ni = itemCounts(t, rows[r], counts);
    if (ni >= 2) {
      freq.set(ni, (freq.get(ni) ?? 0) + 1);
      rated++;
    }
  }
  if (rated === 0) return undefinedStat(NO_ITEM_LABELED_TWICE);
  let m = 0;
  let best = 0;
  for (const [k, f] of freq) {
    if (f > best || (f === best && k > m)) {
      m = k;
      best = f;
    }
  }
  const catTotals = new Float64Array(t.q);
  let sumP = 0;
  let N = 0;
  for (let r = 0; r < rows.length; r++) {
    const ni = itemCounts(t, rows[r], counts);
    if (ni !== m) continue;
    N++;
    let sq = 0;
    for (let c = 0; c < t.q; c++) {
      sq += counts[c] * counts[c];
      catTotals[c] += counts[c];
    }
    sumP += (sq - m) / (m * (m - 1));
  }
  const pBar = sumP / N;
  let pe = 0;
  for (let c = 0; c < t.q; c++) {
    const p = catTotals[c] / (N * m);
    pe += p * p;
  }
  if (pe >= 1) return undefinedStat('all labels are the same category: expected agreement is 1 and kappa is 0/0');
  const note = N === rated ? `${N} items with ${m} labels each` : `restricted to the ${N} of ${rated} items with ${m} labels (the modal number)`;
  const k = finiteOr((pBar - pe) / (1 - pe), 'kappa is not finite');
  return k.value === null ? k : defined(k.value, note);
}

export function fleissKappa(table: RatingTable): Stat {
  const t = encodeTable(table);
  return fleissKappaCoded(t, allRows(t));
}
