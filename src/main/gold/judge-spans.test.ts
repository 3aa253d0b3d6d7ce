/**
 * A judge's rulings made while she judged a pool stay rulings whatever her role did since: a judge
 * made an annotator (or assigned to the pool) and then a judge again (or left out again) had her one
 * mark of when she began judging moved past her first rulings (migration 20), which then counted as
 * votes set aside — gold, Review and the datasheet changed with nobody acting. Her labels given
 * between two spans of judging are votes, as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReviewQueue } from '../../shared/gold';
import { Engine } from '../engine/engine';
import { buildExport } from '../export';
import { Workspace } from '../workspace/workspace';
import { addAnnotator, aggregationSummary, loadPoolState } from '.';
import { givenWhileJudging } from './judge-spans';

let dir: string;
let ws: Workspace;
let engine: Engine;
const put = (c: string, who: string, v: string): void => void ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: c, annotator: who, value: v, origin: 'ui' });
const entry = (c: string) => loadPoolState(ws, 'p').pairs.find((e) => e.candidateId === c)!;
const settle = (judge: string, c: string, value: string) => engine.invoke('review.settle', { pool: 'p', judge, queryId: 'q1', candidateId: c, value });
// Through the engine, as the app, serve mode and the CLI's role change reach it: the Review state it keeps must see the new span.
const setRole = (n: string, role: string) => engine.invoke('annotator.setRole', { name: n, role }) as Promise<{ notes?: string[] }>;
const assign = (annotators: string[]) => engine.invoke('pool.assign', { pool: 'p', annotators, seed: 1 });

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-judge-spans-'));
  ws = Workspace.create(path.join(dir, 'j.qpairs'));
  ws.createPool({ name: 'p', scheme: 'binary' });
  ws.addPoolQuery('p', 'q1', ['a', 'b', 'c', 'd']);
  addAnnotator(ws, 'alice');
  addAnnotator(ws, 'bob');
  addAnnotator(ws, 'judy', 'judge');
  addAnnotator(ws, 'jack', 'judge');
  // alice and bob disagree on every pair.
  for (const c of ['a', 'b', 'c', 'd']) {
    put(c, 'alice', '1');
    put(c, 'bob', '0');
  }
  engine = new Engine(ws, { transport: 'electron' });
});
afterEach(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a judge made an annotator and a judge again, in a pool nobody is assigned to', () => {
  it('keeps the rulings of her first span; her votes in between are set aside; a third span keeps both spans\' rulings', async () => {
    await settle('judy', 'a', '0');
    await setRole('judy', 'annotator');
    put('b', 'judy', '1'); // a vote
    const back = await setRole('judy', 'judge');
    // Was: a's ruling taken for a vote set aside (judge null, judgeEarlierVote judy), the pair unresolved.
    expect(entry('a')).toMatchObject({ judge: { annotator: 'judy', value: '0' }, resolution: { value: '0', status: 'adjudicated' } });
    expect(entry('a').judgeEarlierVote).toBeUndefined();
    expect(entry('b')).toMatchObject({ judge: null, judgeEarlierVote: { annotator: 'judy', value: '1' }, resolution: { status: 'unresolved' } });
    // One note for the pool says her earlier ruling counts again and her vote does not (it said both "not rulings either" and "is a ruling again").
    expect(back.notes).toEqual([
      'judy labeled pool nobody is assigned to: p (2 labels); as a judge judy no longer votes there: 1 of them, given as a judge before, is a ruling again; ' +
        'the other 1 label stops counting in its agreement and gold, and is not a ruling either (who voted on a pair is no third judge of it): another judge settles the pairs in dispute.',
    ]);
    // She may not rule on b (she voted on it), may on c; jack settles b.
    // Review marks b for her as the refusal says it: voted between her spans of judging (it said "before judging the pool").
    const queue = (await engine.invoke('review.queue', { pool: 'p', judge: 'judy', includeSettled: true })) as ReviewQueue;
    expect(queue.items.find((i) => i.candidateId === 'b')?.votedByYou).toEqual({ judges: ['jack'], between: true });
    // Her vote on b came between her two spans of judging p, not before she judged it (the refusal said "before").
    await expect(settle('judy', 'b', '0')).rejects.toThrow(/^judy labeled pair q1 → b of pool "p" between two spans of judging the pool, so judy is not a third judge of it: another of its judges \(jack\) settles it$/);
    await settle('judy', 'c', '1');
    await settle('jack', 'b', '0');
    expect(aggregationSummary(loadPoolState(ws, 'p'))).toMatchObject({ disagreements: 4, settled: 3 });
    // Once more round: rulings of both spans stay, the vote between them stays a vote.
    await setRole('judy', 'owner');
    put('d', 'judy', '1'); // an owner's label
    await setRole('judy', 'judge');
    const s = loadPoolState(ws, 'p');
    expect(s.pairs.map((e) => [e.candidateId, e.judge?.annotator ?? null, e.judgeEarlierVote?.annotator ?? null])).toEqual([
      ['a', 'judy', null],
      ['b', 'jack', 'judy'],
      ['c', 'judy', null],
      ['d', null, 'judy'],
    ]);
    // The export's gold keeps her rulings.
    const rows = buildExport(ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).files[0]!.content.trim().split('\n').map((l) => JSON.parse(l) as { candidate_id: string; label: string; status: string });
    expect(rows.map((r) => [r.candidate_id, r.label, r.status])).toEqual([
      ['a', '0', 'adjudicated'],
      ['b', '0', 'adjudicated'],
      ['c', '1', 'adjudicated'],
      ['d', '?', 'unresolved'],
    ]);
  });

  it('made an annotator or owner again, the note counts her rulings apart from her vote between spans (it said both were rulings)', async () => {
    await settle('judy', 'a', '0');
    await setRole('judy', 'annotator');
    put('b', 'judy', '1'); // a vote
    await setRole('judy', 'judge');
    expect((await setRole('judy', 'annotator')).notes).toEqual([
      "judy labeled pool nobody is assigned to: p (2 labels); those labels now count as judy's votes (in agreement, given seeing everyone's labels, and in the gold): " +
        '1 of them was a ruling and settles nothing any more, and the disagreements judy settled are back in Review; the other 1 label was not a ruling.',
    ]);
    await setRole('judy', 'judge');
    expect((await setRole('judy', 'owner')).notes).toEqual([
      "judy labeled pool nobody is assigned to: p (2 labels); 1 of them was a ruling and settles nothing any more (an owner's labels there neither vote nor rule), " +
        'and the disagreements judy settled are back in Review; the other 1 label was not a ruling and counts for nothing still.',
    ]);
  });

  it('a judge made an annotator before she labeled anything rules as before once a judge again', async () => {
    await setRole('judy', 'annotator');
    await setRole('judy', 'judge');
    await settle('judy', 'a', '0');
    expect(entry('a')).toMatchObject({ judge: { annotator: 'judy', value: '0' } });
  });
});

describe('a judge assigned to the pool and then left out again', () => {
  it('keeps the rulings she made before she was assigned; her labels as its annotator are votes set aside', async () => {
    await assign(['alice', 'bob']);
    await settle('judy', 'a', '0');
    await assign(['alice', 'bob', 'judy']);
    put('b', 'judy', '1');
    const left = (await assign(['alice', 'bob'])) as { notes?: string[] };
    // The assignment says her ruling is one again (it said "those votes are not rulings either" of both labels).
    expect(left.notes).toContain(
      'judy is a judge and judges this pool from now on: 1 label judy gave here as a judge before being assigned, or imported, is a ruling again; ' +
        'the other 1 label is not a ruling, and who voted on a pair may not rule on it (another judge settles it).',
    );
    expect((left.notes ?? []).join('\n')).not.toContain('those votes are not rulings either');
    // Was: a unresolved, judy's ruling read as a vote she gave before judging.
    expect(entry('a')).toMatchObject({ judge: { annotator: 'judy', value: '0' }, resolution: { value: '0', status: 'adjudicated' } });
    expect(entry('b')).toMatchObject({ judge: null, judgeEarlierVote: { annotator: 'judy', value: '1' } });
  });
});

describe('givenWhileJudging', () => {
  it('no span: always; else inside a span only (after excluded, until included, open-ended when null)', () => {
    expect(givenWhileJudging(undefined, 5)).toBe(true);
    const spans = [
      { after: 0, until: 3 },
      { after: 7, until: null },
    ];
    expect([1, 3, 4, 7, 8, 100].map((s) => givenWhileJudging(spans, s))).toEqual([true, true, false, false, true, true]);
  });
});
