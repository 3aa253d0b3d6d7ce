/**
 * Who voted on a pair is no third judge of it: a person's labels given in a pool before they judged
 * it (a judge assigned to label the pool then left out of its assignment, or an annotator of an open
 * pool made a judge) are votes, not rulings (state.ts, store.ts recordJudgeSince). They turned into
 * rulings on the disagreements they had voted on: "settled by a judge" in Review, `qpairs
 * adjudicate`, the gold and the export, while the assignment's note said those labels no longer
 * counted. Imported labels still come back as rulings (the datasheet's re-import with the role).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReviewQueue } from '../../shared/gold';
import { runCli } from '../cli/test-cli';
import { Engine } from '../engine/engine';
import { buildExport } from '../export';
import { assignmentNotes, poolVoters } from '../team/assign-notes';
import { knownPeople } from '../team/new-person';
import { Workspace } from '../workspace/workspace';
import { addAnnotator, aggregationSummary, assignPool, loadPoolState } from '.';
import { overruledRulings } from './state';

let dir: string;
let file: string;
let ws: Workspace;
let engine: Engine;
const put = (c: string, who: string, v: string, origin = 'ui'): void => void ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: c, annotator: who, value: v, origin });

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-judge-voted-'));
  file = path.join(dir, 'j.qpairs');
  ws = Workspace.create(file);
  ws.createPool({ name: 'p', scheme: 'binary' });
  ws.addPoolQuery('p', 'q1', ['a', 'b', 'c']);
  addAnnotator(ws, 'alice');
  addAnnotator(ws, 'bob');
  addAnnotator(ws, 'judy', 'judge');
  addAnnotator(ws, 'jack', 'judge');
  engine = new Engine(ws, { transport: 'electron' });
});
afterEach(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const entry = (c: string) => loadPoolState(ws, 'p').pairs.find((e) => e.candidateId === c)!;

describe('a judge who voted on a pool as its annotator', () => {
  beforeEach(() => {
    // judy labels the pool as its third annotator, after alice and bob (the pair was in dispute when she voted).
    assignPool(ws, 'p', ['alice', 'bob', 'judy'], null);
    put('a', 'alice', '1');
    put('a', 'bob', '0');
    put('a', 'judy', '1');
    put('b', 'alice', '1');
    put('b', 'bob', '1');
    put('b', 'judy', '0');
  });

  it('left out of the assignment, her votes do not settle the disagreements she voted on', async () => {
    const voters = poolVoters(ws, 'p');
    assignPool(ws, 'p', ['alice', 'bob'], null);
    // The assignment says so (its note said only that her labels no longer count as votes).
    expect(assignmentNotes(ws, ['alice', 'bob'], knownPeople(ws), voters)).toContain(
      'judy is a judge and judges this pool from now on: those votes are not rulings either, and who voted on a pair may not rule on it (another judge settles it).',
    );
    const a = entry('a');
    expect(a.judge).toBeNull();
    expect(a.resolution).toEqual({ value: null, status: 'unresolved' });
    expect(a.judgeEarlierVote).toMatchObject({ annotator: 'judy', value: '1' });
    const sum = aggregationSummary(loadPoolState(ws, 'p'));
    expect(sum).toMatchObject({ disagreements: 1, settled: 0, unresolved: 1 });
    expect(sum.byStatus.adjudicated).toBe(0);
    // The pair waits in Review for a judge.
    const q = (await engine.invoke('review.queue', { pool: 'p', judge: 'jack' })) as ReviewQueue;
    expect(q).toMatchObject({ total: 1, settled: 0, remaining: 1 });
    expect(q.items.map((i) => [i.candidateId, i.settled])).toEqual([['a', null]]);
  });

  it('she may not rule on a pair she voted on (even after clearing her vote); another judge does, and the export says whose', async () => {
    assignPool(ws, 'p', ['alice', 'bob'], null);
    const VOTED = /^judy labeled pair q1 → a of pool "p" before judging the pool, so judy is not a third judge of it: another of its judges \(jack\) settles it$/;
    await expect(engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: 'a', value: '0' })).rejects.toThrow(VOTED);
    await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'a', annotator: 'judy', value: null });
    await expect(engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'a', annotator: 'judy', value: '1' })).rejects.toThrow(VOTED);
    await engine.invoke('review.settle', { pool: 'p', judge: 'jack', queryId: 'q1', candidateId: 'a', value: '0' });
    expect(entry('a')).toMatchObject({ judge: { annotator: 'jack', value: '0' }, resolution: { value: '0', status: 'adjudicated' } });
    const built = buildExport(ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 });
    const rows = built.files[0]!.content.trim().split('\n').map((l) => JSON.parse(l) as { candidate_id: string; label: string; status: string; judge: unknown });
    expect(rows.find((r) => r.candidate_id === 'a')).toMatchObject({ label: '0', status: 'adjudicated', judge: { annotator: 'jack', label: '0' } });
  });

  it('`qpairs adjudicate` names a judge who may settle the pair in its hint (it named judy, who voted on it)', async () => {
    assignPool(ws, 'p', ['alice', 'bob'], null);
    engine.close(); // the CLI opens the workspace itself
    const r = await runCli('adjudicate', file, '--pool', 'p');
    ws = Workspace.open(file);
    engine = new Engine(ws, { transport: 'electron' });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`to settle one, the judge labels it: qpairs label ${file} --pool p --annotator jack --query Q --candidate C --value V`);
  });

  it("the datasheet counts a judge's earlier vote that is not a ruling", () => {
    assignPool(ws, 'p', ['alice', 'bob'], null);
    const sheet = buildExport(ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content;
    expect(sheet).toContain('| settled by a judge | 0 |');
    const earlier = "1 pair in dispute holds a judge's label given before that person judged the pool (as one of its annotators): not a ruling — who voted on a pair is no third judge of it; ";
    expect(sheet).toContain(`${earlier}it waits in Review for another judge.`);
    // Once jack rules, the datasheet says so (it said "another judge settles it" still).
    ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'a', annotator: 'jack', value: '0', origin: 'ui' });
    const after = buildExport(ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content;
    expect(after).toContain('| settled by a judge | 1 |');
    expect(after).toContain(`${earlier}another judge settled it.`);
  });

  it("Review's queue marks the pairs she voted on for her, naming the judges who may settle them (she learned it only from the refusal)", async () => {
    put('c', 'alice', '1');
    put('c', 'bob', '0');
    assignPool(ws, 'p', ['alice', 'bob'], null);
    const marks = async (judge: string) =>
      ((await engine.invoke('review.queue', { pool: 'p', judge, includeSettled: true })) as ReviewQueue).items.map((i) => [i.candidateId, i.votedByYou ?? null]);
    expect(await marks('judy')).toEqual([
      ['a', { judges: ['jack'] }],
      ['c', null],
    ]);
    // Jack voted on none: nothing is marked for him. A partial read (since) marks the same.
    expect(await marks('jack')).toEqual([
      ['a', null],
      ['c', null],
    ]);
    const part = (await engine.invoke('review.queue', { pool: 'p', judge: 'judy', includeSettled: true, since: 0, queries: ['q1'] })) as ReviewQueue;
    expect(part.items.find((i) => i.candidateId === 'a')?.votedByYou).toEqual({ judges: ['jack'] });
  });

  it("a ruling over another judge's different one says whom it overrules", async () => {
    put('c', 'alice', '1');
    put('c', 'bob', '0');
    assignPool(ws, 'p', ['alice', 'bob'], null);
    await engine.invoke('review.settle', { pool: 'p', judge: 'jack', queryId: 'q1', candidateId: 'c', value: '0' });
    const settled = async () => ((await engine.invoke('review.queue', { pool: 'p', judge: 'judy', includeSettled: true })) as ReviewQueue).items.find((i) => i.candidateId === 'c')?.settled;
    expect(await settled()).not.toHaveProperty('overrules');
    await engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: 'c', value: '1' });
    expect(await settled()).toMatchObject({ judge: 'judy', value: '1', overrules: [{ judge: 'jack', value: '0' }] });
  });

  it('a ruling she gives as a judge after she was left out, on a pair she never labeled, counts', async () => {
    put('c', 'alice', '1');
    put('c', 'bob', '0');
    assignPool(ws, 'p', ['alice', 'bob'], null);
    await engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: 'c', value: '1' });
    expect(entry('c')).toMatchObject({ judge: { annotator: 'judy', value: '1' }, resolution: { status: 'adjudicated' } });
  });
});

describe('an annotator of an open pool made a judge', () => {
  it('his votes do not become rulings; an imported label of his (a ruling brought back) still is one', () => {
    addAnnotator(ws, 'carl');
    put('a', 'alice', '1');
    put('a', 'bob', '0');
    put('a', 'carl', '1');
    put('b', 'alice', '1');
    put('b', 'bob', '0');
    put('b', 'carl', '0', 'import:7');
    addAnnotator(ws, 'carl', 'judge');
    expect(entry('a')).toMatchObject({ judge: null, judgeEarlierVote: { annotator: 'carl', value: '1' }, resolution: { status: 'unresolved' } });
    expect(entry('b')).toMatchObject({ judge: { annotator: 'carl', value: '0' }, resolution: { value: '0', status: 'adjudicated' } });
  });

  it('a judge from the start who rules keeps his rulings (nothing recorded for him)', async () => {
    put('a', 'alice', '1');
    put('a', 'bob', '0');
    await engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: 'a', value: '0' });
    addAnnotator(ws, 'judy', 'judge');
    expect(entry('a')).toMatchObject({ judge: { annotator: 'judy', value: '0' }, resolution: { status: 'adjudicated' } });
  });
});

describe('an imported ruling of a judge who had voted in the pool', () => {
  it('is a ruling everywhere: one a later judge overruled is counted as overruled, as it counted as a ruling before', () => {
    assignPool(ws, 'p', ['alice', 'bob', 'judy'], null);
    put('c', 'alice', '1');
    put('c', 'bob', '0');
    // A ruling brought back by an import (a re-imported export), while judy was still one of the pool's annotators.
    put('c', 'judy', '1', 'import:7');
    assignPool(ws, 'p', ['alice', 'bob'], null);
    expect(entry('c').judge).toMatchObject({ annotator: 'judy', value: '1' });
    put('c', 'jack', '0');
    const s = loadPoolState(ws, 'p');
    const e = s.pairs.find((x) => x.candidateId === 'c')!;
    expect(e.judge).toMatchObject({ annotator: 'jack', value: '0' });
    // Was [] (its event came before judy judged the pool, counted there as a vote, though it settled the pair until jack ruled).
    expect(overruledRulings(ws, s, e)).toEqual([expect.objectContaining({ annotator: 'judy', value: '1' })]);
  });
});


describe("`qpairs adjudicate`'s hint when every judge labeled the pool before judging it", () => {
  it('names the judge who did not vote on the pair listed (it named the first judge with a span, judy, who voted on it)', async () => {
    // Both judges label p as its annotators, then are left out: both judge it, each with a span recorded.
    assignPool(ws, 'p', ['alice', 'bob', 'judy', 'jack'], null);
    put('a', 'alice', '1');
    put('a', 'bob', '0');
    put('a', 'judy', '1');
    put('b', 'alice', '1');
    put('b', 'bob', '1');
    put('b', 'jack', '1');
    assignPool(ws, 'p', ['alice', 'bob'], null);
    expect([...loadPoolState(ws, 'p').judgeSpans.keys()].sort()).toEqual(['jack', 'judy']);
    engine.close(); // the CLI opens the workspace itself
    const r = await runCli('adjudicate', file, '--pool', 'p');
    ws = Workspace.open(file);
    engine = new Engine(ws, { transport: 'electron' });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`to settle one, the judge labels it: qpairs label ${file} --pool p --annotator jack --query Q --candidate C --value V`);
  });
});
