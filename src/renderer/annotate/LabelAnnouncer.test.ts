import { describe, expect, it } from 'vitest';
import type { QueryView } from '../../shared/contract';
import { announcement, rulingAnnouncement } from './LabelAnnouncer';
import type { LabelOp } from './labelQueue';

const view = { pool: 'p', queryId: 'q1', candidates: [{ id: 'a', question: { title: 'First' } }, { id: 'b', question: { title: 'Second' } }] } as unknown as QueryView;
const op = (o: Partial<LabelOp>): LabelOp => ({ id: 1, state: 'saving', attempts: 1, pool: 'p', queryId: 'q1', candidateId: 'b', annotator: 'ann', value: '1', ...o });
const describe1 = (v: string): string => (v === '1' ? 'similar' : v);

describe('announcement', () => {
  it('names the label, the candidate and its place in the query on screen', () => {
    expect(announcement(op({}), view, describe1)).toBe('similar: saved for “Second”, candidate 2 of 2.');
    expect(announcement(op({ value: null }), view, describe1)).toBe('Label cleared on “Second”, candidate 2 of 2, saved.');
    expect(announcement(op({ note: 'why' }), view, describe1)).toBe('Note saved on “Second”, candidate 2 of 2.');
    expect(announcement(op({ note: '' }), view, describe1)).toBe('Note removed from “Second”, candidate 2 of 2.');
  });

  it('names a label of a query no longer on screen by its ids', () => {
    expect(announcement(op({ queryId: 'q0', candidateId: 'z' }), view, describe1)).toBe('similar: saved for candidate z of query q0.');
    expect(announcement(op({}), null, describe1)).toBe('similar: saved for candidate b of query q1.');
  });
});

describe('rulingAnnouncement', () => {
  it('says the ruling, its clearing and whether a reason went with it', () => {
    expect(rulingAnnouncement(op({}), '“B” for query “Q”', describe1)).toBe('Ruling similar: saved for “B” for query “Q”.');
    expect(rulingAnnouncement(op({ note: 'same bug' }), '“B” for query “Q”', describe1)).toBe('Ruling similar: saved for “B” for query “Q”, with its reason.');
    expect(rulingAnnouncement(op({ value: null }), '“B” for query “Q”', describe1)).toBe('Ruling cleared on “B” for query “Q”, saved.');
  });
});
