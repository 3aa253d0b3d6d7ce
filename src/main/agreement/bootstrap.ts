import { type BootstrapOptions, bootstrapGroups } from '../stats/bootstrap';
import { type Interval, type Stat } from '../stats/result';
import { type CodedTable, type RatedItem, type RatingTable } from './table';

/** Item indices grouped by query id, queries in order of first appearance. */
export function queryGroups(queryIds: readonly string[]): { queries: string[]; rows: number[][] } {
  const at = new Map<string, number>();
  const rows: number[][] = [];
  const queries: string[] = [];
  queryIds.forEach((q, i) => {
    let g = at.get(q);
    if (g === undefined) {
      g = rows.length;
      at.set(q, g);
      rows.push([]);
      queries.push(q);
    }
    rows[g].push(i);
  });
  return { queries, rows };
}

/**
 * Bootstrap over queries on a coded table: each resample draws Q query ids with replacement
 * (Q = number of distinct queries; mulberry32(seed), j = ⌊u·Q⌋) and evaluates `statistic` on
 * the items of the drawn queries, concatenated in draw order (an item appears once per draw of
 * its query). Percentile interval at `level`; resamples where the statistic is undefined are
 * dropped (counted in the note).
 */
export function bootstrapCodedByQuery(t: CodedTable, statistic: (rows: Int32Array) => Stat, options: BootstrapOptions = {}): Interval {
  const { rows: groups } = queryGroups(t.queryIds);
  let buf = new Int32Array(Math.max(1, t.n));
  return bootstrapGroups(
    groups.length,
    (drawn) => {
      let len = 0;
      for (let g = 0; g < drawn.length; g++) {
        const rs = groups[drawn[g]];
        if (len + rs.length > buf.length) {
          const bigger = new Int32Array(Math.max(2 * buf.length, len + rs.length));
          bigger.set(buf.subarray(0, len));
          buf = bigger;
        }
        for (let r = 0; r < rs.length; r++) buf[len++] = rs[r];
      }
      return statistic(buf.subarray(0, len));
    },
    options,
  );
}

/**
 * Bootstrap 95% (or `level`) percentile confidence interval of any agreement statistic,
 * resampling queries with replacement (see bootstrapCodedByQuery); `statistic` receives a table
 * with the same annotators and categories and the resampled items.
 * Deterministic for a given seed. Example: `bootstrapByQuery(t, (s) => fleissKappa(s), { seed: 7 })`.
 */
export function bootstrapByQuery(table: RatingTable, statistic: (t: RatingTable) => Stat, options: BootstrapOptions = {}): Interval {
  const { rows: groups } = queryGroups(table.items.map((it) => it.queryId));
  return bootstrapGroups(
    groups.length,
    (drawn) => {
      const items: RatedItem[] = [];
      for (let g = 0; g < drawn.length; g++) for (const i of groups[drawn[g]]) items.push(table.items[i]);
      return statistic({ ...table, items });
    },
    options,
  );
}
