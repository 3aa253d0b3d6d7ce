import { describe, expect, it } from 'vitest';
import { globalKeys, screenKeys } from './ShortcutOverlay';

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
    expect(row(keys, '1')).toBe('similar (binary pools; SemEval 2/1/0, Likert 1–5, graded 0–9)');
  });
});

describe('globalKeys: the F1 list gives the Alt+N keys this role has', () => {
  it('an annotator is told Alt+3, Alt+6 and Alt+9 (her Annotate, Evaluate, Browse), not "Alt+1 … Alt+9 in the order of the tabs"', () => {
    expect(globalKeys('annotator')[0]).toEqual(['Alt+3 · Alt+6 · Alt+9', 'screens: Annotate, Evaluate, Browse (the numbers of the full tab bar)']);
    expect(globalKeys('judge')[0]).toEqual(['Alt+3 · Alt+4 · Alt+5 · Alt+6 · Alt+7 · Alt+8 · Alt+9', 'screens: Annotate, Review, Agreement, Evaluate, Export, Models, Browse (the numbers of the full tab bar)']);
  });
  it('the owner, who sees every screen, keeps the short form', () => {
    expect(globalKeys('owner')[0]).toEqual(['Alt+1 … Alt+9', 'screens, in the order of the tabs']);
  });
});
