import { describe, expect, it } from 'vitest';
import type { LabelOrderCounting } from '../../shared/label-order';
import { compareRankers } from '../stats/compare';
import { pairedTTest } from '../stats/ttest';
import { mulberry32 } from '../stats/random';
import { queryBounds, queryBoundsWithEffects, rankerPairs, type Judgment } from './ap-bounds';
import { CandidateLedger, bestCandidate, permutation } from './candidate-order';
import { certifiedStanding, tBounds } from './certified-test';
import { candidateOrderStanding, openedCount, openOrderOf } from './candidate-standing';
import { labelOrderStanding } from './order-standing';
import { apsOf, type ActiveQuery } from './pool-model';
import { rankerStanding, type LabeledDraw } from './ranker-decision';
import { fullConclusion, simulateCandidates } from './simulate-candidates';

const shuffled = (n: number, rnd: () => number) => permutation(n, rnd);
/** eval's default counting (convention zero over fully labeled queries). */
const ZERO: LabelOrderCounting = { annotator: 'gold', convention: 'zero', ties: 'pool-order', threshold: 1, partial: false };

function randomQuery(rnd: () => number, size: number, R: number, id = 'q'): ActiveQuery {
  return { id, size, rankings: Array.from({ length: R }, () => shuffled(size, rnd)) };
}

/** Every completion of the unjudged labels (brute force, for checking the bounds). */
function completions(judged: readonly Judgment[]): boolean[][] {
  const free = judged.map((j, c) => (j === null ? c : -1)).filter((c) => c >= 0);
  const out: boolean[][] = [];
  for (let m = 0; m < 1 << free.length; m++) {
    const rel = judged.map((j) => j === true);
    free.forEach((c, i) => (rel[c] = ((m >>> i) & 1) === 1));
    out.push(rel);
  }
  return out;
}

describe('ΔAP bounds of a partially judged query', () => {
  it('are the exact min and max over every completion, and each candidate\'s effect is the bounds with it fixed', () => {
    const rnd = mulberry32(11);
    for (let trial = 0; trial < 30; trial++) {
      const q = randomQuery(rnd, 7, 3);
      const judged: Judgment[] = Array.from({ length: 7 }, () => (rnd() < 0.4 ? rnd() < 0.4 : null));
      const pairs = rankerPairs(3);
      const all = completions(judged).map((rel) => apsOf(q, rel));
      const { bounds, effects } = queryBoundsWithEffects(q, judged);
      pairs.forEach(([r, s], p) => {
        expect(bounds.dLo[p]).toBeCloseTo(Math.min(...all.map((a) => a[r]! - a[s]!)), 12);
        expect(bounds.dHi[p]).toBeCloseTo(Math.max(...all.map((a) => a[r]! - a[s]!)), 12);
      });
      for (let r = 0; r < 3; r++) expect(bounds.apHi[r]).toBeCloseTo(Math.max(...all.map((a) => a[r]!)), 12);
      judged.forEach((j, c) => {
        if (j !== null) return expect(effects[c]).toBeNull();
        for (const v of [false, true]) {
          const fixed = queryBounds(q, judged.map((x, i) => (i === c ? v : x)));
          expect([...effects[c]![v ? 1 : 0].dLo]).toEqual([...fixed.dLo]);
          expect([...effects[c]![v ? 1 : 0].dHi]).toEqual([...fixed.dHi]);
        }
      });
    }
  });

  it('beyond the exact limit (many unjudged candidates) still contain every completion', () => {
    const rnd = mulberry32(3);
    const q = randomQuery(rnd, 16, 3);
    const judged: Judgment[] = Array.from({ length: 16 }, (_, c) => (c < 2 ? c === 0 : null));
    const b = queryBounds(q, judged);
    for (let k = 0; k < 300; k++) {
      const rel = judged.map((j) => (j === null ? rnd() < 0.3 : j));
      const ap = apsOf(q, rel);
      rankerPairs(3).forEach(([r, s], p) => {
        expect(ap[r]! - ap[s]!).toBeGreaterThanOrEqual(b.dLo[p]! - 1e-12);
        expect(ap[r]! - ap[s]!).toBeLessThanOrEqual(b.dHi[p]! + 1e-12);
      });
    }
  });
});

