/**
 * Agreement over a pool: builds the items × annotators RatingTable from the label history's
 * current labels and calls the pure statistics in src/main/agreement.
 *
 * - Items: the pool's pairs (pool order) labeled by at least one of the chosen annotators; an
 *   item's query is its pool query (the bootstrap resamples queries).
 * - Labels: each annotator's current label; "?" (unsure) is a missing label. All of an
 *   annotator's labels in the pool count, assigned or not.
 * - Scale (categories low → high): binary 0, 1; semeval3 Irrelevant, Relevant, PerfectMatch
 *   (interval values 0, 1, 2); likert5 −2 … 2; graded: the integer values that occur.
 * - Annotators: the pool's annotators (state.ts) unless given; queries: all, or a given subset.
 * - CIs: per annotator pair, the bootstrap-over-queries percentile 95% CI of Cohen's kappa (from
 *   agreementReport); pool-level CIs of Fleiss' kappa, nominal Krippendorff's alpha and Gwet's
 *   AC1 by the same bootstrap (resampling queries as bootstrapByQuery does; same seed and resamples).
 */
import type { AgreementView, IntervalView, StatView } from '../../shared/gold';
import { labelGrade } from '../../shared/labels';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../../shared/stat-defaults';
import { closest } from '../../shared/suggest';
import { agreementReport, cohenKappa, encodeTable, fleissKappa, percentAgreement, type RatingTable } from '../agreement';
import { bootstrapCodedByQuery } from '../agreement/bootstrap';
import { fleissKappaCoded } from '../agreement/fleiss';
import { gwetAC1Coded } from '../agreement/gwet';
import { krippendorffAlphaCoded } from '../agreement/krippendorff';
import { percentAgreementCoded } from '../agreement/percent';
import { NotFoundError, QPairsError } from '../errors';
import type { Workspace } from '../workspace/workspace';
import { checkAgreementBudget } from './budget';
import { poolRatingTable, type PoolRatingTable } from './rating-table';
import { loadPoolState, type PoolState } from './state';

export interface PoolAgreementOptions {
  annotators?: readonly string[];
  /** Only these queries (a subset of the pool); default all. */
  queries?: readonly string[];
  /** Bootstrap resamples (default 1000) and seed (default 1). */
  bootstrap?: number;
  seed?: number;
  signal?: AbortSignal;
  /**
   * Bootstrap resamples done of all of the report's (each annotator pair's kappa CI, then the six
   * pool-level statistics' CIs: (pairs + 6) × resamples), reported every few resamples.
   */
  onProgress?: (done: number, total: number) => void;
  /** At most this many points in `overTime` (default 100; evenly spaced, always the last). */
  maxTimePoints?: number;
  /** Work budget (default AGREEMENT_WORK_LIMIT, see budget.ts); a larger report is refused. */
  workLimit?: number;
}

function positives(categories: readonly string[]): string[] {
  return categories.filter((c) => (labelGrade(c) ?? -Infinity) >= 1);
}

/** `no annotator named "bobb" (did you mean bob? the pool's annotators: alice, bob)`. */
function unknownAnnotator(name: string, poolAnnotators: readonly string[]): string {
  const meant = closest(name, poolAnnotators);
  const listed = poolAnnotators.length ? `the pool's annotators: ${poolAnnotators.join(', ')}` : 'the pool has no annotators yet';
  return `no annotator named "${name}" (${meant ? `did you mean ${meant}? ` : ''}${listed})`;
}

/**
 * Agreement report of a pool (see the module comment and AgreementView). `built`: the pool's
 * rating table for the same annotators over all its queries when the caller has it already
 * (poolRatingTable(state, annotators)); it is used as is rather than built again.
 */
