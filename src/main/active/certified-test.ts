/**
 * The paired test over queries when some queries are only partly judged: each query's difference
 * d_q = AP_b(q) − AP_r(q) is known to lie in [lo_q, hi_q] (ap-bounds.ts), and the question is what the
 * paired t-test (stats/ttest.ts: t = d̄ / (s/√n), s² = Σ (d_q − d̄)² / (n − 1), df = n − 1, two-sided,
 * Holm over the best-vs-other pairs) would conclude once every label is in. Its conclusion is *certain*
 * when no completion of the missing labels can change it:
 *
 * - t ≥ t_lo = (Σ lo_q / n) · √n / s_hi whenever Σ lo_q > 0, where s_hi bounds s from above:
 *   Σ (d_q − d̄)² = min_c Σ (d_q − c)² ≤ Σ (|m_q − c| + w_q)² for any c (m_q, w_q the interval's middle and
 *   half width; c = mean of the m_q), and ≤ (√Σ (m_q − c)² + √Σ w_q²)²; s_hi² = the smaller / (n − 1);
 * - t ≤ t_hi = (Σ hi_q / n) · √n / s_lo whenever Σ hi_q ≥ 0, where s_lo is the exact minimum of s over the
 *   box: min_d Σ (d_q − d̄)² = min_c Σ dist(c, [lo_q, hi_q])² (a convex function of c, minimised by
 *   bisection on its derivative 2 Σ (c − hi_q)₊ − 2 Σ (lo_q − c)₊).
 *
 * "Decided" for sure: Holm over p_hi(b, r) = P(|T_{n−1}| ≥ t_lo(b − r)) rejects every pair (Holm only
 * rejects more when p-values fall, so the true p-values are rejected too). "Undecided" for sure: for
 * every ranker b, Holm over the smallest p-values any completion allows, p_lo(b, r) = P(|T_{n−1}| ≥
 * t_hi(b − r)) (1 when t_hi ≤ 0), still keeps some pair. With every query fully judged lo = hi,
 * t_lo = t_hi = the paired t-test's t, and the state is exactly the full-label test's.
 */
import { holm } from '../stats/holm';
import { studentTTwoSidedP } from '../stats/special';
import { rankerPairs, type QueryBounds } from './ap-bounds';

export interface TBounds {
  /** A lower bound of the paired t statistic over every completion (−Infinity when unbounded). */
  tLo: number;
  /** An upper bound (Infinity when unbounded). */
  tHi: number;
  /** Bounds of the mean difference: Σ lo / n and Σ hi / n. */
  meanLo: number;
  meanHi: number;
  /** The t statistic of the intervals' middles (a point guess, not a bound; 0 when undefined). */
  tMid: number;
}

/** Exact minimum over the box of Σ (d_q − d̄)² (see the module comment). */
export function minSumSquares(lo: ArrayLike<number>, hi: ArrayLike<number>): number {
  const n = lo.length;
  if (n === 0) return 0;
  let a = Infinity;
  let b = -Infinity;
  for (let i = 0; i < n; i++) {
    a = Math.min(a, hi[i]!);
    b = Math.max(b, lo[i]!);
  }
  // Every interval contains some common point c when max lo ≤ min hi: then the minimum is 0.
  if (b <= a) return 0;
  let left = a;
  let right = b;
  for (let it = 0; it < 64; it++) {
    const c = (left + right) / 2;
    let g = 0;
    for (let i = 0; i < n; i++) g += c > hi[i]! ? c - hi[i]! : c < lo[i]! ? c - lo[i]! : 0;
    if (g > 0) right = c;
    else left = c;
  }
  const c = (left + right) / 2;
  let f = 0;
  for (let i = 0; i < n; i++) {
    const dist = c > hi[i]! ? c - hi[i]! : c < lo[i]! ? lo[i]! - c : 0;
    f += dist * dist;
  }
  return f;
}

/**
 * Upper bound over the box of Σ (d_q − d̄)², the smaller of two valid bounds (c the mean of the middles):
 *   Σ (|m_q − c| + w_q)²   and   (√Σ (m_q − c)² + √Σ w_q²)²
 * (the second by the triangle inequality for the centred vector: ‖P d‖ ≤ ‖P m‖ + ‖d − m‖).
 */
export function maxSumSquaresBound(lo: ArrayLike<number>, hi: ArrayLike<number>): number {
  const n = lo.length;
  let c = 0;
  for (let i = 0; i < n; i++) c += (lo[i]! + hi[i]!) / 2;
  c /= Math.max(1, n);
  let f = 0;
  let mm = 0;
  let ww = 0;
  for (let i = 0; i < n; i++) {
    const dev = Math.abs((lo[i]! + hi[i]!) / 2 - c);
    const w = (hi[i]! - lo[i]!) / 2;
    f += (dev + w) * (dev + w);
    mm += dev * dev;
    ww += w * w;
  }
  return Math.min(f, (Math.sqrt(mm) + Math.sqrt(ww)) ** 2);
}

