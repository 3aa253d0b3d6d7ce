/**
 * The Review screen's two reads: review.queue carries what its list shows (ids, titles cut short,
 * votes, rulings, counts), whatever the length of the questions' texts; review.pair gives one pair's
 * texts and its votes' notes, to the pool's judges only (the same role and judge checks as the queue).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REVIEW_TITLE_MAX, type ReviewPair, type ReviewQueue } from '../../shared/gold';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';

let dir: string;
const engines: Engine[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-review-pair-'));
});
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
  rmSync(dir, { recursive: true, force: true });
});

const QUERIES = 30;
const DEPTH = 5;

/**
 * A blind binary pool "p" of QUERIES queries × DEPTH candidates whose questions have a title of
 * `titleLength` and a body of `bodyLength` characters; alice says 1 and bob 0 on every pair but each
 * query's last candidate, where both say 1. judy is a judge; jack is a judge the pool assigns to label.
 */
function disputedPool(name: string, titleLength: number, bodyLength: number): Engine {
  const ws = Workspace.create(path.join(dir, `${name}.qpairs`));
  const text = (id: string, n: number): string => `${id} `.padEnd(n, 'word ').slice(0, n);
  ws.transaction(() => {
    ws.createPool({ name: 'p', scheme: 'binary', blind: true });
    for (const who of ['alice', 'bob', 'jack']) ws.ensureAnnotator(who, 'annotator');
    ws.ensureAnnotator('judy', 'judge');
    for (let q = 0; q < QUERIES; q++) {
      const cands = Array.from({ length: DEPTH }, (_, c) => `c${q}-${c}`);
      for (const id of [`q${q}`, ...cands]) ws.upsertQuestion({ id, source: 'test', title: text(`title-${id}`, titleLength), body: text(`body-${id}`, bodyLength) });
      ws.addPoolQuery('p', `q${q}`, cands);
      cands.forEach((c, i) => {
        const agreed = i === DEPTH - 1;
        ws.addLabel({ pool: 'p', queryId: `q${q}`, candidateId: c, annotator: 'alice', value: '1', origin: 'test' });
        ws.addLabel({ pool: 'p', queryId: `q${q}`, candidateId: c, annotator: 'bob', value: agreed ? '1' : '0', origin: 'test' });
      });
    }
    ws.setLabelNote({ pool: 'p', queryId: 'q0', candidateId: 'c0-0', annotator: 'bob', note: 'bob hesitated here' });
  });
  const engine = new Engine(ws, { transport: 'http' });
  engines.push(engine);
  return engine;
}

const queueOf = (engine: Engine): Promise<ReviewQueue> => engine.invoke('review.queue', { pool: 'p', judge: 'judy', includeSettled: true }) as Promise<ReviewQueue>;

