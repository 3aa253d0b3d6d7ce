import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseArgs, type LabelAck, type PoolEvaluation } from '../../shared/contract';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';
import { evaluatePool, poolEvaluationOf } from './evaluate';
import { aggregate, evaluateRun } from '../metrics';
import { meanInterval } from '../stats/t-interval';
import { mulberry32 } from './seeded';

let dir: string;
let engine: Engine;
let ws: Workspace;
const Q = 8;
const C = 4;
const cands = (q: number): string[] => Array.from({ length: C }, (_, i) => `c${q}_${i}`);

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-live-metrics-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
  const rnd = mulberry32(3);
  ws.transaction(() => {
    for (const name of ['alice', 'bob']) ws.ensureAnnotator(name, 'annotator');
    ws.ensureAnnotator('carol', 'judge');
    ws.ensureAnnotator('gold', 'gold');
    for (const pool of ['p', 'other']) {
      ws.createPool({ name: pool, scheme: 'binary', blind: false });
      const runs = ['bm25', 'model'].map((n) => ws.ensureRun(pool, n, 'test'));
      for (let q = 0; q < Q; q++) {
        ws.addPoolQuery(pool, `q${q}`, cands(q));
        // coarse scores (ties), one query without scores in run "model"
        for (const r of runs) for (const c of cands(q)) if (!(r === runs[1] && q === 0)) ws.setRunScore(r, `q${q}`, c, Math.floor(rnd() * 3));
      }
    }
  });
  engine = new Engine(ws, { transport: 'electron' });
});
afterEach(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The eval.pool requests the panels make: an annotator's own labels, gold, the default source, the aggregate. */
const REQUESTS = [
  { pool: 'p', annotator: 'alice', convention: 'skip' },
  { pool: 'p', annotator: 'alice', convention: 'zero', partial: true },
  { pool: 'p', annotator: 'gold', convention: 'zero', ties: 'trec-eval' },
  { pool: 'p' },
  { pool: 'p', partial: true, convention: 'zero' },
  { pool: 'p', annotator: '@aggregate', convention: 'skip' },
  { pool: 'other', annotator: 'bob' },
] as const;

async function expectSameAsFullRecompute(step: string): Promise<void> {
  for (const raw of REQUESTS) {
    const live = (await engine.invoke('eval.pool', raw)) as PoolEvaluation;
    const full = evaluatePool(ws, parseArgs('eval.pool', raw));
    expect(live, `${step}: ${JSON.stringify(raw)}`).toEqual(full);
  }
}

describe('eval.pool from the live cache', () => {
  it('equals the full recompute after every label, undo, clear and "?", and after any other write', async () => {
    const rnd = mulberry32(11);
    const acks: Array<{ seq: number; annotator: string }> = [];
    await expectSameAsFullRecompute('start');
    for (let step = 0; step < 400; step++) {
      const u = rnd();
      const q = Math.floor(rnd() * Q);
      const c = cands(q)[Math.floor(rnd() * C)]!;
      const pool = rnd() < 0.85 ? 'p' : 'other';
      if (u < 0.8) {
        const annotator = ['alice', 'alice', 'bob', 'gold', 'carol'][Math.floor(rnd() * 5)]!;
        const v = rnd();
        const value = v < 0.45 ? '1' : v < 0.85 ? '0' : v < 0.93 ? '?' : null;
        const set = engine.invoke('label.set', { pool, queryId: `q${q}`, candidateId: c, annotator, value }) as Promise<LabelAck>;
        // carol is a judge: she rules only on pairs in dispute, never "?" (gold/review.ts checkRuling); a refusal changes nothing.
        const ack = annotator === 'carol' ? await set.catch((e: Error) => (expect(e.message).toMatch(/nothing to settle|"\?" settles nothing/), null)) : await set;
        if (ack?.seq) acks.push({ seq: ack.seq, annotator });
      } else if (u < 0.9 && acks.length > 0) {
        const a = acks[Math.floor(rnd() * acks.length)]!;
        // Issue 23: only a pair's latest event can be undone; an older one is refused and changes nothing.
        await engine.invoke('label.undo', a).catch((e: Error) => expect(e.message).toMatch(/is not your latest label of that pair|is already undone/));
      } else if (u < 0.93) {
        ws.setRunScore(ws.listRuns('p')[0]!.id, `q${q}`, c, rnd() * 3); // a ranker's scores change
      } else if (u < 0.95) {
        await engine.invoke('pool.setAggregation', { pool: 'p', rule: rnd() < 0.5 ? 'majority' : 'unanimous' });
      } else if (u < 0.97) {
        // another connection (another process) labels, or changes a ranker's scores
        const other = Workspace.open(ws.path);
        if (rnd() < 0.5) other.addLabel({ pool: 'p', queryId: `q${q}`, candidateId: c, annotator: 'alice', value: rnd() < 0.5 ? '1' : '0', origin: 'test' });
        else other.setRunScore(other.listRuns('p')[1]!.id, `q${q}`, c, rnd() * 3);
        other.close();
      } else if (u < 0.98) {
        ws.addPoolQuery('p', `q${Q + step}`, [`x${step}`]); // pool membership changes
      }
      await expectSameAsFullRecompute(`step ${step}`);
    }
    expect(acks.some((a) => a.annotator === 'carol')).toBe(true); // the judge's rulings were among the writes
    const { stats } = engine.liveEvaluations;
    // Most requests were answered by updating the cached evaluation, not rebuilding it.
    expect(stats.updates + stats.hits).toBeGreaterThan(4 * stats.rebuilds);
    expect(stats.updates).toBeGreaterThan(300);
  });

  it('re-aggregates only the labeled query: the pool\'s other pairs are not aggregated again, nor its queries read', async () => {
    // On a 60,000-pair pool the whole aggregate, recomputed for every label, took ~300 ms of eval.pool.
    ws.transaction(() => {
      for (const annotator of ['alice', 'bob']) for (let q = 0; q < Q; q++) for (const c of cands(q)) ws.addLabel({ pool: 'p', queryId: `q${q}`, candidateId: c, annotator, value: c.endsWith('_1') ? '1' : '0', origin: 'test' });
    });
    const args = { pool: 'p' }; // the default source: the aggregate of alice and bob
    expect(((await engine.invoke('eval.pool', args)) as PoolEvaluation).annotator).toBe('@aggregate');
    const givenAt = vi.spyOn(ws, 'labelGivenAt');
    const poolQueries = vi.spyOn(ws, 'poolQueries');
    await engine.invoke('label.set', { pool: 'p', queryId: 'q3', candidateId: 'c3_2', annotator: 'alice', value: '1' });
    const live = (await engine.invoke('eval.pool', args)) as PoolEvaluation;
    // Each vote of q3's pairs once (2 annotators × C candidates), not each of the pool's 2 × Q × C.
    expect(givenAt.mock.calls.length).toBeGreaterThan(0);
    expect(givenAt.mock.calls.length).toBeLessThanOrEqual(2 * C);
    expect(poolQueries).not.toHaveBeenCalled();
    expect(engine.liveEvaluations.stats.updates).toBe(1);
    givenAt.mockRestore();
    poolQueries.mockRestore();
    expect(live).toEqual(evaluatePool(ws, parseArgs('eval.pool', args)));
  });

  it('updates rather than rebuilds on labels, and rebuilds when a run changes', async () => {
    const args = { pool: 'p', annotator: 'alice' };
    await engine.invoke('eval.pool', args);
    const s = engine.liveEvaluations.stats;
    const rebuilds = s.rebuilds;
    for (const c of cands(1)) await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: c, annotator: 'alice', value: c.endsWith('_2') ? '1' : '0' });
    const ev = (await engine.invoke('eval.pool', args)) as PoolEvaluation;
    expect(ev.labeledQueries).toBe(1);
    expect(ev.runs.bm25!.queries).toBe(1);
    expect(s.rebuilds).toBe(rebuilds);
    await engine.invoke('eval.pool', args);
    expect(s.hits).toBeGreaterThan(0);
    ws.setRunScore(ws.listRuns('p')[0]!.id, 'q1', 'c1_2', 100);
    const after = (await engine.invoke('eval.pool', args)) as PoolEvaluation;
    expect(s.rebuilds).toBe(rebuilds + 1);
    expect(after.runs.bm25!.MAP).toBe(1); // c1_2, the relevant one, now ranks first
  });
});

