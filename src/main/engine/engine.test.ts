import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine } from './engine';
import { Workspace } from '../workspace/workspace';
import { runImport } from './work';
import { dataset, datasetText } from '../../../tests/datasets';
import type { JobDone, QueryView, LabelAck, PoolEvaluation, PoolProgress } from '../../shared/contract';
import { jobDone } from './test-team';

let dir: string;
let engine: Engine;
const SEMEVAL_DEV = dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-engine-'));
  const ws = Workspace.create(path.join(dir, 'e.qpairs'));
  await runImport(ws, 'semeval', [SEMEVAL_DEV], { pool: 'dev' });
  engine = new Engine(ws, { transport: 'http' });
});
afterEach(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const waitDone = (jobId: string): Promise<JobDone> => jobDone(engine, jobId);

describe('engine', () => {
  it('validates every argument on arrival', async () => {
    await expect(engine.invoke('nope', {})).rejects.toMatchObject({ code: 'invalid-argument' });
    await expect(engine.invoke('label.set', { pool: 'dev' })).rejects.toMatchObject({ code: 'invalid-argument', message: expect.stringMatching(/queryId/) });
    await expect(engine.invoke('pool.create', { name: 'x', depth: 20 })).rejects.toThrow(/either queries or sample/);
    await expect(engine.invoke('annotate.query', { pool: 'missing', annotator: 'a' })).rejects.toMatchObject({ code: 'not-found', message: expect.stringMatching(/no pool named "missing"/) });
    await expect(engine.invoke('eval.pool', { pool: 'dev', convention: 'sometimes' })).rejects.toMatchObject({ code: 'invalid-argument' });
  });

  it('labels durably, undoes, and resumes at the first unfinished query', async () => {
    await engine.invoke('pool.set', { pool: 'dev', blind: false });
    const v = (await engine.invoke('annotate.query', { pool: 'dev', annotator: 'ann' })) as QueryView;
    expect(v.index).toBe(0);
    expect(v.total).toBe(50);
    expect(v.runNames).toContain('search-engine');
    expect(v.candidates.map((c) => c.position)).toEqual([...Array(v.candidates.length).keys()]);
    const events: unknown[] = [];
    engine.on('label.changed', (e) => events.push(e));
    const acks: LabelAck[] = [];
    for (const c of v.candidates) {
      acks.push((await engine.invoke('label.set', { pool: 'dev', queryId: v.queryId, candidateId: c.id, annotator: 'ann', value: 'Relevant' })) as LabelAck);
    }
    expect(acks.every((a) => a.saved && a.seq !== null)).toBe(true);
    expect(events).toHaveLength(v.candidates.length);
    await expect(engine.invoke('label.set', { pool: 'dev', queryId: v.queryId, candidateId: v.candidates[0]!.id, annotator: 'ann', value: 'maybe' })).rejects.toThrow(/not a label of the semeval3 scheme/);
    const next = (await engine.invoke('annotate.query', { pool: 'dev', annotator: 'ann' })) as QueryView;
    expect(next.index).toBe(1);
    expect(next.progress).toMatchObject({ doneQueries: 1, totalQueries: 50, labeledPairs: v.candidates.length });
    await engine.invoke('label.undo', { seq: acks.at(-1)!.seq!, annotator: 'ann' });
    const back = (await engine.invoke('annotate.query', { pool: 'dev', annotator: 'ann' })) as QueryView;
    expect(back.index).toBe(0);
    expect(back.candidates.filter((c) => c.label === null)).toHaveLength(1);
    // Issue 23: someone else's event is "not found" without naming whose it is; an older event of one's own is refused.
    await expect(engine.invoke('label.undo', { seq: acks[0]!.seq!, annotator: 'someone-else' })).rejects.toThrow(/^no label event \d+ of someone-else$/);
    await engine.invoke('label.set', { pool: 'dev', queryId: v.queryId, candidateId: v.candidates[0]!.id, annotator: 'ann', value: 'Irrelevant' });
    await expect(engine.invoke('label.undo', { seq: acks[0]!.seq!, annotator: 'ann' })).rejects.toThrow(/is not your latest label of that pair: event \d+ changed it since/);
    expect(((await engine.invoke('annotate.query', { pool: 'dev', annotator: 'ann', queryId: v.queryId })) as QueryView).candidates.find((c) => c.id === v.candidates[0]!.id)!.label).toBe('Irrelevant');
  });

  it('a blind pool hides scores and other annotators and shuffles per annotator, reproducibly', async () => {
    expect(engine.ws.pool('dev').blind).toBe(true);
    await engine.invoke('pool.set', { pool: 'dev', blind: false });
    const open = (await engine.invoke('annotate.query', { pool: 'dev', annotator: 'a' })) as QueryView;
    expect(open.blind).toBe(false);
    await engine.invoke('pool.set', { pool: 'dev', blind: true });
    await engine.invoke('label.set', { pool: 'dev', queryId: open.queryId, candidateId: open.candidates[0]!.id, annotator: 'b', value: 'Irrelevant' });
    const a1 = (await engine.invoke('annotate.query', { pool: 'dev', annotator: 'a', queryId: open.queryId })) as QueryView;
    const a2 = (await engine.invoke('annotate.query', { pool: 'dev', annotator: 'a', queryId: open.queryId })) as QueryView;
    const b1 = (await engine.invoke('annotate.query', { pool: 'dev', annotator: 'c', queryId: open.queryId })) as QueryView;
    expect(a1.blind).toBe(true);
    expect(a1.runNames).toEqual([]);
    expect(a1.candidates.every((c) => Object.keys(c.runs).length === 0 && Object.keys(c.others).length === 0)).toBe(true);
    expect(a1.candidates.map((c) => c.id)).toEqual(a2.candidates.map((c) => c.id));
    expect(a1.candidates.map((c) => c.id)).not.toEqual(b1.candidates.map((c) => c.id));
    expect(new Set(a1.candidates.map((c) => c.id))).toEqual(new Set(open.candidates.map((c) => c.id)));
    await engine.invoke('pool.set', { pool: 'dev', blind: false });
    const seen = (await engine.invoke('annotate.query', { pool: 'dev', annotator: 'a', queryId: open.queryId })) as QueryView;
    expect(seen.candidates[0]!.others).toMatchObject({ b: 'Irrelevant', gold: expect.any(String) });
    expect(seen.candidates[0]!.runs['search-engine']).toMatchObject({ rank: 1 });
  });

  it('runs an import as a job with progress and a readable failure that changes nothing', async () => {
    const before = await engine.invoke('workspace.stats', {});
    const bad = path.join(dir, 'bad.xml');
    writeFileSync(bad, '<xml><OrgQuestion ORGQ_ID="Q1"><OrgQSubject>hi</OrgQSubject>');
    const { jobId } = (await engine.invoke('import.start', { format: 'semeval', sources: [{ path: bad }], pool: 'bad' })) as { jobId: string };
    const done = await waitDone(jobId);
    expect(done.ok).toBe(false);
    expect(done.error).toMatch(/bad\.xml/);
    expect(await engine.invoke('workspace.stats', {})).toEqual(before);
    await expect(engine.invoke('import.start', { format: 'semeval', sources: [{ uploadId: 'abcdef0123', name: 'x.xml' }] })).rejects.toThrow(/serve mode/);
  });

  it('writes labels between the chunks of a running import; the failed import rolls back without taking the acknowledged label', async () => {
    const v = (await engine.invoke('annotate.query', { pool: 'dev', annotator: 'ann' })) as QueryView;
    const bad = path.join(dir, 'bad2.xml');
    // A valid beginning (questions get written) and a truncated end: the import fails and rolls back.
    const good = datasetText('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');
    writeFileSync(bad, good.slice(0, Math.floor(good.length * 0.8)).replace(/Q\d+_R\d+/g, (m: string) => `X${m}`));
    const order: string[] = [];
    const { jobId } = (await engine.invoke('import.start', { format: 'semeval', sources: [{ path: bad }], pool: 'bad2' })) as { jobId: string };
    const done = waitDone(jobId).then((d) => {
      order.push('import-done');
      return d;
    });
    const ack = (engine.invoke('label.set', { pool: 'dev', queryId: v.queryId, candidateId: v.candidates[0]!.id, annotator: 'ann', value: 'Relevant' }) as Promise<LabelAck>).then((a) => {
      order.push('label-ack');
      return a;
    });
    const [d, a] = await Promise.all([done, ack]);
    expect(d.ok).toBe(false);
    expect(a.saved).toBe(true);
    // The label did not wait for the whole import (it went in at the next chunk boundary).
    expect(order).toEqual(['label-ack', 'import-done']);
    expect(engine.ws.currentLabels('dev', 'ann')).toHaveLength(1);
    expect(engine.ws.findPool('bad2')).toBeNull();
  });

  it('once a pool is assigned, only its annotators label it (judges exempt), each only their queries', async () => {
    const v = (await engine.invoke('annotate.query', { pool: 'dev', annotator: 'x' })) as QueryView;
    const pair = { pool: 'dev', queryId: v.queryId, candidateId: v.candidates[0]!.id };
    await engine.invoke('pool.assign', { pool: 'dev', annotators: ['alice', 'bob'] });
    await expect(engine.invoke('label.set', { ...pair, annotator: 'carol', value: 'Relevant' })).rejects.toThrow(/carol is not assigned to pool "dev" \(assigned: alice, bob\)/);
    await engine.invoke('annotator.add', { name: 'judy', role: 'judge' });
    expect(((await engine.invoke('label.set', { ...pair, annotator: 'alice', value: 'Relevant' })) as LabelAck).saved).toBe(true);
    expect(((await engine.invoke('label.set', { ...pair, annotator: 'bob', value: 'Irrelevant' })) as LabelAck).saved).toBe(true);
    // A judge is exempt from the assignment, not from ruling only on disputes (gold/review.ts checkRuling): here alice and bob disagree.
    expect(((await engine.invoke('label.set', { ...pair, annotator: 'judy', value: 'Relevant' })) as LabelAck).saved).toBe(true);
    // Progress tells labeling apart from a judge's rulings and from imported gold (QA: the judge was listed as an annotator).
    const progress = (await engine.invoke('pool.progress', { pool: 'dev' })) as PoolProgress;
    expect(progress.annotators.map((a) => `${a.annotator}:${a.kind}`).sort()).toEqual(['alice:annotator', 'bob:annotator', 'gold:source', 'judy:judge']);
    await engine.invoke('pool.assign', { pool: 'dev', annotators: ['alice', 'judy'] });
    const judgeLabeling = (await engine.invoke('pool.progress', { pool: 'dev' })) as PoolProgress;
    expect(judgeLabeling.annotators.find((a) => a.annotator === 'judy')?.kind).toBe('annotator');
    await engine.invoke('pool.assign', { pool: 'dev', annotators: ['alice', 'bob'], perQuery: 1, seed: 2 });
    const mine = (await engine.invoke('pool.assignment', { pool: 'dev', annotator: 'alice' })) as { queries: string[] };
    const other = engine.ws.poolQueries('dev').find((q) => !mine.queries.includes(q.queryId))!;
    await expect(
      engine.invoke('label.set', { pool: 'dev', queryId: other.queryId, candidateId: other.candidates[0]!, annotator: 'alice', value: 'Relevant' }),
    ).rejects.toThrow(new RegExp(`query ${other.queryId} of pool "dev" is not assigned to alice`));
  });

  it('creates a BM25 pool and evaluates live', async () => {
    const info = (await engine.invoke('pool.create', { name: 'p', sample: { n: 5, seed: 3 }, depth: 20, blind: false })) as { queries: number; pairs: number };
    expect(info).toMatchObject({ queries: 5, pairs: 100, blind: false });
    const v = (await engine.invoke('annotate.query', { pool: 'p', annotator: 'gold' })) as QueryView;
    expect(v.runNames).toEqual(['bm25']);
    const top = v.candidates.find((c) => c.runs.bm25?.rank === 1)!;
    await engine.invoke('label.set', { pool: 'p', queryId: v.queryId, candidateId: top.id, annotator: 'gold', value: '1' });
    // Issue 13: one label of 20 is a partially labeled query — left out by default, counted with partial.
    const full = (await engine.invoke('eval.pool', { pool: 'p' })) as PoolEvaluation;
    expect(full).toMatchObject({ labeledQueries: 0, partiallyLabeledQueries: 1, totalQueries: 5, runs: { bm25: { queries: 0, MAP: null } } });
    const ev = (await engine.invoke('eval.pool', { pool: 'p', partial: true })) as PoolEvaluation;
    expect(ev.runs.bm25).toMatchObject({ queries: 1, MAP: 1, MRR: 1, 'P@1': 1 });
    expect(ev.curve).toHaveLength(1);
  });
});
