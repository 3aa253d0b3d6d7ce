import { describe, expect, it } from 'vitest';
import type { ReviewItem } from '../../shared/gold';
import type { Row } from './reviewRow';
import { rulingKeyAction } from './rulingKey';

const item = (extra: Partial<ReviewItem> = {}): ReviewItem => ({
  queryId: 'q',
  candidateId: 'c',
  queryTitle: null,
  candidateTitle: null,
  labels: [],
  impact: 0,
  settled: null,
  ...extra,
});
const row = (extra: Partial<Row> = {}, it: Partial<ReviewItem> = {}): Row => ({ item: item(it), key: 'q\u0000c', value: null, state: 'none', by: null, ...extra });
const words = (v: string): string => (v === '1' ? 'similar' : 'not similar');

describe("Review's ruling keys", () => {
  it('on a pair the judge voted on: refused at once, naming who may settle it', () => {
    expect(rulingKeyAction(row({}, { votedByYou: { judges: ['jack'] } }), 'judy', '1', '1', null, words)).toEqual({
      kind: 'refuse',
      notice: 'You voted on this pair before judging the pool, so you are not its third judge and your ruling would be refused: jack settles it.',
    });
    expect(rulingKeyAction(row({}, { votedByYou: { judges: [] } }), 'judy', '1', '1', null, words)).toMatchObject({ kind: 'refuse', notice: expect.stringContaining('the owner makes someone else a judge') });
  });

  it("over another judge's different ruling: asks, and the same key on the same pair overrules", () => {
    const r = row({ value: '0', state: 'saved', by: 'jack' });
    const first = rulingKeyAction(r, 'judy', '1', '1', null, words);
    expect(first).toEqual({ kind: 'confirm', notice: 'jack ruled not similar — press 1 again to overrule jack with similar, or Esc to keep that ruling.', pending: { key: r.key, value: '1' } });
    expect(rulingKeyAction(r, 'judy', '1', '1', { key: r.key, value: '1' }, words)).toEqual({ kind: 'settle', overrules: { judge: 'jack', value: '0' } });
    // Another pair's or value's pending press asks again.
    expect(rulingKeyAction(r, 'judy', '1', '1', { key: 'x', value: '1' }, words).kind).toBe('confirm');
  });

  it('settles at once an unsettled pair, her own ruling, or the same value as the other judge', () => {
    expect(rulingKeyAction(row(), 'judy', '1', '1', null, words)).toEqual({ kind: 'settle', overrules: null });
    expect(rulingKeyAction(row({ value: '0', state: 'saved', by: 'judy' }), 'judy', '1', '1', null, words)).toEqual({ kind: 'settle', overrules: null });
    expect(rulingKeyAction(row({ value: '1', state: 'saved', by: 'jack' }), 'judy', '1', '1', null, words)).toEqual({ kind: 'settle', overrules: null });
  });
});
