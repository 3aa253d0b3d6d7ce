import { agreementJson, poolAgreement } from '../../gold';
import { parse, requireString, table } from '../args';
import { fmt, fmtCi, json, list, positiveInt, intFlag, withWorkspace, type Out } from './common';

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
  return withWorkspace(positionals[0], (ws) => {
    const v = poolAgreement(ws, pool, { annotators, queries, bootstrap, seed });
    if (values.json) {
      out.log(json(agreementJson(v)));
      return 0;
    }
    out.log(`pool ${v.pool} (${v.scheme}): ${v.annotators.length} annotators (${v.annotators.join(', ')}), ${v.items} pairs in ${v.queries} queries`);
    out.log(`95% CIs: bootstrap over queries, ${v.bootstrap.resamples} resamples, seed ${v.bootstrap.seed}`);
    out.log(
      table(
        ['statistic', 'value', '95% CI'],
        [
          ['percent agreement', fmt(v.percentAgreement), fmtCi(v.ci95.percentAgreement)],
          ["Fleiss' kappa", fmt(v.fleissKappa), fmtCi(v.ci95.fleissKappa)],
          ["Krippendorff's alpha nominal", fmt(v.krippendorffAlpha.nominal), fmtCi(v.ci95.krippendorffAlpha)],
          ["Krippendorff's alpha ordinal", fmt(v.krippendorffAlpha.ordinal), fmtCi(v.ci95.krippendorffAlphaOrdinal)],
          ["Krippendorff's alpha interval", fmt(v.krippendorffAlpha.interval), fmtCi(v.ci95.krippendorffAlphaInterval)],
          ["Gwet's AC1", fmt(v.gwetAC1), fmtCi(v.ci95.gwetAC1)],
        ],
      ),
    );
    if (v.pairs.length) {
      out.log('');
      out.log(
        table(
          ['a', 'b', 'items', 'agreement', 'kappa', '95% CI', 'linear', 'quadratic'],
          v.pairs.map((p) => [p.a, p.b, p.items, fmt(p.percentAgreement), fmt(p.cohenKappa), fmtCi(p.ci95), fmt(p.cohenKappaLinear), fmt(p.cohenKappaQuadratic)]),
        ),
      );
    }
    return 0;
  }, { out });
}