describe('the certified paired test', () => {
  it('t bounds contain the t of every completion; with no slack they are the paired t-test', () => {
    const rnd = mulberry32(5);
    for (let trial = 0; trial < 40; trial++) {
      const n = 3 + Math.floor(rnd() * 12);
      const lo = Array.from({ length: n }, () => rnd() * 0.6 - 0.2);
      const hi = lo.map((x) => x + (rnd() < 0.5 ? 0 : rnd() * 0.3));
      const tb = tBounds(lo, hi);
      for (let k = 0; k < 50; k++) {
        const d = lo.map((x, i) => x + rnd() * (hi[i]! - x));
        const t = pairedTTest(d, new Array<number>(n).fill(0)).t.value;
        if (t === null) continue;
        expect(t).toBeGreaterThanOrEqual(tb.tLo - 1e-9);
        expect(t).toBeLessThanOrEqual(tb.tHi + 1e-9);
      }
      const exact = tBounds(lo, lo);
      const t = pairedTTest(lo, new Array<number>(n).fill(0)).t.value!;
      expect(exact.tLo).toBeCloseTo(t, 9);
      expect(exact.tHi).toBeCloseTo(t, 9);
    }
  });

  it('with every label in, its conclusion is `--compare --baseline BEST`: Holm-adjusted t-test p-values and rejections', () => {
    const rnd = mulberry32(8);
    const queries = Array.from({ length: 25 }, (_, i) => randomQuery(rnd, 6, 3, `q${i}`));
    const gold = queries.map(() => Array.from({ length: 6 }, () => rnd() < 0.35));
    const aps = queries.map((q, i) => apsOf(q, gold[i]!));
    const s = certifiedStanding(
      queries.map((q, i) => queryBounds(q, gold[i]!)),
      3,
    );
    const cmp = compareRankers(
      { queries: queries.map((q) => q.id), rankers: [0, 1, 2].map((r) => ({ name: `r${r}`, values: aps.map((a) => a[r]!) })) },
      { baseline: `r${s.best}`, permutations: 1, resamples: 10 },
    );
    for (const p of cmp.pairs) {
      const r = Number(p.a.slice(1));
      expect(s.pHi[r]).toBeCloseTo(p.holmT.value ?? 1, 9);
    }
    expect(s.state === 'decided').toBe(cmp.pairs.every((p) => p.rejectT === true));
    expect(s.state).not.toBe('open');
  });
});

/**
 * The issue's case: a fully labeled pool where two runs' MAPs differ by a fraction of a point with
 * per-query differences going both ways. The pool's MAP is exact (standard error 0), but the paired
 * test over queries does not reject — so nothing may say "decided".
 */
function nearTiePool(): { draws: LabeledDraw[]; N: number } {
  const rnd = mulberry32(70);
  const draws: LabeledDraw[] = [];
  for (let i = 0; i < 70; i++) {
    const base = 0.4 + 0.5 * rnd();
    const noise = (rnd() - 0.5) * 0.4;
    draws.push({ aps: [Math.min(1, Math.max(0, base + noise + 0.0012)), Math.min(1, Math.max(0, base))], p: null });
  }
  return { draws, N: 70 };
}

