import { describe, expect, it } from 'vitest';
import { screenKeys } from './ShortcutOverlay';

const row = (keys: ReadonlyArray<[string, string]>, key: string): string | undefined => keys.find(([k]) => k === key)?.[1];

describe('screenKeys: the F1 list gives the label keys of the pool on screen', () => {
  it('a SemEval pool: 2/1/0 with their meanings, not the binary keys', () => {
    const { keys } = screenKeys('annotate', { name: 'dev', scheme: 'semeval3' });
    expect(row(keys, '2')).toBe('perfect match');
    expect(row(keys, '1')).toBe('relevant');
    expect(row(keys, '0')).toBe('irrelevant');
    expect(keys.some(([, what]) => /similar/.test(what))).toBe(false);
  });

  it('Review on a Likert pool: 1–5 settle, "?" does not', () => {
    const { keys } = screenKeys('review', { name: 'lk', scheme: 'likert5' });
    expect(row(keys, '5')).toBe('settle: +2 same');
    expect(row(keys, '1')).toBe('settle: −2 different');
    expect(row(keys, '?')).toBeUndefined();
  });

  it('no pool known: the binary keys, saying the other schemes’ keys', () => {
    const { keys } = screenKeys('annotate');
    expect(row(keys, '1')).toBe('similar (binary pools; SemEval 2/1/0, Likert 1–5)');
  });
});
