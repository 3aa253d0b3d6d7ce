/**
 * A role change says what it does to the person's labels in pools nobody is assigned to
 * (role-notes.ts): an annotator made a judge stops voting there, a judge made an annotator votes
 * with their rulings. Both changed the pools' agreement, Review and gold without a word. A judge made
 * an annotator also stops ruling in pools assigned to others, which nothing said either; and made a
 * judge again, the note on the open pool said her labels there were not rulings beside the note that
 * some of them were rulings again.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/test-cli';
import { Engine } from '../engine/engine';
import { addAnnotator, aggregationSummary, assignPool, loadPoolState } from '../gold';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import { Workspace } from '../workspace/workspace';

const scratch = scratchWorkspaces('qpairs-role-notes-');

/** Open pool `open` (alice 1, bob 0, carl 1 on q1 → a; jack ruled 0 on q1 → b), and pool `shut` assigned to alice and bob. */
function team(name: string): Workspace {
  const ws = scratch.fresh(name);
  for (const p of ['open', 'shut']) {
    ws.createPool({ name: p, scheme: 'binary' });
    ws.addPoolQuery(p, 'q1', ['a', 'b']);
  }
  for (const n of ['alice', 'bob', 'carl']) addAnnotator(ws, n);
  addAnnotator(ws, 'jack', 'judge');
  assignPool(ws, 'shut', ['alice', 'bob'], null);
  const put = (p: string, c: string, who: string, v: string): void => void ws.addLabel({ pool: p, queryId: 'q1', candidateId: c, annotator: who, value: v, origin: 'ui' });
  put('open', 'a', 'alice', '1');
  put('open', 'a', 'bob', '0');
  put('open', 'a', 'carl', '1');
  put('open', 'b', 'alice', '1');
  put('open', 'b', 'bob', '0');
  put('open', 'b', 'jack', '0');
  put('shut', 'a', 'alice', '1');
  return ws;
}

