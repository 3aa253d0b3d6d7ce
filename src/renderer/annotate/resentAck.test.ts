import { describe, expect, it } from 'vitest';
import type { LabelAck } from '../../shared/contract';
import { ackOfResent } from './resentAck';

const unchanged = (o: Partial<LabelAck> = {}): LabelAck => ({ seq: null, latest: 7, saved: true, record: null, note: null, noteChanged: false, ...o });

describe('ackOfResent: a label sent again after its answer may have been lost', () => {
  it('a label that changed the pair: the earlier send saved it, so its event is the latest on the pair', () => {
    expect(ackOfResent({ value: '1', valueBefore: null }, unchanged()).seq).toBe(7);
    expect(ackOfResent({ value: '0', valueBefore: '1' }, unchanged()).seq).toBe(7);
  });

  it('a label the pair already had, or whose label before is unknown, stays unchanged', () => {
    expect(ackOfResent({ value: '1', valueBefore: '1' }, unchanged()).seq).toBeNull();
    expect(ackOfResent({ value: '1' }, unchanged()).seq).toBeNull();
    expect(ackOfResent({ value: '1', valueBefore: null }, unchanged({ latest: null })).seq).toBeNull();
  });

  it('an answer that saved it now is left as it is', () => {
    const a: LabelAck = { seq: 9, saved: true, record: null };
    expect(ackOfResent({ value: '1', valueBefore: null }, a)).toBe(a);
  });

  it('a cleared label took its note along; a note sent changed it when the pair’s note now differs from before', () => {
    expect(ackOfResent({ value: null, valueBefore: '1', noteBefore: 'why' }, unchanged()).noteChanged).toBe(true);
    expect(ackOfResent({ value: null, valueBefore: '1', noteBefore: null }, unchanged()).noteChanged).toBe(false);
    expect(ackOfResent({ value: '1', valueBefore: '1', note: 'new', noteBefore: 'old' }, unchanged({ note: 'new' }))).toMatchObject({ seq: null, noteChanged: true });
    expect(ackOfResent({ value: '1', valueBefore: '1', note: 'same', noteBefore: 'same' }, unchanged({ note: 'same' })).noteChanged).toBe(false);
    // A label alone leaves the note as it is: nothing about it to tell.
    expect(ackOfResent({ value: '0', valueBefore: '1' }, unchanged({ note: 'kept' })).noteChanged).toBe(false);
  });
});
