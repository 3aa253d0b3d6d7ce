import { describe, expect, it } from 'vitest';
import { CancelledError, QPairsError } from '../errors';
import { bootstrapByQuery } from './bootstrap';
import { cohenKappa, specificAgreement } from './cohen';
import { fleissKappa } from './fleiss';
import { gwetAC1 } from './gwet';
import { krippendorffAlpha } from './krippendorff';
import { percentAgreement } from './percent';
import { agreementReport } from './report';
import { type RatingTable, ratingTableFromJudgments, selectAnnotators } from './table';

/** Fails if any number anywhere in `x` is NaN or infinite. */
function expectNoNaN(x: unknown, where = 'root'): void {
  if (typeof x === 'number') expect(Number.isFinite(x), `${where} = ${x}`).toBe(true);
  else if (Array.isArray(x)) x.forEach((v, i) => expectNoNaN(v, `${where}[${i}]`));
  else if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) expectNoNaN(v, `${where}.${k}`);
}

const allStats = (t: RatingTable) => ({
  percent: percentAgreement(t),
  fleiss: fleissKappa(t),
  nominal: krippendorffAlpha(t, 'nominal'),
  ordinal: krippendorffAlpha(t, 'ordinal'),
  interval: krippendorffAlpha(t, 'interval'),
  ratio: krippendorffAlpha(t, 'ratio'),
  ac1: gwetAC1(t),
});

describe('degenerate inputs give a value or {value: null, reason}, never NaN', () => {
  it('zero items', () => {
    const t: RatingTable = { categories: [0, 1], annotators: ['a', 'b'], items: [] };
    const s = allStats(t);
    for (const v of Object.values(s)) expect(v.value).toBeNull();
    expect(cohenKappa(t, 'a', 'b')).toMatchObject({ value: null });
    const r = agreementReport(t, { resamples: 10 });
    expect(r.pairs[0].ci95).toEqual({ value: null, reason: 'nothing to resample (zero queries)' });
    expect(r.perQuery).toEqual([]);
    expectNoNaN(r);
  });

  it('one annotator', () => {
    const t: RatingTable = {
      categories: [0, 1],
      annotators: ['a'],
      items: [0, 1, 1, 0].map((l, i) => ({ id: `i${i}`, queryId: `q${i >> 1}`, labels: [l] })),
    };
    for (const v of Object.values(allStats(t))) expect(v.value).toBeNull();
    const r = agreementReport(t, { resamples: 10 });
    expect(r.pairs).toEqual([]);
    expect(r.perQuery[0]).toMatchObject({ multiplyLabeled: 0, disagreements: [], percentAgreement: { value: null } });
    expectNoNaN(r);
  });

  it('no overlap between the two annotators', () => {
    const t: RatingTable = {
      categories: ['no', 'yes'],
      annotators: ['a', 'b'],
      items: [
        { id: '1', queryId: 'q1', labels: ['yes', null] },
        { id: '2', queryId: 'q1', labels: [null, 'no'] },
        { id: '3', queryId: 'q2', labels: ['no', undefined] },
      ],
    };
    for (const v of Object.values(allStats(t))) expect(v.value).toBeNull();
    expect(cohenKappa(t, 'a', 'b', 'quadratic').value).toBeNull();
    expect(specificAgreement(t, 'a', 'b').psa.value).toBeNull();
    const r = agreementReport(t, { resamples: 10 });
    expect(r.pairs[0].items).toBe(0);
    expect(r.pairs[0].ci95).toMatchObject({ value: null, reason: 'the two annotators labeled no item in common' });
    expectNoNaN(r);
  });

  it('one label used by everyone', () => {
    const t: RatingTable = {
      categories: [1, 2, 3],
      annotators: ['a', 'b', 'c'],
      items: Array.from({ length: 6 }, (_, i) => ({ id: `i${i}`, queryId: `q${i % 2}`, labels: [2, 2, 2] })),
    };
    const s = allStats(t);
    expect(s.percent.value).toBe(1);
    expect(s.ac1.value).toBe(1);
    for (const k of ['fleiss', 'nominal', 'ordinal', 'interval', 'ratio'] as const) expect(s[k].value, k).toBeNull();
    expect(cohenKappa(t, 'a', 'b').value).toBeNull();
    expectNoNaN(agreementReport(t, { resamples: 10, positive: 3 }));
  });

  it('single category scale: AC1 undefined; ratio alpha with negative values undefined', () => {
    const one: RatingTable = { categories: ['x'], annotators: ['a', 'b'], items: [{ id: '1', queryId: 'q', labels: ['x', 'x'] }] };
    expect(gwetAC1(one).value).toBeNull();
    const lik: RatingTable = {
      categories: [-1, 0, 1],
      annotators: ['a', 'b'],
      items: [{ id: '1', queryId: 'q', labels: [-1, 1] }, { id: '2', queryId: 'q', labels: [0, 1] }],
    };
    expect(krippendorffAlpha(lik, 'ratio')).toMatchObject({ value: null, reason: expect.stringContaining('non-negative') });
    expect(krippendorffAlpha(lik, 'interval').value).not.toBeNull();
  });

  it('PSA/NSA on a non-binary scale need positive categories', () => {
    const t: RatingTable = { categories: [0, 1, 2], annotators: ['a', 'b'], items: [{ id: '1', queryId: 'q', labels: [2, 1] }] };
    expect(specificAgreement(t, 'a', 'b').psa.value).toBeNull();
    expect(specificAgreement(t, 'a', 'b', [1, 2]).psa.value).toBe(1);
    expect(() => specificAgreement(t, 'a', 'b', 7)).toThrow(QPairsError);
  });

  it('Fleiss restricts to the modal number of labels and says so', () => {
    const t: RatingTable = {
      categories: [0, 1],
      annotators: ['a', 'b', 'c'],
      items: [
        { id: '1', queryId: 'q', labels: [0, 0, 1] },
        { id: '2', queryId: 'q', labels: [1, 1, 1] },
        { id: '3', queryId: 'q', labels: [0, 1, null] },
        { id: '4', queryId: 'q', labels: [0, null, null] },
      ],
    };
    expect(fleissKappa(t)).toMatchObject({ note: 'restricted to the 2 of 3 items with 3 labels (the modal number)' });
  });
});

