import { describe, expect, it } from 'vitest';
import type { PoolEvaluation, QueryEvaluation } from '../../shared/contract';
import { meanInterval } from '../stats/t-interval';
import type { Engine } from './engine';
import { engineOn, useFreshEngine } from './test-engine';

let engine: Engine;
useFreshEngine(
  'qpairs-eval-ci-',
  (dir) =>
    engineOn(
      dir,
      (ws) => {
        ws.createPool({ name: 'p', scheme: 'binary', blind: false });
        const run = ws.ensureRun('p', 'r', 'test');
        // Three queries whose first relevant candidate sits at rank 1, 2 and 3 of run r.
        for (let q = 0; q < 3; q++) {
          const cands = ['a', 'b', 'c'].map((c) => `${c}${q}`);
          for (const id of [`q${q}`, ...cands]) ws.upsertQuestion({ id, source: 's', title: id, body: id });
          ws.addPoolQuery('p', `q${q}`, cands);
          cands.forEach((c, i) => {
            ws.setRunScore(run, `q${q}`, c, 3 - i);
            ws.addLabel({ pool: 'p', queryId: `q${q}`, candidateId: c, annotator: 'ann', value: i === q ? '1' : '0', origin: 'test' });
          });
        }
      },
      'electron',
    ),
  (e) => (engine = e),
);

describe('eval.pool confidence intervals', () => {
  it('MAP and MRR come with the t interval of the per-query AP and RR that eval.query reports', async () => {
    const ev = (await engine.invoke('eval.pool', { pool: 'p', annotator: 'ann' })) as PoolEvaluation;
    const ap: number[] = [];
    for (const q of ['q0', 'q1', 'q2']) {
      const one = (await engine.invoke('eval.query', { pool: 'p', queryId: q, annotator: 'ann' })) as QueryEvaluation;
      ap.push(one.rankers.find((r) => r.run === 'r')!.AP!);
    }
    expect(ap).toEqual([1, 1 / 2, 1 / 3]);
    const want = meanInterval(ap).value!;
    expect(ev.runs.r!.MAP).toBeCloseTo((1 + 1 / 2 + 1 / 3) / 3, 12);
    expect(ev.runs.r!.ci!.MAP![0]).toBeCloseTo(want[0], 12);
    expect(ev.runs.r!.ci!.MAP![1]).toBeCloseTo(want[1], 12);
    expect(ev.runs.r!.ci!.MRR).toEqual(ev.runs.r!.ci!.MAP); // one relevant candidate per query: RR = AP
    // Three queries: mean ± t·s/√n is [−0.25, 1.47]; every metric lies in [0, 1], so the interval is cut there.
    expect(ev.runs.r!.ci!.MAP).toEqual([0, 1]);
    // P@5 is 1/5 on every query: no spread, so no interval (never the point [0.2, 0.2]).
    expect(ev.runs.r!['P@5']).toBeCloseTo(0.2, 12);
    expect(ev.runs.r!.ci!['P@5']).toBeNull();
    for (const m of ['MAP', 'MRR', 'P@1', 'R-Prec'] as const) {
      const ci = ev.runs.r!.ci![m]!;
      expect(ci[0], m).toBeGreaterThanOrEqual(0);
      expect(ci[1], m).toBeLessThanOrEqual(1);
    }
  });
});
