/**
 * A judge's label is a ruling (checkRuling, review.ts): "?" settles nothing, and only a pair in
 * dispute takes one — through review.settle, label.set (IPC and HTTP alike: both are the engine)
 * and `qpairs label`; imports of rulings already made still come in.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AggregationSummary, ReviewQueue } from '../../shared/gold';
import { runCli } from '../cli/test-cli';
import { Engine } from '../engine/engine';
import { Workspace } from '../workspace/workspace';
import { addAnnotator, assignPool, loadPoolState } from '.';

let dir: string;
let file: string;
let ws: Workspace;
let engine: Engine;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-ruling-'));
  file = path.join(dir, 'r.qpairs');
  ws = Workspace.create(file);
  ws.createPool({ name: 'p', scheme: 'binary' });
  ws.addPoolQuery('p', 'q1', ['a', 'b', 'c', 'd']);
  assignPool(ws, 'p', ['alice', 'bob'], null);
  addAnnotator(ws, 'judy', 'judge');
  const put = (c: string, who: string, v: string): void => void ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: c, annotator: who, value: v, origin: 't' });
  put('a', 'alice', '1');
  put('a', 'bob', '0'); // disagreement
  put('b', 'alice', '1');
  put('b', 'bob', '1'); // agreed
  put('c', 'alice', '0');
  put('c', 'bob', '?'); // unsure: in dispute too
  // d: only alice so far (no dispute yet)
  put('d', 'alice', '1');
  engine = new Engine(ws, { transport: 'electron' });
});
afterEach(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Imports labels-csv lines into pool p with the CLI (which opens the workspace itself), then reopens it. */
async function importLabelsCsv(name: string, lines: string): Promise<void> {
  engine.close();
  const csv = path.join(dir, name);
  writeFileSync(csv, `query_id,candidate_id,annotator,label\n${lines}`);
  const r = await runCli('import', file, '--format', 'labels-csv', '--pool', 'p', csv);
  expect(r.code, r.err).toBe(0);
  ws = Workspace.open(file);
  engine = new Engine(ws, { transport: 'electron' });
}

const judyLabels = (): string[] => ws.currentLabels('p', 'judy').map((l) => `${l.candidateId}=${l.value}`);
const UNSURE_REFUSED = /^a ruling must be one of the pool's labels \(1, 0\); "\?" settles nothing — leave the pair for another judge or discuss it$/;
const NOT_IN_DISPUTE = /^pair q1 → (b|d) is not a disagreement or unsure pair of pool "p" \(nothing to settle\): a judge labels a pair only while it is in dispute/;

describe('a judge\'s "?" is refused, not saved as a ruling that settles nothing', () => {
  it('review.settle with "?" on a disagreement or an unsure pair: a clear error, nothing saved, the pair still waits', async () => {
    for (const c of ['a', 'c']) {
      await expect(engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: c, value: '?' })).rejects.toMatchObject({
        code: 'user-error',
        message: expect.stringMatching(UNSURE_REFUSED),
      });
      // Spelled with spaces it is still "?".
      await expect(engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: c, value: ' ? ' })).rejects.toThrow(UNSURE_REFUSED);
    }
    expect(judyLabels()).toEqual([]);
    const q = (await engine.invoke('review.queue', { pool: 'p', judge: 'judy' })) as ReviewQueue;
    expect(q).toMatchObject({ total: 2, settled: 0, remaining: 2 });
    // A real ruling still settles.
    const ack = (await engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: 'a', value: '1' })) as { remaining: number };
    expect(ack.remaining).toBe(1);
  });

  it('label.set and `qpairs label` as the judge: "?" refused the same way', async () => {
    await expect(engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'a', annotator: 'judy', value: '?' })).rejects.toThrow(UNSURE_REFUSED);
    engine.close(); // the CLI opens the workspace itself
    const r = await runCli('label', file, '--pool', 'p', '--annotator', 'judy', '--query', 'q1', '--candidate', 'a', '--value', '?');
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/"\?" settles nothing/);
    ws = Workspace.open(file);
    engine = new Engine(ws, { transport: 'electron' });
    expect(judyLabels()).toEqual([]);
  });

  it('an annotator\'s "?" is still a label (the check is for judges only)', async () => {
    const ack = (await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'd', annotator: 'bob', value: '?' })) as { saved: boolean };
    expect(ack.saved).toBe(true);
  });
});

