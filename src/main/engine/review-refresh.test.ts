/**
 * The Review screen's refresh after a burst of labels: review.queue with `since` (the label
 * version of the queue the screen holds) and the queries the label events named answers only
 * those queries' pairs, with the whole queue's counts; merged into the held queue
 * (mergeReviewQueue) it is the queue a whole read gives — through labels, "?", clears, undos,
 * rulings, reasons and notes in random order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReviewQueue } from '../../shared/gold';
import { mergeReviewQueue } from '../../shared/review-merge';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';
import { mulberry32 } from '../stats/random';

let dir: string;
const engines: Engine[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-review-refresh-'));
});
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
  rmSync(dir, { recursive: true, force: true });
});

const QUERIES = 40;
const DEPTH = 6;
const VOTERS = ['alice', 'bob', 'carol'];

/** A binary pool "p" of QUERIES × DEPTH pairs, two runs with random scores, three voters' random votes; judy and kim judge. */
function pool(seed: number): { engine: Engine; ws: Workspace; rand: () => number } {
  const rand = mulberry32(seed);
  const ws = Workspace.create(path.join(dir, `w${seed}.qpairs`));
  ws.transaction(() => {
    ws.createPool({ name: 'p', scheme: 'binary', blind: true });
    for (const who of VOTERS) ws.ensureAnnotator(who, 'annotator');
    ws.ensureAnnotator('judy', 'judge');
    ws.ensureAnnotator('kim', 'judge');
    const runs = [ws.ensureRun('p', 'bm25', 'retriever'), ws.ensureRun('p', 'other', 'retriever')];
    for (let q = 0; q < QUERIES; q++) {
      const cands = Array.from({ length: DEPTH }, (_, c) => `c${q}-${c}`);
      for (const id of [`q${q}`, ...cands]) ws.upsertQuestion({ id, source: 'test', title: `title of ${id}`, body: `body of ${id}` });
      ws.addPoolQuery('p', `q${q}`, cands);
      for (const c of cands) {
        for (const r of runs) ws.setRunScore(r, `q${q}`, c, Math.floor(rand() * 5));
        for (const who of VOTERS) if (rand() < 0.8) ws.addLabel({ pool: 'p', queryId: `q${q}`, candidateId: c, annotator: who, value: rand() < 0.5 ? '1' : '0', origin: 'test' });
      }
    }
  });
  const engine = new Engine(ws, { transport: 'http' });
  engines.push(engine);
  return { engine, ws, rand };
}

const read = (engine: Engine, more: { since?: number; queries?: string[] } = {}): Promise<ReviewQueue> =>
  engine.invoke('review.queue', { pool: 'p', judge: 'judy', includeSettled: true, ...more }) as Promise<ReviewQueue>;

