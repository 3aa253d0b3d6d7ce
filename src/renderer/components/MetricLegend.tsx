/** What every metric and mark of the Evaluate screen means (tooltips and the legend). */
import type { ReactNode } from 'react';

export const METRIC_HELP = {
  queries: 'queries evaluated: fully labeled ones (unless partial is on), minus, under “skip”, those without a similar candidate',
  MAP: 'mean average precision over the queries: the mean of each query’s precision at every similar candidate’s rank',
  MRR: 'mean reciprocal rank: the mean of 1 / rank of the first similar candidate',
  'P@1': 'precision at 1: the share of queries whose top candidate is similar',
  'P@5': 'precision at 5: the share of similar candidates among the top five',
  'R-Prec': 'R-precision: precision at R, R being the query’s number of similar candidates',
  AP: 'average precision of this query',
  RR: 'reciprocal rank of this query: 1 / rank of the first similar candidate',
  star: '* a note on how this value was computed (e.g. “Holm over 2 pairs”, the bootstrap’s resamples): hover the value to read it',
  MC: 'MC: Monte Carlo (sampled) permutation test p-value; “exact” when every permutation was enumerated',
  CI: '95% CI: bootstrap percentile confidence interval of the mean difference, resampling queries',
} as const;

export function MetricLegend({ marks = false }: { marks?: boolean }): ReactNode {
  return (
    <dl className="metric-legend" data-testid={marks ? 'compare-legend' : 'metric-legend'}>
      <dt>numbers</dt>
      <dd>percent with two decimals, as in the papers and the CLI (71.35 = 0.7135); “—” when undefined</dd>
      {!marks && (
        <>
          <dt>MAP</dt>
          <dd>{METRIC_HELP.MAP}</dd>
          <dt>MRR</dt>
          <dd>{METRIC_HELP.MRR}</dd>
          <dt>P@1, P@5</dt>
          <dd>{METRIC_HELP['P@1']}; {METRIC_HELP['P@5']}</dd>
          <dt>R-Prec</dt>
          <dd>{METRIC_HELP['R-Prec']}</dd>
          <dt>skip / score 0</dt>
          <dd>a query without any similar candidate is left out (skip) or counts as 0 (score 0)</dd>
        </>
      )}
      {marks && (
        <>
          <dt>*</dt>
          <dd>{METRIC_HELP.star.slice(2)}</dd>
          <dt>MC</dt>
          <dd>{METRIC_HELP.MC.slice(4)}</dd>
          <dt>95% CI</dt>
          <dd>{METRIC_HELP.CI.slice(8)}</dd>
        </>
      )}
    </dl>
  );
}