describe("a judge's label only on a pair in dispute (as review.settle)", () => {
  it('label.set by the judge on an agreed or not-yet-disputed pair is refused with review.settle\'s message; a later dispute is not settled unseen', async () => {
    for (const c of ['b', 'd']) {
      await expect(engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: c, annotator: 'judy', value: '1' })).rejects.toMatchObject({
        code: 'user-error',
        message: expect.stringMatching(NOT_IN_DISPUTE),
      });
      // The same rule and message as review.settle.
      await expect(engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: c, value: '1' })).rejects.toThrow(NOT_IN_DISPUTE);
    }
    // Over HTTP the call arrives as the judge's token: the engine refuses it all the same.
    await expect(engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'd', annotator: 'judy', value: '0' }, { annotator: 'judy', local: false })).rejects.toThrow(NOT_IN_DISPUTE);
    expect(judyLabels()).toEqual([]);
    // QA: bob now disagrees on d — the pair waits for the judge instead of being settled by an early label.
    await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'd', annotator: 'bob', value: '0' });
    const e = loadPoolState(ws, 'p').byKey.get('q1\u0000d')!;
    expect(e.judge).toBeNull();
    expect(e.resolution).toEqual({ value: null, status: 'unresolved' });
    const q = (await engine.invoke('review.queue', { pool: 'p', judge: 'judy' })) as ReviewQueue;
    expect(q.items.map((i) => i.candidateId).sort()).toEqual(['a', 'c', 'd']);
    // Now in dispute: the judge's label is a ruling and settles it.
    await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'd', annotator: 'judy', value: '0' });
    expect(loadPoolState(ws, 'p').byKey.get('q1\u0000d')!.resolution).toEqual({ value: '0', status: 'adjudicated' });
    // Clearing a ruling is allowed anywhere (as review.settle with null).
    await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'd', annotator: 'judy', value: null });
    expect(judyLabels()).toEqual([]);
  });

  it('`qpairs label` as the judge: refused on an agreed pair, accepted on a disagreement', async () => {
    engine.close(); // the CLI opens the workspace itself
    const no = await runCli('label', file, '--pool', 'p', '--annotator', 'judy', '--query', 'q1', '--candidate', 'b', '--value', '0');
    expect(no.code).not.toBe(0);
    expect(no.err).toMatch(/pair q1 → b is not a disagreement or unsure pair of pool "p" \(nothing to settle\)/);
    const yes = await runCli('label', file, '--pool', 'p', '--annotator', 'judy', '--query', 'q1', '--candidate', 'a', '--value', '0', '--json');
    expect(yes.code, yes.err).toBe(0);
    ws = Workspace.open(file);
    engine = new Engine(ws, { transport: 'electron' });
    expect(judyLabels()).toEqual(['a=0']);
  });

  it('a judge-role person the pool assigns as an annotator labels any pair (their labels are votes)', async () => {
    addAnnotator(ws, 'jo', 'judge');
    assignPool(ws, 'p', ['alice', 'jo'], null);
    const ack = (await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'b', annotator: 'jo', value: '1' })) as { saved: boolean };
    expect(ack.saved).toBe(true);
    const ack2 = (await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'c', annotator: 'jo', value: '?' })) as { saved: boolean };
    expect(ack2.saved).toBe(true);
  });

  it('imports of rulings already made still come in, on any pair (labels-csv with the judge as annotator)', async () => {
    await importLabelsCsv('rulings.csv', 'q1,a,judy,1\nq1,b,judy,1\n');
    expect(judyLabels().sort()).toEqual(['a=1', 'b=1']);
    const sum = (await engine.invoke('pool.aggregation', { pool: 'p' })) as AggregationSummary;
    expect(sum).toMatchObject({ judges: ['judy'], disagreements: 1, settled: 1 });
  });
});