describe('input validation', () => {
  const base: RatingTable = { categories: [0, 1], annotators: ['a', 'b'], items: [{ id: 'x', queryId: 'q', labels: [0, 1] }] };
  it('unknown label, wrong label count, unknown annotator, duplicates', () => {
    expect(() => percentAgreement({ ...base, items: [{ id: 'x7', queryId: 'q', labels: [0, 5] }] })).toThrow(/item "x7", annotator "b"/);
    expect(() => percentAgreement({ ...base, items: [{ id: 'x', queryId: 'q', labels: [0] }] })).toThrow(QPairsError);
    expect(() => cohenKappa(base, 'a', 'zz')).toThrow(/unknown annotator "zz"/);
    expect(() => percentAgreement({ ...base, categories: [0, 0] })).toThrow(QPairsError);
    expect(() => percentAgreement({ ...base, annotators: ['a', 'a'] })).toThrow(QPairsError);
    expect(() => agreementReport(base, { resamples: 0 })).toThrow(QPairsError);
  });
  it('ratingTableFromJudgments and selectAnnotators', () => {
    const t = ratingTableFromJudgments(
      [
        { annotator: 'a', itemId: 'i1', queryId: 'q1', label: 1 },
        { annotator: 'b', itemId: 'i1', queryId: 'q1', label: 0 },
        { annotator: 'b', itemId: 'i2', queryId: 'q1', label: 1 },
      ],
      [0, 1],
    );
    expect(t.annotators).toEqual(['a', 'b']);
    expect(t.items).toEqual([
      { id: 'i1', queryId: 'q1', labels: [1, 0] },
      { id: 'i2', queryId: 'q1', labels: [null, 1] },
    ]);
    expect(selectAnnotators(t, ['b']).items.map((i) => i.labels)).toEqual([[0], [1]]);
    expect(() =>
      ratingTableFromJudgments(
        [
          { annotator: 'a', itemId: 'i1', queryId: 'q1', label: 1 },
          { annotator: 'a', itemId: 'i1', queryId: 'q1', label: 0 },
        ],
        [0, 1],
      ),
    ).toThrow(/twice/);
  });
});