describe('honest decisions: "decided" only when the paired test over queries rejects', () => {
  it('a fully labeled pool with a tiny MAP gap: the MAPs are exact, the best is NOT decided, and p is --compare\'s', () => {
    const { draws, N } = nearTiePool();
    const s = rankerStanding(draws, N);
    expect(s.maps.every((m) => m.se === 0)).toBe(true);
    const gap = s.maps[0]!.mean - s.maps[1]!.mean;
    expect(Math.abs(gap)).toBeLessThan(0.01);
    expect(s.decided).toBe(false);
    const t = pairedTTest(
      draws.map((d) => d.aps[s.best]!),
      draws.map((d) => d.aps[1 - s.best]!),
    );
    expect(t.p.value!).toBeGreaterThan(0.05);
    expect(s.adjustedP[1 - s.best]).toBeCloseTo(t.p.value!, 12);
  });

  it('Evaluate / `qpairs eval` / eval.order on a fully labeled pool of two similar runs: exact MAPs, undecided, p of the paired test', () => {
    const rnd = mulberry32(12);
    const queries = Array.from({ length: 70 }, (_, i) => randomQuery(rnd, 8, 2, `q${i}`));
    const relevance = new Map(queries.map((q) => [q.id, Array.from({ length: 8 }, () => rnd() < 0.3)]));
    const draws = queries.map((q, i) => ({ seq: i + 1, queryId: q.id, probability: 1 / (70 - i), remaining: 70 - i, predictions: null }));
    for (const order of ['random', 'pool', 'decide-rankers'] as const) {
      const lo = labelOrderStanding(order, { queries, runs: ['a', 'b'], relevance }, draws, ZERO);
      expect(lo.used).toBe(70);
      expect(lo.estimator).toBe('exact');
      expect(lo.rankers.every((r) => r.se === 0)).toBe(true);
      const aps = queries.map((q) => apsOf(q, relevance.get(q.id)!));
      const best = lo.best === 'a' ? 0 : 1;
      const t = pairedTTest(
        aps.map((a) => a[best]!),
        aps.map((a) => a[1 - best]!),
      );
      expect(t.p.value!).toBeGreaterThan(0.05);
      expect(lo.decided).toBe(false);
      expect(lo.rankers[1 - best]!.adjustedP).toBeCloseTo(t.p.value!, 12);
    }
  });

  it('no order\'s standing says decided unless the paired t-test over the labeled queries rejects (Holm vs the best)', () => {
    const rnd = mulberry32(21);
    let decidedSeen = 0;
    for (let trial = 0; trial < 200; trial++) {
      const N = 30;
      const n = 2 + Math.floor(rnd() * (N - 1));
      const shift = [0, 0.05 * rnd(), 0.1 * rnd()];
      const adaptive = rnd() < 0.5;
      const draws: LabeledDraw[] = Array.from({ length: n }, (_, i) => {
        const base = rnd();
        return { aps: shift.map((s) => Math.min(1, Math.max(0, base + s + (rnd() - 0.5) * 0.3))), p: adaptive ? 1 / (N - i) + 0.02 * rnd() : null };
      });
      const s = rankerStanding(draws, N);
      if (!s.decided) continue;
      decidedSeen++;
      const cmp = compareRankers(
        { queries: draws.map((_, i) => `q${i}`), rankers: [0, 1, 2].map((r) => ({ name: `r${r}`, values: draws.map((d) => d.aps[r]!) })) },
        { baseline: `r${s.best}`, permutations: 1, resamples: 10 },
      );
      expect(cmp.pairs.every((p) => p.rejectT === true)).toBe(true);
    }
    expect(decidedSeen).toBeGreaterThan(10);
  });
});

