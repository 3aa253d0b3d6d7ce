/**
 * Reproduces the BM25 dev row of Lei et al. 2016 (AskUbuntu) from the real dev.txt:
 * MAP 52.03, MRR 65.99, P@1 51.85, P@5 42.12 over 189 of 200 queries (pool-order ties, skip).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dataset } from '../../../tests/datasets';
import { evaluateRun, hasTiedScores, rankCandidates, type EvalQuery, type RunEvaluation } from './index';

interface DevLine {
  query: EvalQuery;
  scores: Map<string, number>;
}

function parseDev(file: string): DevLine[] {
  const out: DevLine[] = [];
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const f = line.split('\t');
    if (f.length !== 4) throw new Error(`${file}:${i + 1}: expected 4 tab-separated fields, got ${f.length}`);
    const similar = new Set(f[1].split(' ').filter(Boolean));
    const candidates = f[2].split(' ').filter(Boolean);
    const bm25 = f[3].split(' ').filter(Boolean).map(Number);
    if (candidates.length !== bm25.length) throw new Error(`${file}:${i + 1}: ${candidates.length} candidates, ${bm25.length} scores`);
    // Every candidate was judged: similar → 1, other candidates → 0.
    const grades = new Map<string, number>(candidates.map((c) => [c, similar.has(c) ? 1 : 0]));
    out.push({ query: { queryId: f[0], candidates, grades }, scores: new Map(candidates.map((c, j) => [c, bm25[j]])) });
  });
  return out;
}

const pct = (x: number) => Math.round(x * 10000) / 100;
const row = (e: RunEvaluation) => ({
  queries: e.queries,
  MAP: pct(e.MAP),
  MRR: pct(e.MRR),
  'P@1': pct(e['P@1']),
  'P@5': pct(e['P@5']),
  'R-Prec': pct(e['R-Prec']),
  'Success@1': pct(e['Success@1']),
  'Success@5': pct(e['Success@5']),
  'nDCG@10': pct(e['nDCG@10']),
});

describe('AskUbuntu dev (Lei et al. 2016 BM25 row)', () => {
  const dev = parseDev(dataset('askubuntu/dev.txt'));
  const queries = dev.map((d) => d.query);
  const run = new Map(dev.map((d) => [d.query.queryId, d.scores]));

  it('has 200 queries of 20 candidates, 29 of them with tied scores', () => {
    expect(dev.length).toBe(200);
    expect(dev.every((d) => d.query.candidates.length === 20)).toBe(true);
    expect(dev.filter((d) => hasTiedScores(d.query.candidates, d.scores)).length).toBe(29);
  });

  it('pool-order ties + skip reproduce the paper: MAP 52.03 MRR 65.99 P@1 51.85 P@5 42.12 (189 queries)', () => {
    const e = evaluateRun(queries, run, { convention: 'skip', ties: 'pool-order', ks: [1, 5, 10] });
    expect(e.total).toBe(200);
    expect(e.queries).toBe(189);
    expect(e.withoutRelevant).toBe(11);
    expect(e.tiedQueries).toBe(29);
    const r = row(e);
    expect(r.MAP).toBe(52.03);
    expect(r.MRR).toBe(65.99);
    expect(r['P@1']).toBe(51.85);
    expect(r['P@5']).toBe(42.12);
    // The file lists candidates by BM25 descending, so pool-order ranking = the file's order.
    for (const d of dev) expect(rankCandidates(d.query.candidates, d.scores)).toEqual(d.query.candidates);
    expect(r).toEqual(
      {
        MAP: 52.03,
        MRR: 65.99,
        'P@1': 51.85,
        'P@5': 42.12,
        'R-Prec': 41.76,
        'Success@1': 51.85,
        'Success@5': 83.07,
        'nDCG@10': 55.43,
        queries: 189,
      }
    );
  });

  it('pins the trec-eval tie rule and the zero convention', () => {
    const trecSkip = row(evaluateRun(queries, run, { convention: 'skip', ties: 'trec-eval' }));
    const poolZero = row(evaluateRun(queries, run, { convention: 'zero', ties: 'pool-order' }));
    const trecZero = row(evaluateRun(queries, run, { convention: 'zero', ties: 'trec-eval' }));
    // Cross-checked with an independent Python re-implementation (sort key (-score, docno bytes desc)).
    expect({ trecSkip, poolZero, trecZero }).toEqual(
      {
        poolZero: {
          MAP: 49.17,
          MRR: 62.36,
          'P@1': 49,
          'P@5': 39.8,
          'R-Prec': 39.46,
          'Success@1': 49,
          'Success@5': 78.5,
          'nDCG@10': 52.38,
          queries: 200,
        },
        trecSkip: {
          MAP: 52.07,
          MRR: 66.02,
          'P@1': 51.85,
          'P@5': 42.12,
          'R-Prec': 41.81,
          'Success@1': 51.85,
          'Success@5': 83.07,
          'nDCG@10': 55.61,
          queries: 189,
        },
        trecZero: {
          MAP: 49.21,
          MRR: 62.39,
          'P@1': 49,
          'P@5': 39.8,
          'R-Prec': 39.51,
          'Success@1': 49,
          'Success@5': 78.5,
          'nDCG@10': 52.55,
          queries: 200,
        },
      }
    );
  });
});
