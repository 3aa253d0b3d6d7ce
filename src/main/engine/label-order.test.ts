import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';
import { fillThreeRunsPool } from './three-runs-pool';
import { readDraws } from '../active/draw-log';
import type { PoolEvaluation, PoolInfo, QueryView } from '../../shared/contract';
import type { LabelOrderStanding } from '../../shared/label-order';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-order-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const Q = 8;
const C = 4;
/** Query q<i> has candidates q<i>c0..c3; c0 is relevant (and c1 on even queries). Run "good" ranks c0 first, "bad" last; "mixed" alternates. */
function orderedEngine(file = 'w.qpairs', order?: { order: string; seed?: number }): Engine {
  const ws = Workspace.create(path.join(dir, file));
  fillThreeRunsPool(ws, { queries: Q, candidates: C, blind: true });
  if (order) ws.db.prepare(`UPDATE pools SET label_order = ?, order_seed = ? WHERE name = 'p'`).run(order.order, order.seed ?? 1);
  return new Engine(ws, { transport: 'http' });
}

const relevant = (q: string, c: string) => c === `${q}c0` || (Number(q.slice(1)) % 2 === 0 && c === `${q}c1`);

async function labelQuery(engine: Engine, annotator: string, view: QueryView): Promise<void> {
  for (const c of view.candidates) await engine.invoke('label.set', { pool: 'p', queryId: view.queryId, candidateId: c.id, annotator, value: relevant(view.queryId, c.id) ? '1' : '0' });
}

