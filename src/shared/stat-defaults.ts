/**
 * What evaluations and the statistics of agreement reports, comparisons and exports use unless told, for the
 * engine, the CLI and the screens alike: a screen opens with what `qpairs eval`, `qpairs agreement` and
 * `qpairs eval --compare` use, and the engine's work estimate counts what will run. Each was written again
 * where it was used (the screens, the contract, the engine's estimate, the export's datasheet, the
 * evaluation, the comparison and the agreement report).
 */

/** Bootstrap resamples of a 95% confidence interval, and the most a call (agreement.report, eval.compare) or a screen's field takes. */
export const DEFAULT_RESAMPLES = 1000;
export const MAX_RESAMPLES = 100_000;
/** Sign patterns of a paired randomization test (Monte Carlo beyond; exact when 2^n is fewer), and the most eval.compare or the Compare panel takes. */
export const DEFAULT_PERMUTATIONS = 10_000;
export const MAX_PERMUTATIONS = 1_000_000;
/** Seed of the resampling (same seed, same data: same intervals and p-values). */
export const DEFAULT_SEED = 1;
/** Family-wise significance level of a comparison's Holm correction. */
export const DEFAULT_ALPHA = 0.05;
/** How candidates with tied scores are ordered in a ranking (eval, eval.compare, the label order's standing): as the pool lists them. */
export const DEFAULT_TIES = 'pool-order' as const;