describe('review.queue carries the list, not the texts', () => {
  it('a pool whose questions are 10 KB each gives a queue about as small as one of short texts', async () => {
    const short = JSON.stringify(await queueOf(disputedPool('short', 20, 40)));
    const longQueue = await queueOf(disputedPool('long', 400, 10_000));
    const long = JSON.stringify(longQueue);
    const pairs = QUERIES * (DEPTH - 1);
    expect(longQueue.items).toHaveLength(pairs);
    // Each item: ids, two titles of at most REVIEW_TITLE_MAX characters, the votes, impact and state.
    expect(long.length, `queue of ${pairs} pairs with 10 KB texts: ${long.length} bytes`).toBeLessThan(pairs * (2 * REVIEW_TITLE_MAX + 300));
    // What grows with the texts is the titles only, cut to REVIEW_TITLE_MAX.
    expect(long.length - short.length).toBeLessThanOrEqual(pairs * 2 * REVIEW_TITLE_MAX);
    const first = longQueue.items[0]!;
    expect(first.queryTitle).toHaveLength(REVIEW_TITLE_MAX);
    expect(first.queryTitle!.endsWith('…')).toBe(true);
    expect(first.queryTitle!.startsWith(`title-${first.queryId} `)).toBe(true);
    // A vote with a note is marked; its text is not in the queue.
    const noted = longQueue.items.find((i) => i.queryId === 'q0' && i.candidateId === 'c0-0')!;
    expect(noted.labels).toEqual([{ annotator: 'alice', value: '1' }, { annotator: 'bob', value: '0', noted: true }]);
    expect(long).not.toContain('bob hesitated');
  });

  it('review.pair gives the judge both whole texts and the votes with their notes', async () => {
    const engine = disputedPool('long', 400, 10_000);
    const pair = (await engine.invoke('review.pair', { pool: 'p', judge: 'judy', queryId: 'q0', candidateId: 'c0-0' })) as ReviewPair;
    expect(pair.query?.title).toHaveLength(400);
    expect(pair.query?.body).toHaveLength(10_000);
    expect(pair.candidate?.body.startsWith('body-c0-0 ')).toBe(true);
    // What the detail shows besides the texts: positions, |ΔAP| per run (no runs here), the rule's value (open: adjudicated, no ruling).
    expect(pair).toMatchObject({ queryPosition: 0, candidatePosition: 0, apChange: {}, ruleValue: null });
    expect(pair.labels).toEqual([
      { annotator: 'alice', value: '1' },
      { annotator: 'bob', value: '0', note: 'bob hesitated here' },
    ]);
  });
});

describe('review.pair is checked like review.queue', () => {
  it('refuses annotators (assigned or not), a judge the pool assigns to label, a judge asking as another, and pairs outside the queue', async () => {
    const engine = disputedPool('team', 20, 40);
    await engine.invoke('pool.assign', { pool: 'p', annotators: ['alice', 'bob', 'jack'] });
    engine.ws.setAnnotatorRole('jack', 'judge');
    engine.ws.ensureAnnotator('zed', 'judge');
    const pairArgs = { pool: 'p', queryId: 'q0', candidateId: 'c0-0' };
    const as = (annotator: string) => ({ annotator, local: false });
    // alice is assigned this pool and votes on this very pair: she still may not read bob's vote or note.
    for (const judge of ['alice', 'judy']) {
      await expect(engine.invoke('review.pair', { ...pairArgs, judge }, as('alice'))).rejects.toMatchObject({ code: 'forbidden' });
    }
    // An annotator not assigned to the pool neither.
    engine.ws.ensureAnnotator('olga', 'annotator');
    await expect(engine.invoke('review.pair', { ...pairArgs, judge: 'judy' }, as('olga'))).rejects.toMatchObject({ code: 'forbidden' });
    // A judge's token acts as that judge only.
    await expect(engine.invoke('review.pair', { ...pairArgs, judge: 'judy' }, as('zed'))).rejects.toMatchObject({ code: 'forbidden' });
    // jack is a judge whom the pool assigns to label it: he may not judge it (nor read the others' votes).
    await expect(engine.invoke('review.pair', { ...pairArgs, judge: 'jack' }, as('jack'))).rejects.toThrow(/annotates pool "p"/);
    // A pair the annotators agree on is not in the queue: its votes are not given.
    await expect(engine.invoke('review.pair', { ...pairArgs, candidateId: `c0-${DEPTH - 1}`, judge: 'judy' }, as('judy'))).rejects.toThrow(/not in the review queue/);
    await expect(engine.invoke('review.pair', { ...pairArgs, candidateId: 'nope', judge: 'judy' }, as('judy'))).rejects.toThrow(/not in pool "p"/);
    // The pool's judge gets it.
    const pair = (await engine.invoke('review.pair', { ...pairArgs, judge: 'judy' }, as('judy'))) as ReviewPair;
    expect(pair.labels.map((l) => l.annotator)).toEqual(['alice', 'bob']);
    // Settled pairs stay in the queue (includeSettled), and so readable.
    await engine.invoke('review.settle', { ...pairArgs, judge: 'judy', value: '1' }, as('judy'));
    expect(((await engine.invoke('review.pair', { ...pairArgs, judge: 'zed' }, as('zed'))) as ReviewPair).candidateId).toBe('c0-0');
  });
});

