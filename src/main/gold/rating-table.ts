/**
 * The items × annotators RatingTable of a pool (see agreement.ts's module comment for what counts
 * as an item, a label and the scale): built once per report, and handed to poolAgreement by a
 * caller that needed it first (the export's datasheet sizes its bootstrap on it).
 */
import { labelGrade, schemeValues, UNSURE, type LabelScheme } from '../../shared/labels';
import type { RatingTable } from '../agreement';
import { pairKey, type PoolState } from './state';

/** The label scale of a scheme, low grade to high: its values (graded: the integer values that occur) and their grades. */
export function schemeCategories(scheme: LabelScheme, values: Iterable<string> = []): { categories: string[]; scale: number[] } {
  if (scheme !== 'graded') {
    const categories = [...schemeValues(scheme)].sort((a, b) => labelGrade(a)! - labelGrade(b)!);
    return { categories, scale: categories.map((v) => labelGrade(v)!) };
  }
  const nums = [...new Set([...values].filter((v) => v !== UNSURE).map((v) => labelGrade(v)).filter((g): g is number => g !== null))].sort(
    (a, b) => a - b,
  );
  return { categories: nums.map(String), scale: nums };
}

export interface PoolRatingTable {
  table: RatingTable;
  /** Item id → pair. */
  pairs: Map<string, { queryId: string; candidateId: string }>;
  /** Per item: the latest label event among the annotators (for "agreement over time"). */
  lastSeq: Map<string, number>;
  /** "?" labels of the annotators on these queries, left out of the table (missing labels). */
  unsure: number;
}

/** The RatingTable of a pool for the given annotators, optionally over some of its queries (see the module comment). */
export function poolRatingTable(s: PoolState, annotators: readonly string[], queries?: ReadonlySet<string>): PoolRatingTable {
  const all: string[] = [];
  for (const a of annotators) for (const l of s.labels.get(a)?.values() ?? []) all.push(l.value);
  const { categories, scale } = schemeCategories(s.scheme, all);
  const known = new Set(categories);
  const items: RatingTable['items'][number][] = [];
  const pairs = new Map<string, { queryId: string; candidateId: string }>();
  const lastSeq = new Map<string, number>();
  let unsure = 0;
  for (const q of s.queries) {
    if (queries && !queries.has(q.queryId)) continue;
    for (const c of q.candidates) {
      const key = pairKey(q.queryId, c);
      let any = false;
      let seq = 0;
      const labels = annotators.map((a) => {
        const l = s.labels.get(a)?.get(key);
        if (l?.value === UNSURE) unsure++;
        if (!l || l.value === UNSURE || !known.has(l.value)) return null;
        any = true;
        seq = Math.max(seq, l.seq);
        return l.value;
      });
      if (!any) continue;
      items.push({ id: key, queryId: q.queryId, labels });
      pairs.set(key, { queryId: q.queryId, candidateId: c });
      lastSeq.set(key, seq);
    }
  }
  return { table: { categories, scale, annotators: [...annotators], items }, pairs, lastSeq, unsure };
}
