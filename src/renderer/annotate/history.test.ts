import { describe, expect, it } from 'vitest';
import { UndoHistory } from './history';

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
});
