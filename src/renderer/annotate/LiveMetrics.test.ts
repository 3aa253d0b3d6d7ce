import { describe, expect, it } from 'vitest';
import { skippedNote } from './LiveMetrics';

describe('the live panel says which labeled queries its figures leave out', () => {
  it('under convention skip, the queries without a similar candidate (AskUbuntu dev: 11 of 200)', () => {
    expect(skippedNote({ convention: 'skip', withoutRelevant: 11 })).toBe(' — 11 without a similar candidate left out (convention skip)');
  });
  it('nothing when none is left out, or under zero (they count 0 there)', () => {
    expect(skippedNote({ convention: 'skip', withoutRelevant: 0 })).toBeNull();
    expect(skippedNote({ convention: 'zero', withoutRelevant: 7 })).toBeNull();
  });
});