export function poolAgreement(ws: Workspace, pool: string, o: PoolAgreementOptions = {}, state?: PoolState, built?: PoolRatingTable): AgreementView {
  const s = state ?? loadPoolState(ws, pool);
  const annotators = o.annotators && o.annotators.length > 0 ? [...o.annotators] : s.annotators;
  const twice = annotators.find((a, i) => annotators.indexOf(a) !== i);
  if (twice !== undefined) throw new QPairsError(`an annotator is listed twice: "${twice}"`);
  const knownNames = new Set(ws.listAnnotators().map((a) => a.name));
  // Named with the pool's annotators and the one a typo most likely meant ("no annotator named "bobb"" alone left the reader to guess).
  for (const a of annotators) if (!knownNames.has(a)) throw new NotFoundError(unknownAnnotator(a, s.annotators));
  const resamples = o.bootstrap ?? DEFAULT_RESAMPLES;
  const seed = o.seed ?? DEFAULT_SEED;
  let subset: Set<string> | undefined;
  if (o.queries) {
    subset = new Set(o.queries);
    const inPool = new Set(s.queries.map((q) => q.queryId));
    const missing = [...subset].filter((q) => !inPool.has(q));
    if (missing.length) throw new NotFoundError(`not queries of pool "${s.pool.name}": ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}`);
  }
  const reuse = built !== undefined && state !== undefined && !subset && built.table.annotators.join('\n') === annotators.join('\n');
  const { table, pairs, lastSeq, unsure } = reuse ? built : poolRatingTable(s, annotators, subset);
  checkAgreementBudget(table.items.length, annotators.length, resamples, o.workLimit);
  const boot = { resamples, seed, signal: o.signal };
  const m = annotators.length;
  const pooled = m >= 2 && table.items.length > 0 ? 6 : 0;
  const total = ((m * (m - 1)) / 2 + pooled) * resamples;
  const onProgress = o.onProgress;
  const report = agreementReport(table, { ...boot, positive: positives(table.categories.map(String)), ...(onProgress ? { onProgress: (d: number) => onProgress(d, total) } : {}) });

  // Disagreements per query with every annotator's label.
  const labelsOf = (key: string): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const a of annotators) {
      const l = s.labels.get(a)?.get(key);
      if (l) out[a] = l.value;
    }
    return out;
  };
  const perQuery = report.perQuery.map((q) => ({
    queryId: q.queryId,
    items: q.items,
    multiplyLabeled: q.multiplyLabeled,
    percentAgreement: q.percentAgreement as StatView,
    disagreements: q.disagreements.map((id) => ({ candidateId: pairs.get(id)!.candidateId, labels: labelsOf(id) })),
  }));

  const none: IntervalView = { value: null, reason: annotators.length < 2 ? 'fewer than two annotators' : 'no labeled pair' };
  let ci95: AgreementView['ci95'] = {
    percentAgreement: none,
    fleissKappa: none,
    krippendorffAlpha: none,
    krippendorffAlphaOrdinal: none,
    krippendorffAlphaInterval: none,
    gwetAC1: none,
  };
  if (annotators.length >= 2 && table.items.length > 0) {
    // Same resampling as bootstrapByQuery (queries with replacement), on the coded table.
    const t = encodeTable(table);
    // The k-th pool-level statistic's resamples come after the pairs' and the k - 1 before it.
    const pairsDone = total - pooled * resamples;
    const step = (k: number): typeof boot & { onProgress?: (d: number) => void } =>
      onProgress ? { ...boot, onProgress: (d) => onProgress(pairsDone + k * resamples + d, total) } : boot;
    ci95 = {
      percentAgreement: bootstrapCodedByQuery(t, (rows) => percentAgreementCoded(t, rows), step(0)) as IntervalView,
      fleissKappa: bootstrapCodedByQuery(t, (rows) => fleissKappaCoded(t, rows), step(1)) as IntervalView,
      krippendorffAlpha: bootstrapCodedByQuery(t, (rows) => krippendorffAlphaCoded(t, rows, 'nominal'), step(2)) as IntervalView,
      krippendorffAlphaOrdinal: bootstrapCodedByQuery(t, (rows) => krippendorffAlphaCoded(t, rows, 'ordinal'), step(3)) as IntervalView,
      krippendorffAlphaInterval: bootstrapCodedByQuery(t, (rows) => krippendorffAlphaCoded(t, rows, 'interval'), step(4)) as IntervalView,
      gwetAC1: bootstrapCodedByQuery(t, (rows) => gwetAC1Coded(t, rows), step(5)) as IntervalView,
    };
  }

  return {
    pool: s.pool.name,
    scheme: s.scheme,
    annotators,
    categories: table.categories.map(String),
    items: report.items,
    queries: report.queries,
    unsure,
    bootstrap: { resamples, seed },
    percentAgreement: report.percentAgreement as StatView,
    fleissKappa: report.fleissKappa as StatView,
    krippendorffAlpha: {
      nominal: report.krippendorffAlpha.nominal as StatView,
      ordinal: report.krippendorffAlpha.ordinal as StatView,
      interval: report.krippendorffAlpha.interval as StatView,
    },
    gwetAC1: report.gwetAC1 as StatView,
    ci95,
    pairs: report.pairs.map((p) => ({
      a: p.a,
      b: p.b,
      items: p.items,
      percentAgreement: p.percentAgreement as StatView,
      cohenKappa: p.cohenKappa as StatView,
      cohenKappaLinear: p.cohenKappaLinear as StatView,
      cohenKappaQuadratic: p.cohenKappaQuadratic as StatView,
      ci95: p.ci95 as IntervalView,
      psa: p.psa as StatView,
      nsa: p.nsa as StatView,
      confusion: p.confusion,
    })),
    perQuery,
    overTime: agreementOverTime(table, lastSeq, o.maxTimePoints ?? 100),
  };
}

/**
 * Agreement after the first n co-labeled queries: queries with at least one item labeled by two
 * or more of the annotators, ordered by the latest label event among their items; for evenly
 * spaced n (at most `maxPoints`, always including all queries) the statistics over the items of
 * those queries.
 */
