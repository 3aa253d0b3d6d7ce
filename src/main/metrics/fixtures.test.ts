/**
 * Hand-checked fixtures in trec_eval's definitions (tests/fixtures/metrics/*.json).
 * Each case's expected values were computed by hand; the arithmetic is in its "why" field.
 * Values are numbers or exact fractions written "p/q".
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluateRun, metricNames, type EvalOptions, type EvalQuery } from './index';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../tests/fixtures/metrics');

type Value = number | string;
interface Fixture {
  description: string;
  queries: { queryId: string; candidates: string[]; grades: Record<string, number | null> }[];
  scores: Record<string, Record<string, number>>;
  cases: {
    name: string;
    options: EvalOptions;
    why: string[];
    expected: {
      queries: number;
      withoutRelevant?: number;
      withoutScores?: number;
      tiedQueries?: number;
      means: Record<string, Value>;
      perQuery?: Record<
        string,
        { ranking?: string[]; relevant?: number; judged?: number; scored?: number; retrieved?: number; included?: boolean; metrics?: Record<string, Value> }
      >;
    };
  }[];
}

function value(v: Value): number {
  if (typeof v === 'number') return v;
  const m = /^(\d+)\/(\d+)$/.exec(v);
  if (!m) throw new Error(`bad expected value ${v}`);
  return Number(m[1]) / Number(m[2]);
}

const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

describe('hand-checked metric fixtures', () => {
  it('finds the fixtures', () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
  });

  for (const file of files) {
    const fx = JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as Fixture;
    const queries: EvalQuery[] = fx.queries.map((q) => ({
      queryId: q.queryId,
      candidates: q.candidates,
      // JSON null = unjudged
      grades: new Map(Object.entries(q.grades).map(([id, g]) => [id, g === null ? undefined : g])),
    }));
    for (const c of fx.cases) {
      it(`${file}: ${c.name}`, () => {
        expect(c.why.length).toBeGreaterThan(0);
        const e = evaluateRun(queries, fx.scores, c.options);
        const x = c.expected;
        expect(e.queries).toBe(x.queries);
        for (const key of ['withoutRelevant', 'withoutScores', 'tiedQueries'] as const) {
          if (x[key] !== undefined) expect(e[key], key).toBe(x[key]);
        }
        // Every mean is given, and nothing else.
        expect(Object.keys(x.means).sort()).toEqual(metricNames(c.options.ks).sort());
        for (const [name, v] of Object.entries(x.means)) {
          expect((e as unknown as Record<string, number>)[name], `mean ${name}`).toBeCloseTo(value(v), 12);
        }
        for (const [qid, xq] of Object.entries(x.perQuery ?? {})) {
          const r = e.perQuery.find((p) => p.queryId === qid)!;
          const q = queries.find((qq) => qq.queryId === qid)!;
          if (xq.ranking) expect(r.ranking.map((i) => q.candidates[i]), `${qid} ranking`).toEqual(xq.ranking);
          for (const key of ['relevant', 'judged', 'scored', 'retrieved', 'included'] as const) {
            if (xq[key] !== undefined) expect(r[key], `${qid} ${key}`).toBe(xq[key]);
          }
          if (xq.metrics) {
            const perQueryNames = metricNames(c.options.ks).map((n) => (n === 'MAP' ? 'AP' : n === 'MRR' ? 'RR' : n));
            expect(Object.keys(xq.metrics).sort()).toEqual(perQueryNames.sort());
            for (const [name, v] of Object.entries(xq.metrics)) {
              expect((r.metrics as Record<string, number>)[name], `${qid} ${name}`).toBeCloseTo(value(v), 12);
            }
          }
        }
      });
    }
  }
});
