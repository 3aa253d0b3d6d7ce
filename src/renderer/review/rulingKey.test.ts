import { describe, expect, it } from 'vitest';
import type { ReviewItem } from '../../shared/gold';
import type { Row } from './reviewRow';
import { rulingChangedMessage } from '../../shared/ruling-changed';
import { rulingChangedAsk, rulingKeyAction, seenRuling } from './rulingKey';

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

  it('on a pair the judge voted on between two spans of judging the pool: says so, not "before judging the pool"', () => {
    expect(rulingKeyAction(row({}, { votedByYou: { judges: ['jack'], between: true } }), 'judy', '1', '1', null, words)).toEqual({
      kind: 'refuse',
      notice: 'You voted on this pair between two spans of judging the pool, so you are not its third judge and your ruling would be refused: jack settles it.',
    });
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

describe('two judges racing on a pair (review.settle ifRuling)', () => {
  it('a ruling carries the ruling the row showed from the engine: none, or the settling judge\'s', () => {
    expect(seenRuling(row())).toBeNull();
    expect(seenRuling(row({ value: '0', state: 'saved', by: 'jack' }, { settled: { judge: 'jack', value: '0', seq: 1 } }))).toEqual({ judge: 'jack', value: '0' });
    // Her own unsaved ruling shown over the queue's: what the engine said is what she saw of others.
    expect(seenRuling(row({ value: '1', state: 'pending', by: 'judy' }, { settled: { judge: 'jack', value: '0', seq: 1 } }))).toEqual({ judge: 'jack', value: '0' });
  });

  it("the engine's refusal makes Review ask as before overruling a ruling it shows; the same key again overrules", () => {
    const message = rulingChangedMessage({ pair: 'q → c', pool: 'p', by: { judge: 'jack', value: '0' }, seen: null, yours: '1' });
    const ask = rulingChangedAsk('q\u0000c', '1', `Error invoking remote method 'invoke': Error: ${message}`, '1', words);
    expect(ask).toEqual({
      notice: 'jack ruled not similar meanwhile, so your ruling was not saved — press 1 again to overrule jack with similar, or Esc to keep that ruling.',
      pending: { key: 'q\u0000c', value: '1' },
      by: { judge: 'jack', value: '0' },
    });
    // With the queue read again the row shows jack's ruling, and the pending key overrules it.
    const r = row({ value: '0', state: 'saved', by: 'jack' }, { settled: { judge: 'jack', value: '0', seq: 1 } });
    expect(rulingKeyAction(r, 'judy', '1', '1', ask!.pending, words)).toEqual({ kind: 'settle', overrules: { judge: 'jack', value: '0' } });
    // Any other refusal is left to the failed-labels box.
    expect(rulingChangedAsk('q\u0000c', '1', 'pair q → c is not a disagreement or unsure pair of pool "p"', '1', words)).toBeNull();
    expect(rulingChangedAsk('q\u0000c', '1', undefined, '1', words)).toBeNull();
  });
});
