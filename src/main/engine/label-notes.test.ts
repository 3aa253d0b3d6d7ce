/**
 * A label's note goes with the label: clearing the label removes its note (it used to stay on the
 * unlabeled pair, unseen, and come back with the next label), and undoing the clear brings back
 * the label and its note in one commit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LabelAck, LabelRecord, QueryView } from '../../shared/contract';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';

let dir: string;
let ws: Workspace;
let engine: Engine;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-label-notes-'));
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

const pair = { pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: 'alice' };
const set = (args: Record<string, unknown>) => engine.invoke('label.set', { ...pair, ...args }) as Promise<LabelAck>;
const noteOf = async (): Promise<string | null | undefined> => {
  const v = (await engine.invoke('annotate.query', { pool: 'p', annotator: 'alice', queryId: 'q1' })) as QueryView;
  return v.candidates.find((c) => c.id === 'c1')!.note;
};

describe('a label and its note', () => {
  it('clearing the label removes its note; the next label starts without one', async () => {
    await set({ value: '?' });
    await set({ value: '?', note: 'the second asks about windows' });
    expect(await noteOf()).toBe('the second asks about windows');
    const cleared = await set({ value: null });
    expect(cleared).toMatchObject({ note: null, noteChanged: true });
    expect(ws.labelNotes('p', { annotator: 'alice' })).toEqual([]);
    await set({ value: '1' });
    expect(await noteOf()).toBeFalsy();
  });

  it('a note sent with a clear is not kept either', async () => {
    await set({ value: '1' });
    await set({ value: null, note: 'left over' });
    expect(ws.labelNotes('p', { annotator: 'alice' })).toEqual([]);
  });

  it('undoing the clear with the note it took brings back both', async () => {
    await set({ value: '0' });
    await set({ value: '0', note: 'different versions' });
    const cleared = await set({ value: null });
    const rec = (await engine.invoke('label.undo', { seq: cleared.seq, annotator: 'alice', note: 'different versions' })) as LabelRecord;
    expect(rec.value).toBe('0');
    expect(await noteOf()).toBe('different versions');
    // An undo without a note leaves the note as it is.
    const again = await set({ value: '1' });
    await engine.invoke('label.undo', { seq: again.seq, annotator: 'alice' });
    expect(await noteOf()).toBe('different versions');
  });

  it('undo back to no label removes the note, whatever the call says', async () => {
    const given = await set({ value: '1', note: 'kept?' });
    expect(await noteOf()).toBe('kept?');
    await engine.invoke('label.undo', { seq: given.seq, annotator: 'alice', note: 'kept?' });
    expect(ws.labelNotes('p', { annotator: 'alice' })).toEqual([]);
  });
});

describe('redo (label.set with ifLatest)', () => {
  it('gives the undone label again while the undo is the pair’s latest event; refuses once it changed since', async () => {
    const given = await set({ value: '1' });
    const undone = (await engine.invoke('label.undo', { seq: given.seq, annotator: 'alice' })) as LabelRecord;
    const redone = await set({ value: '1', ifLatest: undone.seq });
    expect(redone.record?.value).toBe('1');
    // Undo again, then another tab labels the pair: the redo of the old undo is refused, naming the change.
    const undone2 = (await engine.invoke('label.undo', { seq: redone.seq, annotator: 'alice' })) as LabelRecord;
    const other = await set({ value: '0' });
    await expect(set({ value: '1', ifLatest: undone2.seq })).rejects.toThrow(new RegExp(`cannot redo on q1 → c1: its label changed since the undo \\(event ${other.seq}, from another tab`));
    expect(ws.currentLabels('p', 'alice').find((l) => l.candidateId === 'c1')?.value).toBe('0');
  });

  it('refuses a redo once the note changed since the undo (ifNote: a note change appends no label event, so ifLatest cannot see it)', async () => {
    await set({ value: '1', note: 'y' });
    const changed = await set({ value: '0', note: 'x' });
    const undone = (await engine.invoke('label.undo', { seq: changed.seq, annotator: 'alice', note: 'y' })) as LabelRecord;
    const note = (): string | null => ws.labelNotes('p', { annotator: 'alice', queryId: 'q1' }).find((n) => n.candidateId === 'c1')?.note ?? null;
    expect(note()).toBe('y');
    // Another tab rewrites the note, label unchanged: no label event, so the undo is still the latest.
    expect(await set({ value: '1', note: 'z' })).toMatchObject({ seq: null, noteChanged: true });
    await expect(set({ value: '0', note: 'x', ifLatest: undone.seq, ifNote: 'y' })).rejects.toThrow(/cannot redo on q1 → c1: its note changed since the undo/);
    expect(note()).toBe('z');
    expect(ws.currentLabels('p', 'alice').find((l) => l.candidateId === 'c1')?.value).toBe('1');
    // With the note as the undo left it, the redo goes through.
    await set({ value: '1', note: 'y' });
    expect(await set({ value: '0', note: 'x', ifLatest: undone.seq, ifNote: 'y' })).toMatchObject({ note: 'x', noteChanged: true });
  });

  it('a note’s redo sent again after its answer was lost is answered with the note it saved, not refused as changed since', async () => {
    await set({ value: '1', note: 'y' });
    await set({ value: '1', note: 'x' });
    // u on the note: the page sends the note before it (label unchanged); U sends the note again, with ifNote.
    await set({ value: '1', note: 'y' });
    const note = (): string | null => ws.labelNotes('p', { annotator: 'alice', queryId: 'q1' }).find((n) => n.candidateId === 'c1')?.note ?? null;
    expect(await set({ value: '1', note: 'x', ifNote: 'y' })).toMatchObject({ seq: null, note: 'x', noteChanged: true });
    const events = ws.labelHistory('p', { annotator: 'alice' }).length;
    // Its answer was lost: the outbox sends it again. The pair already has it, so it is confirmed, nothing changes.
    expect(await set({ value: '1', note: 'x', ifNote: 'y' })).toMatchObject({ seq: null, note: 'x', noteChanged: false });
    expect(note()).toBe('x');
    expect(ws.labelHistory('p', { annotator: 'alice' })).toHaveLength(events);
    // A removed note's redo likewise.
    await set({ value: '1', note: '' });
    await set({ value: '1', note: 'x' });
    expect(await set({ value: '1', note: '', ifNote: 'x' })).toMatchObject({ note: null, noteChanged: true });
    expect(await set({ value: '1', note: '', ifNote: 'x' })).toMatchObject({ note: null, noteChanged: false });
    // Still refused when the note is neither the undo's nor the redo's, or the label changed since.
    await set({ value: '1', note: 'z' });
    await expect(set({ value: '1', note: 'x', ifNote: 'y' })).rejects.toThrow(/its note changed since the undo/);
    await set({ value: '0', note: 'x' });
    await expect(set({ value: '1', note: 'x', ifNote: 'y' })).rejects.toThrow(/its note changed since the undo/);
    expect(ws.currentLabels('p', 'alice').find((l) => l.candidateId === 'c1')?.value).toBe('0');
  });

  it('a judge’s redo goes through review.settle with the same guard', async () => {
    ws.transaction(() => {
      ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'c2', annotator: 'alice', value: '1', origin: 'test' });
      ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'c2', annotator: 'bob', value: '0', origin: 'test' });
    });
    await engine.invoke('annotator.add', { name: 'carol', role: 'judge' });
    const settle = (args: Record<string, unknown>) => engine.invoke('review.settle', { pool: 'p', judge: 'carol', queryId: 'q1', candidateId: 'c2', ...args }) as Promise<LabelAck>;
    const ruled = await settle({ value: '1', note: 'same question' });
    const undone = (await engine.invoke('label.undo', { seq: ruled.seq, annotator: 'carol', note: '' })) as LabelRecord;
    await expect(settle({ value: '0', ifLatest: undone.seq + 1 })).rejects.toThrow(/cannot redo on q1 → c2/);
    const redone = await settle({ value: '1', note: 'same question', ifLatest: undone.seq });
    expect(redone).toMatchObject({ note: 'same question', noteChanged: true });
  });
});