describe('a role change names what it does to the labels in open pools', () => {
  it('an annotator made a judge: his votes there stop counting (annotator.setRole)', async () => {
    const ws = team('a');
    const engine = new Engine(ws, { transport: 'electron' });
    try {
      const r = (await engine.invoke('annotator.setRole', { name: 'carl', role: 'judge' })) as { notes?: string[] };
      expect(r.notes).toEqual([
        'carl labeled pool nobody is assigned to: open (1 label); as a judge carl no longer votes there: those labels stop counting in its agreement and gold, ' +
          'and they are not rulings either (who voted on a pair is no third judge of it): another judge settles the pairs in dispute.',
      ]);
      expect(loadPoolState(ws, 'open').annotators).toEqual(['alice', 'bob']);
    } finally {
      engine.close();
    }
  });

  it('a judge made an annotator: his rulings there become votes and settle nothing (qpairs annotators role)', async () => {
    const ws = team('b');
    expect(aggregationSummary(loadPoolState(ws, 'open')).settled).toBe(1);
    ws.close();
    const r = await runCli('annotators', 'role', path.join(scratch.dir, 'b.qpairs'), 'jack', 'annotator');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('annotator jack: annotator');
    expect(r.out).toContain(
      "note: jack labeled pool nobody is assigned to: open (1 label); those labels were rulings and now count as jack's votes (in agreement, given seeing everyone's labels, and in the gold): " +
        'they settle nothing any more, and the disagreements jack settled are back in Review.',
    );
  });

  it('an annotator made an owner stops voting there too; a judge made an owner stops ruling; nothing to say for someone without such labels', async () => {
    const ws = team('c');
    const engine = new Engine(ws, { transport: 'electron' });
    try {
      const owner = (await engine.invoke('annotator.setRole', { name: 'alice', role: 'owner' })) as { notes?: string[] };
      expect(owner.notes).toEqual(['alice labeled pool nobody is assigned to: open (2 labels); as an owner alice no longer votes there: those labels stop counting in its agreement and gold.']);
      expect(loadPoolState(ws, 'open').annotators).toEqual(['bob', 'carl']);
      const judge = (await engine.invoke('annotator.setRole', { name: 'jack', role: 'owner' })) as { notes?: string[] };
      expect(judge.notes).toEqual([
        "jack labeled pool nobody is assigned to: open (1 label); those labels were rulings and settle nothing any more (an owner's labels there neither vote nor rule), " +
          'and the disagreements jack settled are back in Review.',
      ]);
      // dave has no label anywhere.
      addAnnotator(ws, 'dave');
      expect(await engine.invoke('annotator.setRole', { name: 'dave', role: 'judge' })).toEqual({ name: 'dave', role: 'judge' });
    } finally {
      engine.close();
    }
  });

  it('a judge made an annotator: his rulings in a pool assigned to others settle nothing; a judge again, one note per pool says they are rulings again', async () => {
    const ws = team('d');
    ws.addLabel({ pool: 'shut', queryId: 'q1', candidateId: 'a', annotator: 'bob', value: '0', origin: 'ui' });
    const engine = new Engine(ws, { transport: 'electron' });
    try {
      await engine.invoke('review.settle', { pool: 'shut', judge: 'jack', queryId: 'q1', candidateId: 'a', value: '0' });
      const shutA = () => loadPoolState(ws, 'shut').pairs.find((e) => e.candidateId === 'a')!;
      expect(shutA()).toMatchObject({ judge: { annotator: 'jack' }, resolution: { status: 'adjudicated' } });
      const annotator = (await engine.invoke('annotator.setRole', { name: 'jack', role: 'annotator' })) as { notes?: string[] };
      // Was: the open pool's note only, while shut's pair went back to Review unsaid.
      expect(annotator.notes).toEqual([
        "jack labeled pool nobody is assigned to: open (1 label); those labels were rulings and now count as jack's votes (in agreement, given seeing everyone's labels, and in the gold): " +
          'they settle nothing any more, and the disagreements jack settled are back in Review.',
        'jack ruled in pool assigned to others: shut (1 ruling); as an annotator jack judges it no more and is not assigned to label it: those rulings settle nothing any more ' +
          'and are not votes either (they count again if jack is made a judge again), and the disagreements jack settled are back in Review.',
      ]);
      expect(shutA()).toMatchObject({ judge: null, resolution: { status: 'unresolved' } });
      expect(shutA().votes.map((v) => v.annotator)).toEqual(['alice', 'bob']);
      const judge = (await engine.invoke('annotator.setRole', { name: 'jack', role: 'judge' })) as { notes?: string[] };
      // Was: "… those labels stop counting …, and they are not rulings either" beside "1 label jack gave there as a judge before (in open, …) is a ruling again".
      expect(judge.notes).toEqual([
        'jack labeled pool nobody is assigned to: open (1 label); as a judge jack no longer votes there: that label, given as a judge before, is a ruling again.',
        '1 label jack gave there as a judge before (in shut) is a ruling again.',
      ]);
      expect(shutA()).toMatchObject({ judge: { annotator: 'jack' }, resolution: { status: 'adjudicated' } });
    } finally {
      engine.close();
    }
  });

  it('a judge made an owner is told of his rulings in pools assigned to others too (qpairs annotators role)', async () => {
    const ws = team('e');
    ws.addLabel({ pool: 'shut', queryId: 'q1', candidateId: 'a', annotator: 'bob', value: '0', origin: 'ui' });
    ws.addLabel({ pool: 'shut', queryId: 'q1', candidateId: 'a', annotator: 'jack', value: '1', origin: 'ui' });
    ws.close();
    const r = await runCli('annotators', 'role', path.join(scratch.dir, 'e.qpairs'), 'jack', 'owner');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('note: jack ruled in pool assigned to others: shut (1 ruling); as an owner jack judges it no more');
  });

  it('made a judge, a person is told of the labels she gave while not judging a pool, on whose pairs she may not rule (nothing said so)', async () => {
    const ws = team('f');
    // carl labeled shut as its annotator, then was left out of it.
    assignPool(ws, 'shut', ['alice', 'bob', 'carl'], null);
    ws.addLabel({ pool: 'shut', queryId: 'q1', candidateId: 'a', annotator: 'carl', value: '0', origin: 'ui' });
    assignPool(ws, 'shut', ['alice', 'bob'], null);
    ws.addLabel({ pool: 'shut', queryId: 'q1', candidateId: 'a', annotator: 'bob', value: '0', origin: 'ui' });
    const engine = new Engine(ws, { transport: 'electron' });
    try {
      const carl = (await engine.invoke('annotator.setRole', { name: 'carl', role: 'judge' })) as { notes?: string[] };
      expect(carl.notes).toEqual([
        'carl labeled pool nobody is assigned to: open (1 label); as a judge carl no longer votes there: those labels stop counting in its agreement and gold, ' +
          'and they are not rulings either (who voted on a pair is no third judge of it): another judge settles the pairs in dispute.',
        'carl labeled pool before judging it: shut (1 label); those labels count for nothing there, as before, and are not rulings either: ' +
          'carl may not rule on their pairs (who voted on a pair is no third judge of it): another judge settles those in dispute.',
      ]);
      await expect(engine.invoke('review.settle', { pool: 'shut', judge: 'carl', queryId: 'q1', candidateId: 'a', value: '1' })).rejects.toThrow(/carl labeled pair q1 → a of pool "shut" before judging the pool/);
      // An owner's labels in an open pool: nothing before, and no ruling once a judge.
      await engine.invoke('annotator.setRole', { name: 'alice', role: 'owner' });
      const alice = (await engine.invoke('annotator.setRole', { name: 'alice', role: 'judge' })) as { notes?: string[] };
      expect(alice.notes).toEqual([
        'alice labeled pool before judging it: open (2 labels); those labels count for nothing there, as before, and are not rulings either: ' +
          'alice may not rule on their pairs (who voted on a pair is no third judge of it): another judge settles those in dispute.',
      ]);
    } finally {
      engine.close();
    }
  });

  it('made a judge: a vote she cleared since still bars her ruling, and the note counts its pair (it counted her current labels only)', async () => {
    const ws = team('h');
    // carl labeled q1 → a and q1 → b of shut as its annotator, cleared b, then was left out of it.
    assignPool(ws, 'shut', ['alice', 'bob', 'carl'], null);
    ws.addLabel({ pool: 'shut', queryId: 'q1', candidateId: 'a', annotator: 'carl', value: '0', origin: 'ui' });
    ws.addLabel({ pool: 'shut', queryId: 'q1', candidateId: 'b', annotator: 'carl', value: '1', origin: 'ui' });
    ws.addLabel({ pool: 'shut', queryId: 'q1', candidateId: 'b', annotator: 'carl', value: null, origin: 'ui' });
    assignPool(ws, 'shut', ['alice', 'bob'], null);
    ws.addLabel({ pool: 'shut', queryId: 'q1', candidateId: 'b', annotator: 'alice', value: '1', origin: 'ui' });
    ws.addLabel({ pool: 'shut', queryId: 'q1', candidateId: 'b', annotator: 'bob', value: '0', origin: 'ui' });
    const engine = new Engine(ws, { transport: 'electron' });
    try {
      const carl = (await engine.invoke('annotator.setRole', { name: 'carl', role: 'judge' })) as { notes?: string[] };
      expect(carl.notes).toContain(
        'carl labeled pool before judging it: shut (1 label, 1 pair labeled then and cleared since); those labels count for nothing there, as before, and are not rulings either: ' +
          'carl may not rule on their pairs, nor on the pairs labeled then and cleared since (a vote cleared still counts as having voted) ' +
          '(who voted on a pair is no third judge of it): another judge settles those in dispute.',
      );
      // What the note says is what is refused: the pair whose vote she cleared.
      await expect(engine.invoke('review.settle', { pool: 'shut', judge: 'carl', queryId: 'q1', candidateId: 'b', value: '1' })).rejects.toThrow(/carl labeled pair q1 → b of pool "shut" before judging the pool/);
    } finally {
      engine.close();
    }
  });

  it('made a judge again: a "?" she gave as a judge before is said apart, not among the votes on whose pairs she may not rule', async () => {
    const ws = team('i');
    // jack, a judge, ruled 0 on open q1 → b (team) and left a "?" on q1 → a (as earlier versions took).
    ws.addLabel({ pool: 'open', queryId: 'q1', candidateId: 'a', annotator: 'jack', value: '?', origin: 'ui' });
    const engine = new Engine(ws, { transport: 'electron' });
    try {
      await engine.invoke('annotator.setRole', { name: 'jack', role: 'annotator' });
      const judge = (await engine.invoke('annotator.setRole', { name: 'jack', role: 'judge' })) as { notes?: string[] };
      // Was: "… 1 of them, given as a judge before, is a ruling again; the other 1 label stops counting …, and is not a ruling either (who voted on a pair is no third judge of it) …".
      expect(judge.notes).toEqual([
        'jack labeled pool nobody is assigned to: open (2 labels); as a judge jack no longer votes there: 1 of them, given as a judge before, is a ruling again; ' +
          '1 of them, "?" given as a judge before, settles nothing (a "?" is no ruling).',
      ]);
    } finally {
      engine.close();
    }
  });

  it("a judge's labels exported and imported back as the README says, then her role given back: the note says they are rulings (it said they were not)", async () => {
    const ws = team('g');
    ws.close();
    const w = path.join(scratch.dir, 'g.qpairs');
    const file = path.join(scratch.dir, 'judy.csv');
    writeFileSync(file, 'query_id,candidate_id,annotator,label\nq1,a,judy,0\n');
    const imported = await runCli('import', w, '--format', 'labels-csv', '--pool', 'open', file);
    expect(imported.code, imported.err).toBe(0);
    const r = await runCli('annotators', 'role', w, 'judy', 'judge');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('note: judy labeled pool nobody is assigned to: open (1 label); as a judge judy no longer votes there: that label, imported (an import brings rulings back), is a ruling.');
    expect(r.out).not.toContain('not rulings either');
    // Made an owner and a judge again, the note is the one for pools no other note names.
    expect((await runCli('annotators', 'role', w, 'judy', 'owner')).code).toBe(0);
    expect((await runCli('annotators', 'role', w, 'judy', 'judge')).out).toContain("note: 1 label of judy's in open, imported (an import brings rulings back), is a ruling now.");
    const back = Workspace.open(w);
    try {
      expect(loadPoolState(back, 'open').pairs.find((e) => e.candidateId === 'a')).toMatchObject({ judge: { annotator: 'judy', value: '0' }, resolution: { status: 'adjudicated' } });
    } finally {
      back.close();
    }
  });
});
