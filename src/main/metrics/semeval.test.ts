/**
 * SemEval-2016 Task 3 subtask B dev: the search engine's order (IR baseline) scores MAP 71.35
 * under the official convention (all 50 queries, AP = 0 for a query with no relevant candidate).
 * Minimal regex-level parse of the real XML; the .relevancy gold file is checked against it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dataset, datasetText } from '../../../tests/datasets';
import { evaluateRun, type EvalQuery } from './index';

const GRADE: Record<string, number> = { PerfectMatch: 2, Relevant: 1, Irrelevant: 0 };
const pct = (x: number) => Math.round(x * 10000) / 100;

function attr(tag: string, name: string): string {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  if (!m) throw new Error(`attribute ${name} missing in ${tag.slice(0, 80)}`);
  return m[1];
}

describe('SemEval-2016 Task 3 subtask B dev (IR baseline)', () => {
  const xml = datasetText('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');
  const byQuery = new Map<string, { cands: string[]; grades: Map<string, number>; scores: Map<string, number> }>();
  for (const m of xml.matchAll(/<OrgQuestion\s+ORGQ_ID="([^"]+)"[\s\S]*?(<RelQuestion\s[^>]*>)/g)) {
    const orgq = m[1];
    const tag = m[2];
    const id = attr(tag, 'RELQ_ID');
    const rank = Number(attr(tag, 'RELQ_RANKING_ORDER'));
    const grade = GRADE[attr(tag, 'RELQ_RELEVANCE2ORGQ')];
    if (grade === undefined || !Number.isInteger(rank)) throw new Error(`bad RelQuestion ${id}`);
    let q = byQuery.get(orgq);
    if (!q) byQuery.set(orgq, (q = { cands: [], grades: new Map(), scores: new Map() }));
    q.cands.push(id);
    q.grades.set(id, grade);
    q.scores.set(id, -rank); // RELQ_RANKING_ORDER 1 is best
  }
  const queries: EvalQuery[] = [...byQuery].map(([queryId, q]) => ({ queryId, candidates: q.cands, grades: q.grades }));
  const run = new Map([...byQuery].map(([id, q]) => [id, q.scores]));

  it('parses 50 original questions, 500 related', () => {
    expect(queries.length).toBe(50);
    expect(queries.reduce((s, q) => s + q.candidates.length, 0)).toBe(500);
  });

  it('the .relevancy gold agrees with the XML (true = PerfectMatch or Relevant, same ranks)', () => {
    const lines = readFileSync(dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml.subtaskB.relevancy'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    expect(lines.length).toBe(500);
    for (const l of lines) {
      const [orgq, relq, rank, , label] = l.split('\t');
      const q = byQuery.get(orgq)!;
      expect(q.scores.get(relq)).toBe(-Number(rank));
      expect(q.grades.get(relq)! >= 1).toBe(label === 'true');
    }
  });

  it('MAP 71.35 under the zero convention (50 queries)', () => {
    const e = evaluateRun(queries, run, { convention: 'zero', ties: 'pool-order', threshold: 1, ks: [1, 5, 10] });
    expect(e.queries).toBe(50);
    expect(pct(e.MAP)).toBe(71.35);
    expect(e.tiedQueries).toBe(0);
    const skip = evaluateRun(queries, run, { convention: 'skip' });
    // Pinned (computed by this module; AP/MAP cross-checked by the 71.35 above). nDCG gain: PerfectMatch 2, Relevant 1.
    expect({
      zero: { MRR: pct(e.MRR), 'P@1': pct(e['P@1']), 'P@5': pct(e['P@5']), 'nDCG@10': pct(e['nDCG@10']) },
      skip: { queries: skip.queries, MAP: pct(skip.MAP) },
    }).toEqual({
      zero: { MRR: 76.67, 'P@1': 70, 'P@5': 54.4, 'nDCG@10': 75.29 },
      skip: { queries: 43, MAP: 82.97 },
    });
  });
});
