/**
 * The labeling-order standing (eval.order, `qpairs eval`'s verdict) counts as the metrics table does
 * for the same options: label source, convention, ties, threshold and partly labeled queries. In pool
 * order its MAPs are the table's, its `used` the table's query count, its p-values those of
 * `eval --compare … --baseline BEST`; in a drawn order, once every query is labeled, its exact MAPs are
 * the table's too. Before, eval.order took only the label source and counted every fully labeled query
 * with threshold 1, pool-order ties and convention zero, whatever the table beside it showed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';
import { comparePoolRuns } from '../gold';
import type { PoolEvaluation, QueryView } from '../../shared/contract';
import type { LabelOrderStanding } from '../../shared/label-order';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-order-counting-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const Q = 12;
const C = 4;
const RUNS = ['first', 'second', 'last', 'flat'];

/**
 * Graded pool of 12 queries × 4 candidates. Run "first" ranks c0 first, "second" c1 first and c0 last,
 * "last" c0 last; "flat" puts c0 last and scores the others alike (their order depends on the tie rule).
 */
function gradedEngine(order?: { order: string; seed: number }): Engine {
  const ws = Workspace.create(path.join(dir, 'w.qpairs'));
  ws.transaction(() => {
    ws.ensureAnnotator('alice', 'annotator');
    ws.createPool({ name: 'p', scheme: 'graded', blind: false });
    const runs = RUNS.map((r) => ws.ensureRun('p', r, 'test'));
    for (let i = 0; i < Q; i++) {
      const cands = Array.from({ length: C }, (_, c) => `q${i}c${c}`);
      for (const id of [`q${i}`, ...cands]) ws.upsertQuestion({ id, source: 'test', title: `title ${id}`, body: `body ${id}` });
      ws.addPoolQuery('p', `q${i}`, cands);
      cands.forEach((c, k) => {
        ws.setRunScore(runs[0]!, `q${i}`, c, C - k);
        ws.setRunScore(runs[1]!, `q${i}`, c, k === 1 ? C + 1 : k === 0 ? 0 : C - k);
        ws.setRunScore(runs[2]!, `q${i}`, c, k);
        ws.setRunScore(runs[3]!, `q${i}`, c, k === 0 ? 0 : 1);
      });
    }
  });
  if (order) ws.db.prepare(`UPDATE pools SET label_order = ?, order_seed = ? WHERE name = 'p'`).run(order.order, order.seed);
  return new Engine(ws, { transport: 'http' });
}

/**
 * alice's grades: q0–q5 c0 graded 2 (c1 1 on even queries), q6–q7 c0 graded 1 only, q8–q9 nothing
 * relevant; q10 partly labeled (c3 graded 2, nothing else); q11 unlabeled.
 */
function grade(q: number, c: number): string | null {
  if (q === 10) return c === 3 ? '2' : null;
  if (q === 11) return null;
  if (q <= 5) return c === 0 ? '2' : c === 1 && q % 2 === 0 ? '1' : '0';
  if (q <= 7) return c === 0 ? '1' : '0';
  return '0';
}

async function labelAll(engine: Engine): Promise<void> {
  for (let q = 0; q < Q; q++)
    for (let c = 0; c < C; c++) {
      const value = grade(q, c);
      if (value !== null) await engine.invoke('label.set', { pool: 'p', queryId: `q${q}`, candidateId: `q${q}c${c}`, annotator: 'alice', value });
    }
}

type Options = { convention?: 'skip' | 'zero'; ties?: 'pool-order' | 'trec-eval'; threshold?: number; partial?: boolean };
const OPTIONS: Options[] = [{}, { partial: true }, { convention: 'skip' }, { threshold: 2 }, { ties: 'trec-eval' }, { convention: 'skip', partial: true, threshold: 2, ties: 'trec-eval' }, { threshold: 3 }];

async function both(engine: Engine, o: Options): Promise<{ ev: PoolEvaluation; lo: LabelOrderStanding }> {
  const a = { pool: 'p', annotator: 'alice', ...o };
  return { ev: (await engine.invoke('eval.pool', a)) as PoolEvaluation, lo: (await engine.invoke('eval.order', a)) as LabelOrderStanding };
}

