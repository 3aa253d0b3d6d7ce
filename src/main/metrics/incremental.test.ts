import { describe, expect, it } from 'vitest';
import { QPairsError } from '../errors';
import { evaluateRun, type EvalOptions, type EvalQuery } from './evaluate';
import { IncrementalEvaluator, type PoolQueryCandidates } from './incremental';

/** Deterministic PRNG (LCG) so every random case is reproducible from its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Case {
  queries: PoolQueryCandidates[];
  runs: Array<Map<string, Map<string, number>> | undefined>;
  options: EvalOptions;
}

/** A random pool: 1–14 queries of 0–9 candidates, 0–3 runs with ties, missing scores and empty runs. */
function randomCase(r: () => number): Case {
  const nq = 1 + Math.floor(r() * 14);
  const queries: PoolQueryCandidates[] = [];
  for (let q = 0; q < nq; q++) {
    const nc = Math.floor(r() * 10);
    // ids whose code point order differs from pool order, so the trec-eval tie rule matters
    queries.push({ queryId: `q${q}`, candidates: Array.from({ length: nc }, (_, i) => `c${(i * 7) % 10}-${q}-${i}`) });
  }
  const nr = Math.floor(r() * 4);
  const runs: Case['runs'] = [];
  for (let j = 0; j < nr; j++) {
    if (r() < 0.1) {
      runs.push(undefined);
      continue;
    }
    const run = new Map<string, Map<string, number>>();
    for (const q of queries) {
      if (r() < 0.1) continue; // the run has nothing for this query
      const s = new Map<string, number>();
      for (const c of q.candidates) if (r() < 0.9) s.set(c, Math.floor(r() * 5) / 2); // coarse: many ties
      run.set(q.queryId, s);
    }
    runs.push(run);
  }
  const options: EvalOptions = {
    convention: r() < 0.5 ? 'skip' : 'zero',
    ties: r() < 0.5 ? 'pool-order' : 'trec-eval',
    unscored: r() < 0.7 ? 'append' : 'drop',
    threshold: r() < 0.8 ? 1 : 2,
    ks: r() < 0.5 ? [1, 5] : undefined,
  };
  return { queries, runs, options };
}

/** Random grades of a query: unjudged ("?", unlabeled) or a grade 0–2 (SemEval-like). */
function randomGrades(r: () => number, q: PoolQueryCandidates): Map<string, number | undefined> {
  const g = new Map<string, number | undefined>();
  for (const c of q.candidates) {
    const u = r();
    if (u < 0.15) continue; // unlabeled
    g.set(c, u < 0.25 ? undefined : u < 0.65 ? 0 : u < 0.9 ? 1 : 2);
  }
  return g;
}

