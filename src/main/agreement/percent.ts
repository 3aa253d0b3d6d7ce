import { type Stat, defined, undefinedStat } from '../stats/result';
import { itemCounts } from './counts';
import { NO_ITEM_IN_COMMON, NO_ITEM_LABELED_TWICE } from './reasons';
import { type CodedTable, type RatingTable, type Rows, allRows, annotatorIndex, encodeTable } from './table';

/**
 * Pooled pairwise percent agreement over all annotators:
 *   P = Σ_i Σ_c n_ic (n_ic − 1) / Σ_i n_i (n_i − 1)
 * over items with n_i ≥ 2 labels — the share of agreeing (ordered) annotator pairs among all
 * pairs that labeled the same item. Items are thereby weighted by their number of pairs.
 * Undefined when no item has two labels.
 */
export function percentAgreementCoded(t: CodedTable, rows: Rows): Stat {
  const counts = new Int32Array(t.q);
  let agree = 0;
  let pairs = 0;
  for (let r = 0; r < rows.length; r++) {
    const ni = itemCounts(t, rows[r], counts);
    if (ni < 2) continue;
    pairs += ni * (ni - 1);
    for (let c = 0; c < t.q; c++) agree += counts[c] * (counts[c] - 1);
  }
  return pairs === 0 ? undefinedStat(NO_ITEM_LABELED_TWICE) : defined(agree / pairs);
}

/**
 * Percent agreement of annotators a and b: (# items where both gave the same label) /
 * (# items both labeled). Undefined when they labeled no item in common.
 */
export function pairPercentAgreementCoded(t: CodedTable, rows: Rows, a: number, b: number): Stat {
  let both = 0;
  let same = 0;
  for (let r = 0; r < rows.length; r++) {
    const base = rows[r] * t.m;
    const x = t.codes[base + a];
    const y = t.codes[base + b];
    if (x < 0 || y < 0) continue;
    both++;
    if (x === y) same++;
  }
  return both === 0 ? undefinedStat(NO_ITEM_IN_COMMON) : defined(same / both);
}

/**
 * Percent agreement: of annotators `a` and `b` when given (items both labeled), else the pooled
 * pairwise agreement of all annotators (see percentAgreementCoded).
 */
export function percentAgreement(table: RatingTable, a?: string, b?: string): Stat {
  const t = encodeTable(table);
  if (a !== undefined && b !== undefined) {
    return pairPercentAgreementCoded(t, allRows(t), annotatorIndex(t, a), annotatorIndex(t, b));
  }
  return percentAgreementCoded(t, allRows(t));
}
