/**
 * An assignment naming someone the workspace does not know adds them as a new annotator: it used to
 * do so in silence (`qpairs assign --annotators alcie,bob` made "alcie", and the pool waited on her).
 * Now pool.assign and `qpairs assign` say who was added, and whom a typo most likely meant.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addAnnotator, assignPool } from '../gold';
import { runCli } from '../cli/test-cli';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import { assignmentNotes, poolVoters } from './assign-notes';
import { knownPeople } from './new-person';
import { startJudging, stopJudging } from '../gold/judge-spans';
import { Engine } from '../engine/engine';

const scratch = scratchWorkspaces('qpairs-assign-notes-');

describe('assigning a name the workspace does not know', () => {
  it('says it is added as a new annotator, with the known person it most likely meant', () => {
    const ws = scratch.fresh('w');
    ws.createPool({ name: 'p' });
    ws.addPoolQuery('p', 'q', ['c']);
    for (const n of ['alice', 'bob']) ws.ensureAnnotator(n);
    const known = knownPeople(ws);
    assignPool(ws, 'p', ['alcie', 'bob', 'zed'], null);
    expect(assignmentNotes(ws, ['alcie', 'bob', 'zed'], known, { pool: 'p', labels: new Map() })).toEqual([
      'alcie was not a person of this workspace and is added as a new annotator (did you mean alice? then assign again with alice).',
      'zed was not a person of this workspace and is added as a new annotator.',
    ]);
    // Known names, assigned again, need no note; nor does a typo of someone assigned in the same list.
    const again = knownPeople(ws);
    assignPool(ws, 'p', ['alice', 'bob'], null);
    expect(assignmentNotes(ws, ['alice', 'bob'], again, { pool: 'p', labels: new Map() })).toEqual([]);
    assignPool(ws, 'p', ['alice', 'alicee'], null);
    expect(assignmentNotes(ws, ['alice', 'alicee'], again, { pool: 'p', labels: new Map() })).toEqual(['alicee was not a person of this workspace and is added as a new annotator.']);
  });

  it('qpairs assign prints the note', async () => {
    const ws = scratch.fresh('c');
    ws.createPool({ name: 'p' });
    ws.addPoolQuery('p', 'q', ['c']);
    ws.ensureAnnotator('alice');
    ws.close();
    const r = await runCli('assign', path.join(scratch.dir, 'c.qpairs'), '--pool', 'p', '--annotators', 'alcie,bob');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('note: alcie was not a person of this workspace and is added as a new annotator (did you mean alice? then assign again with alice).\n');
    expect(r.out).toContain('note: bob was not a person of this workspace and is added as a new annotator.\n');
  });
});

/**
 * An assignment replaces the earlier one: `qpairs assign W --pool p --annotators dave`, meant to add
 * dave, took alice and bob out of the pool in silence — their labels stayed but stopped voting, so
 * the agreement, the gold (@aggregate) and eval's figures changed with no word.
 */
/** Each voter with their voting labels' count. */
const counts = (v: ReturnType<typeof poolVoters>): Array<[string, number]> => [...v.labels].map(([n, m]) => [n, [...m.values()].reduce((a, b) => a + b, 0)]);