describe('IncrementalEvaluator', () => {
  it('equals the full recompute (evaluateRun) after every step of random label sequences', () => {
    let steps = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const r = rng(seed);
      const c = randomCase(r);
      const inc = new IncrementalEvaluator(c.queries, c.runs, c.options);
      // The reference state: counted queries with their grades and order keys.
      const state = new Map<string, { grades: Map<string, number | undefined>; key: number }>();
      for (let step = 0; step < 60; step++) {
        const q = c.queries[Math.floor(r() * c.queries.length)]!;
        const u = r();
        if (u < 0.2) {
          // left out: labels cleared (not fully labeled any more) or deleted
          inc.setQuery(q.queryId, null);
          state.delete(q.queryId);
        } else {
          const grades = randomGrades(r, q);
          // mostly "labeled last" (growing keys), sometimes an older key (a cleared label) or a tie
          const key = u < 0.8 ? steps + 1000 : Math.floor(r() * 5);
          inc.setQuery(q.queryId, grades, key);
          state.set(q.queryId, { grades, key });
        }
        steps++;
        const order = c.queries
          .map((x, i) => ({ x, i }))
          .filter(({ x }) => state.has(x.queryId))
          .sort((a, b) => state.get(a.x.queryId)!.key - state.get(b.x.queryId)!.key || a.i - b.i);
        const counted: EvalQuery[] = order.map(({ x }) => ({ queryId: x.queryId, candidates: x.candidates, grades: state.get(x.queryId)!.grades }));
        expect(inc.orderedQueryIds()).toEqual(counted.map((x) => x.queryId));
        expect(inc.countedQueries).toBe(counted.length);
        c.runs.forEach((run, j) => {
          const full = evaluateRun(counted, run, c.options);
          const { perQuery, ...fullMeans } = full;
          const got = inc.means(j);
          expect(got.metricNames).toEqual(fullMeans.metricNames);
          for (const k of ['queries', 'total', 'withoutRelevant', 'withoutScores', 'tiedQueries', 'note'] as const) expect(got[k], `${k}, seed ${seed}`).toEqual(fullMeans[k]);
          for (const name of full.metricNames) {
            const a = (got as unknown as Record<string, number>)[name]!;
            const b = (fullMeans as unknown as Record<string, number>)[name]!;
            expect(Math.abs(a - b), `${name}, seed ${seed}, step ${step}`).toBeLessThanOrEqual(1e-12);
          }
          // per query: the very same results, in the same order
          expect(inc.orderedResults(j)).toEqual(perQuery);
        });
      }
    }
    expect(steps).toBe(150 * 60);
  });

  it('keeps its running sums exact enough over a long edit history on a big pool', () => {
    const r = rng(7);
    const queries = Array.from({ length: 300 }, (_, q) => ({ queryId: `q${q}`, candidates: Array.from({ length: 20 }, (_, i) => `q${q}c${i}`) }));
    const run = new Map(queries.map((q) => [q.queryId, new Map(q.candidates.map((c) => [c, r()]))]));
    const options: EvalOptions = { convention: 'skip', ks: [1, 5] };
    const inc = new IncrementalEvaluator(queries, [run], options);
    const state = new Map<string, Map<string, number | undefined>>();
    for (let step = 0; step < 20000; step++) {
      const q = queries[Math.floor(r() * queries.length)]!;
      const g = new Map(q.candidates.map((c) => [c, r() < 0.2 ? 1 : 0] as [string, number]));
      inc.setQuery(q.queryId, g, step);
      state.delete(q.queryId);
      state.set(q.queryId, g); // insertion order = labeling order
    }
    const full = evaluateRun(
      [...state].map(([id, grades]) => ({ queryId: id, candidates: queries[Number(id.slice(1))]!.candidates, grades })),
      run,
      options,
    );
    const got = inc.means(0) as unknown as Record<string, number>;
    for (const name of full.metricNames) expect(Math.abs(got[name]! - (full as unknown as Record<string, number>)[name]!)).toBeLessThanOrEqual(1e-12);
    expect(got.queries).toBe(full.queries);
  });

  it('returns 0 means with a note when nothing is included, and restarts its sums from exact 0', () => {
    const queries = [{ queryId: 'a', candidates: ['x', 'y'] }];
    const inc = new IncrementalEvaluator(queries, [new Map([['a', new Map([['x', 1], ['y', 2]])]])], { convention: 'skip' });
    expect(inc.means(0)).toMatchObject({ queries: 0, total: 0, MAP: 0, note: 'no query given; all means are 0' });
    inc.setQuery('a', { x: 1, y: 0 }, 1);
    expect(inc.means(0)).toMatchObject({ queries: 1, MAP: 0.5, MRR: 0.5, 'P@1': 0 });
    inc.setQuery('a', { x: 0, y: 0 }, 2); // no relevant candidate: skipped
    expect(inc.means(0)).toMatchObject({ queries: 0, total: 1, withoutRelevant: 1, MAP: 0, note: 'no query has a similar candidate (convention skip); all means are 0' });
    inc.setQuery('a', { y: 1 }, 3);
    expect(inc.means(0)).toMatchObject({ queries: 1, MAP: 1, MRR: 1, 'P@1': 1 });
    expect(inc.isCounted('a')).toBe(true);
    inc.setQuery('a', null);
    expect(inc.isCounted('a')).toBe(false);
    expect(inc.means(0)).toMatchObject({ queries: 0, total: 0, MAP: 0 });
  });

  it('says from which position of the order the queries or their results changed', () => {
    const queries = ['a', 'b', 'c', 'd'].map((id) => ({ queryId: id, candidates: ['x', 'y'] }));
    const inc = new IncrementalEvaluator(queries, [undefined], { convention: 'zero' });
    expect(inc.takeFirstChange()).toBe(0);
    ['a', 'b', 'c', 'd'].forEach((id, i) => inc.setQuery(id, { x: 1 }, i + 1));
    expect(inc.takeFirstChange()).toBe(0);
    expect(inc.takeFirstChange()).toBe(4); // nothing changed since
    inc.setQuery('d', { y: 1 }, 4); // same place, new results
    expect(inc.takeFirstChange()).toBe(3);
    inc.setQuery('b', { x: 1 }, 5); // b moves to the end: c and d move up
    expect(inc.orderedQueryIds()).toEqual(['a', 'c', 'd', 'b']);
    expect(inc.takeFirstChange()).toBe(1);
    inc.setQuery('d', { x: 0 }, 0); // moves to the front
    expect(inc.takeFirstChange()).toBe(0);
    inc.setQuery('b', null); // leaves the end
    expect(inc.takeFirstChange()).toBe(3);
    expect(inc.countedQueries).toBe(3);
  });

  it('rejects unknown queries, duplicate queries or candidates and bad options', () => {
    const inc = new IncrementalEvaluator([{ queryId: 'a', candidates: ['x'] }], [], { convention: 'zero' });
    expect(() => inc.setQuery('b', {})).toThrow(QPairsError);
    expect(() => new IncrementalEvaluator([{ queryId: 'a', candidates: [] }, { queryId: 'a', candidates: [] }], [], { convention: 'zero' })).toThrow(/given twice/);
    expect(() => new IncrementalEvaluator([{ queryId: 'a', candidates: ['x', 'x'] }], [], { convention: 'zero' })).toThrow(/appears twice/);
    expect(() => new IncrementalEvaluator([], [], { convention: 'sometimes' as 'zero' })).toThrow(/convention/);
    expect(() => inc.means(0)).toThrow(/no run 0/);
  });
});
