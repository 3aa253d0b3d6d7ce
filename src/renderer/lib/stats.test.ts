import { describe, expect, it } from 'vitest';
import type { AgreementView } from '../../shared/gold';
import { agreementYRange, overTimeSeries, parseNames, showCI, showP, showStat } from './stats';

describe('statistics for display', () => {
  it('shows a defined value with three decimals and keeps its note', () => {
    expect(showStat({ value: 0.41234 })).toEqual({ text: '0.412', value: 0.41234, reason: null, note: null });
    expect(showStat({ value: 0.5, note: 'restricted to 3 items' })).toMatchObject({ text: '0.500', note: 'restricted to 3 items' });
    expect(showStat({ value: -0.0001 }).text).toBe('0.000');
    expect(showStat({ value: -0.25 }).text).toBe('-0.250');
  });

  it('shows an undefined value as a dash with its reason, never NaN', () => {
    expect(showStat({ value: null, reason: 'only one category used' })).toEqual({ text: '—', value: null, reason: 'only one category used', note: null });
    expect(showStat({ value: Number.NaN } as never)).toMatchObject({ text: '—', reason: 'not a finite number' });
    expect(showStat(undefined)).toMatchObject({ text: '—', reason: null });
  });

  it('shows CIs as [lo, hi] or a dash with the reason', () => {
    expect(showCI({ value: [0.1234, 0.9] })).toMatchObject({ text: '[0.123, 0.900]', reason: null });
    expect(showCI({ value: null, reason: 'nothing to resample (zero queries)' })).toMatchObject({ text: '—', reason: 'nothing to resample (zero queries)' });
    expect(showCI(null)).toMatchObject({ text: '—', reason: null });
  });

  it('shows small p-values as <0.001', () => {
    expect(showP({ value: 0.0004 }).text).toBe('<0.001');
    expect(showP({ value: 0.0312 }).text).toBe('0.031');
    expect(showP({ value: 1 }).text).toBe('1.000');
    expect(showP({ value: null, reason: 'zero variance' })).toMatchObject({ text: '—', reason: 'zero variance' });
  });

  it('fits the chart range to negative agreement', () => {
    expect(agreementYRange([0.2, 0.9])).toEqual({ yMin: 0, yMax: 1 });
    expect(agreementYRange([-0.23, 0.5])).toEqual({ yMin: -0.3, yMax: 1 });
    expect(agreementYRange([-3])).toEqual({ yMin: -1, yMax: 1 });
    expect(agreementYRange([])).toEqual({ yMin: 0, yMax: 1 });
  });

  it('turns agreement over time into series, leaving out undefined points', () => {
    const overTime: AgreementView['overTime'] = [
      { queries: 1, items: 5, percentAgreement: { value: 1 }, fleissKappa: { value: null, reason: 'one category' }, cohenKappa: { value: null, reason: 'one category' } },
      { queries: 2, items: 10, percentAgreement: { value: 0.8 }, fleissKappa: { value: 0.5 }, cohenKappa: { value: 0.52 } },
    ];
    expect(overTimeSeries(overTime)).toEqual([
      { name: 'percent agreement', points: [[1, 1], [2, 0.8]] },
      { name: "Fleiss' κ", points: [[2, 0.5]] },
      { name: "Cohen's κ", points: [[2, 0.52]] },
    ]);
    expect(overTimeSeries([{ queries: 1, items: 2, percentAgreement: { value: 1 }, fleissKappa: { value: 1 } }]).map((s) => s.name)).toEqual(['percent agreement', "Fleiss' κ"]);
  });

  it('parses annotator names typed in a box', () => {
    expect(parseNames(' alice, bob;carol\n alice ')).toEqual(['alice', 'bob', 'carol']);
    expect(parseNames('  ')).toEqual([]);
    expect(parseNames('alice bob')).toEqual(['alice', 'bob']);
  });

  it('keeps a known name with a space whole: "Jane Doe" is one person, not two new annotators', () => {
    const known = ['alice', 'Jane Doe', 'bob'];
    expect(parseNames('alice, Jane Doe', known)).toEqual(['alice', 'Jane Doe']);
    expect(parseNames(' Jane   Doe ;bob', known)).toEqual(['Jane Doe', 'bob']);
    expect(parseNames('alice bob, Jane Doe', known)).toEqual(['alice', 'bob', 'Jane Doe']);
    // Someone not on the team is split as before.
    expect(parseNames('John Roe', known)).toEqual(['John', 'Roe']);
  });
});
