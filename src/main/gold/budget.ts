/**
 * Work budgets of the heavy read-only computations (agreement reports, ranker comparisons),
 * enforced by the computations themselves whatever the caller (CLI, desktop app, serve mode)
 * and whatever the contract's argument limits allow: a request over its budget is refused with
 * a user error saying what to reduce, before any resampling starts.
 *
 * Units (each about the same few ns of one core's time; the estimates also decide when the
 * engine runs a request off the main thread, see engine/compute.ts):
 * - agreement: one labeled pair evaluated by one statistic in one resample —
 *   (bootstrap + 1) × labeled pairs × (annotator pairs + 6 pool statistics); ~25 ns each.
 * - comparison: one query's value in one resample or permutation —
 *   compared run pairs × queries × (bootstrap + permutations); ~13 ns each.
 * The limits keep one request under about two minutes of one core: e.g. an agreement report
 * with bootstrap 100000 over 4,000 labeled pairs of 3 annotators (3.6e9 units, ~90 s) is
 * allowed, the same over 10,000 pairs is not.
 */
import { QPairsError } from '../errors';

/** Largest agreement report: (bootstrap + 1) × labeled pairs × (annotator pairs + 6). */
export const AGREEMENT_WORK_LIMIT = 5e9;
/** Largest comparison: run pairs × queries × (bootstrap + permutations). */
export const COMPARE_WORK_LIMIT = 1e10;
/** Approximate cost of one unit in nanoseconds (measured on a 2-core x86 VM, Node 22). */
export const AGREEMENT_NS_PER_UNIT = 25;
export const COMPARE_NS_PER_UNIT = 13;

/** Number of statistics an agreement report evaluates per resample. */
export function agreementStatistics(annotators: number): number {
  return (annotators * (annotators - 1)) / 2 + 6;
}

/** Work units of an agreement report (see the module comment). */
export function agreementWork(items: number, annotators: number, bootstrap: number): number {
  return (bootstrap + 1) * items * agreementStatistics(annotators);
}

/** Permutations the sign-flip test evaluates: all 2^n patterns when that is at most N, else N. */
export function effectivePermutations(queries: number, permutations: number): number {
  return queries < 31 && 2 ** queries <= permutations ? 2 ** queries : permutations;
}

/** Work units of a ranker comparison (see the module comment). */
export function compareWork(runPairs: number, queries: number, bootstrap: number, permutations: number): number {
  return runPairs * queries * (bootstrap + effectivePermutations(queries, permutations));
}

const fmt = (x: number): string => (x >= 1e6 ? x.toExponential(1).replace('e+', 'e') : String(Math.round(x)));

/**
 * The most bootstrap resamples an agreement report of this size may use within `limit` (0 when even
 * the point estimates alone are over it; Infinity when there is nothing to compute).
 */
export function maxAgreementBootstrap(items: number, annotators: number, limit = AGREEMENT_WORK_LIMIT): number {
  const perResample = items * agreementStatistics(annotators);
  if (perResample === 0) return Infinity;
  return Math.max(0, Math.floor(limit / perResample) - 1);
}

/** Throws a user error when an agreement report is over budget, naming what to reduce. */
export function checkAgreementBudget(items: number, annotators: number, bootstrap: number, limit = AGREEMENT_WORK_LIMIT): void {
  const work = agreementWork(items, annotators, bootstrap);
  if (work <= limit) return;
  const stats = agreementStatistics(annotators);
  const maxBootstrap = maxAgreementBootstrap(items, annotators, limit);
  throw new QPairsError(
    `this agreement report is too large to compute: ${bootstrap} bootstrap resamples × ${items} labeled pairs × ${stats} statistics ` +
      `(${annotators} annotators) is ${fmt(work)} steps, over the limit of ${fmt(limit)}. ` +
      (maxBootstrap >= 1
        ? `Use at most ${maxBootstrap} bootstrap resamples for this pool, or report on fewer queries or annotators.`
        : `Report on fewer annotators or queries.`),
    { reason: 'work budget' },
  );
}

/** Throws a user error when a ranker comparison is over budget, naming what to reduce. */
export function checkCompareBudget(runPairs: number, queries: number, bootstrap: number, permutations: number, limit = COMPARE_WORK_LIMIT): void {
  const work = compareWork(runPairs, queries, bootstrap, permutations);
  if (work <= limit) return;
  const perPair = Math.floor(limit / Math.max(1, runPairs * queries));
  throw new QPairsError(
    `this comparison is too large to compute: ${runPairs} pairs of runs × ${queries} queries × (${bootstrap} bootstrap resamples + ` +
      `${effectivePermutations(queries, permutations)} permutations) is ${fmt(work)} steps, over the limit of ${fmt(limit)}. ` +
      (perPair >= 2
        ? `Use fewer bootstrap resamples and permutations (together at most ${perPair}), or compare fewer runs (or each with one baseline).`
        : `Compare fewer runs (or each with one baseline).`),
    { reason: 'work budget' },
  );
}
