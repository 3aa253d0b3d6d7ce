import { describe, expect, it } from 'vitest';
import type { PoolEvaluation, QueryEvaluation } from '../../shared/contract';
import type { Engine } from './engine';
import { engineOn, useFreshEngine } from './test-engine';

let engine: Engine;
useFreshEngine(
  'qpairs-eval-query-',
  (dir) =>
    engineOn(
      dir,
      (ws) => {
        ws.createPool({ name: 'p', scheme: 'graded', blind: false });
        const run = ws.ensureRun('p', 'r', 'test');
        // Run r ties a, b and c (pool order a, b, c); only c is a perfect match (grade 2), a is related (1).
        const cands = ['a', 'b', 'c'];
        for (const id of ['q', ...cands]) ws.upsertQuestion({ id, source: 's', title: id, body: id });
        ws.addPoolQuery('p', 'q', cands);
        for (const c of cands) ws.setRunScore(run, 'q', c, 5);
        const grades: Record<string, string> = { a: '1', b: '0', c: '2' };
        for (const c of cands) ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'ann', value: grades[c]!, origin: 'test' });
      },
      'electron',
    ),
  (e) => (engine = e),
);

async function drill(args: Record<string, unknown>): Promise<QueryEvaluation['rankers'][number]> {
  const q = (await engine.invoke('eval.query', { pool: 'p', queryId: 'q', annotator: 'ann', ...args })) as QueryEvaluation;
  return q.rankers.find((r) => r.run === 'r')!;
}

describe("eval.query (the Evaluate screen's drill-down) counts as the table beside it", () => {
  it('breaks ties and judges relevance by the options given, as eval.pool does', async () => {
    for (const ties of ['pool-order', 'trec-eval'] as const) {
      for (const threshold of [1, 2]) {
        const one = await drill({ ties, threshold });
        const table = (await engine.invoke('eval.pool', { pool: 'p', annotator: 'ann', ties, threshold })) as PoolEvaluation;
        expect(one.AP, `${ties} ${threshold}`).toBeCloseTo(table.runs.r!.MAP!, 12);
        expect(one.order.filter((o) => o.relevant).map((o) => o.candidateId), `${ties} ${threshold}`).toEqual(
          (ties === 'pool-order' ? ['a', 'c'] : ['c', 'a']).filter((c) => (c === 'a' ? threshold <= 1 : true)),
        );
      }
    }
    // The defaults (pool order, relevant from 1): a at rank 1, c at rank 3.
    const d = await drill({});
    expect(d.order.map((o) => o.candidateId)).toEqual(['a', 'b', 'c']);
    expect(d.AP).toBeCloseTo((1 + 2 / 3) / 2, 12);
    // trec_eval's rule: ties by document id descending — c, b, a.
    expect((await drill({ ties: 'trec-eval' })).order.map((o) => o.candidateId)).toEqual(['c', 'b', 'a']);
    // Relevant from grade 2: only c, at rank 3 in pool order.
    expect((await drill({ threshold: 2 })).AP).toBeCloseTo(1 / 3, 12);
  });
});
