import { describe, expect, it } from 'vitest';
import { QPairsError } from '../errors';
import {
  aggregate,
  evaluateQuery,
  evaluateRankedQuery,
  evaluateRun,
  metricNames,
  type EvalQuery,
  type RunEvaluation,
} from './evaluate';
import { countScored, hasTiedScores, rankIndices } from './ranking';

/** Deterministic PRNG (LCG) so the big test is reproducible. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A synthetic pool: nq queries × nc candidates, grades in {undefined, 0, 1, 2}, coarse scores (ties). */
function synth(nq: number, nc: number, seed = 1) {
  const r = rng(seed);
  const queries: EvalQuery[] = [];
  const run = new Map<string, Map<string, number>>();
  for (let q = 0; q < nq; q++) {
    const candidates = Array.from({ length: nc }, (_, i) => `q${q}c${i}`);
    const grades = new Map<string, number | undefined>();
    const scores = new Map<string, number>();
    for (const c of candidates) {
      const u = r();
      grades.set(c, u < 0.1 ? undefined : u < 0.7 ? 0 : u < 0.9 ? 1 : 2);
      if (r() < 0.95) scores.set(c, Math.floor(r() * 10)); // ~5% unscored, many ties
    }
    queries.push({ queryId: `q${q}`, candidates, grades });
    run.set(`q${q}`, scores);
  }
  return { queries, run };
}

/** Naive reference written straight from the definitions (pool-order ties, unscored appended). */
function naive(queries: EvalQuery[], run: Map<string, Map<string, number>>, convention: 'skip' | 'zero', ks: number[]) {
  const sums: Record<string, number> = {};
  let n = 0;
  for (const q of queries) {
    const s = run.get(q.queryId) ?? new Map<string, number>();
    const grade = (c: string) => (q.grades as Map<string, number | undefined>).get(c);
    const scored = q.candidates.filter((c) => s.has(c));
    const ranked = [...scored.map((c) => ({ c, s: s.get(c)!, i: q.candidates.indexOf(c) }))]
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .map((x) => x.c)
      .concat(q.candidates.filter((c) => !s.has(c)));
    const rel: number[] = ranked.map((c) => ((grade(c) ?? -1) >= 1 ? 1 : 0));
    const R = q.candidates.filter((c) => (grade(c) ?? -1) >= 1).length;
    if (R === 0 && convention === 'skip') continue;
    n++;
    const add = (k: string, v: number) => (sums[k] = (sums[k] ?? 0) + v);
    let hits = 0;
    let ap = 0;
    rel.forEach((x, i) => {
      if (x) ap += ++hits / (i + 1);
    });
    add('MAP', R ? ap / R : 0);
    const first = rel.indexOf(1);
    add('MRR', first < 0 ? 0 : 1 / (first + 1));
    add('R-Prec', R ? rel.slice(0, R).reduce((a, b) => a + b, 0) / R : 0);
    const gains = ranked.map((c) => Math.max(0, grade(c) ?? 0));
    const ideal = q.candidates.map((c) => Math.max(0, grade(c) ?? 0)).sort((a, b) => b - a);
    const dcg = (g: number[], k: number) => g.slice(0, k).reduce((a, x, i) => a + x / Math.log2(i + 2), 0);
    for (const k of ks) {
      const top = rel.slice(0, k).reduce((a, b) => a + b, 0);
      add(`P@${k}`, top / k);
      add(`Success@${k}`, top > 0 ? 1 : 0);
      const id = dcg(ideal, k);
      add(`nDCG@${k}`, id > 0 ? dcg(gains, k) / id : 0);
    }
  }
  const means: Record<string, number> = {};
  for (const [k, v] of Object.entries(sums)) means[k] = v / n;
  return { n, means };
}

function expectNoNaN(e: RunEvaluation): void {
  for (const name of e.metricNames) {
    const v = (e as unknown as Record<string, number>)[name];
    expect(Number.isFinite(v), name).toBe(true);
    expect(v).toBeGreaterThanOrEqual(0);
    expect(v).toBeLessThanOrEqual(1);
  }
  for (const q of e.perQuery) for (const v of Object.values(q.metrics)) expect(Number.isFinite(v)).toBe(true);
}

