import { describe, expect, it } from 'vitest';
import { gradeValue, isDisagreement, meanGrade, resolvePair, strictMajority } from './rules';

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

  it('mean: Likert mean above the threshold (default 0) is relevant, its grade the mean rounded; judges ignored', () => {
    const lk = (threshold?: number) => ({ rule: 'mean' as const, scheme: 'likert5' as const, threshold });
    // 1/3 rounds to 0, but it is above 0: relevant, so grade 1.
    expect(resolvePair(['2', '-1', '0'], null, lk())).toEqual({ value: '1', status: 'mean', mean: 1 / 3 });
    expect(resolvePair(['1', '-1', '0'], '2', lk())).toEqual({ value: '0', status: 'mean', mean: 0 }); // exactly 0 is not above 0: "neither"
    expect(resolvePair(['-2', '-2', '2'], null, lk())).toMatchObject({ value: '-1', mean: -2 / 3 });
    expect(resolvePair(['-2', '-2', '-2'], null, lk())).toMatchObject({ value: '-2', mean: -2 });
    expect(resolvePair(['-2', '-1'], null, lk())).toMatchObject({ value: '-2', mean: -1.5 }); // a tie: the lower grade
    expect(resolvePair(['2', '1'], null, lk())).toMatchObject({ value: '1', mean: 1.5 });
    expect(resolvePair(['2', '2', '1'], null, lk())).toMatchObject({ value: '2', mean: 5 / 3 });
    expect(resolvePair(['1', '1', '0'], null, lk(0.5))).toMatchObject({ value: '1', mean: 2 / 3 });
    expect(resolvePair(['1', '0', '0'], null, lk(0.5))).toMatchObject({ value: '0' });
    // Binary: 1 or 0, as the threshold says.
    expect(resolvePair(['1', '0'], null, opt('mean'))).toMatchObject({ value: '1', mean: 0.5 });
    expect(resolvePair(['1', '0'], null, opt('mean', { threshold: 0.5 }))).toMatchObject({ value: '0', mean: 0.5 });
    expect(resolvePair(['1', '1', '0'], null, opt('mean', { threshold: 0.5 }))).toMatchObject({ value: '1' });
  });

  it('mean on graded and SemEval pools: the mean grade, rounded to the nearest grade, a tie to the lower; relevant (above the threshold) at least 1, else at most 0', () => {
    const g = (threshold: number) => ({ rule: 'mean' as const, scheme: 'graded' as const, threshold });
    // Hand-computed, threshold 0.5 (the default a switch to mean takes): [votes, mean, gold grade].
    const cases: Array<[string[], number, string]> = [
      [['3', '2'], 2.5, '2'], // tie: the lower grade
      [['3', '3', '2'], 8 / 3, '3'],
      [['3', '1'], 2, '2'],
      [['2', '1'], 1.5, '1'], // tie
      [['3', '0'], 1.5, '1'], // tie
      [['4', '0', '0'], 4 / 3, '1'],
      [['1', '1', '0'], 2 / 3, '1'],
      [['1', '0'], 0.5, '0'], // 0.5 is not above 0.5
      [['2', '0', '0', '0'], 0.5, '0'],
      [['0', '0'], 0, '0'],
    ];
    for (const [votes, mean, value] of cases) expect(resolvePair(votes, '3', g(0.5)), votes.join(',')).toEqual({ value, status: 'mean', mean });
    // "?" is left out of the mean.
    expect(resolvePair(['3', '2'], null, { ...g(0.5), unsure: 2 })).toEqual({ value: '2', status: 'mean', mean: 2.5 });
    // A higher threshold: 2, 2 (mean 2) is not above 2, so not relevant: 0; 3, 2 (2.5) is.
    expect(resolvePair(['2', '2'], null, g(2))).toMatchObject({ value: '0' });
    expect(resolvePair(['3', '2'], null, g(2))).toMatchObject({ value: '2' });
    // A threshold below the lowest relevant grade: relevant means at least 1.
    expect(resolvePair(['1', '0', '0', '0'], null, g(0))).toMatchObject({ value: '1', mean: 0.25 });
    const s3 = { rule: 'mean' as const, scheme: 'semeval3' as const, threshold: 0.5 };
    expect(resolvePair(['PerfectMatch', 'Relevant'], null, s3)).toMatchObject({ value: 'Relevant', mean: 1.5 });
    expect(resolvePair(['PerfectMatch', 'PerfectMatch', 'Relevant'], null, s3)).toMatchObject({ value: 'PerfectMatch', mean: 5 / 3 });
    expect(resolvePair(['PerfectMatch', 'Irrelevant'], null, s3)).toMatchObject({ value: 'Relevant', mean: 1 });
    expect(resolvePair(['PerfectMatch', 'Irrelevant', 'Irrelevant'], null, s3)).toMatchObject({ value: 'Relevant', mean: 2 / 3 });
    expect(resolvePair(['Relevant', 'Irrelevant'], null, s3)).toMatchObject({ value: 'Irrelevant', mean: 0.5 });
    expect([meanGrade(-0.5, false), meanGrade(0.49, false), meanGrade(7.5, true), meanGrade(0.2, true)]).toEqual([-1, 0, 7, 1]);
    expect([gradeValue('semeval3', 0), gradeValue('graded', -0), gradeValue('likert5', -2)]).toEqual(['Irrelevant', '0', '-2']);
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