export function agreementOverTime(table: RatingTable, lastSeq: Map<string, number>, maxPoints = 100): AgreementView['overTime'] {
  const byQuery = new Map<string, { items: RatingTable['items'][number][]; seq: number; co: boolean }>();
  for (const it of table.items) {
    let g = byQuery.get(it.queryId);
    if (!g) byQuery.set(it.queryId, (g = { items: [], seq: 0, co: false }));
    g.items.push(it);
    g.seq = Math.max(g.seq, lastSeq.get(it.id) ?? 0);
    if (it.labels.filter((l) => l !== null && l !== undefined).length >= 2) g.co = true;
  }
  const order = [...byQuery.values()].filter((g) => g.co).sort((a, b) => a.seq - b.seq);
  const Q = order.length;
  if (Q === 0) return [];
  const step = Math.max(1, Math.ceil(Q / Math.max(1, maxPoints)));
  const points: number[] = [];
  for (let n = step; n < Q; n += step) points.push(n);
  points.push(Q);
  const two = table.annotators.length === 2;
  const out: AgreementView['overTime'] = [];
  const items: RatingTable['items'][number][] = [];
  let taken = 0;
  for (const n of points) {
    while (taken < n) items.push(...order[taken++]!.items);
    const t: RatingTable = { ...table, items: [...items] };
    const point: AgreementView['overTime'][number] = {
      queries: n,
      items: items.length,
      percentAgreement: percentAgreement(t) as StatView,
      fleissKappa: fleissKappa(t) as StatView,
    };
    if (two) point.cohenKappa = cohenKappa(t, table.annotators[0]!, table.annotators[1]!) as StatView;
    out.push(point);
  }
  return out;
}

/**
 * The CLI's JSON view of a report: statistics as plain numbers; an undefined one is `null` with
 * `<name>Reason` beside it (e.g. `"fleissKappa": null, "fleissKappaReason": "…"`); Fleiss' kappa
 * computed on some of the items only says so in `fleissKappaNote`. Pairs carry PSA and NSA as the
 * Agreement screen shows them.
 */
export function agreementJson(v: AgreementView): Record<string, unknown> {
  const out: Record<string, unknown> = { pool: v.pool, scheme: v.scheme, items: v.items, queries: v.queries, unsure: v.unsure, annotators: v.annotators, categories: v.categories };
  putStat(out, 'percentAgreement', v.percentAgreement);
  putStat(out, 'fleissKappa', v.fleissKappa, true);
  const alpha: Record<string, unknown> = {};
  putStat(alpha, 'nominal', v.krippendorffAlpha.nominal);
  putStat(alpha, 'ordinal', v.krippendorffAlpha.ordinal);
  putStat(alpha, 'interval', v.krippendorffAlpha.interval);
  out.krippendorffAlpha = alpha;
  putStat(out, 'gwetAC1', v.gwetAC1);
  const ci: Record<string, unknown> = {};
  putStat(ci, 'percentAgreement', v.ci95.percentAgreement);
  putStat(ci, 'fleissKappa', v.ci95.fleissKappa);
  const alphaCi: Record<string, unknown> = {};
  putStat(alphaCi, 'nominal', v.ci95.krippendorffAlpha);
  putStat(alphaCi, 'ordinal', v.ci95.krippendorffAlphaOrdinal);
  putStat(alphaCi, 'interval', v.ci95.krippendorffAlphaInterval);
  ci.krippendorffAlpha = alphaCi;
  putStat(ci, 'gwetAC1', v.ci95.gwetAC1);
  out.ci95 = ci;
  out.bootstrap = v.bootstrap;
  out.pairs = v.pairs.map((p) => {
    const o: Record<string, unknown> = { a: p.a, b: p.b, items: p.items };
    putStat(o, 'percentAgreement', p.percentAgreement);
    putStat(o, 'cohenKappa', p.cohenKappa);
    putStat(o, 'cohenKappaLinear', p.cohenKappaLinear);
    putStat(o, 'cohenKappaQuadratic', p.cohenKappaQuadratic);
    putStat(o, 'ci95', p.ci95);
    putStat(o, 'psa', p.psa);
    putStat(o, 'nsa', p.nsa);
    o.confusion = p.confusion;
    return o;
  });
  return out;
}

/**
 * Sets `o[key]` to the statistic's value, and `o[key + 'Reason']` when it is undefined; with `note`,
 * also `o[key + 'Note']` when a defined value has one (e.g. Fleiss' kappa restricted to some items).
 */
export function putStat(o: Record<string, unknown>, key: string, s: StatView | IntervalView, note = false): void {
  o[key] = s.value;
  if (s.value === null) o[`${key}Reason`] = s.reason;
  else if (note && s.note) o[`${key}Note`] = s.note;
}
