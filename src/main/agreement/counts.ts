import type { CodedTable } from './table';

/**
 * Fills `counts[c]` with n_ic, the number of annotators who gave category c to item i, and
 * returns n_i = Σ_c n_ic (the number of labels on item i).
 */
export function itemCounts(t: CodedTable, i: number, counts: Int32Array | Float64Array): number {
  counts.fill(0);
  let ni = 0;
  const base = i * t.m;
  for (let j = 0; j < t.m; j++) {
    const c = t.codes[base + j];
    if (c >= 0) {
      counts[c]++;
      ni++;
    }
  }
  return ni;
}
