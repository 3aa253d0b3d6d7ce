import { throwIfAborted } from '../errors';
import { type BootstrapOptions, bootstrapGroups, bootstrapSettings } from '../stats/bootstrap';
import { type Interval, type Stat, defined, undefinedStat } from '../stats/result';
import { queryGroups } from './bootstrap';
import { type PositiveSpec, confusionCoded, kappaFromConfusion, positiveMask, specificAgreementFromConfusion } from './cohen';
import { itemCounts } from './counts';
import { fleissKappaCoded } from './fleiss';
import { gwetAC1Coded } from './gwet';
import { krippendorffAlphaCoded } from './krippendorff';
import { pairPercentAgreementCoded, percentAgreementCoded } from './percent';
import { NO_ITEM_IN_COMMON } from './reasons';
import { type Category, type RatingTable, allRows, encodeTable } from './table';

export interface PairAgreement {
  a: string;
  b: string;
  /** Items labeled by both. */
  items: number;
  percentAgreement: Stat;
  cohenKappa: Stat;
  cohenKappaLinear: Stat;
  cohenKappaQuadratic: Stat;
  /** Bootstrap-over-queries percentile CI of the unweighted Cohen's kappa. */
  ci95: Interval;
  psa: Stat;
  nsa: Stat;
  /** confusion[i][j] = items labeled categories[i] by a and categories[j] by b. */
  confusion: number[][];
}

export interface QueryAgreement {
  queryId: string;
  /** Items of this query. */
  items: number;
  /** Items with labels from at least two annotators. */
  multiplyLabeled: number;
  /** Pooled pairwise percent agreement within the query. */
  percentAgreement: Stat;
  /** Ids of items whose labels are not all equal. */
  disagreements: string[];
}

export interface AgreementReport {
  annotators: readonly string[];
  categories: readonly Category[];
  items: number;
  queries: number;
  /** Pooled pairwise percent agreement over all annotators. */
  percentAgreement: Stat;
  fleissKappa: Stat;
  krippendorffAlpha: { nominal: Stat; ordinal: Stat; interval: Stat };
  gwetAC1: Stat;
  pairs: PairAgreement[];
  /** Per query, in order of first appearance. */
  perQuery: QueryAgreement[];
}

export interface AgreementReportOptions extends BootstrapOptions {
  /** Positive categories for PSA/NSA; default: the higher category of a binary scale. */
  positive?: PositiveSpec;
}

/**
 * Agreement of a set of annotators on a pool. Overall statistics use all annotators; pair
 * statistics use the items both annotators labeled. `ci95` of each pair bootstraps the
 * unweighted kappa over queries (same seed for every pair, so a pair's interval does not
 * depend on which other annotators are in the report). Progress counts pair resamples.
 */
export function agreementReport(table: RatingTable, options: AgreementReportOptions = {}): AgreementReport {
  const t = encodeTable(table);
  const { resamples, seed, level } = bootstrapSettings(options);
  const rows = allRows(t);
  const mask = positiveMask(t.categories, options.positive);
  const q = t.q;

  const pairIdx: [number, number][] = [];
  for (let a = 0; a < t.m; a++) for (let b = a + 1; b < t.m; b++) pairIdx.push([a, b]);
  const total = pairIdx.length * resamples;
  const groups = queryGroups(t.queryIds);
  const qq = q * q;

  const pairs = pairIdx.map(([a, b], k): PairAgreement => {
    throwIfAborted(options.signal);
    const o = confusionCoded(t, rows, a, b);
    let items = 0;
    for (const v of o) items += v;
    const sa = specificAgreementFromConfusion(o, q, mask);
    // The same resampling as bootstrapCodedByQuery (queries with replacement, same draws), from each
    // query's confusion matrix: a resample sums the drawn queries' matrices instead of re-reading
    // their items, so a pair costs O(queries · q²) per resample whatever the pool's size, and a pair
    // with no item in common (most pairs of a k-per-query design) costs nothing.
    let ci95: Interval;
    if (items === 0 && groups.queries.length > 0) {
      ci95 = undefinedStat(NO_ITEM_IN_COMMON);
      options.onProgress?.((k + 1) * resamples, total);
    } else {
      const perQuery = groups.rows.map((rs) => confusionCoded(t, rs, a, b));
      const sum = new Float64Array(qq);
      ci95 = bootstrapGroups(
        groups.queries.length,
        (drawn) => {
          sum.fill(0);
          for (let g = 0; g < drawn.length; g++) {
            const c = perQuery[drawn[g]];
            for (let x = 0; x < qq; x++) sum[x] += c[x];
          }
          return kappaFromConfusion(sum, q, 'none');
        },
        {
          resamples,
          seed,
          level,
          signal: options.signal,
          onProgress: options.onProgress && ((d) => options.onProgress!(k * resamples + d, total)),
        },
      );
      const shared = perQuery.filter((c) => c.some((x) => x > 0)).length;
      if (shared === 1 && groups.queries.length > 1 && ci95.value !== null) {
        ci95 = defined(ci95.value, `${ci95.note}; the two annotators labeled items in common in one query only, so every resample that counts is that query`);
      }
    }
    return {
      a: t.annotators[a],
      b: t.annotators[b],
      items,
      percentAgreement: pairPercentAgreementCoded(t, rows, a, b),
      cohenKappa: kappaFromConfusion(o, q, 'none'),
      cohenKappaLinear: kappaFromConfusion(o, q, 'linear'),
      cohenKappaQuadratic: kappaFromConfusion(o, q, 'quadratic'),
      ci95,
      psa: sa.psa,
      nsa: sa.nsa,
      confusion: t.categories.map((_, i) => Array.from(o.subarray(i * q, (i + 1) * q))),
    };
  });
  if (total === 0) options.onProgress?.(0, 0);

  const counts = new Int32Array(q);
  const perQuery = groups.queries.map((queryId, g): QueryAgreement => {
    const rs = groups.rows[g];
    const disagreements: string[] = [];
    let multiplyLabeled = 0;
    for (const i of rs) {
      const ni = itemCounts(t, i, counts);
      if (ni < 2) continue;
      multiplyLabeled++;
      if (!counts.some((c) => c === ni)) disagreements.push(t.itemIds[i]);
    }
    return { queryId, items: rs.length, multiplyLabeled, percentAgreement: percentAgreementCoded(t, rs), disagreements };
  });

  return {
    annotators: t.annotators,
    categories: t.categories,
    items: t.n,
    queries: groups.queries.length,
    percentAgreement: percentAgreementCoded(t, rows),
    fleissKappa: fleissKappaCoded(t, rows),
    krippendorffAlpha: {
      nominal: krippendorffAlphaCoded(t, rows, 'nominal'),
      ordinal: krippendorffAlphaCoded(t, rows, 'ordinal'),
      interval: krippendorffAlphaCoded(t, rows, 'interval'),
    },
    gwetAC1: gwetAC1Coded(t, rows),
    pairs,
    perQuery,
  };
}

