import type { AgreementView, IntervalView, StatView } from '../../../shared/gold';
import { shellQuote } from '../../../shared/shell-word';
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
    // Nothing measured (no pair labeled by two of the annotators): the report is printed, and the command fails, as eval and export of nothing do.
    const nothing = noPairLabeledTwice(v, positionals[0]!, annotators !== undefined, queries !== undefined);
    if (values.json) {
      out.log(json(agreementJson(v)));
      return failWith(nothing, out);
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
    return failWith(nothing, out);
  }, { out });
}

function failWith(nothing: string | null, out: Out): number {
  if (nothing === null) return 0;
  out.err(`qpairs agreement: nothing to measure: ${nothing}`);
  return 1;
}

/**
 * Why the report measures nothing — no pair of the pool (of the queries listed) was labeled by two of the annotators
 * (a "?" is no label here) — and what to do, naming the command; null when some pair was.
 */
function noPairLabeledTwice(v: AgreementView, w: string, listed: boolean, someQueries: boolean): string | null {
  if (v.perQuery.some((q) => q.multiplyLabeled > 0)) return null;
  const ws = shellQuote(w);
  const pool = shellQuote(v.pool);
  const among = someQueries ? ' among the queries listed' : '';
  if (v.annotators.length === 0) {
    return `pool ${v.pool} is assigned to no one and no one has labeled it: assign it to two annotators or more (qpairs assign ${ws} --pool ${pool} --annotators A,B) and have them label it`;
  }
  if (v.annotators.length === 1) {
    const [a] = v.annotators;
    return listed
      ? `agreement needs two annotators or more, and --annotators names one (${a}): list another (the pool's annotators are listed without --annotators)`
      : `pool ${v.pool} has one annotator (${a}): assign the pool to a second annotator too (qpairs assign ${ws} --pool ${pool} --annotators ${a},B) and have them label the pairs ${a} labeled`;
  }
  const who = v.annotators.join(', ');
  return (
    `no pair of pool ${v.pool}${among} was labeled by two of ${listed ? 'the annotators listed' : 'its annotators'} (${who}; a "?" counts as no label): ` +
    `have a second annotator label pairs another labeled — every annotator labels every query under a full-overlap assignment (qpairs assign ${ws} --pool ${pool} --annotators ${v.annotators.join(',')}), ` +
    `two or more per query with --per-query 2 --seed S`
  );
}