describe('a ruling rules on the dispute its judge saw', () => {
  const pair = (c: string) => loadPoolState(ws, 'p').byKey.get(`q1\u0000${c}`)!;

  it('a vote changed after the ruling outdates it: the pair is back in the queue, and ruling again (the same value) counts', async () => {
    // alice 0, bob ? on c: judy settles it 0 …
    await engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: 'c', value: '0' });
    expect(pair('c').resolution).toEqual({ value: '0', status: 'adjudicated' });
    // … then bob decides 1: a disagreement the judge has not seen (alice 0, bob 1).
    await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'c', annotator: 'bob', value: '1' });
    expect(pair('c').judge).toBeNull();
    expect(pair('c').outdatedRuling).toMatchObject({ annotator: 'judy', value: '0' });
    expect(pair('c').resolution).toEqual({ value: null, status: 'unresolved' });
    const q = (await engine.invoke('review.queue', { pool: 'p', judge: 'judy' })) as ReviewQueue;
    const item = q.items.find((i) => i.candidateId === 'c')!;
    expect(item.settled).toBeNull();
    expect(item.outdatedRuling).toEqual({ judge: 'judy', value: '0' });
    expect(q.settled).toBe(0);
    // The same value again is a new ruling (an event appended, not skipped as unchanged).
    const ack = (await engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: 'c', value: '0' })) as { seq: number | null };
    expect(ack.seq).not.toBeNull();
    expect(pair('c').outdatedRuling).toBeUndefined();
    expect(pair('c').resolution).toEqual({ value: '0', status: 'adjudicated' });
    // An unchanged ruling that is not outdated still adds nothing.
    const again = (await engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: 'c', value: '0' })) as { seq: number | null };
    expect(again.seq).toBeNull();
  });

  it('a judge label given before the pair was in dispute (as judges could before rulings were checked) does not settle the later dispute', async () => {
    // Written straight to the workspace, as such a label was saved then.
    ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'd', annotator: 'judy', value: '1', origin: 'ui' });
    await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'd', annotator: 'bob', value: '0' });
    expect(pair('d').judge).toBeNull();
    expect(pair('d').resolution.status).toBe('unresolved');
    const sum = (await engine.invoke('pool.aggregation', { pool: 'p' })) as AggregationSummary;
    expect(sum.settled).toBe(0);
    // `qpairs adjudicate` lists it as outdated.
    engine.close();
    const r = await runCli('adjudicate', file, '--pool', 'p', '--judge', 'judy');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^q1 +d +alice=1 bob=0 +\S+ +outdated: judy=1$/m);
    expect(r.out).toContain('outdated: a ruling given before a vote on the pair changed or arrived');
    ws = Workspace.open(file);
    engine = new Engine(ws, { transport: 'electron' });
  });

  it('an imported ruling counts whatever the order of the imported labels, until a vote is given here after it', async () => {
    // The judge's line first, the disagreeing vote after it: a ruling already made elsewhere.
    await importLabelsCsv('late-votes.csv', 'q1,d,judy,1\nq1,d,bob,0\n');
    expect(pair('d').resolution).toEqual({ value: '1', status: 'adjudicated' });
    // A vote given here after it outdates it as any ruling (bob: 0 → ?, still in dispute).
    await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'd', annotator: 'bob', value: '?' });
    expect(pair('d').outdatedRuling).toMatchObject({ annotator: 'judy', value: '1' });
    expect(pair('d').resolution.status).toBe('unresolved');
  });
});

describe('undo and outdated rulings', () => {
  const pair = (c: string) => loadPoolState(ws, 'p').byKey.get(`q1\u0000${c}`)!;
  const undo = async (seq: number, annotator: string) => engine.invoke('label.undo', { seq, annotator });

  it('a ruling an undo brings back was given when it first was: outdated if a vote came since', async () => {
    // c: alice 0, bob ? — judy rules 0, then bob says 1 (the ruling is outdated) …
    await engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: 'c', value: '0' });
    await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'c', annotator: 'bob', value: '1' });
    // … judy rules 1 on the new dispute and takes it back at once: her 0 returns, still outdated.
    const ack = (await engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: 'c', value: '1' })) as { seq: number };
    expect(pair('c').resolution).toEqual({ value: '1', status: 'adjudicated' });
    await undo(ack.seq, 'judy');
    expect(pair('c').judge).toBeNull();
    expect(pair('c').outdatedRuling).toMatchObject({ annotator: 'judy', value: '0' });
    // Ruling 0 again and undoing it leaves it outdated too.
    const again = (await engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: 'c', value: '0' })) as { seq: number };
    expect(pair('c').resolution).toEqual({ value: '0', status: 'adjudicated' });
    await undo(again.seq, 'judy');
    expect(pair('c').outdatedRuling).toMatchObject({ annotator: 'judy', value: '0' });
    expect(pair('c').resolution.status).toBe('unresolved');
  });

  it('a vote changed and undone is the vote the judge saw: the ruling stands', async () => {
    await engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: 'a', value: '1' });
    const bob = (await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'a', annotator: 'bob', value: '?' })) as { seq: number };
    expect(pair('a').outdatedRuling).toBeDefined();
    await undo(bob.seq, 'bob');
    expect(pair('a').outdatedRuling).toBeUndefined();
    expect(pair('a').resolution).toEqual({ value: '1', status: 'adjudicated' });
  });
});
