import { describe, expect, it } from 'vitest';
import type { Workspace } from '../workspace/workspace';
import { itemsKey, WorkspaceMemo } from './overlap-memo';

describe('WorkspaceMemo', () => {
  it('computes once per workspace and key, and forgets all past its limit', () => {
    const memo = new WorkspaceMemo<number>(2);
    const a = {} as Workspace;
    const b = {} as Workspace;
    let computed = 0;
    const next = (): number => ++computed;
    expect(memo.get(a, 'k', next)).toBe(1);
    expect(memo.get(a, 'k', next)).toBe(1);
    expect(memo.get(b, 'k', next)).toBe(2);
    expect(memo.get(a, 'k2', next)).toBe(3);
    // A third key in `a` empties a's memo: 'k' is computed anew.
    expect(memo.get(a, 'k3', next)).toBe(4);
    expect(memo.get(a, 'k', next)).toBe(5);
    expect(memo.get(b, 'k', next)).toBe(2);
  });

  it('keeps a falsy result (a check that found nothing is not redone)', () => {
    const memo = new WorkspaceMemo<boolean>();
    const ws = {} as Workspace;
    let computed = 0;
    memo.get(ws, 'k', () => (computed++, false));
    expect(memo.get(ws, 'k', () => (computed++, true))).toBe(false);
    expect(computed).toBe(1);
  });
});

describe('itemsKey', () => {
  it('changes with any id or text, and with the order', () => {
    const one = { id: '1', title: 'a', body: 'b' };
    const two = { id: '2', title: 'a', body: 'b' };
    expect(itemsKey([one, two])).not.toBe(itemsKey([two, one]));
    expect(itemsKey([one])).not.toBe(itemsKey([{ ...one, body: 'c' }]));
    expect(itemsKey([{ id: '1', title: 'a b', body: '' }])).not.toBe(itemsKey([{ id: '1', title: 'a', body: 'b' }]));
  });
});
