import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Stat } from '../stats/result';
import { readFixture } from '../stats/testing';
import { cohenKappa, specificAgreement } from './cohen';
import { fleissKappa } from './fleiss';
import { gwetAC1 } from './gwet';
import { krippendorffAlpha } from './krippendorff';
import { percentAgreement } from './percent';
import { agreementReport } from './report';
import { type RatingTable } from './table';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../tests/fixtures/agreement');
const names = readdirSync(dir).filter((f) => f.endsWith('.json'));
const TOL = 1e-9;

/** Expected number ↔ defined Stat within TOL; expected null ↔ undefined Stat (with a reason). */
function expectStat(actual: Stat, expected: number | null, what: string): void {
  if (expected === null) {
    expect(actual.value, `${what}: expected undefined`).toBeNull();
    expect((actual as { reason: string }).reason, what).toBeTruthy();
  } else {
    expect(actual.value, `${what}: expected ${expected}`).not.toBeNull();
    expect(Math.abs((actual.value as number) - expected), `${what}: ${actual.value} vs ${expected}`).toBeLessThanOrEqual(TOL);
  }
}

describe('agreement statistics vs reference fixtures', () => {
  expect(names.length).toBeGreaterThanOrEqual(8);
  for (const name of names) {
    const fx = readFixture('agreement', name);
    const table: RatingTable = { categories: fx.categories, annotators: fx.annotators, items: fx.items };
    const e = fx.expected;
    describe(fx.name, () => {
      it('overall: percent agreement, Fleiss (statsmodels), alpha (NLTK + direct), AC1', () => {
        expectStat(percentAgreement(table), e.percentAgreement, 'percent agreement');
        expectStat(fleissKappa(table), e.fleissKappa.value, 'fleiss');
        for (const m of ['nominal', 'ordinal', 'interval', 'ratio'] as const) {
          expectStat(krippendorffAlpha(table, m), e.krippendorffAlpha[m], `alpha ${m}`);
        }
        expectStat(gwetAC1(table), e.gwetAC1, 'gwet AC1');
      });
      it('pairs: Cohen kappa none/linear/quadratic (sklearn), confusion, PSA/NSA', () => {
        for (const p of e.pairs) {
          const w = `${p.a}/${p.b}`;
          expectStat(percentAgreement(table, p.a, p.b), p.percentAgreement, `${w} percent`);
          expectStat(cohenKappa(table, p.a, p.b), p.cohenKappa, `${w} kappa`);
          expectStat(cohenKappa(table, p.a, p.b, 'linear'), p.cohenKappaLinear, `${w} linear`);
          expectStat(cohenKappa(table, p.a, p.b, 'quadratic'), p.cohenKappaQuadratic, `${w} quadratic`);
          if (fx.positive || fx.categories.length === 2) {
            const s = specificAgreement(table, p.a, p.b, fx.positive);
            expectStat(s.psa, p.psa, `${w} psa`);
            expectStat(s.nsa, p.nsa, `${w} nsa`);
          }
        }
      });
      it('agreementReport carries the same values (and the replayed bootstrap CIs)', () => {
        const boot = fx.bootstrap ?? { resamples: 20, seed: 1, level: 0.95 };
        const r = agreementReport(table, { ...boot, positive: fx.positive });
        expectStat(r.percentAgreement, e.percentAgreement, 'report percent');
        expectStat(r.fleissKappa, e.fleissKappa.value, 'report fleiss');
        expectStat(r.krippendorffAlpha.ordinal, e.krippendorffAlpha.ordinal, 'report ordinal');
        expectStat(r.gwetAC1, e.gwetAC1, 'report AC1');
        expect(r.pairs.length).toBe(e.pairs.length);
        r.pairs.forEach((p, k) => {
          const x = e.pairs[k];
          expect([p.a, p.b, p.items]).toEqual([x.a, x.b, x.items]);
          expect(p.confusion).toEqual(x.confusion);
          expectStat(p.cohenKappaQuadratic, x.cohenKappaQuadratic, 'report quadratic');
          if (fx.positive || fx.categories.length === 2) expectStat(p.psa, x.psa, 'report psa');
          if (x.ci95 !== undefined) {
            expect(p.ci95.value, `${p.a}/${p.b} ci95`).not.toBeNull();
            expect(Math.abs(p.ci95.value![0] - x.ci95[0])).toBeLessThanOrEqual(TOL);
            expect(Math.abs(p.ci95.value![1] - x.ci95[1])).toBeLessThanOrEqual(TOL);
          }
        });
      });
    });
  }
});

describe('published and hand-derived values', () => {
  it("Krippendorff (2011) example: 0.743 / 0.815 / 0.849 / 0.797", () => {
    const fx = readFixture('agreement', 'krippendorff2011.json');
    const table: RatingTable = { categories: fx.categories, annotators: fx.annotators, items: fx.items };
    for (const [m, v] of Object.entries(fx.published as Record<string, number>)) {
      const a = krippendorffAlpha(table, m as 'nominal');
      expect(Math.round((a.value as number) * 1000) / 1000, m).toBe(v);
    }
  });
  it('Wikipedia example: kappa 0.4, AC1 41/101, PSA 8/11, NSA 2/3', () => {
    const fx = readFixture('agreement', 'wikipedia_kappa_example.json');
    const table: RatingTable = { categories: fx.categories, annotators: fx.annotators, items: fx.items };
    expect(cohenKappa(table, 'A', 'B').value).toBeCloseTo(0.4, 12);
    expect(gwetAC1(table).value).toBeCloseTo(41 / 101, 12);
    const s = specificAgreement(table, 'A', 'B');
    expect(s.psa.value).toBeCloseTo(8 / 11, 12);
    expect(s.nsa.value).toBeCloseTo(2 / 3, 12);
  });
});