describe('the labeling-order standing counts as the metrics table', () => {
  it('pool order: the table’s MAPs and query count, its leader, and the p-values of eval --compare … --baseline BEST, for every option', async () => {
    const engine = gradedEngine();
    await labelAll(engine);
    for (const o of OPTIONS) {
      const { ev, lo } = await both(engine, o);
      const what = JSON.stringify(o);
      expect(lo.counting, what).toEqual({ annotator: 'alice', convention: o.convention ?? 'zero', ties: o.ties ?? 'pool-order', threshold: o.threshold ?? 1, partial: o.partial ?? false });
      for (const r of lo.rankers) {
        expect(r.map, `${what} ${r.run}`).toBeCloseTo(ev.runs[r.run]!.MAP!, 12);
        expect(lo.used, `${what} ${r.run}`).toBe(ev.runs[r.run]!.queries);
      }
      expect(lo.leftOut, what).toBe(ev.labeledQueries - lo.used);
      const maps = RUNS.map((r) => ev.runs[r]!.MAP!);
      const top = Math.max(...maps);
      const leaders = RUNS.filter((_, i) => Math.abs(maps[i]! - top) <= 1e-12);
      expect(lo.best, what).toBe(leaders.length === 1 ? leaders[0] : null);
      if (lo.best === null) {
        expect(lo.decided, what).toBe(false);
        continue;
      }
      if (o.partial) continue; // --compare counts fully labeled queries only
      const cmp = comparePoolRuns(engine.ws, 'p', { runs: RUNS, annotator: 'alice', ...o, baseline: lo.best, permutations: 10, bootstrap: 10 });
      for (const p of cmp.pairs) {
        const other = p.a === lo.best ? p.b : p.a;
        expect(lo.rankers.find((r) => r.run === other)!.adjustedP, `${what} ${other}`).toBeCloseTo(p.pHolmT.value ?? 1, 12);
      }
      expect(lo.decided, what).toBe(cmp.pairs.every((p) => p.rejectT));
    }
    // The cases QA saw: a threshold above every grade leaves every AP 0 (no run leads, nothing decided) …
    const high = (await both(engine, { threshold: 3 })).lo;
    expect(high).toMatchObject({ best: null, decided: false, used: 10 });
    // … convention skip leaves out the 2 fully labeled queries without a relevant candidate, and partial counts q10.
    expect((await both(engine, { convention: 'skip' })).lo).toMatchObject({ used: 8, leftOut: 2 });
    expect((await both(engine, { partial: true })).lo).toMatchObject({ used: 11, leftOut: 0 });
    expect((await both(engine, {})).lo).toMatchObject({ used: 10, best: 'first', decided: true });
    engine.close();
  });

  it('the label source and convention default as eval.pool’s: the pool’s own convention (skip here)', async () => {
    const engine = gradedEngine();
    await labelAll(engine);
    await engine.invoke('pool.set', { pool: 'p', convention: 'skip' });
    const ev = (await engine.invoke('eval.pool', { pool: 'p' })) as PoolEvaluation;
    const lo = (await engine.invoke('eval.order', { pool: 'p' })) as LabelOrderStanding;
    expect(ev.convention).toBe('skip');
    expect(lo.counting).toMatchObject({ annotator: ev.annotator, convention: 'skip' });
    for (const r of lo.rankers) expect(r.map).toBeCloseTo(ev.runs[r.run]!.MAP!, 12);
    engine.close();
  });

  for (const order of ['random', 'decide-rankers'] as const)
    it(`${order} order: every option counts the drawn queries as the table counts; exact MAPs once all are labeled`, async () => {
      const engine = gradedEngine({ order, seed: 5 });
      const labelWhole = async (q: number) => {
        for (let c = 0; c < C; c++) await engine.invoke('label.set', { pool: 'p', queryId: `q${q}`, candidateId: `q${q}c${c}`, annotator: 'alice', value: grade(q, c) ?? '0' });
      };
      const served = async () => Number(((await engine.invoke('annotate.query', { pool: 'p', annotator: 'alice' })) as QueryView).queryId.slice(1));
      // Label whole queries in draw order until q10 or q11 comes up (the draws then wait for it).
      const done = new Set<number>();
      for (let q = await served(); q < 10 && !done.has(q); q = await served()) {
        await labelWhole(q);
        done.add(q);
      }
      for (const o of OPTIONS) {
        const { ev, lo } = await both(engine, o);
        const what = `${order} ${JSON.stringify(o)}`;
        expect(lo.counting.convention, what).toBe(o.convention ?? 'zero');
        // (The model-assisted estimate may leave [0, 1]; its interval is clipped to it.)
        if (lo.estimator !== 'Des Raj (model-assisted)') for (const r of lo.rankers) if (r.ci && r.map !== null) expect(r.ci[0] <= r.map + 1e-12 && r.map <= r.ci[1] + 1e-12, what).toBe(true);
        // Random order: the plain mean over the counted draws — here every labeled query is drawn, so the table's MAP.
        if (order === 'random') for (const r of lo.rankers) expect(r.map, `${what} ${r.run}`).toBeCloseTo(ev.runs[r.run]!.MAP!, 12);
        if (lo.best === null) expect(lo.decided, what).toBe(false);
      }
      // Every remaining query labeled (q10 and q11 first, then the draws as served): the standing's MAPs are the table's exactly, under each option.
      for (const q of [10, 11]) {
        await labelWhole(q);
        done.add(q);
      }
      for (let q = await served(); !done.has(q); q = await served()) {
        await labelWhole(q);
        done.add(q);
      }
      expect(done.size).toBe(Q);
      for (const o of OPTIONS) {
        const { ev, lo } = await both(engine, o);
        const what = `${order} all labeled ${JSON.stringify(o)}`;
        expect(lo.estimator, what).toBe('exact');
        for (const r of lo.rankers) {
          expect(r.map, `${what} ${r.run}`).toBeCloseTo(ev.runs[r.run]!.MAP!, 12);
          expect(lo.used, what).toBe(ev.runs[r.run]!.queries);
        }
      }
      engine.close();
    });
});