describe('bootstrap over queries', () => {
  // 30 queries x 4 items, two annotators who mostly agree
  const t: RatingTable = {
    categories: [0, 1, 2],
    annotators: ['a', 'b', 'c'],
    items: Array.from({ length: 120 }, (_, i) => {
      const x = (i * 7) % 3;
      return { id: `i${i}`, queryId: `q${i >> 2}`, labels: [x, i % 5 === 0 ? (x + 1) % 3 : x, i % 9 === 0 ? null : x] };
    }),
  };
  it('is deterministic for a seed and changes with the seed', () => {
    const r1 = agreementReport(t, { seed: 11, resamples: 300 });
    const r2 = agreementReport(t, { seed: 11, resamples: 300 });
    const r3 = agreementReport(t, { seed: 12, resamples: 300 });
    expect(r1).toEqual(r2);
    expect(r1.pairs[0].ci95.value).not.toEqual(r3.pairs[0].ci95.value);
    const k = r1.pairs[0].cohenKappa.value!;
    const [lo, hi] = r1.pairs[0].ci95.value!;
    expect(lo).toBeLessThanOrEqual(k);
    expect(hi).toBeGreaterThanOrEqual(k);
    expect(hi).toBeLessThanOrEqual(1);
  });
  it('generic bootstrapByQuery matches the report CI for the same seed', () => {
    const r = agreementReport(t, { seed: 5, resamples: 200 });
    const ci = bootstrapByQuery(t, (s) => cohenKappa(s, 'a', 'b'), { seed: 5, resamples: 200 });
    expect(ci.value).toEqual(r.pairs[0].ci95.value);
    const f1 = bootstrapByQuery(t, (s) => fleissKappa(s), { seed: 3, resamples: 100, level: 0.9 });
    expect(f1).toEqual(bootstrapByQuery(t, (s) => fleissKappa(s), { seed: 3, resamples: 100, level: 0.9 }));
  });
  it("a pair that shares items in one query only: its CI says so (a bare [0, 0] looked certain)", () => {
    // a and b both label q1 only (and disagree once); c labels everything.
    const u: RatingTable = {
      categories: [0, 1],
      annotators: ['a', 'b', 'c'],
      items: [
        { id: '1', queryId: 'q1', labels: [1, 0, 1] },
        { id: '2', queryId: 'q1', labels: [0, 0, 0] },
        { id: '3', queryId: 'q2', labels: [1, null, 1] },
        { id: '4', queryId: 'q3', labels: [null, 1, 0] },
      ],
    };
    const r = agreementReport(u, { seed: 2, resamples: 200 });
    const ab = r.pairs[0];
    expect(ab.items).toBe(2);
    expect(ab.ci95.value).toEqual([0, 0]);
    expect(ab.ci95).toMatchObject({ note: expect.stringMatching(/the two annotators labeled items in common in one query only, so every resample that counts is that query$/) });
    // a and c share two queries: no such note.
    expect(r.pairs[1].ci95).not.toMatchObject({ note: expect.stringContaining('one query only') });
  });
  it('progress and cancellation', () => {
    const seen: [number, number][] = [];
    agreementReport(t, { resamples: 300, onProgress: (d, n) => seen.push([d, n]) });
    expect(seen.at(-1)).toEqual([900, 900]);
    const ac = new AbortController();
    ac.abort();
    expect(() => agreementReport(t, { signal: ac.signal })).toThrow(CancelledError);
  });
  it('per-query values list the disagreements', () => {
    const r = agreementReport(t, { resamples: 10 });
    expect(r.queries).toBe(30);
    expect(r.perQuery[0]).toMatchObject({ queryId: 'q0', items: 4, multiplyLabeled: 4, disagreements: ['i0'] });
    expect(r.perQuery[0].percentAgreement.value).toBeCloseTo(18 / 20, 12); // i0: 2 labels disagreeing (0 of 2 ordered pairs), i1..i3: 3 agreeing (6 of 6)
    expect(r.perQuery[1].disagreements).toEqual(['i5']);
  });
});
