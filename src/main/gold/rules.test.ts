import { describe, expect, it } from 'vitest';
import { isDisagreement, relevanceValue, resolvePair, strictMajority } from './rules';

const opt = (rule: 'adjudicated' | 'majority' | 'mean' | 'unanimous', extra: object = {}) => ({ rule, scheme: 'binary' as const, ...extra });

describe('aggregation rules', () => {
  it('no votes: unlabeled under every rule', () => {
    for (const r of ['adjudicated', 'majority', 'mean', 'unanimous'] as const) {
      expect(resolvePair([], '1', opt(r))).toEqual({ value: null, status: 'unlabeled' });
    }
  });

  it('adjudicated: agreed label, else the judge, else unresolved', () => {
    expect(resolvePair(['1', '1'], null, opt('adjudicated'))).toEqual({ value: '1', status: 'agreed' });
    expect(resolvePair(['1', '1'], '0', opt('adjudicated'))).toEqual({ value: '1', status: 'agreed' }); // judge only settles disagreements
    expect(resolvePair(['1', '0'], null, opt('adjudicated'))).toEqual({ value: null, status: 'unresolved' });
    expect(resolvePair(['1', '0'], '0', opt('adjudicated'))).toEqual({ value: '0', status: 'adjudicated' });
    expect(resolvePair(['1', '1', '0'], null, opt('adjudicated'))).toEqual({ value: null, status: 'unresolved' });
    // A single vote so far (or k = 1): that label.
    expect(resolvePair(['0'], null, opt('adjudicated', { complete: false }))).toEqual({ value: '0', status: 'agreed' });
  });

  it('majority: strict majority; ties go to the judge or stay unresolved', () => {
    expect(resolvePair(['1', '1', '0'], null, opt('majority'))).toEqual({ value: '1', status: 'majority' });
    expect(resolvePair(['0', '1', '0'], null, opt('majority'))).toEqual({ value: '0', status: 'majority' });
    expect(resolvePair(['1', '0'], null, opt('majority'))).toEqual({ value: null, status: 'unresolved' });
    expect(resolvePair(['1', '0'], '1', opt('majority'))).toEqual({ value: '1', status: 'adjudicated' });
    // A judge who looked at a majority pair overrides the count.
    expect(resolvePair(['1', '1', '0'], '0', opt('majority'))).toEqual({ value: '0', status: 'adjudicated' });
    // SemEval 3-way 1–1–1 is a tie on the values.
    const s3 = { rule: 'majority' as const, scheme: 'semeval3' as const };
    expect(resolvePair(['PerfectMatch', 'Relevant', 'Irrelevant'], null, s3)).toEqual({ value: null, status: 'unresolved' });
    expect(resolvePair(['Relevant', 'Relevant', 'Irrelevant'], null, s3)).toEqual({ value: 'Relevant', status: 'majority' });
    expect(strictMajority(['a', 'b', 'a', 'b'])).toBeNull();
    expect(strictMajority(['a', 'b', 'c', 'c'])).toBe('c');
  });

  it('mean: Likert mean above the threshold (default 0) is relevant; judges ignored', () => {
    const lk = (threshold?: number) => ({ rule: 'mean' as const, scheme: 'likert5' as const, threshold });
    expect(resolvePair(['2', '-1', '0'], null, lk())).toEqual({ value: '1', status: 'mean', mean: 1 / 3 });
    expect(resolvePair(['1', '-1', '0'], '2', lk())).toEqual({ value: '-1', status: 'mean', mean: 0 }); // exactly 0 is not above 0
    expect(resolvePair(['-2', '-2', '2'], null, lk())).toMatchObject({ value: '-1', mean: -2 / 3 });
    expect(resolvePair(['1', '1', '0'], null, lk(0.5))).toMatchObject({ value: '1', mean: 2 / 3 });
    expect(resolvePair(['1', '0', '0'], null, lk(0.5))).toMatchObject({ value: '-1' });
    // On other schemes the result is the scheme's relevant / non-relevant value.
    expect(resolvePair(['1', '0'], null, opt('mean'))).toMatchObject({ value: '1', mean: 0.5 });
    expect(resolvePair(['PerfectMatch', 'Irrelevant', 'Irrelevant'], null, { rule: 'mean', scheme: 'semeval3' })).toMatchObject({ value: 'Relevant', mean: 2 / 3 });
    expect(relevanceValue('semeval3', false)).toBe('Irrelevant');
  });

  it('unanimous: only complete, all-equal pairs; judges ignored', () => {
    expect(resolvePair(['1', '1', '1'], null, opt('unanimous'))).toEqual({ value: '1', status: 'agreed' });
    expect(resolvePair(['1', '1', '0'], '1', opt('unanimous'))).toEqual({ value: null, status: 'unresolved' });
    expect(resolvePair(['1', '1'], null, opt('unanimous', { complete: false }))).toEqual({ value: null, status: 'unresolved' });
  });

  it('disagreement', () => {
    expect(isDisagreement(['1'])).toBe(false);
    expect(isDisagreement(['1', '1'])).toBe(false);
    expect(isDisagreement(['1', '1', '0'])).toBe(true);
  });
});
