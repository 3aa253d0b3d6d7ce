import type { IntervalView, StatView } from '../../../shared/gold';
import { counted } from '../../../shared/plural';
import { agreementJson, poolAgreement } from '../../gold';
import { parse, takePositionals, requireString, table } from '../args';
import { fmt, fmtCi, json, list, positiveInt, intFlag, withWorkspace, Notes, type Out } from './common';

/**
 * `qpairs agreement W --pool P [--annotators A,B,…] [--queries Q1,Q2,…] [--bootstrap N --seed S] [--json]`:
 * agreement of the pool's annotators (or the listed ones) over its queries (or the listed ones). JSON: statistics as numbers, an undefined one is
 * null with `<name>Reason` beside it (see gold/agreement.ts agreementJson).
 */
export async function cmdAgreement(argv: string[], out: Out): Promise<number> {
  const { values, positionals } = parse(argv, {
    pool: { type: 'string' },
    annotators: { type: 'string' },
    queries: { type: 'string' },
    bootstrap: { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'boolean' },
  });
  const pool = requireString(values.pool, '--pool P');
  const annotators = list(values.annotators);
  const queries = list(values.queries);
  const bootstrap = positiveInt(values.bootstrap, '--bootstrap');
  const seed = intFlag(values.seed, '--seed');
  takePositionals(positionals, ['W'], 'agreement');
  return withWorkspace(positionals[0], (ws) => {
    // One snapshot: a label serve mode commits meanwhile is wholly in the report or wholly out of it.
    const v = ws.snapshot(() => poolAgreement(ws, pool, { annotators, queries, bootstrap, seed }));
    if (values.json) {
      out.log(json(agreementJson(v)));
      return 0;
    }
    const n = v.annotators.length;
    const who = n === 0 ? 'no annotators (the pool is assigned to no one and no annotator has labeled it)' : `${n} annotator${n === 1 ? '' : 's'} (${v.annotators.join(', ')})`;
    const unsure = v.unsure > 0 ? `; ${v.unsure} "?" (unsure) label${v.unsure === 1 ? '' : 's'} left out (a "?" counts as no label here)` : '';
    out.log(`pool ${v.pool} (${v.scheme}): ${who}, ${counted(v.items, 'pair')} in ${counted(v.queries, 'query', 'queries')}${unsure}`);
    out.log(`95% CIs: bootstrap over queries, ${v.bootstrap.resamples} resamples, seed ${v.bootstrap.seed}`);
    const rows: Array<[string, StatView, IntervalView]> = [
      ['percent agreement', v.percentAgreement, v.ci95.percentAgreement],
      ["Fleiss' kappa", v.fleissKappa, v.ci95.fleissKappa],
      ["Krippendorff's alpha nominal", v.krippendorffAlpha.nominal, v.ci95.krippendorffAlpha],
      ["Krippendorff's alpha ordinal", v.krippendorffAlpha.ordinal, v.ci95.krippendorffAlphaOrdinal],
      ["Krippendorff's alpha interval", v.krippendorffAlpha.interval, v.ci95.krippendorffAlphaInterval],
      ["Gwet's AC1", v.gwetAC1, v.ci95.gwetAC1],
    ];
    out.log(table(['statistic', 'value', '95% CI'], rows.map(([name, s, ci]) => [name, fmt(s), fmtCi(ci)])));
    // Why a value is n/a, and what a value was computed on when it is not every item (as the Agreement screen says).
    const why = new Notes();
    for (const [name, s, ci] of rows) {
      why.stat(name, s);
      if (s.value !== null) why.stat(`${name} CI`, ci);
    }
    if (why.text()) out.log(why.text());
    if (v.pairs.length) {
      out.log('');
      out.log(
        table(
          ['a', 'b', 'items', 'agreement', 'kappa', '95% CI', 'linear', 'quadratic', 'PSA', 'NSA'],
          v.pairs.map((p) => [
            p.a,
            p.b,
            p.items,
            fmt(p.percentAgreement),
            fmt(p.cohenKappa),
            fmtCi(p.ci95),
            fmt(p.cohenKappaLinear),
            fmt(p.cohenKappaQuadratic),
            fmt(p.psa),
            fmt(p.nsa),
          ]),
        ),
      );
      const pairWhy = new Notes();
      for (const p of v.pairs) {
        const ab = `${p.a}–${p.b}`;
        pairWhy.stat(`${ab} agreement`, p.percentAgreement);
        pairWhy.stat(`${ab} kappa`, p.cohenKappa);
        if (p.cohenKappa.value !== null) pairWhy.stat(`${ab} CI`, p.ci95);
        if (p.percentAgreement.value !== null) {
          pairWhy.stat(`${ab} PSA`, p.psa);
          pairWhy.stat(`${ab} NSA`, p.nsa);
        }
      }
      if (pairWhy.text()) out.log(pairWhy.text());
    }
    return 0;
  }, { out });
}