describe('labeling order', () => {
  it('pool order needs no draws and serves queries in pool order', async () => {
    const engine = orderedEngine();
    const info = (await engine.invoke('pool.list', {})) as PoolInfo[];
    expect(info[0]).toMatchObject({ label_order: 'pool', order_seed: 1 });
    const v = (await engine.invoke('annotate.query', { pool: 'p', annotator: 'alice' })) as QueryView;
    expect(v.queryId).toBe('q0');
    expect(readDraws(engine.ws, 'p')).toHaveLength(0);
    engine.close();
  });

  it('random order draws one query at a time with probability 1/remaining, the same for the same seed', async () => {
    const served = async (file: string) => {
      const engine = orderedEngine(file, { order: 'random', seed: 5 });
      const ids: string[] = [];
      for (let k = 0; k < 3; k++) {
        const v = (await engine.invoke('annotate.query', { pool: 'p', annotator: 'alice' })) as QueryView;
        expect(v.index).toBe(k); // drawn queries come first, in draw order
        ids.push(v.queryId);
        // asking again without labeling serves the same query: no new draw
        expect(((await engine.invoke('annotate.query', { pool: 'p', annotator: 'alice' })) as QueryView).queryId).toBe(v.queryId);
        await labelQuery(engine, 'alice', v);
      }
      const draws = readDraws(engine.ws, 'p');
      expect(draws.map((d) => d.queryId)).toEqual(ids);
      expect(draws.map((d) => d.probability)).toEqual([1 / 8, 1 / 7, 1 / 6]);
      expect(draws.map((d) => d.remaining)).toEqual([8, 7, 6]);
      engine.close();
      return ids;
    };
    const a = await served('a.qpairs');
    expect(await served('b.qpairs')).toEqual(a);
    expect(a).not.toEqual(['q0', 'q1', 'q2']);
  });

  it('decide-rankers draws with recorded probabilities and predictions; Evaluate estimates MAP and says when the best run is decided', async () => {
    const engine = orderedEngine('w.qpairs', { order: 'decide-rankers', seed: 3 });
    const standing = async () => (await engine.invoke('eval.order', { pool: 'p', annotator: 'alice' })) as LabelOrderStanding;
    let lo = await standing();
    expect(lo).toMatchObject({ order: 'decide-rankers', population: Q, drawn: 0, used: 0, best: null, decided: false });
    for (let k = 0; k < Q; k++) {
      const v = (await engine.invoke('annotate.query', { pool: 'p', annotator: 'alice' })) as QueryView;
      await labelQuery(engine, 'alice', v);
      lo = await standing();
      expect(lo.used).toBe(k + 1);
      if (k + 1 < Q) expect(lo.estimator).toMatch(/^Des Raj/);
      for (const r of lo.rankers) if (r.ci) expect(r.ci[0] >= 0 && r.ci[1] <= 1).toBe(true);
    }
    const draws = readDraws(engine.ws, 'p');
    expect(new Set(draws.map((d) => d.queryId)).size).toBe(Q);
    for (const d of draws) {
      expect(d.probability).toBeGreaterThan(0);
      expect(d.probability).toBeLessThanOrEqual(1);
      expect(d.predictions?.runs).toEqual(['good', 'bad', 'mixed']);
    }
    expect(draws.at(-1)!.probability).toBe(1);
    // Every query labeled: the estimates are the exact MAPs (score-0 convention), and "good" (AP 1 everywhere) is decided best.
    const ev = (await engine.invoke('eval.pool', { pool: 'p', annotator: 'alice', convention: 'zero' })) as PoolEvaluation;
    expect(lo.estimator).toBe('exact');
    for (const r of lo.rankers) expect(r.map).toBeCloseTo(ev.runs[r.run]!.MAP!, 12);
    expect(lo.best).toBe('good');
    expect(lo.decided).toBe(true);
    engine.close();
  });

  it('the owner sets the order on a pool; the CLI-visible pool info carries it; a bad order is refused', async () => {
    const engine = orderedEngine();
    const info = (await engine.invoke('pool.set', { pool: 'p', order: 'uncertainty', orderSeed: 9 })) as PoolInfo;
    expect(info).toMatchObject({ label_order: 'uncertainty', order_seed: 9, blind: true });
    await expect(engine.invoke('pool.set', { pool: 'p', order: 'sideways' })).rejects.toMatchObject({ code: 'invalid-argument' });
    await expect(engine.invoke('pool.set', { pool: 'p' })).rejects.toMatchObject({ code: 'invalid-argument' });
    const v = (await engine.invoke('annotate.query', { pool: 'p', annotator: 'alice' })) as QueryView;
    expect(readDraws(engine.ws, 'p').map((d) => d.queryId)).toEqual([v.queryId]);
    expect(v.blind).toBe(true);
    expect(v.candidates.every((c) => Object.keys(c.runs).length === 0)).toBe(true);
    engine.close();
  });

  it('k-per-query assignment still holds: an annotator is served only drawn queries assigned to them', async () => {
    const engine = orderedEngine('w.qpairs', { order: 'random', seed: 4 });
    engine.ws.ensureAnnotator('carol', 'annotator');
    await engine.invoke('pool.assign', { pool: 'p', annotators: ['alice', 'bob', 'carol'], perQuery: 1, seed: 2 });
    const mine = async (who: string) => ((await engine.invoke('annotate.queries', { pool: 'p', annotator: who })) as Array<{ id: string }>).map((x) => x.id);
    const assigned = { alice: await mine('alice'), bob: await mine('bob'), carol: await mine('carol') };
    expect(assigned.alice.length + assigned.bob.length + assigned.carol.length).toBe(Q);
    for (const who of ['alice', 'bob', 'carol'] as const) {
      for (let k = 0; k < assigned[who].length; k++) {
        const v = (await engine.invoke('annotate.query', { pool: 'p', annotator: who })) as QueryView;
        expect(assigned[who]).toContain(v.queryId);
        await labelQuery(engine, who, v);
      }
    }
    // Every query drawn once, whoever asked; each draw's probability was 1 / the undrawn queries then.
    const draws = readDraws(engine.ws, 'p');
    expect(draws).toHaveLength(Q);
    draws.forEach((d, i) => expect(d.probability).toBeCloseTo(1 / (Q - i), 12));
    engine.close();
  });

  it('each annotator gets the first drawn query they have not done; a draw is made only when they have done all drawn ones', async () => {
    const engine = orderedEngine('w.qpairs', { order: 'random', seed: 2 });
    const changed: unknown[] = [];
    engine.hub.on('workspace.changed', (w) => changed.push(w));
    const a1 = (await engine.invoke('annotate.query', { pool: 'p', annotator: 'alice' })) as QueryView;
    const b1 = (await engine.invoke('annotate.query', { pool: 'p', annotator: 'bob' })) as QueryView;
    expect(b1.queryId).toBe(a1.queryId); // bob labels the same drawn query: two votes per drawn query
    expect(readDraws(engine.ws, 'p')).toHaveLength(1);
    await labelQuery(engine, 'alice', a1);
    const a2 = (await engine.invoke('annotate.navigate', { pool: 'p', annotator: 'alice', from: a1.queryId, direction: 'next-unlabeled' })) as QueryView;
    expect(a2.queryId).not.toBe(a1.queryId);
    expect(readDraws(engine.ws, 'p')).toHaveLength(2);
    const listOf = async (annotator: string) => ((await engine.invoke('annotate.queries', { pool: 'p', annotator })) as Array<{ id: string }>).map((x) => x.id);
    expect((await listOf('alice')).slice(0, 2)).toEqual([a1.queryId, a2.queryId]);
    // The pool is blind: bob has reached the first draw only, and alice's second is not put first in his list (blind-draws.test).
    expect((await listOf('bob'))[0]).toBe(a1.queryId);
    expect((await listOf('bob')).indexOf(a2.queryId)).toBe(1 + ['q0', 'q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7'].filter((q) => q !== a1.queryId).indexOf(a2.queryId));
    // Each draw is told as a draw, not as a change of the pool (the Review screen reads nothing again for it).
    expect(changed).toEqual([{ what: 'draws', pool: 'p', annotator: 'alice' }, { what: 'draws', pool: 'p', annotator: 'alice' }]);
    engine.close();
  });

  it('"next unlabeled" in an ordered pool stays among the drawn queries: from a drawn query left half done it never goes to an undrawn one', async () => {
    const engine = orderedEngine('w.qpairs', { order: 'random', seed: 2 });
    await engine.invoke('pool.assign', { pool: 'p', annotators: ['alice', 'bob'] });
    const a1 = (await engine.invoke('annotate.query', { pool: 'p', annotator: 'alice' })) as QueryView;
    await labelQuery(engine, 'alice', a1);
    const a2 = (await engine.invoke('annotate.navigate', { pool: 'p', annotator: 'alice', from: a1.queryId, direction: 'next-unlabeled' })) as QueryView;
    expect(readDraws(engine.ws, 'p').map((d) => d.queryId)).toEqual([a1.queryId, a2.queryId]);
    // One label on the second drawn query, then Enter: the only drawn query not done is this one.
    await engine.invoke('label.set', { pool: 'p', queryId: a2.queryId, candidateId: a2.candidates[0]!.id, annotator: 'alice', value: '0' });
    const next = (await engine.invoke('annotate.navigate', { pool: 'p', annotator: 'alice', from: a2.queryId, direction: 'next-unlabeled' })) as QueryView;
    expect(next.queryId).toBe(a2.queryId);
    // From an undrawn query opened by hand (N), Enter goes back to the drawn one not done.
    const undrawn = (await engine.invoke('annotate.navigate', { pool: 'p', annotator: 'alice', from: a2.queryId, direction: 'next' })) as QueryView;
    expect(readDraws(engine.ws, 'p').map((d) => d.queryId)).not.toContain(undrawn.queryId);
    const back = (await engine.invoke('annotate.navigate', { pool: 'p', annotator: 'alice', from: undrawn.queryId, direction: 'next-unlabeled' })) as QueryView;
    expect(back.queryId).toBe(a2.queryId);
    expect(readDraws(engine.ws, 'p')).toHaveLength(2);
    // Bob, on the same pool, gets the same drawn queries in the same order.
    const b1 = (await engine.invoke('annotate.query', { pool: 'p', annotator: 'bob' })) as QueryView;
    await labelQuery(engine, 'bob', b1);
    const b2 = (await engine.invoke('annotate.navigate', { pool: 'p', annotator: 'bob', from: b1.queryId, direction: 'next-unlabeled' })) as QueryView;
    expect([b1.queryId, b2.queryId]).toEqual([a1.queryId, a2.queryId]);
    engine.close();
  });

  it('decide-rankers-mtc serves one pair at a time, its candidate first (blind stays blind), the same pairs to every assigned annotator; Evaluate says "decided" only from the paired test', async () => {
    const engine = orderedEngine('w.qpairs');
    await engine.invoke('pool.set', { pool: 'p', order: 'decide-rankers-mtc', orderSeed: 3 });
    await engine.invoke('pool.assign', { pool: 'p', annotators: ['alice', 'bob'] });
    let lo = (await engine.invoke('eval.order', { pool: 'p' })) as LabelOrderStanding;
    expect(lo).toMatchObject({ order: 'decide-rankers-mtc', estimator: 'bounds', decided: false, best: null });
    const seen: string[] = [];
    for (let k = 0; k < 12; k++) {
      const v = (await engine.invoke('annotate.query', { pool: 'p', annotator: 'alice' })) as QueryView;
      expect(v.focus).toBeDefined();
      expect(v.candidates[0]!.id).toBe(v.focus);
      expect(v.candidates.map((c) => c.position)).toEqual([0, 1, 2, 3]); // blind: display order only
      expect(v.candidates.every((c) => Object.keys(c.runs).length === 0)).toBe(true);
      expect(v.candidates).toHaveLength(C); // the query's other candidates stay reachable
      seen.push(`${v.queryId}/${v.focus}`);
      await engine.invoke('label.set', { pool: 'p', queryId: v.queryId, candidateId: v.focus!, annotator: 'alice', value: relevant(v.queryId, v.focus!) ? '1' : '0' });
    }
    expect(new Set(seen).size).toBe(12);
    // The query of the pair asked next, read again by id (a screen's re-read), still names the pair.
    const ask = (await engine.invoke('annotate.query', { pool: 'p', annotator: 'alice' })) as QueryView;
    const again = (await engine.invoke('annotate.query', { pool: 'p', annotator: 'alice', queryId: ask.queryId })) as QueryView;
    expect(again.focus).toBe(ask.focus);
    expect(again.candidates[0]!.id).toBe(ask.focus);
    const other = (await engine.invoke('annotate.query', { pool: 'p', annotator: 'alice', queryId: ask.queryId === 'q0' ? 'q1' : 'q0' })) as QueryView;
    expect(other.focus).toBeUndefined();
    expect(readDraws(engine.ws, 'p')).toHaveLength(0); // no draws: the pair follows from the seed and the labels
    // Bob is given alice's pairs first, in her order: every pair gets its two labels.
    for (const pair of seen) {
      const v = (await engine.invoke('annotate.navigate', { pool: 'p', annotator: 'bob', from: 'q0', direction: 'next-unlabeled' })) as QueryView;
      expect(`${v.queryId}/${v.focus}`).toBe(pair);
      await engine.invoke('label.set', { pool: 'p', queryId: v.queryId, candidateId: v.focus!, annotator: 'bob', value: relevant(v.queryId, v.focus!) ? '1' : '0' });
    }
    // Agreement is computed over exactly those pairs, each labeled by both.
    const agreement = (await engine.invoke('agreement.report', { pool: 'p', bootstrap: 10 })) as { items: number; pairs: Array<{ items: number; percentAgreement: { value: number | null } }> };
    expect(agreement.items).toBe(12);
    expect(agreement.pairs[0]).toMatchObject({ items: 12, percentAgreement: { value: 1 } });
    lo = (await engine.invoke('eval.order', { pool: 'p' })) as LabelOrderStanding;
    expect(lo.used).toBeGreaterThanOrEqual(5);
    for (const r of lo.rankers) expect(r.ci![0]).toBeLessThanOrEqual(r.ci![1]);
    if (lo.decided) for (const r of lo.rankers) if (r.run !== lo.best) expect(r.adjustedP!).toBeLessThan(0.05);
    // The order is stored (pool_candidate_orders, migration 12) and is what pool.list and the Pools screen show.
    expect((await import('../active/draw-log')).readPoolOrder(engine.ws, 'p')).toEqual({ order: 'decide-rankers-mtc', seed: 3 });
    expect(((await engine.invoke('pool.list', {})) as PoolInfo[]).find((x) => x.name === 'p')?.label_order).toBe('decide-rankers-mtc');
    expect(engine.ws.db.prepare(`SELECT label_order FROM pools WHERE name = 'p'`).pluck().get()).toBe('random');
    await engine.invoke('pool.set', { pool: 'p', order: 'random' });
    expect((await import('../active/draw-log')).readPoolOrder(engine.ws, 'p').order).toBe('random');
    expect(engine.ws.pool('p').label_order).toBe('random');
    expect(engine.ws.db.prepare(`SELECT count(*) FROM pool_candidate_orders`).pluck().get()).toBe(0);
    engine.close();
  });
});
