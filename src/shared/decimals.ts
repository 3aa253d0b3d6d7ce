/**
 * A number with a fixed count of decimals, as toFixed, but never "-0.000": a statistic that is 0 up
 * to rounding error (Cohen's kappa of chance agreement is -5.6e-17 in floating point) reads 0.000 in
 * the CLI's tables, the datasheet and the app alike.
 */
export function fixedDecimals(x: number, digits: number): string {
  const s = x.toFixed(digits);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}