describe('assigning a pool without the people who voted in it', () => {
  function labeledByAliceAndBob(name: string) {
    const ws = scratch.fresh(name);
    ws.createPool({ name: 'p' });
    ws.addPoolQuery('p', 'q', ['c1', 'c2']);
    for (const c of ['c1', 'c2']) ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'alice', value: '1', origin: 'test' });
    ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'bob', value: '0', origin: 'test' });
    return ws;
  }

  it('names each one left out, with their labels, and says how to keep them', () => {
    const ws = labeledByAliceAndBob('v');
    // Open pool: every annotator who labeled it votes.
    const before = poolVoters(ws, 'p');
    expect(counts(before)).toEqual([['alice', 2], ['bob', 1]]);
    const known = knownPeople(ws);
    assignPool(ws, 'p', ['dave'], null);
    expect(assignmentNotes(ws, ['dave'], known, before)).toContain(
      "alice (2 labels) and bob (1 label) are no longer one of this pool's annotators (an assignment replaces the earlier one): " +
        'their labels stay but no longer count as votes in its agreement, Review and gold (@aggregate), nor in eval; to keep them counting, assign again with them in the list.',
    );
    // Assigned now: dave, who has no label, votes alone; putting alice back leaves bob out.
    expect(counts(poolVoters(ws, 'p'))).toEqual([]);
    assignPool(ws, 'p', ['alice', 'bob', 'dave'], null);
    const all = poolVoters(ws, 'p');
    expect(counts(all)).toEqual([['alice', 2], ['bob', 1]]);
    assignPool(ws, 'p', ['alice', 'dave'], null);
    expect(assignmentNotes(ws, ['alice', 'dave'], knownPeople(ws), all)).toEqual([
      "bob (1 label) is no longer one of this pool's annotators (an assignment replaces the earlier one): " +
        'those labels stay but no longer count as votes in its agreement, Review and gold (@aggregate), nor in eval; to keep them counting, assign again with bob in the list.',
    ]);
    // The same people again (a re-draw of K per query): nothing to say.
    expect(assignmentNotes(ws, ['alice', 'dave'], knownPeople(ws), poolVoters(ws, 'p'))).toEqual([]);
  });

  it('names the labels K per query takes from someone still listed', () => {
    const ws = scratch.fresh('k');
    ws.createPool({ name: 'p' });
    for (const q of ['q1', 'q2']) {
      ws.addPoolQuery('p', q, ['c']);
      for (const who of ['alice', 'bob']) ws.addLabel({ pool: 'p', queryId: q, candidateId: 'c', annotator: who, value: '1', origin: 'test' });
    }
    const before = poolVoters(ws, 'p');
    assignPool(ws, 'p', ['alice', 'bob'], 1, 1);
    // One annotator per query now: each keeps the vote on one query and loses the other.
    expect(assignmentNotes(ws, ['alice', 'bob'], knownPeople(ws), before)).toEqual([
      'alice (1 label) and bob (1 label) labeled queries this assignment gives to others: those labels stay but no longer count as votes ' +
        'in its agreement, Review and gold (@aggregate), nor in eval; full overlap (no per-query count) keeps every label counting.',
    ]);
    // Back to full overlap: every label votes again, nothing to say.
    const perQuery = poolVoters(ws, 'p');
    expect(counts(perQuery).sort()).toEqual([['alice', 1], ['bob', 1]]);
    assignPool(ws, 'p', ['alice', 'bob'], null);
    expect(assignmentNotes(ws, ['alice', 'bob'], knownPeople(ws), perQuery)).toEqual([]);
  });

  it("says that a judge newly assigned to label the pool turns her rulings into votes (the pairs she settled were unsettled in silence)", () => {
    const ws = scratch.fresh('ruled');
    ws.createPool({ name: 'p' });
    ws.addPoolQuery('p', 'q1', ['a', 'b']);
    assignPool(ws, 'p', ['alice', 'bob'], null);
    addAnnotator(ws, 'judy', 'judge');
    for (const [c, a, b] of [['a', '1', '0'], ['b', '1', '0']]) {
      ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: c!, annotator: 'alice', value: a!, origin: 'test' });
      ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: c!, annotator: 'bob', value: b!, origin: 'test' });
      ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: c!, annotator: 'judy', value: '1', origin: 'test' });
    }
    const before = poolVoters(ws, 'p');
    assignPool(ws, 'p', ['alice', 'bob', 'judy'], null);
    const notes = assignmentNotes(ws, ['alice', 'bob', 'judy'], knownPeople(ws), before);
    expect(notes).toContain(
      "judy (2 labels) labeled this pool before being assigned to it (a judge: rulings): those labels now count as votes — in its agreement (given seeing everyone's labels) and gold — " +
        "and no longer settle any pair; the disagreements judy settled are back in Review for the pool's other judges.",
    );
    // Assigned again as she is: her labels already vote, nothing more to say.
    const again = poolVoters(ws, 'p');
    assignPool(ws, 'p', ['alice', 'bob', 'judy'], null);
    expect(assignmentNotes(ws, ['alice', 'bob', 'judy'], knownPeople(ws), again).join('\n')).not.toContain('labeled this pool before');
  });

  it('a judge newly assigned whose labels there are not all rulings (a vote given between two spans of judging): the note counts her rulings', () => {
    const ws = scratch.fresh('between');
    ws.createPool({ name: 'p' });
    ws.addPoolQuery('p', 'q1', ['a', 'b']);
    assignPool(ws, 'p', ['alice', 'bob'], null);
    addAnnotator(ws, 'judy', 'judge');
    ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'a', annotator: 'judy', value: '1', origin: 'test' });
    // Made an annotator (her ruling on a stays one), she votes on b, then judges again: b is a vote set aside.
    stopJudging(ws, ws.poolId('p'), 'judy');
    ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'b', annotator: 'judy', value: '0', origin: 'test' });
    startJudging(ws, ws.poolId('p'), 'judy');
    const before = poolVoters(ws, 'p');
    assignPool(ws, 'p', ['alice', 'bob', 'judy'], null);
    expect(assignmentNotes(ws, ['alice', 'bob', 'judy'], knownPeople(ws), before)).toContain(
      "judy (2 labels, 1 of them a ruling) labeled this pool before being assigned to it: those labels now count as votes — in its agreement (given seeing everyone's labels) and gold — " +
        "and no longer settle any pair; the disagreements judy settled are back in Review for the pool's other judges.",
    );
  });

  it('a judge left out again: a "?" she gave as a judge is said apart from her votes, and a vote she cleared is counted (they were not)', () => {
    const ws = scratch.fresh('unsure-cleared');
    ws.createPool({ name: 'p' });
    ws.addPoolQuery('p', 'q1', ['a', 'b', 'c']);
    assignPool(ws, 'p', ['alice', 'bob'], null);
    addAnnotator(ws, 'judy', 'judge');
    // As a judge: a ruling on a and a "?" on c (as earlier versions took); assigned, she votes on b and clears it.
    ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'a', annotator: 'judy', value: '1', origin: 'test' });
    ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'c', annotator: 'judy', value: '?', origin: 'test' });
    assignPool(ws, 'p', ['alice', 'bob', 'judy'], null);
    ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'b', annotator: 'judy', value: '0', origin: 'test' });
    ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'b', annotator: 'judy', value: null, origin: 'test' });
    const before = poolVoters(ws, 'p');
    assignPool(ws, 'p', ['alice', 'bob'], null);
    // Was: "… is a ruling again; the other 1 label is not a ruling, and who voted on a pair may not rule on it …" of the "?", and nothing of b.
    expect(assignmentNotes(ws, ['alice', 'bob'], knownPeople(ws), before)).toContain(
      'judy is a judge and judges this pool from now on: 1 label judy gave here as a judge before being assigned, or imported, is a ruling again; ' +
        'a "?" given as a judge settles nothing (a "?" is no ruling); judy may not rule either on the 1 pair judy labeled as its annotator and cleared since (a vote cleared still counts as having voted).',
    );
  });

  it('qpairs assign and pool.assign print it', async () => {
    labeledByAliceAndBob('a').close();
    const w = path.join(scratch.dir, 'a.qpairs');
    const r = await runCli('assign', w, '--pool', 'p', '--annotators', 'alice,dave');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("note: bob (1 label) is no longer one of this pool's annotators");
    const engine = Engine.open(w, { transport: 'electron' });
    try {
      const v = (await engine.invoke('pool.assign', { pool: 'p', annotators: ['dave'] })) as { notes?: string[] };
      expect(v.notes?.join('\n')).toContain("alice (2 labels) is no longer one of this pool's annotators");
    } finally {
      engine.close();
    }
  });
});
