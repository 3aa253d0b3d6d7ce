import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../workspace/workspace';
import { Engine } from '../engine/engine';
import type { ReviewQueue, AggregationSummary } from '../../shared/gold';
import { addAnnotator, aggregationSummary, agreementJson, assignPool, loadPoolState, poolAgreement, resolvePair, reviewQueue, setAggregation } from '.';

let dir: string;
let ws: Workspace;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-unsure-'));
  ws = Workspace.create(path.join(dir, 'u.qpairs'));
});
afterEach(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

const bin = (rule: 'adjudicated' | 'majority' | 'mean' | 'unanimous', unsure: number, extra: object = {}) => ({ rule, scheme: 'binary' as const, unsure, ...extra });

describe('unsure is a first-class label (issue 13)', () => {
  it('rules: one decisive vote and one "?" is never agreed; each rule says how "?" counts', () => {
    expect(resolvePair(['0'], null, bin('adjudicated', 1))).toEqual({ value: null, status: 'unresolved' });
    expect(resolvePair(['0'], '1', bin('adjudicated', 1))).toEqual({ value: '1', status: 'adjudicated' });
    expect(resolvePair([], null, bin('adjudicated', 1))).toEqual({ value: null, status: 'unresolved' });
    // majority: "?" is a vote for no value
    expect(resolvePair(['0'], null, bin('majority', 1))).toEqual({ value: null, status: 'unresolved' });
    expect(resolvePair(['0', '0'], null, bin('majority', 1))).toEqual({ value: '0', status: 'majority' });
    expect(resolvePair(['0'], null, bin('majority', 2))).toEqual({ value: null, status: 'unresolved' });
    // mean: "?" left out of the mean; only "?" → unresolved
    expect(resolvePair(['1'], null, bin('mean', 1))).toMatchObject({ value: '1', status: 'mean' });
    expect(resolvePair([], null, bin('mean', 2))).toEqual({ value: null, status: 'unresolved' });
    // unanimous: any "?" → unresolved
    expect(resolvePair(['1', '1'], null, bin('unanimous', 1))).toEqual({ value: null, status: 'unresolved' });
    // without "?" nothing changes
    expect(resolvePair(['1', '1'], null, bin('adjudicated', 0))).toEqual({ value: '1', status: 'agreed' });
    expect(resolvePair([], null, bin('majority', 0))).toEqual({ value: null, status: 'unlabeled' });
  });

  it('"?" goes to the review queue with the other votes; a single vote + "?" is not agreed; a judge settles it', async () => {
    ws.createPool({ name: 'p', scheme: 'binary' });
    ws.addPoolQuery('p', 'q1', ['a', 'b', 'c']);
    assignPool(ws, 'p', ['alice', 'bob'], null);
    addAnnotator(ws, 'judy', 'judge');
    const put = (c: string, who: string, v: string): void => void ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: c, annotator: who, value: v, origin: 't' });
    put('a', 'alice', '0');
    put('a', 'bob', '?'); // one decisive vote + unsure
    put('b', 'alice', '1');
    put('b', 'bob', '1'); // agreed
    put('c', 'alice', '1');
    put('c', 'bob', '0'); // disagreement
    const s = loadPoolState(ws, 'p');
    expect(s.byKey.get('q1\u0000a')!.resolution).toEqual({ value: null, status: 'unresolved' });
    expect(s.byKey.get('q1\u0000b')!.resolution.status).toBe('agreed');
    const sum = aggregationSummary(s);
    expect(sum).toMatchObject({ disagreements: 1, unresolved: 2, unsure: { pairs: 1, settled: 0, unresolved: 1 } });
    const q = reviewQueue(ws, 'p', 'judy');
    expect(q).toMatchObject({ total: 2, disagreements: 1, unsure: 1, remaining: 2 });
    const a = q.items.find((i) => i.candidateId === 'a')!;
    expect(a.reason).toBe('unsure');
    expect(a.labels).toEqual([
      { annotator: 'alice', value: '0' },
      { annotator: 'bob', value: '?' },
    ]);
    expect(q.items.find((i) => i.candidateId === 'c')!.reason).toBe('disagreement');

    // Through the engine: the judge settles the unsure pair (review.settle accepts it).
    const engine = new Engine(ws, { transport: 'electron' });
    const ack = (await engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: 'a', value: '0' })) as { remaining: number };
    expect(ack.remaining).toBe(1);
    const queue = (await engine.invoke('review.queue', { pool: 'p', judge: 'judy' })) as ReviewQueue;
    expect(queue.items.map((i) => i.candidateId)).toEqual(['c']);
    const agg = (await engine.invoke('pool.aggregation', { pool: 'p' })) as AggregationSummary;
    expect(agg.byStatus.adjudicated).toBe(1);
    expect(agg.unsure).toEqual({ pairs: 1, settled: 1, unresolved: 0 });
    // majority: 0 + "?" is a tie for no value → unresolved, unless settled (it is)
    setAggregation(ws, 'p', 'majority');
    expect(loadPoolState(ws, 'p').byKey.get('q1\u0000a')!.resolution.status).toBe('adjudicated');
  });

  it('agreement counts the "?" labels it leaves out (they were dropped without a word)', () => {
    ws.createPool({ name: 'p', scheme: 'binary' });
    ws.addPoolQuery('p', 'q1', ['a', 'b', 'c']);
    ws.addPoolQuery('p', 'q2', ['d']);
    assignPool(ws, 'p', ['alice', 'bob'], null);
    const put = (q: string, c: string, who: string, v: string): void => void ws.addLabel({ pool: 'p', queryId: q, candidateId: c, annotator: who, value: v, origin: 't' });
    put('q1', 'a', 'alice', '0');
    put('q1', 'a', 'bob', '?');
    put('q1', 'b', 'alice', '1');
    put('q1', 'b', 'bob', '1');
    put('q1', 'c', 'alice', '?');
    put('q1', 'c', 'bob', '?'); // only "?": not an item at all
    put('q2', 'd', 'alice', '0');
    put('q2', 'd', 'bob', '?');
    const v = poolAgreement(ws, 'p', { bootstrap: 10 });
    expect(v).toMatchObject({ items: 3, unsure: 4 });
    expect(v.pairs[0]!.items).toBe(1);
    expect(agreementJson(v).unsure).toBe(4);
    expect(poolAgreement(ws, 'p', { bootstrap: 10, queries: ['q2'] }).unsure).toBe(1);
    addAnnotator(ws, 'carol', 'annotator');
    expect(poolAgreement(ws, 'p', { bootstrap: 10, annotators: ['alice', 'carol'] }).unsure).toBe(1);
  });
});
