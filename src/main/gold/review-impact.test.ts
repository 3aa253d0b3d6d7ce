/**
 * The review queue's impacts: a query's current relevance (its candidates' aggregate labels) is
 * computed once per query, not once per disputed pair, and every pair's impact and |ΔAP| per run
 * are what pairImpact gives the pair alone.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { rankIndices } from '../metrics';
import { mulberry32 } from '../stats/random';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import type { Workspace } from '../workspace/workspace';
import { pairFigures, pairImpact, reviewQueue } from './review';
import { loadPoolState } from './state';
import { setAggregation } from './store';

const scratch = scratchWorkspaces('qpairs-review-impact-');
let ws: Workspace;
beforeEach(() => {
  ws = scratch.fresh('w');
});

const QUERIES = 12;
const DEPTH = 20;

describe('the review queue’s impacts', () => {
  it('reads each query’s candidates’ labels once, and gives each pair the impact pairImpact gives it alone', () => {
    const rand = mulberry32(11);
    ws.transaction(() => {
      ws.createPool({ name: 'p', scheme: 'binary', blind: true });
      const runs = [ws.ensureRun('p', 'bm25', 'retriever'), ws.ensureRun('p', 'other', 'retriever')];
      for (let q = 0; q < QUERIES; q++) {
        const cands = Array.from({ length: DEPTH }, (_, c) => `c${q}-${c}`);
        for (const id of [`q${q}`, ...cands]) ws.upsertQuestion({ id, source: 'test', title: id, body: id });
        ws.addPoolQuery('p', `q${q}`, cands);
        for (const c of cands) {
          for (const r of runs) ws.setRunScore(r, `q${q}`, c, rand());
          const a = rand() < 0.4 ? '1' : '0';
          ws.addLabel({ pool: 'p', queryId: `q${q}`, candidateId: c, annotator: 'alice', value: a, origin: 'test' });
          // Most pairs of the pool disputed: many per query.
          ws.addLabel({ pool: 'p', queryId: `q${q}`, candidateId: c, annotator: 'bob', value: rand() < 0.6 ? (a === '1' ? '0' : '1') : rand() < 0.2 ? '?' : a, origin: 'test' });
        }
      }
    });
    const s = loadPoolState(ws, 'p');
    const gets = vi.spyOn(s.byKey, 'get');
    const queue = reviewQueue(ws, 'p', null, { includeSettled: true }, s);
    expect(queue.items.length).toBeGreaterThan(QUERIES * DEPTH * 0.5);
    // One look-up per candidate of each query with a disputed pair (QUERIES × DEPTH), not per disputed pair (× DEPTH).
    expect(gets.mock.calls.length).toBeLessThanOrEqual(QUERIES * DEPTH);
    gets.mockRestore();
    const runs = ws.listRuns('p').map((r) => ({ name: r.name, scores: ws.runScores(r.id) }));
    for (const item of queue.items) {
      const e = s.byKey.get(`${item.queryId}\u0000${item.candidateId}`)!;
      const q = s.queries[e.queryIndex]!;
      const alone = pairImpact(e, s, runs.map((r) => ({ run: r.name, ranking: rankIndices(q.candidates, r.scores.get(q.queryId)) })));
      expect(item.impact).toBe(alone.impact);
      expect(pairFigures(ws, s, item.queryId, item.candidateId).apChange).toEqual(alone.apChange);
    }
    expect(queue.items.some((i) => i.impact > 0)).toBe(true);
  });

  it('a SemEval pair voted PerfectMatch and Relevant, unresolved, counts as not similar until settled: its impact is what settling moves (it read 0, last in the queue)', () => {
    ws.createPool({ name: 's', scheme: 'semeval3' });
    const run = ws.ensureRun('s', 'bm25', 'retriever');
    ws.addPoolQuery('s', 'q', ['a', 'b', 'c']);
    for (const [c, score] of [['a', 3], ['b', 2], ['c', 1]] as const) ws.setRunScore(run, 'q', c, score);
    const put = (c: string, who: string, v: string): void => void ws.addLabel({ pool: 's', queryId: 'q', candidateId: c, annotator: who, value: v, origin: 'test' });
    put('a', 'alice', 'PerfectMatch');
    put('a', 'bob', 'Relevant'); // both similar: settling makes a similar whatever the ruling
    put('b', 'alice', 'Relevant');
    put('b', 'bob', 'Irrelevant'); // similar or not
    put('c', 'alice', 'Relevant');
    put('c', 'bob', 'Relevant'); // agreed
    const queue = reviewQueue(ws, 's', null);
    const impact = new Map(queue.items.map((i) => [i.candidateId, i.impact]));
    // Now only c counts as similar (AP 1/3). Settling a makes it similar: AP (1 + 2/3)/2 — by 1/2; b: (1/2 + 2/3)/2 − 1/3 = 1/4.
    expect(impact.get('a')).toBeCloseTo(0.5, 12);
    expect(impact.get('b')).toBeCloseTo(0.25, 12);
    expect(queue.items.map((i) => i.candidateId)).toEqual(['a', 'b']);
    // Under majority a third vote makes it PerfectMatch, similar already: settling moves nothing.
    put('a', 'carl', 'PerfectMatch');
    put('b', 'carl', 'Irrelevant');
    put('c', 'carl', 'Relevant');
    setAggregation(ws, 's', 'majority');
    expect(reviewQueue(ws, 's', null).items.find((i) => i.candidateId === 'a')!.impact).toBe(0);
  });
});

