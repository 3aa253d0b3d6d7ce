import { describe, expect, it } from 'vitest';
import { permutationWords } from './eval';

const pair = (permutationMethod: 'exact' | 'monte-carlo') => ({ permutationMethod }) as never;

describe('eval --compare: how the randomization test was done, in its header', () => {
  it('says exact when every pair was tested over all sign patterns (not "10000 sign flips")', () => {
    expect(permutationWords({ permutations: 10_000, pairs: [pair('exact'), pair('exact')] })).toBe('exact (every sign pattern)');
  });
  it('says how many random flips when no pair was exact', () => {
    expect(permutationWords({ permutations: 500, pairs: [pair('monte-carlo')] })).toBe('500 random sign flips');
  });
  it('says which is which when pairs differ', () => {
    expect(permutationWords({ permutations: 500, pairs: [pair('exact'), pair('monte-carlo'), pair('monte-carlo')] })).toBe(
      'exact (every sign pattern) for 1 pair, 500 random sign flips for the others',
    );
  });
});