describe('the Review queue read again after labels: only the queries they touched', () => {
  it('after one label the answer holds that query’s pairs only, and merged it is the whole queue', async () => {
    const { engine } = pool(1);
    const held = await read(engine);
    expect(held.queryOrder).toHaveLength(QUERIES);
    expect(held.items.length).toBeGreaterThan(QUERIES);
    await engine.invoke('label.set', { pool: 'p', queryId: 'q7', candidateId: 'c7-2', annotator: 'alice', value: '1' });
    await engine.invoke('label.set', { pool: 'p', queryId: 'q7', candidateId: 'c7-2', annotator: 'bob', value: '0' });
    const part = await read(engine, { since: held.version, queries: ['q7'] });
    expect(part.partial).toEqual({ queries: ['q7'] });
    expect(part.version).toBeGreaterThan(held.version);
    expect(part.items.length).toBeGreaterThan(0);
    expect(part.items.length).toBeLessThanOrEqual(DEPTH);
    expect(new Set(part.items.map((i) => i.queryId))).toEqual(new Set(['q7']));
    expect(part.items.some((i) => i.candidateId === 'c7-2')).toBe(true);
    // Bounded by the query's pairs, not the pool's.
    const bytes = JSON.stringify(part).length;
    expect(bytes, `${bytes} bytes`).toBeLessThan(DEPTH * 400 + 600);
    expect(bytes * 10).toBeLessThan(JSON.stringify(held).length);
    const full = await read(engine);
    expect(mergeReviewQueue(held, part)).toEqual(full);
  });

  it('a label the screen heard of through no event is read again too (the version names its query)', async () => {
    const { engine, ws } = pool(2);
    const held = await read(engine);
    // Another process's write: no label.changed reaches the screen.
    ws.addLabel({ pool: 'p', queryId: 'q3', candidateId: 'c3-0', annotator: 'carol', value: '1', origin: 'cli' });
    ws.addLabel({ pool: 'p', queryId: 'q3', candidateId: 'c3-0', annotator: 'bob', value: '0', origin: 'cli' });
    const part = await read(engine, { since: held.version, queries: [] });
    expect(part.partial).toEqual({ queries: ['q3'] });
    expect(mergeReviewQueue(held, part)).toEqual(await read(engine));
    // A later version than the pool's (its labels taken away): the whole queue.
    const whole = await read(engine, { since: part.version + 1000 });
    expect(whole.partial).toBeUndefined();
    expect(whole).toEqual(await read(engine));
    await expect(read(engine, { queries: ['q3'] })).rejects.toThrow(/since/);
  });

  it('through a random sequence of votes, "?", clears, undos, rulings, reasons and notes, the merged queue equals a whole read after each step', async () => {
    for (const seed of [3, 4]) {
      const { engine, rand } = pool(seed);
      const touched = new Set<string>();
      engine.hub.on('label.changed', (rec) => touched.add(rec.queryId));
      let held = await read(engine);
      const seqs: Array<{ seq: number; annotator: string }> = [];
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
      let changes = 0;
      for (let step = 0; step < 60; step++) {
        const q = Math.floor(rand() * QUERIES);
        const c = `c${q}-${Math.floor(rand() * DEPTH)}`;
        const at = { pool: 'p', queryId: `q${q}`, candidateId: c };
        const what = rand();
        try {
          if (what < 0.4) {
            const ack = (await engine.invoke('label.set', { ...at, annotator: pick(VOTERS), value: pick(['1', '0', '0', '1', '?', null]) })) as { record?: { seq: number; annotator: string } };
            if (ack.record) seqs.push(ack.record);
          } else if (what < 0.55) {
            await engine.invoke('label.set', { ...at, annotator: pick(VOTERS), value: '1', note: pick(['why', 'not sure', '']) });
          } else if (what < 0.8) {
            // A ruling on a pair in the queue (settled or not), by either judge, with a reason or without.
            const item = pick(held.items);
            if (!item) continue;
            const ack = (await engine.invoke('review.settle', { pool: 'p', judge: pick(['judy', 'kim']), queryId: item.queryId, candidateId: item.candidateId, value: pick(['1', '0', null]), ...(rand() < 0.3 ? { note: 'because' } : {}) })) as { record?: { seq: number; annotator: string } };
            if (ack.record) seqs.push(ack.record);
          } else if (seqs.length) {
            const e = seqs.splice(Math.floor(rand() * seqs.length), 1)[0]!;
            await engine.invoke('label.undo', { seq: e.seq, annotator: e.annotator });
          }
          changes++;
        } catch {
          // Refused (a ruling on a pair no longer in dispute, an undo of a label changed since): nothing changed.
        }
        const part = await read(engine, { since: held.version, queries: [...touched] });
        touched.clear();
        const merged = mergeReviewQueue(held, part);
        const full = await read(engine);
        expect(merged, `seed ${seed}, step ${step}`).toEqual(full);
        held = merged!;
      }
      expect(changes).toBeGreaterThan(40);
      expect(held.settled).toBeGreaterThan(0);
    }
  });
});
