/**
 * Every command of the contract × every role, against a workspace where each other person's
 * labels and each ranker's scores carry values no one else's do: the role table holds (allowed,
 * or 403 'forbidden'), and nothing an annotator of a blind pool receives — results or events —
 * contains another annotator's label, the judge's, gold, the aggregate or a ranker's score.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContractError, commandArgs, commandRoles, type EventPayloads, type CallerRole, type CommandName, type QueryView, type QuestionShow, type BrowseSearch, type ReviewPair, type ReviewQueue } from '../../shared/contract';
import type { Engine } from './engine';
import type { CallerInput } from './access';
import type { AssignmentView } from '../../shared/gold';
import { jobDone, MARKERS, NOTES, teamEngine } from './test-team';
import { storeModel } from '../training/store';

let dir: string;
let engine: Engine;

const CALLERS: Record<string, { input: CallerInput; role: CallerRole; self: string }> = {
  'owner (local)': { input: { annotator: null, local: true }, role: 'owner', self: 'alice' },
  'owner (token)': { input: { annotator: 'dave', local: false }, role: 'owner', self: 'dave' },
  judge: { input: { annotator: 'carol', local: false }, role: 'judge', self: 'carol' },
  annotator: { input: { annotator: 'alice', local: false }, role: 'annotator', self: 'alice' },
};

/** The role table, written out independently of the contract: any change to either fails here. */
const EXPECTED: Record<CommandName, CallerRole> = {
  'app.info': 'annotator',
  'workspace.stats': 'annotator',
  'import.start': 'owner',
  'import.undoable': 'owner',
  'import.undo': 'owner',
  'job.cancel': 'annotator',
  'job.status': 'annotator',
  'pool.list': 'annotator',
  'pool.create': 'owner',
  'pool.setGuidelines': 'owner',
  'pool.set': 'owner',
  'pool.progress': 'annotator',
  'annotator.list': 'annotator',
  'annotate.query': 'annotator',
  'annotate.navigate': 'annotator',
  'annotate.queries': 'annotator',
  'label.set': 'annotator',
  'label.undo': 'annotator',
  'live.set': 'owner',
  'live.status': 'annotator',
  'eval.order': 'annotator',
  'live.retrain': 'owner',
  'eval.pool': 'annotator',
  'eval.query': 'annotator',
  'annotator.add': 'owner',
  'annotator.setRole': 'owner',
  'annotator.invite': 'owner',
  'annotator.revoke': 'owner',
  'annotator.team': 'owner',
  'pool.assign': 'owner',
  'pool.assignment': 'annotator',
  'pool.setAggregation': 'owner',
  'pool.aggregation': 'judge',
  'agreement.report': 'judge',
  'review.queue': 'judge',
  'review.pair': 'judge',
  'review.settle': 'judge',
  'eval.compare': 'judge',
  'export.preview': 'judge',
  'export.write': 'judge',
  'export.downloads': 'judge',
  'questions.search': 'annotator',
  'question.show': 'annotator',
  'models.list': 'judge',
  'models.train': 'judge',
  'models.score': 'judge',
  'models.delete': 'owner',
};
const RANK: CallerRole[] = ['annotator', 'judge', 'owner'];