describe('evaluateRun', () => {
  it('400 queries × 20 candidates: matches a naive reference under both conventions (size check, no timing)', () => {
    const { queries, run } = synth(400, 20);
    const ks = [1, 3, 5, 10, 20, 30];
    for (const convention of ['skip', 'zero'] as const) {
      const e = evaluateRun(queries, run, { convention, ks });
      const ref = naive(queries, run, convention, ks);
      expect(e.total).toBe(400);
      expect(e.queries).toBe(ref.n);
      expect(e.metricNames).toEqual(metricNames(ks));
      for (const name of e.metricNames) {
        expect((e as unknown as Record<string, number>)[name], name).toBeCloseTo(ref.means[name], 12);
      }
      expectNoNaN(e);
    }
  });

  it('incremental path: rank once, re-evaluate one query after a label edit, re-aggregate = full evaluation', () => {
    const { queries, run } = synth(40, 20, 9);
    const opts = { convention: 'skip' as const, ks: [1, 5, 10] };
    const rankings = queries.map((q) => rankIndices(q.candidates, run.get(q.queryId)));
    const per = queries.map((q, i) =>
      evaluateRankedQuery(q, rankings[i], opts, {
        scored: countScored(q.candidates, run.get(q.queryId)),
        tied: hasTiedScores(q.candidates, run.get(q.queryId)),
      }),
    );
    expect(aggregate(per, opts.ks)).toEqual(evaluateRun(queries, run, opts));
    // edit one label
    const q7 = queries[7];
    const grades = new Map(q7.grades as Map<string, number | undefined>);
    grades.set(q7.candidates[rankings[7][0]], 2);
    const edited = { ...q7, grades };
    per[7] = evaluateRankedQuery(edited, rankings[7], opts, { scored: per[7].scored, tied: per[7].tied });
    const full = evaluateRun(queries.map((q, i) => (i === 7 ? edited : q)), run, opts);
    expect(aggregate(per, opts.ks)).toEqual(full);
    expect(per[7].metrics.RR).toBe(1);
    expect(evaluateQuery(edited, run.get('q7'), opts)).toEqual(per[7]);
  });

  it('accepts records for scores and grades; grades of non-candidates are ignored', () => {
    const q: EvalQuery = { queryId: 'q', candidates: ['a', 'b'], grades: { a: 0, b: 1, zzz: 1 } };
    const e = evaluateRun([q], { q: { a: 2, b: 1 } }, { convention: 'skip', ks: [1] });
    expect(e.perQuery[0].relevant).toBe(1);
    expect(e.MAP).toBe(0.5);
    expect(e.MRR).toBe(0.5);
    expect(e['P@1']).toBe(0);
    expect(Object.keys(e)).toEqual(expect.arrayContaining(['MAP', 'MRR', 'R-Prec', 'P@1', 'Success@1', 'nDCG@1']));
  });

  it('k larger than the list: P@k divides by k, Success@k and nDCG@k use the whole list', () => {
    const q: EvalQuery = { queryId: 'q', candidates: ['a', 'b'], grades: new Map([['a', 1], ['b', 1]]) };
    const e = evaluateRun([q], undefined, { convention: 'skip', ks: [100] });
    expect(e['P@100']).toBe(0.02);
    expect(e['Success@100']).toBe(1);
    expect(e['nDCG@100']).toBe(1);
    expect(e.withoutScores).toBe(1);
  });

  it('skip with no query having a relevant candidate: queries = 0, means 0 with a note; zero: means 0 over all', () => {
    const qs: EvalQuery[] = [
      { queryId: 'a', candidates: ['x'], grades: new Map([['x', 0]]) },
      { queryId: 'b', candidates: ['y'], grades: new Map() },
    ];
    const s = evaluateRun(qs, undefined, { convention: 'skip' });
    expect(s.queries).toBe(0);
    expect(s.note).toMatch(/no query has a similar candidate/);
    expectNoNaN(s);
    const z = evaluateRun(qs, undefined, { convention: 'zero' });
    expect(z.queries).toBe(2);
    expect(z.MAP).toBe(0);
    expect(z.note).toBeUndefined();
    const none = evaluateRun([], undefined, { convention: 'zero' });
    expect(none.queries).toBe(0);
    expect(none.note).toMatch(/no query given/);
    expectNoNaN(none);
  });

  it('zero convention: nDCG of a query without relevant candidates is trec_eval-like (gain from sub-threshold grades)', () => {
    const q: EvalQuery = { queryId: 'q', candidates: ['a', 'b'], grades: new Map([['a', 0], ['b', 1]]) };
    const e = evaluateRun([q], { q: { a: 2, b: 1 } }, { convention: 'zero', threshold: 2, ks: [2] });
    expect(e.queries).toBe(1);
    expect(e.MAP).toBe(0);
    expect(e['P@2']).toBe(0);
    expect(e['nDCG@2']).toBeCloseTo(1 / Math.log2(3), 15);
  });

  it('degenerate inputs never produce NaN (empty pools, all unjudged, NaN grades and scores)', () => {
    const qs: EvalQuery[] = [
      { queryId: 'empty', candidates: [], grades: new Map() },
      { queryId: 'unjudged', candidates: ['a', 'b'], grades: new Map([['a', undefined], ['b', NaN]]) },
      { queryId: 'ok', candidates: ['c', 'd'], grades: new Map([['c', 1], ['d', 0]]) },
    ];
    for (const convention of ['skip', 'zero'] as const) {
      for (const unscored of ['append', 'drop'] as const) {
        const e = evaluateRun(qs, { unjudged: { a: NaN }, ok: { d: 1 } }, { convention, unscored, ks: [1, 50] });
        expectNoNaN(e);
        expect(e.queries).toBe(convention === 'skip' ? 1 : 3);
      }
    }
  });

  it('rejects bad input with QPairsError naming the query', () => {
    const q: EvalQuery = { queryId: 'q9', candidates: ['a', 'a'], grades: new Map() };
    expect(() => evaluateRun([q], undefined, { convention: 'skip' })).toThrow(/q9.*a appears twice/);
    const ok: EvalQuery = { queryId: 'q1', candidates: ['a'], grades: new Map() };
    expect(() => evaluateRun([ok, ok], undefined, { convention: 'skip' })).toThrow(/q1 is given twice/);
    expect(() => evaluateRun([ok], undefined, {} as never)).toThrow(QPairsError);
    expect(() => evaluateRun([ok], undefined, { convention: 'skip', threshold: NaN })).toThrow(QPairsError);
    expect(() => evaluateRun([ok], undefined, { convention: 'skip', ks: [0] })).toThrow(QPairsError);
    expect(() => evaluateRankedQuery(ok, [3], { convention: 'skip' })).toThrow(/out of range/);
    expect(() => aggregate([evaluateQuery(ok, undefined, { convention: 'zero', ks: [1] })], [5])).toThrow(/P@5/);
  });

  it('duplicate ks are evaluated once', () => {
    const ok: EvalQuery = { queryId: 'q1', candidates: ['a'], grades: new Map([['a', 1]]) };
    expect(evaluateRun([ok], undefined, { convention: 'skip', ks: [5, 1, 5] }).metricNames).toEqual(metricNames([5, 1]));
  });
});
