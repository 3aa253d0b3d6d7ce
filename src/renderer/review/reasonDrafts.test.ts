import { describe, expect, it } from 'vitest';
import { personScope as draftScope } from '../annotate/history';
import { loadDrafts, pruneSaved, saveDrafts, updateDrafts } from './reasonDrafts';

const kv = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k), m };
};

describe('the judge’s reason drafts', () => {
  it('are kept per pool and judge, and survive a reload', () => {
    const s = kv();
    const a = draftScope('p1', 'carol');
    const b = draftScope('p2', 'carol');
    let d = updateDrafts({}, a, (m) => new Map(m).set('q\u0000c', 'same question'));
    saveDrafts(s, d);
    d = loadDrafts(s);
    expect(d[a]).toEqual({ 'q\u0000c': 'same question' });
    // The same pair in another pool has no draft.
    expect(d[b]).toBeUndefined();
    expect(loadDrafts({ getItem: () => 'not json', setItem: () => {}, removeItem: () => {} })).toEqual({});
  });

  it('a draft the queue shows as stored is dropped; others stay', () => {
    const s = kv();
    const a = draftScope('p1', 'carol');
    const d = { [a]: { k1: 'sent', k2: 'pending', k3: '' } };
    const pruned = pruneSaved(d, a, [
      { key: 'k1', judgeNote: 'sent' },
      { key: 'k2', judgeNote: null },
      { key: 'k3', judgeNote: null },
    ]);
    expect(pruned[a]).toEqual({ k2: 'pending' });
    expect(pruneSaved(pruned, a, [{ key: 'k2', judgeNote: 'other' }])).toBe(pruned);
    saveDrafts(s, { [a]: {} });
    expect(s.m.size).toBe(0);
  });
});
