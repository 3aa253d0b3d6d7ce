/**
 * A page's outbox gives up on a label.set that gets no answer and sends it again, then the labels after it: the
 * first request may still reach the server late. Stamped labels (the page's id, the label's place in its outbox)
 * are taken once, and one older than a label the same page gave on the pair since changes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LabelAck, LabelRecord } from '../../shared/contract';
import { LABEL_SUPERSEDED } from '../../shared/labels';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';

let dir: string;
let ws: Workspace;
let engine: Engine;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-label-stamps-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
  ws.transaction(() => {
    for (const id of ['q1', 'c1', 'c2']) ws.upsertQuestion({ id, source: 't', title: `title ${id}`, body: `body ${id}` });
    ws.createPool({ name: 'p', scheme: 'binary' });
    ws.addPoolQuery('p', 'q1', ['c1', 'c2']);
  });
  engine = new Engine(ws, { transport: 'electron' });
});
afterEach(() => {
  engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

const tab = 'page-0123456789';
const set = (candidateId: string, value: string | null, n: number, extra: Record<string, unknown> = {}) =>
  engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId, annotator: 'alice', value, stamp: { tab, n }, ...extra }) as Promise<LabelAck>;
const labelOf = (candidateId: string): string | undefined => ws.currentLabels('p', 'alice').find((l) => l.candidateId === candidateId)?.value;
const events = (): number => ws.labelHistory('p', { annotator: 'alice' }).length;

describe('stamped labels (label.set stamp)', () => {
  it('a stalled label arriving after a newer label of the same pair changes nothing', async () => {
    // Label 1 stalls; the outbox sends it again (saved), then label 2 on the same pair.
    const first = await set('c1', '1', 1);
    await set('c1', '0', 2);
    const before = events();
    // The stalled first send arrives now.
    await expect(set('c1', '1', 1)).rejects.toThrow(/not saved: a label given after this one on q1 → c1 \(from the same page\) was saved first/);
    expect(labelOf('c1')).toBe('0');
    expect(events()).toBe(before);
    // Other pairs, and later labels, are not held back.
    await set('c2', '1', 1);
    await set('c1', '1', 3);
    expect(labelOf('c1')).toBe('1');
    expect(labelOf('c2')).toBe('1');
    expect(first.seq).not.toBeNull();
  });

  it('the late copy is refused with the reason LABEL_SUPERSEDED, for the page to drop it quietly', async () => {
    await set('c1', '1', 1);
    await set('c1', '0', 2);
    await expect(set('c1', '1', 1)).rejects.toMatchObject({ code: 'user-error', reason: LABEL_SUPERSEDED });
  });

  it('the same label sent twice is taken once: the second is answered with the first one’s event, even after an undo', async () => {
    const first = await set('c1', '1', 1);
    const again = await set('c1', '1', 1);
    expect(again).toMatchObject({ seq: null, latest: first.seq, saved: true });
    // Undone since: the late copy does not give it again.
    await engine.invoke('label.undo', { seq: first.seq, annotator: 'alice' });
    const before = events();
    expect(await set('c1', '1', 1)).toMatchObject({ seq: null, latest: first.seq });
    expect(labelOf('c1')).toBeUndefined();
    expect(events()).toBe(before);
  });

  it('another page’s labels, and unstamped calls, are not affected', async () => {
    await set('c1', '1', 5);
    const other = (await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: 'alice', value: '0', stamp: { tab: 'another-page-1', n: 1 } })) as LabelAck;
    expect(other.seq).not.toBeNull();
    const plain = (await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: 'alice', value: '1' })) as LabelAck;
    expect(plain.seq).not.toBeNull();
    expect((plain.record as LabelRecord).value).toBe('1');
  });

  it('a judge’s ruling through review.settle is guarded the same way', async () => {
    ws.transaction(() => {
      ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'c2', annotator: 'alice', value: '1', origin: 'test' });
      ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'c2', annotator: 'bob', value: '0', origin: 'test' });
    });
    await engine.invoke('annotator.add', { name: 'carol', role: 'judge' });
    const settle = (value: string, n: number) => engine.invoke('review.settle', { pool: 'p', judge: 'carol', queryId: 'q1', candidateId: 'c2', value, stamp: { tab, n } }) as Promise<LabelAck>;
    await settle('1', 1);
    await settle('0', 2);
    await expect(settle('1', 1)).rejects.toThrow(/arrived late and is outdated/);
    expect(ws.currentLabels('p', 'carol').find((l) => l.candidateId === 'c2')?.value).toBe('0');
  });
});