describe('decide-rankers-mtc standing: "decided" only when the paired test over queries is sure to reject', () => {
  it('whenever it says decided, the paired t-test (Holm vs best) on the true labels rejects — over the opened queries or the whole pool', () => {
    const rnd = mulberry32(31);
    let decidedSeen = 0;
    for (let trial = 0; trial < 60; trial++) {
      const N = 20;
      const queries = Array.from({ length: N }, (_, i) => {
        const q = randomQuery(rnd, 6, 3, `q${i}`);
        return q;
      });
      const gold = queries.map(() => Array.from({ length: 6 }, () => rnd() < 0.35));
      // Ranker 0 is made better on most queries: it ranks the relevant candidates first.
      queries.forEach((q, i) => {
        if (rnd() < 0.8) (q.rankings as number[][])[0] = [...Array(6).keys()].sort((a, b) => Number(gold[i]![b]) - Number(gold[i]![a]) || a - b);
      });
      const judged = gold.map((row) => row.map((v) => (rnd() < 0.85 ? v : null)));
      const touched = new Set(queries.map((_, i) => i).filter(() => rnd() < 0.7));
      const lo = candidateOrderStanding({ queries, runs: ['a', 'b', 'c'], judged }, 1 + trial, touched, ZERO);
      if (!lo.decided) continue;
      decidedSeen++;
      const aps = queries.map((q, i) => apsOf(q, gold[i]!));
      const best = ['a', 'b', 'c'].indexOf(lo.best!);
      const rejects = (idx: number[]) =>
        compareRankers(
          { queries: idx.map((i) => `q${i}`), rankers: [0, 1, 2].map((r) => ({ name: `r${r}`, values: idx.map((i) => aps[i]![r]!) })) },
          { baseline: `r${best}`, permutations: 1, resamples: 10 },
        ).pairs.every((p) => p.rejectT === true);
      const order = openOrderOf(N, 1 + trial);
      const opened = order.slice(0, openedCount(order, touched));
      expect(rejects(opened) || rejects([...Array(N).keys()])).toBe(true);
    }
    expect(decidedSeen).toBeGreaterThan(3);
  });
});

describe('candidate-level order (decide-rankers-mtc)', () => {
  /** 30 queries; ranker 0 puts relevant candidates first on every query, ranker 1 last on a third of them. */
  function pool(): { queries: ActiveQuery[]; gold: boolean[][] } {
    const rnd = mulberry32(4);
    const queries: ActiveQuery[] = [];
    const gold: boolean[][] = [];
    for (let i = 0; i < 30; i++) {
      const rel = Array.from({ length: 8 }, () => rnd() < 0.3);
      const good = [...rel.keys()].sort((a, b) => Number(rel[b]) - Number(rel[a]) || a - b);
      queries.push({ id: `q${i}`, size: 8, rankings: [good, i % 3 === 0 ? [...good].reverse() : good] });
      gold.push(rel);
    }
    return { queries, gold };
  }

  it('keeps bounds incrementally and picks a candidate of an opened query that can move the open pair', () => {
    const { queries, gold } = pool();
    const ledger = new CandidateLedger(queries);
    const opened = [0, 1, 2, 3, 4, 5];
    ledger.judge(0, 0, gold[0]![0]!);
    expect([...ledger.bounds[0]!.dLo]).toEqual([...queryBounds(queries[0]!, ledger.judged[0]!).dLo]);
    const pick = bestCandidate(ledger, opened, ledger.standing(opened), { openThreshold: -Infinity });
    expect(pick).not.toBeNull();
    expect(opened).toContain(pick!.query);
    expect(ledger.judged[pick!.query]![pick!.candidate]).toBeNull();
    // Queries where both rankers agree have ΔAP = 0 with no label at all: nothing to gain there.
    expect(pick!.query % 3).toBe(0);
  });

  it('reaches the full-label paired test\'s conclusion, with fewer labels than the pool holds', () => {
    const { queries, gold } = pool();
    const full = fullConclusion(queries, gold);
    expect(full).toEqual({ decided: true, best: 0 });
    for (const order of ['decide-rankers-mtc', 'random-candidates'] as const)
      for (let seed = 1; seed <= 3; seed++) {
        const r = simulateCandidates(queries, gold, order, { seed });
        expect(r.agreesWithFull).toBe(true);
        expect(r.labels).toBeLessThanOrEqual(240);
        if (order === 'decide-rankers-mtc') expect(r.labels).toBeLessThan(120);
      }
  });
});
