import { describe, expect, it } from 'vitest';
import { isSettled, labelWords, oneLine, votesShown, votesText, type Row } from './reviewRow';

const row = (value: string | null, labels: Array<[string, string]>): Row => ({
  item: { queryId: 'q1', candidateId: 'c1', labels: labels.map(([annotator, v]) => ({ annotator, value: v, noted: false })), impact: 0 } as unknown as Row['item'],
  key: 'q1\u0000c1',
  value,
  state: value === null ? 'none' : 'saved',
  by: value === null ? null : 'judy',
});

describe('a Review row', () => {
  it('is settled by a ruling, never by "?" or by none', () => {
    expect(isSettled(row('1', []))).toBe(true);
    expect(isSettled(row('0', []))).toBe(true);
    expect(isSettled(row('?', []))).toBe(false);
    expect(isSettled(row(null, []))).toBe(false);
    expect(isSettled(undefined)).toBe(false);
  });
  it('shows a Likert vote as its scale point (+1, −2), not the stored value that reads as another key; other schemes as stored', () => {
    expect(votesShown(row(null, [['alice', '1'], ['bob', '-2'], ['carl', '0'], ['dora', '?']]), 'likert5')).toBe('alice +1 · bob −2 · carl 0 · dora ?');
    expect(votesShown(row(null, [['alice', '1'], ['bob', '0']]), 'binary')).toBe('alice 1 · bob 0');
    expect(votesShown(row(null, [['alice', '9'], ['bob', '1']]), 'graded')).toBe('alice 9 · bob 1');
    expect(votesShown(row(null, [['alice', 'Relevant']]), 'semeval3')).toBe('alice Relevant');
  });
  it("says the votes in the scheme's words, and a value the scheme does not name as itself", () => {
    expect(votesText(row(null, [['alice', '1'], ['bob', '0']]), 'binary')).toBe('alice: similar, bob: not similar');
    expect(labelWords('semeval3', 'PerfectMatch')).toBe('perfect match');
    expect(labelWords('binary', '7')).toBe('7');
  });
  it('collapses a title to one line for sorting', () => {
    expect(oneLine('  a\n\tb  c ')).toBe('a b c');
    expect(oneLine(undefined)).toBe('');
  });
});
