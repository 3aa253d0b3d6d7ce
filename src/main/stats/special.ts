/**
 * Special functions for the t distribution, implemented here (no dependency):
 * ln Γ (Lanczos), the regularized incomplete beta function I_x(a, b) (continued fraction,
 * modified Lentz), and the Student t tail probabilities built on it.
 *
 * Accuracy: ~1e-14 relative for moderate arguments; the ln B(a, b) = lnΓ(a)+lnΓ(b)−lnΓ(a+b)
 * cancellation costs ≈ 1e-16·lnΓ(a+b) relative, i.e. still < 1e-10 for df up to ~10^5.
 * Checked against scipy.special.betainc / scipy.stats.t in tests/fixtures/stats/.
 */

const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9), with the reflection formula for x < 0.5. */
export function lnGamma(x: number): number {
  if (x < 0.5) {
    // Γ(x)Γ(1−x) = π / sin(πx)
    return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  }
  const z = x - 1;
  let s = LANCZOS[0];
  for (let i = 1; i < LANCZOS_G + 2; i++) s += LANCZOS[i] / (z + i);
  const t = z + LANCZOS_G + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(s);
}

/** ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b). */
export function lnBeta(a: number, b: number): number {
  return lnGamma(a) + lnGamma(b) - lnGamma(a + b);
}

const EPS = 1e-16;
const TINY = 1e-300;
const MAX_ITER = 100_000;

/**
 * Continued fraction for I_x(a,b) (Numerical Recipes `betacf`, modified Lentz):
 * I_x(a,b) = x^a (1−x)^b / (a B(a,b)) · 1/(1+ d₁/(1+ d₂/(1+ …))) with
 * d_{2m+1} = −(a+m)(a+b+m)x / ((a+2m)(a+2m+1)), d_{2m} = m(b−m)x / ((a+2m−1)(a+2m)).
 * Returns NaN if it does not converge.
 */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_ITER; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) return h;
  }
  return Number.NaN;
}

/**
 * Regularized incomplete beta function
 * I_x(a, b) = (1 / B(a, b)) ∫₀ˣ t^(a−1) (1−t)^(b−1) dt,  0 ≤ x ≤ 1, a, b > 0.
 * `y` = 1 − x may be passed separately when it is known more precisely than `1 - x`.
 * Uses the continued fraction directly when x < (a+1)/(a+b+2), else the symmetry
 * I_x(a, b) = 1 − I_{1−x}(b, a). Returns NaN for invalid arguments or non-convergence.
 */
export function regularizedIncompleteBeta(x: number, a: number, b: number, y: number = 1 - x): number {
  if (!(a > 0) || !(b > 0) || !(x >= 0) || !(y >= 0) || !Number.isFinite(a) || !Number.isFinite(b)) return Number.NaN;
  if (x === 0) return 0;
  if (y === 0) return 1;
  const lnFront = a * Math.log(x) + b * Math.log(y) - lnBeta(a, b);
  if (x < (a + 1) / (a + b + 2)) {
    return (Math.exp(lnFront) * betaContinuedFraction(a, b, x)) / a;
  }
  return 1 - (Math.exp(lnFront) * betaContinuedFraction(b, a, y)) / b;
}

/**
 * Two-sided tail probability of Student's t with `df` degrees of freedom:
 * P(|T| ≥ |t|) = I_{df/(df+t²)}(df/2, 1/2).  (1 − x = t²/(df+t²) is passed exactly.)
 */
export function studentTTwoSidedP(t: number, df: number): number {
  if (!(df > 0) || Number.isNaN(t)) return Number.NaN;
  if (!Number.isFinite(t)) return 0;
  if (t === 0) return 1;
  const t2 = t * t;
  return regularizedIncompleteBeta(df / (df + t2), df / 2, 0.5, t2 / (df + t2));
}

/** Student t cumulative distribution P(T ≤ t) = ½·I_x(df/2, ½) for t < 0, 1 − that for t ≥ 0. */
export function studentTCdf(t: number, df: number): number {
  const tail = 0.5 * studentTTwoSidedP(t, df);
  return t < 0 ? tail : 1 - tail;
}
