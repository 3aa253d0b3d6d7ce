/**
 * The one result shape used by every statistic in `agreement/` and `stats/`.
 *
 * A statistic is either defined (`value` is a finite number, or for intervals a `[lo, hi]` pair,
 * with an optional human-readable `note` on how it was computed) or undefined (`value: null`
 * with a `reason`). Public functions never return NaN or ±Infinity.
 */
export type Stat<T = number> = { value: T; note?: string } | { value: null; reason: string };

/** A confidence interval `[lo, hi]` (or a reason why there is none). */
export type Interval = Stat<[number, number]>;

export function defined<T>(value: T, note?: string): Stat<T> {
  return note === undefined ? { value } : { value, note };
}

export function undefinedStat<T = number>(reason: string): Stat<T> {
  return { value: null, reason };
}

/** A defined number, or `null` with `reason` if `x` is not finite (the guard against NaN escapes). */
export function finiteOr(x: number, reason: string, note?: string): Stat {
  return Number.isFinite(x) ? defined(x, note) : undefinedStat(reason);
}
