import { QPairsError } from '../errors';

/** A label value. Categories are listed in order (low → high) in `RatingTable.categories`. */
export type Category = string | number;

/**
 * One rated item (a query–candidate pair). `labels[j]` is the label given by
 * `RatingTable.annotators[j]`, or `null`/`undefined` when that annotator did not label it.
 */
export interface RatedItem {
  id: string;
  /** The query the item belongs to; bootstrap resamples queries (all their items together). */
  queryId: string;
  labels: readonly (Category | null | undefined)[];
}

/**
 * The "items × annotators" structure every agreement statistic works on; missing labels allowed.
 *
 * - `categories`: the label scale in order, low → high (order matters for weighted kappa and
 *   ordinal alpha; e.g. `[-2,-1,0,1,2]` or `['Irrelevant','Relevant','PerfectMatch']`).
 * - `scale`: optional numeric value of each category for interval/ratio alpha. Default: the
 *   category itself when every category is a number, else its index 0..q−1.
 */
export interface RatingTable {
  categories: readonly Category[];
  annotators: readonly string[];
  items: readonly RatedItem[];
  scale?: readonly number[];
}

/** A validated table with labels coded as category indices (−1 = missing). Internal. */
export interface CodedTable {
  readonly categories: readonly Category[];
  /** Numeric value of each category (interval / ratio metrics). */
  readonly scale: readonly number[];
  readonly annotators: readonly string[];
  readonly itemIds: readonly string[];
  readonly queryIds: readonly string[];
  /** Row-major n × m: codes[i·m + j] is annotator j's label index on item i, −1 if missing. */
  readonly codes: Int32Array;
  /** Items, annotators, categories. */
  readonly n: number;
  readonly m: number;
  readonly q: number;
}

/** Row indices to evaluate (possibly with repetitions, as in a bootstrap resample). */
export type Rows = ArrayLike<number>;

export function allRows(t: CodedTable): Int32Array {
  return Int32Array.from({ length: t.n }, (_, i) => i);
}

/**
 * Validates and codes a RatingTable. Throws QPairsError for duplicate categories/annotators,
 * a label not in `categories` (naming the item and annotator), or a labels array of the wrong length.
 */
export function encodeTable(table: RatingTable): CodedTable {
  const { categories, annotators, items } = table;
  const index = new Map<Category, number>();
  categories.forEach((c, k) => {
    if (index.has(c)) throw new QPairsError(`rating table: duplicate category ${JSON.stringify(c)}`, { reason: 'duplicate category' });
    if (typeof c === 'number' && !Number.isFinite(c)) {
      throw new QPairsError(`rating table: category ${c} is not a finite number`, { reason: 'bad category' });
    }
    index.set(c, k);
  });
  if (new Set(annotators).size !== annotators.length) {
    throw new QPairsError('rating table: duplicate annotator id', { reason: 'duplicate annotator' });
  }
  let scale: number[];
  if (table.scale) {
    if (table.scale.length !== categories.length || table.scale.some((v) => !Number.isFinite(v))) {
      throw new QPairsError(`rating table: scale must hold ${categories.length} finite numbers`, { reason: 'bad scale' });
    }
    scale = [...table.scale];
  } else if (categories.every((c) => typeof c === 'number')) {
    scale = categories as number[];
  } else {
    scale = categories.map((_, k) => k);
  }
  const n = items.length;
  const m = annotators.length;
  const codes = new Int32Array(n * m);
  items.forEach((it, i) => {
    if (it.labels.length !== m) {
      throw new QPairsError(`rating table: item "${it.id}" has ${it.labels.length} labels for ${m} annotators`, {
        record: it.id,
        reason: 'labels length mismatch',
      });
    }
    for (let j = 0; j < m; j++) {
      const l = it.labels[j];
      if (l === null || l === undefined) {
        codes[i * m + j] = -1;
        continue;
      }
      const k = index.get(l);
      if (k === undefined) {
        throw new QPairsError(
          `rating table: item "${it.id}", annotator "${annotators[j]}": label ${JSON.stringify(l)} is not one of the categories`,
          { record: it.id, reason: 'unknown label' },
        );
      }
      codes[i * m + j] = k;
    }
  });
  return {
    categories,
    scale,
    annotators,
    itemIds: items.map((it) => it.id),
    queryIds: items.map((it) => it.queryId),
    codes,
    n,
    m,
    q: categories.length,
  };
}

/** Index of an annotator id; throws QPairsError if unknown. */
export function annotatorIndex(t: { annotators: readonly string[] }, id: string): number {
  const j = t.annotators.indexOf(id);
  if (j < 0) throw new QPairsError(`unknown annotator "${id}"`, { record: id, reason: 'unknown annotator' });
  return j;
}

/** One judgment in long form (as stored: who labeled which item of which query, and how). */
export interface Judgment {
  annotator: string;
  itemId: string;
  queryId: string;
  label: Category;
}

/**
 * Builds a RatingTable from long-form judgments. Items and annotators keep first-appearance
 * order unless `annotators` is given. Throws QPairsError if an annotator labels an item twice
 * or an item appears under two query ids.
 */
export function ratingTableFromJudgments(
  judgments: readonly Judgment[],
  categories: readonly Category[],
  annotators?: readonly string[],
): RatingTable {
  const ann = annotators ? [...annotators] : [...new Set(judgments.map((j) => j.annotator))];
  const col = new Map(ann.map((a, j) => [a, j]));
  const rows = new Map<string, { id: string; queryId: string; labels: (Category | null)[] }>();
  judgments.forEach((jd, r) => {
    const j = col.get(jd.annotator);
    if (j === undefined) return; // annotator not selected
    let row = rows.get(jd.itemId);
    if (!row) {
      row = { id: jd.itemId, queryId: jd.queryId, labels: ann.map(() => null) };
      rows.set(jd.itemId, row);
    } else if (row.queryId !== jd.queryId) {
      throw new QPairsError(`judgment ${r}: item "${jd.itemId}" appears under queries "${row.queryId}" and "${jd.queryId}"`, {
        record: jd.itemId,
        reason: 'inconsistent query id',
      });
    }
    if (row.labels[j] !== null) {
      throw new QPairsError(`judgment ${r}: annotator "${jd.annotator}" labeled item "${jd.itemId}" twice`, {
        record: jd.itemId,
        reason: 'duplicate judgment',
      });
    }
    row.labels[j] = jd.label;
  });
  return { categories, annotators: ann, items: [...rows.values()] };
}

/** The same table restricted to some annotators (in the given order). */
export function selectAnnotators(table: RatingTable, ids: readonly string[]): RatingTable {
  const cols = ids.map((id) => annotatorIndex(table, id));
  return { ...table, annotators: [...ids], items: table.items.map((it) => ({ ...it, labels: cols.map((j) => it.labels[j]) })) };
}