/** t_lo and t_hi of the paired t statistic for differences d_q ∈ [lo_q, hi_q] (module comment); n < 2: unbounded. */
export function tBounds(lo: ArrayLike<number>, hi: ArrayLike<number>): TBounds {
  const n = lo.length;
  let sLo = 0;
  let sHi = 0;
  for (let i = 0; i < n; i++) {
    sLo += lo[i]!;
    sHi += hi[i]!;
  }
  const meanLo = n ? sLo / n : 0;
  const meanHi = n ? sHi / n : 0;
  if (n < 2) return { tLo: -Infinity, tHi: Infinity, meanLo, meanHi, tMid: 0 };
  const mids = Array.from({ length: n }, (_, i) => (lo[i]! + hi[i]!) / 2);
  const mMean = (meanLo + meanHi) / 2;
  const mSd = Math.sqrt(mids.reduce((a, x) => a + (x - mMean) ** 2, 0) / (n - 1));
  const tMid = mSd > 0 ? (mMean * Math.sqrt(n)) / mSd : 0;
  const sdMin = Math.sqrt(minSumSquares(lo, hi) / (n - 1));
  const sdMax = Math.sqrt(maxSumSquaresBound(lo, hi) / (n - 1));
  const ratio = (mean: number, sd: number) => (mean === 0 ? 0 : sd === 0 ? Math.sign(mean) * Infinity : (mean * Math.sqrt(n)) / sd);
  // The numerator's sign decides which end of the s range gives the extreme t.
  const tLo = meanLo > 0 ? ratio(meanLo, sdMax) : ratio(meanLo, sdMin);
  const tHi = meanHi >= 0 ? ratio(meanHi, sdMin) : ratio(meanHi, sdMax);
  return { tLo, tHi, meanLo, meanHi, tMid };
}

export interface CertifiedStanding {
  /** The ranker with the highest mid-interval MAP over the queries. */
  best: number;
  /** 'decided': the test rejects "b ties r" for every r under every completion; 'undecided': no completion makes any ranker decided; else 'open'. */
  state: 'decided' | 'undecided' | 'open';
  /** Holm-adjusted upper bound of the p-value of best vs r (NaN for best). */
  pHi: number[];
  /** Bounds of the paired t of best − r (NaN for best). */
  t: Array<TBounds | null>;
}

/** Per-pair interval columns over the given queries: lo[p][i], hi[p][i] for pairs[p] = [r, s] (d = AP_r − AP_s). */
function columns(bounds: readonly QueryBounds[], P: number): { lo: Float64Array[]; hi: Float64Array[] } {
  const lo = Array.from({ length: P }, () => new Float64Array(bounds.length));
  const hi = Array.from({ length: P }, () => new Float64Array(bounds.length));
  bounds.forEach((b, i) => {
    for (let p = 0; p < P; p++) {
      lo[p]![i] = b.dLo[p]!;
      hi[p]![i] = b.dHi[p]!;
    }
  });
  return { lo, hi };
}

/**
 * What the paired test over these queries (Holm over best vs each other ranker, level alpha) concludes
 * for sure given each query's ΔAP bounds. `bounds` are the queries tested (every query of the pool for
 * the pool's full-label test; a random sample of them for a claim about queries like these).
 */
export function certifiedStanding(bounds: readonly QueryBounds[], R: number, alpha = 0.05): CertifiedStanding {
  const pairs = rankerPairs(R);
  const pairIndex = (r: number, s: number): { p: number; sign: 1 | -1 } => {
    const p = pairs.findIndex(([a, b]) => (a === r && b === s) || (a === s && b === r));
    return { p, sign: pairs[p]![0] === r ? 1 : -1 };
  };
  const n = bounds.length;
  const mid = new Float64Array(R);
  for (const b of bounds) for (let r = 0; r < R; r++) mid[r]! += (b.apLo[r]! + b.apHi[r]!) / 2;
  let best = 0;
  for (let r = 1; r < R; r++) if (mid[r]! > mid[best]!) best = r;
  const { lo, hi } = columns(bounds, pairs.length);
  const cache = new Map<number, TBounds>();
  /** t bounds of AP_r − AP_s. */
  const tOf = (r: number, s: number): TBounds => {
    const { p, sign } = pairIndex(r, s);
    let tb = cache.get(p);
    if (!tb) cache.set(p, (tb = tBounds(lo[p]!, hi[p]!)));
    return sign === 1 ? tb : { tLo: -tb.tHi, tHi: -tb.tLo, meanLo: -tb.meanHi, meanHi: -tb.meanLo, tMid: -tb.tMid };
  };
  const pHi = new Array<number>(R).fill(Number.NaN);
  const t: Array<TBounds | null> = new Array(R).fill(null);
  if (R < 2 || n < 2) return { best, state: 'open', pHi, t };
  const others = [...Array(R).keys()].filter((r) => r !== best);
  const raw = others.map((r) => {
    const tb = tOf(best, r);
    t[r] = tb;
    return tb.tLo > 0 ? (tb.tLo === Infinity ? 0 : studentTTwoSidedP(tb.tLo, n - 1)) : 1;
  });
  const h = holm(raw, alpha);
  others.forEach((r, i) => (pHi[r] = h.adjusted[i]!));
  if (h.reject.every(Boolean)) return { best, state: 'decided', pHi, t };
  // b can never be decided when Holm over the smallest p-values any completion allows still keeps a pair.
  const cannotWin = (b: number) => {
    const ts = [...Array(R).keys()].filter((r) => r !== b).map((r) => tOf(b, r).tHi);
    if (ts.some((x) => x <= 0)) return true;
    return !holm(
      ts.map((x) => (x === Infinity ? 0 : studentTTwoSidedP(x, n - 1))),
      alpha,
    ).reject.every(Boolean);
  };
  const undecided = [...Array(R).keys()].every(cannotWin);
  return { best, state: undecided ? 'undecided' : 'open', pHi, t };
}