describe('opening Review reads the pool\'s labels once', () => {
  it('the judges (pool.assignment), the rule (pool.aggregation), the queue and the pairs: one read; a label is seen at once', async () => {
    const engine = disputedPool('open', 20, 40);
    const labelReads = vi.spyOn(engine.ws, 'currentLabels');
    const assignment = (await engine.invoke('pool.assignment', { pool: 'p' })) as { judges: string[]; progress: Array<{ annotator: string; labeledPairs: number }> };
    expect(assignment.judges).toContain('judy');
    await engine.invoke('pool.aggregation', { pool: 'p' });
    const q = await queueOf(engine);
    for (const c of ['c0-0', 'c0-1', 'c0-2']) await engine.invoke('review.pair', { pool: 'p', judge: 'judy', queryId: 'q0', candidateId: c });
    expect(labelReads).toHaveBeenCalledTimes(1);
    expect(q.items).toHaveLength(QUERIES * (DEPTH - 1));
    // A label changes the stamp: the next read reads the labels again and shows it.
    await engine.invoke('label.set', { pool: 'p', queryId: 'q0', candidateId: 'c0-0', annotator: 'jack', value: '1' });
    const after = (await engine.invoke('pool.assignment', { pool: 'p' })) as { annotators: string[]; progress: Array<{ annotator: string; labeledPairs: number }> };
    expect(after.progress.find((x) => x.annotator === 'jack')?.labeledPairs).toBe(1);
    expect(labelReads).toHaveBeenCalledTimes(2);
    // What a caller does with the answer does not reach the state kept for the next read.
    after.annotators.push('mallory');
    expect(((await engine.invoke('pool.assignment', { pool: 'p' })) as { annotators: string[] }).annotators).not.toContain('mallory');
  });
});

describe('a ruling and the reads around it read the pool\'s labels once', () => {
  it('queue, pairs, ruling, queue and pairs again: the labels are read once, the ruling and a label given elsewhere applied to the kept state', async () => {
    const engine = disputedPool('reads', 20, 40);
    const labelReads = vi.spyOn(engine.ws, 'currentLabels');
    const pairArgs = { pool: 'p', judge: 'judy', queryId: 'q0' };
    const q = await queueOf(engine);
    for (const c of ['c0-0', 'c0-1', 'c0-2']) await engine.invoke('review.pair', { ...pairArgs, candidateId: c });
    expect(labelReads).toHaveBeenCalledTimes(1);
    // The ruling checks the state the screen read (nothing changed since); after it, its label is applied to that state (kept-state.ts).
    const ack = (await engine.invoke('review.settle', { ...pairArgs, candidateId: 'c0-0', value: '1' })) as { remaining: number };
    expect(ack.remaining).toBe(q.remaining - 1);
    // The queue and the pairs the screen asks for after the ruling use that state.
    const after = await queueOf(engine);
    for (const c of ['c0-0', 'c0-1']) await engine.invoke('review.pair', { ...pairArgs, candidateId: c });
    expect(labelReads).toHaveBeenCalledTimes(1);
    expect(after.items.find((i) => i.candidateId === 'c0-0' && i.queryId === 'q0')?.settled?.value).toBe('1');
    // A label given elsewhere (another tab, the CLI's connection) is seen at once.
    engine.ws.addLabel({ pool: 'p', queryId: 'q0', candidateId: 'c0-1', annotator: 'bob', value: '1', origin: 'test' });
    expect((await queueOf(engine)).items.some((i) => i.queryId === 'q0' && i.candidateId === 'c0-1')).toBe(false);
    expect(labelReads).toHaveBeenCalledTimes(1);
  });
});
