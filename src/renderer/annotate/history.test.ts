import { describe, expect, it } from 'vitest';
import { historyEntryFor, UndoHistory } from './history';
import type { LabelOp } from './labelQueue';

const kv = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
};

describe('UndoHistory', () => {
  it('pops the newest entry of the pool and annotator, across queries, and survives a reload', () => {
    const s = kv();
    const h = new UndoHistory(s);
    h.push({ seq: 1, pool: 'p', queryId: 'q1', candidateId: 'a', annotator: 'ann' });
    h.push({ seq: 2, pool: 'p', queryId: 'q2', candidateId: 'b', annotator: 'ann' });
    h.push({ seq: 3, pool: 'other', queryId: 'q9', candidateId: 'c', annotator: 'ann' });
    const reloaded = new UndoHistory(s);
    expect(reloaded.pop('p', 'ann')!.seq).toBe(2);
    expect(reloaded.pop('p', 'ann')!.seq).toBe(1);
    expect(reloaded.pop('p', 'ann')).toBeNull();
    expect(reloaded.size('other', 'ann')).toBe(1);
  });

  it('takes back a note change when the label kept its value, with the note before it; never an undo\'s own note', () => {
    const op = (o: Partial<LabelOp>): LabelOp => ({ id: 1, state: 'saving', attempts: 1, pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'ann', value: '1', ...o });
    const pair = { pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'ann' };
    expect(historyEntryFor(op({}), { seq: 7 })).toEqual({ seq: 7, ...pair });
    expect(historyEntryFor(op({ note: 'why', noteBefore: null }), { seq: null, noteChanged: true })).toEqual({ seq: 0, ...pair, note: { before: null } });
    expect(historyEntryFor(op({ note: '', noteBefore: 'old' }), { seq: null, noteChanged: true })).toEqual({ seq: 0, ...pair, note: { before: 'old' } });
    expect(historyEntryFor(op({ note: 'same' }), { seq: null, noteChanged: false })).toBeNull();
    expect(historyEntryFor(op({ note: 'old', undoing: true }), { seq: null, noteChanged: true })).toBeNull();
    // A cleared label took its note along: undoing the clear puts back both.
    expect(historyEntryFor(op({ value: null, noteBefore: 'why' }), { seq: 8, noteChanged: true })).toEqual({ seq: 8, ...pair, note: { before: 'why' } });
    const s = kv();
    new UndoHistory(s).push({ seq: 0, ...pair, note: { before: 'old' } });
    expect(new UndoHistory(s).pop('p', 'ann')).toEqual({ seq: 0, ...pair, note: { before: 'old' } });
  });
});