/** Arguments that succeed for a caller allowed to run the command, acting as `self`. */
function argsFor(command: CommandName, self: string, tag: string, jobId: string): Record<string, unknown> {
  switch (command) {
    case 'app.info':
    case 'workspace.stats':
    case 'pool.list':
    case 'annotator.list':
    case 'models.list':
      return {};
    case 'import.undoable':
    case 'import.undo':
      return {};
    case 'import.start':
      return { format: 'questions-jsonl', sources: [{ uploadId: 'deadbeef-0000', name: 'q.jsonl' }] };
    case 'job.cancel':
    case 'job.status':
      return { jobId };
    case 'pool.create':
      return { name: `new-${tag}`, queries: ['q1'], depth: 2 };
    case 'pool.setGuidelines':
      return { pool: 'open', markdown: 'Label similar questions 1.' };
    case 'pool.set':
      return { pool: 'open', blind: false };
    case 'pool.progress':
    case 'pool.assignment':
    case 'pool.aggregation':
      return { pool: 'sealed' };
    case 'annotate.query':
      return { pool: 'sealed', annotator: self };
    case 'annotate.navigate':
      return { pool: 'sealed', annotator: self, from: 'q1', direction: 'next' };
    case 'annotate.queries':
      return { pool: 'sealed', annotator: self };
    case 'label.set':
      return { pool: 'sealed', queryId: 'q2', candidateId: 'c3', annotator: self, value: '1' };
    case 'label.undo':
      return { seq: 0, annotator: self }; // replaced by the caller's own seq below
    case 'live.set':
      return { pool: 'open', enabled: false };
    case 'live.status':
    case 'eval.order':
      return { pool: 'sealed' };
    case 'live.retrain':
      return { pool: 'open' };
    case 'eval.pool':
      return { pool: 'sealed' };
    case 'eval.query':
      return { pool: 'sealed', queryId: 'q1' };
    case 'annotator.add':
      return { name: `zed-${tag}` };
    case 'annotator.setRole':
      return { name: 'bob', role: 'annotator' };
    case 'annotator.invite':
      return { name: `inv-${tag}` };
    case 'annotator.revoke':
      return { name: 'bob' };
    case 'annotator.team':
      return {};
    case 'pool.assign':
      return { pool: 'open', annotators: ['alice', 'bob'] };
    case 'pool.setAggregation':
      return { pool: 'open', rule: 'majority' };
    case 'agreement.report':
      return { pool: 'sealed', bootstrap: 10 };
    case 'review.queue':
      return { pool: 'sealed', judge: 'carol' };
    case 'review.pair':
      return { pool: 'sealed', judge: 'carol', queryId: 'q1', candidateId: 'c1' };
    case 'review.settle':
      return { pool: 'sealed', judge: 'carol', queryId: 'q1', candidateId: 'c3', value: MARKERS.judge };
    case 'eval.compare':
      return { pool: 'sealed', runs: ['secretrun', 'otherrun'], bootstrap: 10, permutations: 10 };
    case 'export.preview':
      return { pool: 'sealed', format: 'jsonl' };
    case 'export.write':
      return { pool: 'sealed', format: 'jsonl' };
    case 'export.downloads':
      return { ids: ['x'.repeat(32)] };
    case 'questions.search':
      return { text: 'laptops', limit: 10 };
    case 'question.show':
      return { id: 'q1', pool: 'sealed' };
    case 'models.train':
      return { model: 'tfidf', name: `m-${tag}` };
    case 'models.score':
      // A stored model (see the test): an unknown one is refused before a job starts.
      return { name: 'stored-model', pool: 'sealed' };
    case 'models.delete':
      return { name: 'no-such-model' };
  }
}

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-access-'));
  engine = teamEngine(dir);
});
afterEach(async () => {
  if (!engine) return;
  await engine.jobs.idle();
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the role table', () => {
  it('names every command of the contract, and says what the test expects', () => {
    expect(Object.keys(commandRoles).sort()).toEqual(Object.keys(commandArgs).sort());
    expect({ ...commandRoles }).toEqual(EXPECTED);
  });

  it('every command × every role: allowed, or 403', async () => {
    const file = path.join(dir, 'q.jsonl');
    writeFileSync(file, '{"id":"n1","title":"a new question","body":"about wifi"}\n');
    const report = { kind: 'tfidf' as const, backend: 'js', epochs: 1, bestEpoch: 1, history: [], examplesPerSecond: 0, exampleUnit: 'docs', seconds: 0 };
    storeModel(engine.ws, 'stored-model', { format: 1, kind: 'tfidf', config: {}, weights: {} }, report, { trainPools: [], devPool: null, epochs: null, seed: 1, positives: 0, negatives: 0, questions: 0 });
    const outcomes: string[] = [];
    for (const [label, c] of Object.entries(CALLERS)) {
      // A job someone else (the owner) started: only owners may cancel it.
      let release: (() => void) | undefined;
      const jobId = engine.jobs.start(
        'import',
        (job) =>
          new Promise<void>((r) => {
            release = r;
            if (job.signal.aborted) r();
            job.signal.addEventListener('abort', () => r());
          }),
      );
      await new Promise((r) => setImmediate(r)); // the job has started
      const tag = label.replace(/\W+/g, '-');
      for (const command of Object.keys(commandArgs) as CommandName[]) {
        const args = argsFor(command, c.self, tag, jobId);
        if (command === 'label.undo') {
          const ack = (await engine.invoke('label.set', { pool: 'sealed', queryId: 'q2', candidateId: 'c2', annotator: c.self, value: '0' }, c.input)) as { seq: number };
          args.seq = ack.seq;
        }
        const allowed = RANK.indexOf(c.role) >= RANK.indexOf(EXPECTED[command]) && !(command === 'eval.pool' || command === 'eval.query' || command === 'live.status' || command === 'eval.order' ? c.role === 'annotator' : false) && !((command === 'job.cancel' || command === 'job.status') && c.role !== 'owner');
        let outcome: string;
        try {
          await engine.invoke(command, args, c.input);
          outcome = 'ok';
        } catch (e) {
          outcome = e instanceof ContractError ? e.code : `thrown ${(e as Error).message}`;
        }
        outcomes.push(`${label} ${command}: ${outcome}`);
        if (allowed) expect(outcome, `${label} ${command}`).not.toBe('forbidden');
        else expect(outcome, `${label} ${command}`).toBe('forbidden');
      }
      release!();
      await engine.jobs.idle();
      // Once it ended, anyone may learn that it no longer runs (a page that reconnected asks): the same answer as for any id.
      expect(await engine.invoke('job.status', { jobId }, c.input)).toEqual({ running: false });
    }
    // Allowed calls did their work (not just "not forbidden"): every one succeeded but the upload
    // import, which fails for its own reason (uploads exist only in serve mode), and the undo of
    // the last import (the workspace was made without one).
    const failures = outcomes.filter((o) => !o.endsWith(': ok') && !o.endsWith(': forbidden'));
    expect(failures).toEqual([
      'owner (local) import.start: user-error',
      'owner (local) import.undo: user-error',
      'owner (token) import.start: user-error',
      'owner (token) import.undo: user-error',
    ]);
  });

  it('server-side paths only from the local owner', async () => {
    const file = path.join(dir, 'q.jsonl');
    writeFileSync(file, '{"id":"n1","title":"a new question","body":"about wifi"}\n');
    const importArgs = { format: 'questions-jsonl', sources: [{ path: file }] };
    await expect(engine.invoke('import.start', importArgs, CALLERS['owner (token)']!.input)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(engine.invoke('export.write', { pool: 'sealed', format: 'jsonl', path: path.join(dir, 'x.jsonl') }, CALLERS['owner (token)']!.input)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(engine.invoke('import.start', importArgs, CALLERS['owner (local)']!.input)).resolves.toMatchObject({ jobId: expect.any(String) });
  });
});

describe('a blind pool is sealed for its annotators', () => {
  it('no result or event alice receives holds anyone else’s label or a ranker’s score', async () => {
    const alice = CALLERS.annotator!.input;
    const received: string[] = [];
    const off = engine.hub.onAny((event, payload) => {
      if (engine.canSee(alice, event, payload as never)) received.push(JSON.stringify({ event, payload }));
    });
    // Everyone else works while alice listens: bob labels, the judge settles, the owner imports and trains.
    await engine.invoke('label.set', { pool: 'sealed', queryId: 'q1', candidateId: 'c1', annotator: 'bob', value: MARKERS.bob }, CALLERS['owner (local)']!.input);
    await engine.invoke('review.settle', { pool: 'sealed', judge: 'carol', queryId: 'q1', candidateId: 'c3', value: MARKERS.judge }, CALLERS.judge!.input);
    const file = path.join(dir, 'q.jsonl');
    writeFileSync(file, `{"id":"n1","title":"${MARKERS.gold}","body":"${MARKERS.score}"}\nnot json\n`);
    await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: file }] }, CALLERS['owner (local)']!.input);
    await engine.jobs.idle();
    // alice calls every command she may on the blind pool.
    for (const command of Object.keys(commandArgs) as CommandName[]) {
      if (EXPECTED[command] !== 'annotator') continue;
      const args = argsFor(command, 'alice', 'alice', 'no-job');
      if (command === 'label.undo') {
        const ack = (await engine.invoke('label.set', { pool: 'sealed', queryId: 'q2', candidateId: 'c2', annotator: 'alice', value: '0' }, alice)) as { seq: number };
        args.seq = ack.seq;
      }
      try {
        received.push(JSON.stringify(await engine.invoke(command, args, alice)));
      } catch (e) {
        received.push(JSON.stringify({ error: (e as Error).message }));
      }
    }
    for (const queryId of ['q1', 'q2']) {
      const view = (await engine.invoke('annotate.query', { pool: 'sealed', annotator: 'alice', queryId, blind: false }, alice)) as QueryView;
      expect(view.blind).toBe(true);
      expect(view.runNames).toEqual([]);
      for (const c of view.candidates) {
        expect(c.runs).toEqual({});
        expect(c.others).toEqual({});
      }
      received.push(JSON.stringify(view));
    }
    off();
    const all = received.join('\n');
    for (const [whose, marker] of Object.entries(MARKERS)) expect(all.includes(marker), `alice received ${whose}'s ${marker}`).toBe(false);
    expect(all).not.toContain('"annotator":"bob"');
    // …while on the open pool she sees the others and the scores.
    const open = (await engine.invoke('annotate.query', { pool: 'open', annotator: 'alice', queryId: 'q1' }, alice)) as QueryView;
    expect(open.blind).toBe(false);
    expect(JSON.stringify(open)).toContain(MARKERS.bob);
    expect(JSON.stringify(open)).toContain(MARKERS.score);
  });

  it('blind is the pool’s setting: the owner switches it, the history records it, annotators follow', async () => {
    const alice = CALLERS.annotator!.input;
    await expect(engine.invoke('pool.set', { pool: 'sealed', blind: false }, alice)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(engine.invoke('eval.pool', { pool: 'sealed', annotator: 'alice' }, alice)).rejects.toMatchObject({ code: 'forbidden' });
    await engine.invoke('pool.set', { pool: 'sealed', blind: false });
    expect(engine.ws.poolBlindHistory('sealed').map((h) => h.blind)).toEqual([true, false]);
    await expect(engine.invoke('eval.pool', { pool: 'sealed', annotator: 'alice' }, alice)).resolves.toMatchObject({ pool: 'sealed' });
    const view = (await engine.invoke('annotate.query', { pool: 'sealed', annotator: 'alice', queryId: 'q1' }, alice)) as QueryView;
    expect(view.runNames.sort()).toEqual(['otherrun', 'secretrun']);
  });

  it('progress and assignment list only the annotator herself', async () => {
    const alice = CALLERS.annotator!.input;
    // Before any assignment, a pool's annotators are whoever labeled in it: bob's labels showed as his name.
    const unassigned = (await engine.invoke('pool.assignment', { pool: 'sealed' }, alice)) as AssignmentView;
    expect(unassigned.mode).toBe('open');
    expect(unassigned.annotators).toEqual(['alice']);
    expect(JSON.stringify(unassigned)).not.toMatch(/bob|carol/);
    await engine.invoke('pool.assign', { pool: 'sealed', annotators: ['alice', 'bob'] });
    const progress = (await engine.invoke('pool.progress', { pool: 'sealed' }, alice)) as { annotators: Array<{ annotator: string }> };
    expect(progress.annotators.map((a) => a.annotator)).toEqual(['alice']);
    const assignment = (await engine.invoke('pool.assignment', { pool: 'sealed' }, alice)) as AssignmentView;
    expect(assignment.progress.map((a) => a.annotator)).toEqual(['alice']);
    // Nor who else labels it, or judges it: the lists name her alone (bob's name was listed beside her own).
    expect(assignment.annotators).toEqual(['alice']);
    expect(assignment.judges).toEqual([]);
    expect(JSON.stringify(assignment)).not.toContain('bob');
    expect(JSON.stringify(await engine.invoke('pool.assignment', { pool: 'sealed', annotator: 'alice' }, alice))).not.toContain('bob');
    const ownerView = (await engine.invoke('pool.assignment', { pool: 'sealed' })) as AssignmentView;
    expect(ownerView.annotators).toEqual(['alice', 'bob']);
    await expect(engine.invoke('pool.assignment', { pool: 'sealed', annotator: 'bob' }, alice)).rejects.toMatchObject({ code: 'forbidden' });
    const owner = (await engine.invoke('pool.progress', { pool: 'sealed' })) as { annotators: Array<{ annotator: string }> };
    expect(owner.annotators.map((a) => a.annotator).sort()).toEqual(['alice', 'bob', 'carol', 'gold']);
  });

  it('question.show: alice on a blind pool sees only her own labels, never bob\'s, the judge\'s or gold; questions.search is open', async () => {
    const alice = CALLERS.annotator!.input;
    for (const id of ['q1', 'c2']) {
      const shown = (await engine.invoke('question.show', { id }, alice)) as QuestionShow;
      const sealed = shown.pools.filter((p) => p.pool === 'sealed');
      expect(sealed.length).toBeGreaterThan(0);
      for (const p of sealed) {
        expect(p.labels.length).toBeGreaterThan(0);
        expect(new Set(p.labels.map((l) => l.annotator))).toEqual(new Set(['alice']));
        expect(p.candidatePosition).toBeNull();
      }
      const text = JSON.stringify(sealed);
      for (const [whose, marker] of Object.entries(MARKERS)) expect(text.includes(marker), `alice saw ${whose}'s ${marker} via question.show`).toBe(false);
      // the open pool: everyone's labels, as in Annotate
      const open = shown.pools.filter((p) => p.pool === 'open');
      expect(JSON.stringify(open)).toContain(MARKERS.bob);
      // the owner and the judge see everything, with candidate positions
      for (const who of [CALLERS['owner (local)']!.input, CALLERS.judge!.input]) {
        const all = (await engine.invoke('question.show', { id, pool: 'sealed' }, who)) as QuestionShow;
        expect(all.pools.every((p) => p.pool === 'sealed')).toBe(true);
        expect(JSON.stringify(all)).toContain(MARKERS.bob);
        expect(JSON.stringify(all)).toContain(MARKERS.gold);
      }
    }
    const c2 = (await engine.invoke('question.show', { id: 'c2' }, CALLERS['owner (local)']!.input)) as QuestionShow;
    expect(c2.question.title).toBe('title of c2');
    expect(c2.pools.find((p) => p.pool === 'sealed' && p.queryId === 'q2')).toMatchObject({ as: 'candidate', queryPosition: 1, candidatePosition: 1 });
    await expect(engine.invoke('question.show', { id: 'nope' }, alice)).rejects.toMatchObject({ code: 'not-found' });
    const found = (await engine.invoke('questions.search', { text: 'title of c3 laptops', limit: 3 }, alice)) as BrowseSearch;
    // The first 3 by title of the matches (not the 3 best: see blind-walk.test.ts).
    expect(found.results.map((r) => r.id)).toEqual(['c1', 'c2', 'c3']);
    expect(found.results[2]).toMatchObject({ id: 'c3', title: 'title of c3', source: 'test' });
    await expect(engine.invoke('questions.search', { text: 'laptops', source: 'elsewhere' }, alice)).rejects.toMatchObject({ code: 'not-found', message: 'no questions of source "elsewhere" in the workspace (sources: test)' });
    await expect(engine.invoke('questions.search', { text: 'x', limit: 201 }, alice)).rejects.toMatchObject({ code: 'invalid-argument' });
  });

  it('question.show: in a pool assigned k per query, alice is shown only the queries given to her (as query or as their candidate)', async () => {
    const alice = CALLERS.annotator!.input;
    await engine.invoke('pool.assign', { pool: 'open', annotators: ['alice', 'bob'], perQuery: 1, seed: 1 });
    const { queries } = (await engine.invoke('pool.assignment', { pool: 'open', annotator: 'alice' }, alice)) as { queries: string[] };
    expect(queries).toHaveLength(1);
    const other = ['q1', 'q2'].find((q) => !queries.includes(q))!;
    const places = async (id: string): Promise<string[]> =>
      ((await engine.invoke('question.show', { id }, alice)) as QuestionShow).pools.filter((p) => p.pool === 'open').map((p) => `${p.as} ${p.queryId}`);
    expect(await places(queries[0]!)).toEqual([`query ${queries[0]}`]);
    expect(await places(other)).toEqual([]);
    expect(await places('c1')).toEqual([`candidate ${queries[0]}`]);
    // The owner still sees every place.
    const all = (await engine.invoke('question.show', { id: 'c1', pool: 'open' })) as QuestionShow;
    expect(all.pools.map((p) => p.queryId).sort()).toEqual(['q1', 'q2']);
  });

  it('notes: an annotator reads only her own, on blind and open pools; judges read every note and reason in Review', async () => {
    const alice = CALLERS.annotator!.input;
    // bob writes a new note while alice listens: neither the event nor any result carries its text.
    const heard: string[] = [];
    const off = engine.hub.onAny((event, payload) => {
      if (engine.canSee(alice, event, payload as never)) heard.push(JSON.stringify(payload));
    });
    await engine.invoke('label.set', { pool: 'sealed', queryId: 'q2', candidateId: 'c1', annotator: 'bob', value: MARKERS.bob, note: `later ${NOTES.bob}` });
    const ack = await engine.invoke('label.set', { pool: 'sealed', queryId: 'q1', candidateId: 'c2', annotator: 'alice', value: '1', note: 'mine too' }, alice);
    expect(ack).toMatchObject({ note: 'mine too', noteChanged: true });
    off();
    for (const pool of ['sealed', 'open']) {
      const view = (await engine.invoke('annotate.query', { pool, annotator: 'alice', queryId: 'q1' }, alice)) as QueryView;
      const text = JSON.stringify(view);
      expect(view.candidates.find((c) => c.id === 'c1')!.note).toBe(NOTES.alice);
      expect(text, `${pool}: bob's note`).not.toContain(NOTES.bob);
      expect(text, `${pool}: the judge's reason`).not.toContain(NOTES.judge);
    }
    expect(heard.join('\n')).not.toContain('private note');
    // alice cannot read the review queue (where notes are), nor ask for bob's view.
    await expect(engine.invoke('review.queue', { pool: 'sealed', judge: 'carol' }, alice)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(engine.invoke('annotate.query', { pool: 'sealed', annotator: 'bob', queryId: 'q1' }, alice)).rejects.toMatchObject({ code: 'forbidden' });
    // …nor the pair's detail, where the votes' notes are.
    await expect(engine.invoke('review.pair', { pool: 'sealed', judge: 'carol', queryId: 'q1', candidateId: 'c1' }, alice)).rejects.toMatchObject({ code: 'forbidden' });
    // The judge sees every voter's note (the queue says which votes have one, the pair gives them) and the reasons.
    const queue = (await engine.invoke('review.queue', { pool: 'sealed', judge: 'carol', includeSettled: true }, CALLERS.judge!.input)) as ReviewQueue;
    const c1 = queue.items.find((i) => i.queryId === 'q1' && i.candidateId === 'c1')!;
    expect(c1.labels.find((l) => l.annotator === 'bob')?.noted).toBe(true);
    expect(c1.labels.find((l) => l.annotator === 'alice')?.noted).toBe(true);
    const pair = (await engine.invoke('review.pair', { pool: 'sealed', judge: 'carol', queryId: 'q1', candidateId: 'c1' }, CALLERS.judge!.input)) as ReviewPair;
    expect(pair.labels.find((l) => l.annotator === 'bob')?.note).toBe(NOTES.bob);
    expect(pair.labels.find((l) => l.annotator === 'alice')?.note).toBe(NOTES.alice);
    expect(c1.settled?.note).toBe(NOTES.judge);
    expect(c1.judgeNote).toBe(NOTES.judge);
    const notes = engine.ws.labelNotes('sealed', { queryId: 'q1' }).map((n) => `${n.annotator}: ${n.note}`);
    expect(notes).toEqual([`alice: ${NOTES.alice}`, `bob: ${NOTES.bob}`, `carol: ${NOTES.judge}`, 'alice: mine too']);
  });

  it('workspace.stats: an annotator gets her own label counts, never the workspace totals (others\' progress)', async () => {
    const alice = CALLERS.annotator!.input;
    const before = (await engine.invoke('workspace.stats', {}, alice)) as { labels: number; labelEvents: number; pools: number };
    // bob labels on the blind pool: nothing alice is shown may move.
    await engine.invoke('label.set', { pool: 'sealed', queryId: 'q1', candidateId: 'c2', annotator: 'bob', value: '2' }, CALLERS['owner (local)']!.input);
    await engine.invoke('label.set', { pool: 'sealed', queryId: 'q1', candidateId: 'c3', annotator: 'bob', value: '2' }, CALLERS['owner (local)']!.input);
    const after = (await engine.invoke('workspace.stats', {}, alice)) as { labels: number; labelEvents: number; pools: number };
    expect(after).toEqual(before);
    expect(after).toMatchObject({ labels: 12, labelEvents: 12 }); // alice's own: 2 pools × 2 queries × 3 candidates
    // her own label counts; the owner still sees the totals.
    await engine.invoke('label.set', { pool: 'sealed', queryId: 'q1', candidateId: 'c2', annotator: 'alice', value: '2' }, alice);
    expect(await engine.invoke('workspace.stats', {}, alice)).toMatchObject({ labels: 12, labelEvents: 13 });
    const owner = (await engine.invoke('workspace.stats', {})) as { labels: number; labelEvents: number };
    expect(owner.labelEvents).toBeGreaterThan(13);
  });

  it('a pool that does not exist: not-found, without naming the pools closed to the annotator', async () => {
    await engine.invoke('pool.assign', { pool: 'sealed', annotators: ['bob'] });
    for (const [command, args] of [
      ['annotate.query', { pool: 'nosuch', annotator: 'alice' }],
      ['pool.progress', { pool: 'nosuch' }],
      ['question.show', { id: 'q1', pool: 'nosuch' }],
    ] as const) {
      const e = await engine.invoke(command, args, CALLERS.annotator!.input).catch((x: ContractError) => x);
      expect(e).toMatchObject({ code: 'not-found' });
      expect((e as Error).message, command).not.toContain('sealed');
    }
    // The owner is still told which pools there are.
    await expect(engine.invoke('pool.progress', { pool: 'nosuch' })).rejects.toThrow(/sealed/);
  });

  it('app.info names the workspace file, never its path', async () => {
    const info = (await engine.invoke('app.info', {}, CALLERS.annotator!.input)) as Record<string, unknown>;
    expect(info).toMatchObject({ workspaceName: 'w.qpairs', role: 'annotator', annotator: 'alice', local: false });
    expect(JSON.stringify(info)).not.toContain(dir);
  });
});

