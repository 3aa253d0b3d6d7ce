/**
 * The Evaluate screen's ranker comparison (eval.compare): chosen runs on one per-query metric,
 * per pair of runs the mean difference with its bootstrap 95% CI, the paired t-test and the
 * paired permutation (sign-flip) test, both Holm-adjusted over the compared pairs, and whether
 * each rejects at the chosen family-wise level.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { CompareView, Convention, TieRule } from '../../shared/contract';
import { COMPARE_METRICS, DEFAULT_COMPARE_METRIC, type CompareMetric } from '../../shared/gold';
import { describeSelectedOn } from '../../shared/selected-on';
import { DEFAULT_ALPHA, DEFAULT_PERMUTATIONS, DEFAULT_RESAMPLES, DEFAULT_SEED, MAX_PERMUTATIONS, MAX_RESAMPLES } from '../../shared/stat-defaults';
import { useApp, useEvent, useReconnect } from '../lib/context';
import { errorMessage, fmtInt } from '../lib/format';
import { showCI, showP, showPct, showStat } from '../lib/stats';
import { DataTable } from '../components/DataTable';
import { METRIC_HELP, MetricLegend } from '../components/MetricLegend';
import { StatValue } from '../components/StatValue';
import { useDebounced } from '../lib/hooks';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { NumberInput } from '../components/NumberInput';

export function ComparePanel({
  pool,
  annotator,
  convention,
  runNames,
  partialQueries = 0,
  ties = 'pool-order',
  threshold = 1,
}: {
  pool: string;
  annotator: string;
  convention: Convention;
  /** As the table above: how equal scores are ranked and the grade from which a label is relevant. */
  ties?: TieRule;
  threshold?: number;
  runNames: string[];
  /** Partly labeled queries the table above counts ("include partially labeled queries"); the comparison never does. */
  partialQueries?: number;
}): ReactNode {
  const { client } = useApp();
  const [picked, setPicked] = useState<string[] | null>(null);
  const [metric, setMetric] = useState<CompareMetric>(DEFAULT_COMPARE_METRIC);
  const [baseline, setBaseline] = useState('');
  const [alpha, setAlpha] = useState(DEFAULT_ALPHA);
  const [bootstrap, setBootstrap] = useState(DEFAULT_RESAMPLES);
  const [permutations, setPermutations] = useState(DEFAULT_PERMUTATIONS);
  const [seed, setSeed] = useState(DEFAULT_SEED);
  const [view, setView] = useState<CompareView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    setPicked(null);
    setBaseline('');
  }, [pool]);
  const runs = (picked ?? runNames).filter((r) => runNames.includes(r));
  const key = runNames.join('\u0000');

  const seq = useRef(0);
  const compare = useCallback(async () => {
    if (!pool || runs.length < 2) {
      setView(null);
      return;
    }
    const my = ++seq.current;
    setLoading(true);
    try {
      const v = await client.invoke('eval.compare', {
        pool,
        runs,
        metric,
        convention,
        ties,
        threshold,
        bootstrap,
        permutations,
        seed,
        alpha,
        ...(annotator ? { annotator } : {}),
        ...(baseline && runs.includes(baseline) ? { baseline } : {}),
      });
      if (my !== seq.current) return;
      setView(v);
      setError(null);
    } catch (e) {
      if (my === seq.current) {
        setError(errorMessage(e));
        setView(null);
      }
    } finally {
      if (my === seq.current) setLoading(false);
    }
    // runs is derived from picked and runNames (key)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, pool, annotator, convention, ties, threshold, metric, baseline, alpha, bootstrap, permutations, seed, picked, key]);
  useEffect(() => void compare(), [compare]);

  const recompare = useDebounced(() => void compare(), 700);
  useEvent('label.changed', (rec) => {
    if (rec.pool === pool) recompare();
  });
  // Labels, rulings or runs that changed while the events could not reach us (another process's
  // commit, a break in the connection) change the comparison as they change the table above.
  useEvent('workspace.changed', recompare);
  useReconnect(() => void compare());

  const toggle = (r: string): void => {
    const cur = picked ?? runNames;
    setPicked(cur.includes(r) ? cur.filter((x) => x !== r) : runNames.filter((x) => x === r || cur.includes(x)));
  };

  return (
    <section className="card" data-testid="compare-panel">
      <div className="row wrap">
        <h2 className="grow">Compare rankers</h2>
        <label className="inline">
          Metric
          <ChoiceSelect testId="compare-metric" choices={COMPARE_METRICS} value={metric} onChange={setMetric} />
        </label>
        <label className="inline" title="compare every run with this one instead of every pair">
          Baseline
          <ChoiceSelect testId="compare-baseline" choices={runs} value={baseline} onChange={setBaseline} emptyText="(every pair)" />
        </label>
        <label className="inline" title="family-wise significance level (Holm)">
          α
          <NumberInput step={0.01} min={0.001} max={0.5} size={4} testId="compare-alpha" value={alpha} onChange={setAlpha} />
        </label>
        <details className="inline-details">
          <summary className="small">resampling</summary>
          <label className="inline small">
            bootstrap
            <NumberInput min={1} max={MAX_RESAMPLES} size={6} value={bootstrap} onChange={setBootstrap} testId="compare-bootstrap" />
          </label>
          <label className="inline small">
            permutations
            <NumberInput min={1} max={MAX_PERMUTATIONS} size={7} value={permutations} onChange={setPermutations} testId="compare-permutations" />
          </label>
          <label className="inline small">
            seed
            <NumberInput size={5} value={seed} onChange={setSeed} testId="compare-seed" />
          </label>
        </details>
      </div>
      <fieldset className="radio-row wrap" data-testid="compare-runs">
        <legend>Runs</legend>
        {runNames.map((r) => (
          <label key={r} className="inline">
            <input type="checkbox" data-testid={`compare-run-${r}`} checked={runs.includes(r)} onChange={() => toggle(r)} />
            {r}
          </label>
        ))}
      </fieldset>
      {runNames.length < 2 && <p className="muted">Comparing needs two or more runs in the pool (import a TREC run into it on the Workspace screen).</p>}
      {runNames.length >= 2 && runs.length < 2 && <p className="muted">Choose two or more runs.</p>}
      {error && (
        <p className="error" role="alert" data-testid="compare-error">
          {error}
        </p>
      )}
      {view && (
        <>
          <p className="small muted" data-testid="compare-summary">
            {view.metric} per query on <strong data-testid="compare-queries">{fmtInt(view.queries)}</strong> queries labeled by <strong>{view.annotator}</strong> ·
            convention {view.convention} · ties {view.ties} · similar from grade {view.threshold} · bootstrap {fmtInt(view.bootstrap.resamples)} (seed {view.bootstrap.seed}) · {fmtInt(view.permutations)} permutations · Holm at α ={' '}
            {view.alpha}
            {loading && ' · updating…'}
          </p>
          {partialQueries > 0 && (
            <p className="small note-box" role="status" data-testid="compare-partial-note">
              The comparison counts fully labeled queries only, as <code>qpairs eval --compare</code> (which takes no <code>--partial</code>): the{' '}
              {partialQueries === 1 ? 'partially labeled query' : `${fmtInt(partialQueries)} partially labeled queries`} the table above includes {partialQueries === 1 ? 'is' : 'are'} left out here.
            </p>
          )}
          <p className="small">
            {view.runs.map((r) => (
              <span key={r.name} className="run-mean" data-testid={`compare-mean-${r.name}`}>
                {r.name}: <StatValue shown={showPct(r.mean)} />
              </span>
            ))}
          </p>
          {view.runs
            .filter((r) => r.overlap === null || (r.overlap && r.overlap.trainedOn > 0))
            .map((r) => (
              <p key={r.name} className="small error" data-testid={`compare-overlap-${r.name}`}>
                {r.overlap
                  ? `${r.name}'s model was trained on ${fmtInt(r.overlap.trainedOn)} of the ${fmtInt(view.queries)} compared ${view.queries === 1 ? 'query' : 'queries'} (same id, same text or near-duplicate): its figures here are not held out, and neither is a difference with it.`
                  : `${r.name}'s model was trained before QPairs recorded training queries: whether it saw the compared queries is unknown.`}
              </p>
            ))}
          {view.runs
            .filter((r) => !!r.selectedOn)
            .map((r) => (
              <p key={r.name} className="small error" data-testid={`compare-selected-on-${r.name}`}>
                {r.name}: {describeSelectedOn(r.name, r.selectedOn!)}: its figures here are optimistic, not held out, and neither is a difference with it.
              </p>
            ))}
          {view.runs
            .filter((r) => !!r.unscoredQueries)
            .map((r) => (
              <p key={r.name} className="small error" data-testid={`compare-unscored-${r.name}`}>
                {r.name} scores no candidate of {fmtInt(r.unscoredQueries!)} of the {fmtInt(view.queries)} compared {view.queries === 1 ? 'query' : 'queries'}: there it is ranked in
                the pool’s own order, which can flatter it.
              </p>
            ))}
          {view.runs
            .filter((r) => !!r.uniformQueries)
            .map((r) => (
              <p key={r.name} className="small error" data-testid={`compare-uniform-${r.name}`}>
                {r.name} gives every candidate the same score in {fmtInt(r.uniformQueries!)} of the {fmtInt(view.queries)} compared {view.queries === 1 ? 'query' : 'queries'}: there the tie rule ranks
                them ({view.ties === 'trec-eval' ? 'descending id order, the trec-eval tie rule' : "the pool's own order"}), which can flatter it.
              </p>
            ))}
          {view.pairs.length > 0 && (
            <>
              <DataTable<Pair>
                testId="compare-table"
                className="compare"
                caption="Paired differences between rankers"
                rows={view.pairs}
                rowId={(p) => `${p.a}|${p.b}`}
                rowTestId={(p) => `compare-row-${p.a}-${p.b}`}
                filter={(p) => `${p.a} ${p.b}`}
                filterLabel="Filter pairs"
                columns={[
                  { id: 'pair', header: 'A − B', title: 'the two rankers compared: A’s per-query metric minus B’s', sortValue: (p) => `${p.a} ${p.b}`, cell: (p) => `${p.a} − ${p.b}` },
                  { id: 'n', header: 'n', title: 'queries both rankers are evaluated on', className: 'num', sortValue: (p) => p.n, cell: (p) => fmtInt(p.n) },
                  {
                    id: 'diff',
                    header: 'Δ mean',
                    title: `mean of A − B per query, in percentage points (${view.metric})`,
                    className: 'num',
                    sortValue: (p) => p.meanDiff?.value ?? null,
                    cell: (p) => <StatValue shown={showPct(p.meanDiff)} testId="compare-diff" />,
                  },
                  { id: 'ci', header: '95% CI', title: METRIC_HELP.CI, className: 'num', cell: (p) => <StatValue shown={showCI(p.ci95, 2, 100)} testId="compare-ci" /> },
                  {
                    id: 't',
                    header: 't',
                    title: 'paired t statistic (its degrees of freedom on hover)',
                    className: 'num',
                    sortValue: (p) => p.t?.value ?? null,
                    cell: (p) => (
                      <span title={`df ${p.df}`}>
                        <StatValue shown={showStat(p.t, 2)} testId="compare-t" />
                      </span>
                    ),
                  },
                  { id: 'pT', header: 'p (t-test)', title: 'two-sided paired t-test p-value', className: 'num', sortValue: (p) => p.pT?.value ?? null, cell: (p) => <StatValue shown={showP(p.pT)} testId="compare-p-t" /> },
                  {
                    id: 'pPerm',
                    header: 'p (perm.)',
                    title: `two-sided paired permutation (sign-flip) test p-value; ${METRIC_HELP.MC}`,
                    className: 'num',
                    sortValue: (p) => p.pPermutation?.value ?? null,
                    cell: (p) => (
                      <span title={p.permutationMethod === 'exact' ? 'exact: every sign flip' : 'MC: Monte Carlo sign flips'}>
                        <StatValue shown={showP(p.pPermutation)} testId="compare-p-perm" />
                        {/* How a p-value was computed; none when there is no p (no queries): "— (no pairs) exact" said nothing true. */}
                        {p.pPermutation?.value != null && <span className="muted small"> {p.permutationMethod === 'exact' ? 'exact' : 'MC'}</span>}
                      </span>
                    ),
                  },
                  { id: 'holmT', header: 'Holm p (t)', title: 't-test p-value after Holm’s correction over all pairs', className: 'num', sortValue: (p) => p.pHolmT?.value ?? null, cell: (p) => <StatValue shown={showP(p.pHolmT)} testId="compare-holm-t" /> },
                  {
                    id: 'holmPerm',
                    header: 'Holm p (perm.)',
                    title: 'permutation p-value after Holm’s correction over all pairs',
                    className: 'num',
                    sortValue: (p) => p.pHolmPermutation?.value ?? null,
                    cell: (p) => <StatValue shown={showP(p.pHolmPermutation)} testId="compare-holm-perm" />,
                  },
                  {
                    id: 'reject',
                    header: 'Reject H₀',
                    title: 'whether the difference is significant at α after Holm’s correction: t-test / permutation test',
                    cellTestId: () => 'compare-reject',
                    cell: (p) => (
                      <>
                        <Reject r={p.rejectT} /> / <Reject r={p.rejectPermutation} />
                      </>
                    ),
                  },
                ]}
              />
              <MetricLegend marks />
            </>
          )}
        </>
      )}
    </section>
  );
}

type Pair = CompareView['pairs'][number];

function Reject({ r }: { r: boolean | null }): ReactNode {
  if (r === null) return <span className="muted" title="undefined p-value">—</span>;
  return r ? <strong className="reject yes">yes</strong> : <span className="reject no">no</span>;
}