describe('poolEvaluationOf', () => {
  it('gives the means aggregate() gives, bit for bit, the t intervals of the included AP and RR, and the prefix means as the curve', () => {
    const rnd = mulberry32(5);
    for (const convention of ['skip', 'zero'] as const) {
      const queries = Array.from({ length: 300 }, (_, q) => {
        const candidates = Array.from({ length: 20 }, (_, i) => `q${q}c${i}`);
        return { queryId: `q${q}`, candidates, grades: new Map(candidates.map((c) => [c, rnd() < 0.1 ? 1 : 0] as [string, number])) };
      });
      const perRun = ['a', 'b'].map((name) => {
        const run = new Map(queries.map((q) => [q.queryId, new Map(q.candidates.map((c) => [c, rnd()]))]));
        return { name, results: evaluateRun(queries, run, { convention, ks: [1, 5] }).perQuery };
      });
      const args = parseArgs('eval.pool', { pool: 'p', annotator: 'x', convention });
      const ev = poolEvaluationOf(args, 'x', { total: 300, full: 300, partial: 0, counted: 300 }, perRun);
      for (const { name, results } of perRun) {
        const agg = aggregate(results, [1, 5]);
        const included = results.filter((r) => r.included);
        expect(ev.runs[name]).toEqual({
          queries: agg.queries,
          MAP: agg.MAP,
          MRR: agg.MRR,
          'P@1': agg['P@1'],
          'P@5': agg['P@5'],
          'R-Prec': agg['R-Prec'],
          ci: {
            MAP: meanInterval(included.map((r) => r.metrics.AP)).value,
            MRR: meanInterval(included.map((r) => r.metrics.RR)).value,
            'P@1': meanInterval(included.map((r) => r.metrics['P@1'])).value,
            'P@5': meanInterval(included.map((r) => r.metrics['P@5'])).value,
            'R-Prec': meanInterval(included.map((r) => r.metrics['R-Prec'])).value,
          },
        });
        expect(ev.curve.at(-1)!.runs[name]).toEqual({ MAP: agg.MAP, MRR: agg.MRR, 'P@1': agg['P@1'], 'P@5': agg['P@5'], 'R-Prec': agg['R-Prec'] });
        const first = results.findIndex((r) => r.included);
        expect(ev.curve[first]!.runs[name]!.MAP).toBe(results[first]!.metrics.AP);
        if (first > 0) expect(ev.curve[first - 1]!.runs[name]).toBeUndefined();
      }
      expect(ev.curve.map((p) => p.labeledQueries)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    }
  });
});