describe('which imports and pool changes reach an annotator', () => {
  type Change = EventPayloads['workspace.changed'];
  const alice = { annotator: 'alice', local: false };
  const bob = { annotator: 'bob', local: false };
  /** What each caller's socket carries (canSee, then eventFor), from now on; alice has two tabs, both asked. */
  function listen(): { heard: (who: 'alice' | 'alice2' | 'bob' | 'owner') => string[]; off: () => void } {
    const got: Array<{ who: string; change: Change }> = [];
    const off = engine.hub.on('workspace.changed', (change) => {
      for (const [who, input] of [['alice', alice], ['alice2', alice], ['bob', bob], ['owner', { annotator: null, local: true }]] as const) {
        if (engine.canSee(input, 'workspace.changed', change)) got.push({ who, change: engine.eventFor(input, 'workspace.changed', change) });
      }
    });
    const say = (c: Change): string => [c.what, c.pool ?? c.annotator ?? '', ...(c.pools ? [`[${c.pools.join(',')}]`] : [])].filter(Boolean).join(' ');
    return { heard: (who) => got.filter((g) => g.who === who).map((g) => say(g.change)), off };
  }
  const importLabels = async (pool: string, rows: string): Promise<void> => {
    const file = path.join(dir, `${pool}-${Math.random().toString(36).slice(2)}.csv`);
    writeFileSync(file, `query_id,candidate_id,annotator,label\n${rows}`);
    const { jobId } = (await engine.invoke('import.start', { format: 'labels-csv', pool, sources: [{ path: file }] })) as { jobId: string };
    expect((await jobDone(engine, jobId)).ok).toBe(true);
  };
  const undoImport = async (): Promise<void> => {
    const { jobId } = (await engine.invoke('import.undo', {})) as { jobId: string };
    expect((await jobDone(engine, jobId)).ok).toBe(true);
  };
  const poolsOf = async (who: typeof alice): Promise<string[]> => ((await engine.invoke('pool.list', {}, who)) as Array<{ name: string }>).map((p) => p.name);

  it('she is told only of changes to pools open to her and of pools opened or closed to her — in every tab — never of an import or pool closed to her', async () => {
    // Her page has read its pool list (what her screens show).
    expect(await poolsOf(alice)).toEqual(['sealed', 'open']);
    await poolsOf(bob);
    const { heard, off } = listen();
    // A gold set imported into a new pool: closed to annotators (imported labels).
    await importLabels('goldset', 'q1,c1,gold,1\nq1,c2,gold,0\n');
    // A pool assigned to bob alone: closed to her.
    await engine.invoke('pool.assign', { pool: 'goldset', annotators: ['bob'] });
    await engine.invoke('pool.setAggregation', { pool: 'goldset', rule: 'majority' });
    // Bob's role, set: his business.
    await engine.invoke('annotator.setRole', { name: 'bob', role: 'annotator' });
    // Undone: the gold set's pool, closed to her, goes away.
    await undoImport();
    // The pool open to her, assigned to bob: closed to her from now on (her list must drop it).
    await engine.invoke('pool.assign', { pool: 'open', annotators: ['bob'] });
    // …and given back to her.
    await engine.invoke('pool.assign', { pool: 'open', annotators: ['bob', 'alice'] });
    // Labels imported into a pool open to her, and undone.
    await importLabels('open', 'q2,c3,gold,1\n');
    await undoImport();
    off();
    const all = ['import [goldset]', 'pool goldset', 'pool goldset', 'pool bob', 'import [goldset]', 'pool open', 'pool open', 'import [open]', 'import [open]'];
    expect(heard('owner')).toEqual(all);
    // Bob is told once the gold set is his (assigned), not of its import (closed to annotators until then).
    expect(heard('bob')).toEqual(all.slice(1));
    expect(heard('alice')).toEqual(['pool open', 'pool open', 'import [open]', 'import [open]']);
    expect(heard('alice2')).toEqual(heard('alice'));
    expect(await poolsOf(alice)).toEqual(['sealed', 'open']);
  });

  it('a pool closed to her while no tab of hers listened: its later changes do not reach her', async () => {
    await poolsOf(alice);
    await engine.invoke('pool.assign', { pool: 'open', annotators: ['bob'] });
    const { heard, off } = listen();
    await engine.invoke('pool.set', { pool: 'open', order: 'random' });
    await engine.invoke('pool.setGuidelines', { pool: 'open', markdown: 'for bob' });
    off();
    expect(heard('bob')).toEqual(['pool open', 'guidelines open']);
    expect(heard('alice')).toEqual([]);
  });

  it('an import that changes a run\'s scores or a question\'s text in place, and its undo, reach her when the pool is open to her', async () => {
    const importRun = async (pool: string, base: number): Promise<void> => {
      const file = path.join(dir, `${pool}-${base}.run`);
      writeFileSync(file, ['c1', 'c2', 'c3'].map((c, i) => `q1 Q0 ${c} ${i + 1} ${base - i} bm\n`).join(''));
      const { jobId } = (await engine.invoke('import.start', { format: 'trec-run', pool, sources: [{ path: file }] })) as { jobId: string };
      expect((await jobDone(engine, jobId)).ok).toBe(true);
    };
    // A pool closed to her (bob's), and run "bm" in both pools (a new run: their stamps change).
    await engine.invoke('pool.assign', { pool: 'sealed', annotators: ['bob'] });
    await importRun('open', 9);
    await importRun('sealed', 9);
    expect(await poolsOf(alice)).toEqual(['open']);
    const { heard, off } = listen();
    // Run "bm" again with other scores: same run, same pairs, same counts.
    await importRun('open', 5);
    await undoImport();
    await importRun('sealed', 5);
    // q2's text updated (q2 is a query of both pools), then undone.
    const file = path.join(dir, 'q2.jsonl');
    writeFileSync(file, `${JSON.stringify({ id: 'q2', source: 'test', title: 'a new title of q2', body: 'body of q2 about laptops' })}\n`);
    const { jobId } = (await engine.invoke('import.start', { format: 'questions-jsonl', update: true, sources: [{ path: file }] })) as { jobId: string };
    expect((await jobDone(engine, jobId)).ok).toBe(true);
    await undoImport();
    off();
    const all = ['import [open]', 'import [open]', 'import [sealed]', 'import [open,sealed]', 'import [open,sealed]'];
    expect(heard('owner')).toEqual(all);
    expect(heard('bob')).toEqual(all);
    // Never the pool closed to her, nor an import that changed only that one.
    expect(heard('alice')).toEqual(['import [open]', 'import [open]', 'import [open]', 'import [open]']);
    expect(heard('alice2')).toEqual(heard('alice'));
  });

  it('answers added to a question of a pool open to her reach her (Browse shows their count), and their undo; those of a pool closed to her do not', async () => {
    // A site's dump, imported again and again as its answers grow: question 901 about laptops (as the pools' texts),
    // 902 and 903 about printers (902's candidate is 903, and 901's are not about printers).
    const dump = path.join(dir, 'site');
    mkdirSync(dump, { recursive: true });
    const importDump = async (...answers: Array<[number, number]>): Promise<void> => {
      const question = (id: number, about: string): string => `<row Id="${id}" PostTypeId="1" Title="${about} ${id}" Body="${about}"/>`;
      const rows = [question(901, 'laptops'), question(902, 'printers'), question(903, 'printers'), ...answers.map(([id, parent]) => `<row Id="${id}" PostTypeId="2" ParentId="${parent}" Body="answer ${id}"/>`)];
      writeFileSync(path.join(dump, 'Posts.xml'), `<posts>\n${rows.join('\n')}\n</posts>\n`);
      const { jobId } = (await engine.invoke('import.start', { format: 'stackexchange', sources: [{ path: path.join(dump, 'Posts.xml') }] })) as { jobId: string };
      expect((await jobDone(engine, jobId)).ok).toBe(true);
    };
    await importDump();
    // Pool "asked" (901's) is open to her; pool "bobs" (902's) is bob's.
    await engine.invoke('pool.create', { name: 'asked', queries: ['901'], depth: 2 });
    await engine.invoke('pool.create', { name: 'bobs', queries: ['902'], depth: 2 });
    await engine.invoke('pool.assign', { pool: 'bobs', annotators: ['bob'] });
    expect(await poolsOf(alice)).toEqual(['sealed', 'open', 'asked']);
    const answersShown = async (): Promise<number> => ((await engine.invoke('question.show', { id: '901' }, alice)) as QuestionShow).answers;
    expect(await answersShown()).toBe(0);
    const { heard, off } = listen();
    // An answer to bob's question, then one to hers; the last import undone.
    await importDump([911, 902]);
    await importDump([911, 902], [912, 901]);
    expect(await answersShown()).toBe(1);
    // (The undo keeps an answer to a question a pool holds, as it keeps the question: undo-replay.ts heldRows. An
    // answer it updated is put back, so its event names the pool all the same: her page reads the question again.)
    await undoImport();
    off();
    expect(heard('owner')).toEqual(['import [bobs]', 'import [asked]', 'import [asked]']);
    expect(heard('bob')).toEqual(['import [bobs]', 'import [asked]', 'import [asked]']);
    expect(heard('alice')).toEqual(['import [asked]', 'import [asked]']);
  });

  it('an import that changes only a note (Annotate shows her own), and its undo, reach her when the pool is open to her', async () => {
    await engine.invoke('pool.assign', { pool: 'sealed', annotators: ['bob'] });
    expect(await poolsOf(alice)).toEqual(['open']);
    const noteShown = async (): Promise<string | null | undefined> =>
      ((await engine.invoke('annotate.query', { pool: 'open', annotator: 'alice', queryId: 'q1' }, alice)) as QueryView).candidates.find((c) => c.id === 'c1')!.note;
    const { heard, off } = listen();
    // Her labels as they are, a note given on q1 → c1 in each pool (a gold export's notes column): no label written.
    for (const pool of ['sealed', 'open']) {
      const file = path.join(dir, `notes-${pool}.csv`);
      writeFileSync(file, `query_id,candidate_id,annotator,label,notes\nq1,c1,alice,1,"[{""annotator"":""alice"",""note"":""see the manual""}]"\n`);
      const { jobId } = (await engine.invoke('import.start', { format: 'labels-csv', pool, sources: [{ path: file }] })) as { jobId: string };
      expect((await jobDone(engine, jobId)).ok).toBe(true);
      if (pool === 'open') expect(await noteShown()).toBe('see the manual');
    }
    await undoImport();
    expect(await noteShown()).toBe(NOTES.alice);
    off();
    expect(heard('owner')).toEqual(['import [sealed]', 'import [open]', 'import [open]']);
    expect(heard('alice')).toEqual(['import [open]', 'import [open]']);
  });

  it('a pool made open to her reaches her; an import of questions alone does not', async () => {
    await poolsOf(alice);
    const { heard, off } = listen();
    const file = path.join(dir, 'more.jsonl');
    writeFileSync(file, `${JSON.stringify({ id: 'n1', title: 'new question', body: 'about laptops' })}\n`);
    const { jobId } = (await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: file }] })) as { jobId: string };
    expect((await jobDone(engine, jobId)).ok).toBe(true);
    await engine.invoke('pool.create', { name: 'fresh', queries: ['q1'], depth: 2 });
    off();
    expect(heard('owner')).toEqual(['import []', 'pool fresh']);
    expect(heard('alice')).toEqual(['pool fresh']);
    expect(await poolsOf(alice)).toContain('fresh');
  });
});
