/**
 * The Agreement screen: inter-annotator agreement of a pool (agreement.report) — the pool-level
 * statistics with bootstrap 95% CIs, per annotator pair a confusion matrix and Cohen's kappas,
 * agreement over time, and the per-query disagreements (each opens on the Review screen).
 */
import { Fragment, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { AgreementView, CommandResult } from '../../shared/contract';
import type { IntervalView, PairAgreementView, StatView } from '../../shared/gold';
import type { SharedState } from '../lib/shared-state';
import { useApp, useEvent, useReconnect, useWorkspaceChangedExceptDraws } from '../lib/context';
import { counted } from '../../shared/plural';
import { DEFAULT_RESAMPLES, DEFAULT_SEED, MAX_RESAMPLES } from '../../shared/stat-defaults';
import { errorMessage, fmtInt } from '../lib/format';
import { agreementYRange, overTimeSeries, showCI, showStat } from '../lib/stats';
import { describeLabel } from '../annotate/keys';
import { LineChart } from '../components/LineChart';
import { StatValue } from '../components/StatValue';
import { DataTable, FilterBox, useTableSort, type Column } from '../components/DataTable';
import { useDebounced } from '../lib/hooks';
import { PoolSelect } from '../components/PoolSelect';
import { NoPools } from '../components/NoPools';
import { NumberInput } from '../components/NumberInput';

interface StatRow {
  id: string;
  name: string;
  help: string;
  stat: StatView;
  ci: IntervalView | null;
  ciNote?: string;
}

function poolRows(r: AgreementView): StatRow[] {
  return [
    { id: 'percent', name: 'Percent agreement', help: 'share of agreeing annotator pairs over items labeled by two or more', stat: r.percentAgreement, ci: r.ci95.percentAgreement },
    { id: 'fleiss', name: "Fleiss' κ", help: 'chance-corrected agreement of several annotators (nominal)', stat: r.fleissKappa, ci: r.ci95.fleissKappa },
    { id: 'alpha-nominal', name: "Krippendorff's α (nominal)", help: 'handles missing labels; categories unordered', stat: r.krippendorffAlpha.nominal, ci: r.ci95.krippendorffAlpha },
    { id: 'alpha-ordinal', name: "Krippendorff's α (ordinal)", help: 'categories ordered', stat: r.krippendorffAlpha.ordinal, ci: r.ci95.krippendorffAlphaOrdinal },
    { id: 'alpha-interval', name: "Krippendorff's α (interval)", help: 'categories as numbers', stat: r.krippendorffAlpha.interval, ci: r.ci95.krippendorffAlphaInterval },
    { id: 'ac1', name: "Gwet's AC1", help: 'robust to skewed label distributions', stat: r.gwetAC1, ci: r.ci95.gwetAC1 },
  ];
}

/** The width of an interval (its sort key: narrower = more certain); null when there is none. */
function ciWidth(ci: IntervalView | null | undefined): number | null {
  return ci?.value ? ci.value[1] - ci.value[0] : null;
}

const POOL_STAT_COLUMNS: Array<Column<StatRow>> = [
  { id: 'statistic', header: 'Statistic', cell: (r) => <span title={r.help}>{r.name}</span>, sortValue: (r) => r.name },
  { id: 'value', header: 'Value', className: 'num', cell: (r) => <StatValue shown={showStat(r.stat)} testId={`agreement-${r.id}`} />, sortValue: (r) => r.stat.value },
  {
    id: 'ci',
    header: '95% CI',
    title: 'bootstrap 95% confidence interval; sorts by its width',
    className: 'num',
    cell: (r) =>
      r.ci ? (
        <StatValue shown={showCI(r.ci)} testId={`agreement-${r.id}-ci`} />
      ) : (
        <span className="muted small" title={r.ciNote ?? 'no CI for this statistic'}>
          {r.ciNote ? 'not bootstrapped' : ''}
        </span>
      ),
    sortValue: (r) => ciWidth(r.ci),
  },
];

export function AgreementScreen({ shared }: { shared: SharedState }): ReactNode {
  const { client } = useApp();
  const { pools, pool, setPool } = shared;
  const [people, setPeople] = useState<CommandResult<'annotator.list'>>([]);
  /** Chosen annotators; null = the pool's annotators. */
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [bootstrap, setBootstrap] = useState(DEFAULT_RESAMPLES);
  const [seed, setSeed] = useState(DEFAULT_SEED);
  const [report, setReport] = useState<AgreementView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [ms, setMs] = useState<number | null>(null);
  const [showAll, setShowAll] = useState(false);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => {
    client
      .invoke('annotator.list', {})
      .then(setPeople)
      .catch(() => {});
  }, [client]);
  useEffect(() => {
    setChosen(null);
    setOpen(new Set());
    setReport(null); // the former pool's report is not shown while this one's loads
  }, [pool]);

  const seq = useRef(0);
  const load = useCallback(async () => {
    if (!pool) return;
    // Numbered first: a report still on its way for the former choice must not land after this.
    const my = ++seq.current;
    if (chosen && chosen.length < 2) {
      setError('Choose at least two annotators.');
      // The former choice's figures are not these annotators': no table under the checkboxes that contradicts them.
      setReport(null);
      setLoading(false);
      return;
    }
    setLoading(true);
    const t0 = performance.now();
    try {
      const r = await client.invoke('agreement.report', { pool, bootstrap, seed, ...(chosen ? { annotators: chosen } : {}) });
      if (my !== seq.current) return;
      setReport(r);
      setError(null);
      setMs(performance.now() - t0);
    } catch (e) {
      if (my === seq.current) {
        setError(errorMessage(e));
        setReport(null);
      }
    } finally {
      if (my === seq.current) setLoading(false);
    }
  }, [client, pool, chosen, bootstrap, seed]);
  useEffect(() => void load(), [load]);

  const later = useDebounced(() => void load(), 800);
  useEvent('label.changed', (rec) => {
    if (rec.pool === pool) later();
  });
  useWorkspaceChangedExceptDraws(later);
  useReconnect(() => void load());

  const candidates = [...new Set([...(report?.annotators ?? []), ...people.filter((p) => p.role === 'annotator').map((p) => p.name)])];
  const current = chosen ?? report?.annotators ?? [];
  const toggle = (name: string): void => {
    const base = chosen ?? report?.annotators ?? [];
    setChosen(base.includes(name) ? base.filter((n) => n !== name) : [...base, name]);
  };

  const scheme = report?.scheme ?? 'binary';
  const series = report ? overTimeSeries(report.overTime) : [];
  const yr = agreementYRange(series.flatMap((s) => s.points.map((p) => p[1])));
  // Stable arrays: the table sorts them, and new arrays on every render make it re-render forever.
  const withDisagreements = useMemo(() => (report ? report.perQuery.filter((q) => q.disagreements.length > 0) : []), [report]);
  const listed = useMemo(() => (report ? (showAll ? report.perQuery : withDisagreements) : []), [report, showAll, withDisagreements]);
  const sort = useTableSort(
    listed,
    {
      query: (q) => q.queryId,
      pairs: (q) => q.items,
      multi: (q) => q.multiplyLabeled,
      agreement: (q) => q.percentAgreement?.value ?? null,
      disagreements: (q) => q.disagreements.length,
    },
    { rowId: (q) => q.queryId, filterText: (q) => `${q.queryId} ${q.disagreements.map((d) => d.candidateId).join(' ')}` },
  );
  const statRows = useMemo(() => (report ? poolRows(report) : []), [report]);
  const totalDisagreements = withDisagreements.reduce((n, q) => n + q.disagreements.length, 0);

  // No pools: say what to do, not an empty select and buttons that do nothing.
  if (shared.poolsLoaded && pools.length === 0) {
    return <NoPools role={shared.role} title="Agreement" testId="agreement-no-pools" onOpenPools={() => shared.goTo('pools')} />;
  }

  return (
    <div className="agreement-screen">
      <section className="card">
        <div className="row wrap">
          <h2 className="grow">Agreement</h2>
          <PoolSelect testId="agreement-pool" pools={pools} value={pool} onChange={setPool} />
          <label className="inline" title="bootstrap resamples of queries for the 95% CIs">
            Resamples
            <NumberInput min={1} max={MAX_RESAMPLES} testId="agreement-bootstrap" value={bootstrap} size={6} onChange={setBootstrap} />
          </label>
          <label className="inline">
            Seed
            <NumberInput testId="agreement-seed" value={seed} size={5} onChange={setSeed} />
          </label>
          {/* aria-disabled while computing: a button that turns disabled under the focus drops it to the page. */}
          <button onClick={() => !loading && void load()} data-testid="agreement-refresh" aria-disabled={loading || undefined}>
            {loading ? 'Computing…' : 'Recompute'}
          </button>
        </div>
        {candidates.length > 0 && (
          <fieldset className="radio-row wrap" data-testid="agreement-annotators">
            <legend>Annotators</legend>
            {candidates.map((n) => (
              <label key={n} className="inline">
                <input type="checkbox" data-testid={`agreement-annotator-${n}`} checked={current.includes(n)} onChange={() => toggle(n)} />
                {n}
              </label>
            ))}
            {chosen && (
              <button type="button" className="link-button underline small" onClick={() => setChosen(null)}>
                the pool’s annotators
              </button>
            )}
          </fieldset>
        )}
        {error && (
          <p className="error" role="alert" data-testid="agreement-error">
            {error}
          </p>
        )}
        {report && (
          <p className="small muted" data-testid="agreement-summary">
            <strong>{report.annotators.join(', ') || 'no annotators'}</strong> · {counted(report.items, 'labeled pair')} in {counted(report.queries, 'query', 'queries')}
            {report.unsure > 0 && (
              <span title="the statistics count an unsure label as no label; the Review screen lists these pairs">
                {' '}
                · {fmtInt(report.unsure)} “?” (unsure) {report.unsure === 1 ? 'label' : 'labels'} left out
              </span>
            )}{' '}
            · scale{' '}
            {report.categories.join(' < ')} · 95% CIs by bootstrap over queries ({fmtInt(report.bootstrap.resamples)} resamples, seed {report.bootstrap.seed})
            {ms !== null && <> · computed in {Math.round(ms)} ms</>}
          </p>
        )}
      </section>

      {report && (
        <section className="card">
          <h2>Pool statistics</h2>
          <DataTable<StatRow>
            rows={statRows}
            columns={POOL_STAT_COLUMNS}
            rowId={(r) => r.id}
            testId="agreement-stats"
            className="stats-table"
            rowTestId={(r) => `stat-row-${r.id}`}
            filter={(r) => `${r.name} ${r.help}`}
            filterLabel="Filter statistics"
            caption="Pool statistics"
          />
        </section>
      )}

      {report && report.pairs.length > 0 && (
        <section className="card">
          <h2>Annotator pairs</h2>
          <div className="pairs-grid">
            {report.pairs.map((p) => (
              <PairCard key={`${p.a}|${p.b}`} p={p} categories={report.categories} scheme={scheme} />
            ))}
          </div>
        </section>
      )}

      {report && (
        <section className="card">
          <h2>Agreement over time</h2>
          {series.every((s) => s.points.length === 0) ? (
            <p className="muted" data-testid="agreement-chart-empty">
              The curve appears once two annotators have labeled the same query.
            </p>
          ) : (
            <LineChart testId="agreement-chart" series={series} xLabel="co-labeled queries (in labeling order)" yLabel="agreement" yMin={yr.yMin} yMax={yr.yMax} />
          )}
        </section>
      )}

      {report && (
        <section className="card" data-testid="agreement-disagreements">
          <div className="row wrap">
            <h2 className="grow">
              Disagreements <span className="muted small" data-testid="agreement-disagreement-count">{counted(totalDisagreements, 'pair')} in {counted(withDisagreements.length, 'query', 'queries')}</span>
            </h2>
            <label className="inline small">
              <input type="checkbox" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} data-testid="agreement-show-all" />
              show every query
            </label>
          </div>
          {listed.length === 0 ? (
            <p className="muted">No disagreements{report.items ? '' : ' yet'}.</p>
          ) : (
            <>
            <FilterBox value={sort.filter} onChange={sort.setFilter} label="Filter queries" testId="disagreement-filter" shown={sort.rows.length} total={listed.length} />
            <table className="data" data-testid="disagreement-table">
              <thead>
                <tr>
                  {sort.header('query', 'Query', { testId: 'disagreement-sort-query' })}
                  {sort.header('pairs', 'Pairs', { className: 'num', title: 'candidate pairs of the query' })}
                  {sort.header('multi', 'Labeled by 2+', { className: 'num', title: 'pairs labeled by two annotators or more' })}
                  {sort.header('agreement', 'Agreement', { className: 'num', title: 'percent agreement over the pairs labeled by 2+' })}
                  {sort.header('disagreements', 'Disagreements', { className: 'num', title: 'pairs whose annotators gave different labels' })}
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {sort.rows.map((q) => {
                  const isOpen = open.has(q.queryId);
                  return (
                    <Fragment key={q.queryId}>
                      <tr data-testid={`disagreement-query-${q.queryId}`}>
                        <td>
                          <button
                            className="link-button"
                            onClick={() => setOpen((s) => (s.has(q.queryId) ? new Set([...s].filter((x) => x !== q.queryId)) : new Set([...s, q.queryId])))}
                            aria-expanded={isOpen}
                            disabled={q.disagreements.length === 0}
                          >
                            {/* Decoration: the button's name is the query's id, aria-expanded says open or closed. */}
                            {q.disagreements.length > 0 && <span aria-hidden="true">{isOpen ? '▾ ' : '▸ '}</span>}
                            {q.queryId}
                          </button>
                        </td>
                        <td className="num">{fmtInt(q.items)}</td>
                        <td className="num">{fmtInt(q.multiplyLabeled)}</td>
                        <td className="num">
                          <StatValue shown={showStat(q.percentAgreement)} />
                        </td>
                        <td className="num">{fmtInt(q.disagreements.length)}</td>
                        <td className="row-actions">
                          {q.disagreements.length > 0 && (
                            <button data-testid={`disagreement-review-${q.queryId}`} onClick={() => shared.openReview({ pool: report.pool, queryId: q.queryId })}>
                              Review
                            </button>
                          )}
                        </td>
                      </tr>
                      {isOpen &&
                        q.disagreements.map((d) => (
                          <tr key={d.candidateId} className="sub-row" data-testid={`disagreement-${q.queryId}-${d.candidateId}`}>
                            <td colSpan={4} className="small">
                              <button
                                className="link-button underline"
                                title="open this pair on the Review screen"
                                onClick={() => shared.openReview({ pool: report.pool, queryId: q.queryId, candidateId: d.candidateId })}
                              >
                                {d.candidateId}
                              </button>
                            </td>
                            <td colSpan={2} className="small">
                              {Object.entries(d.labels)
                                .map(([who, v]) => `${who}: ${describeLabel(scheme, v).text || v}`)
                                .join(' · ')}
                            </td>
                          </tr>
                        ))}
                    </Fragment>
                  );
                })}
              </tbody>
            </table>
            </>
          )}
        </section>
      )}
    </div>
  );
}

interface PairStatRow {
  id: string;
  name: string;
  stat: StatView;
  ci: IntervalView | null;
}

function pairStatColumns(pairId: string): Array<Column<PairStatRow>> {
  return [
    { id: 'statistic', header: 'Statistic', cell: (r) => r.name, sortValue: (r) => r.name },
    { id: 'value', header: 'Value', className: 'num', cell: (r) => <StatValue shown={showStat(r.stat)} testId={`pair-${pairId}-${r.id}`} />, sortValue: (r) => r.stat.value },
    {
      id: 'ci',
      header: '95% CI',
      title: 'bootstrap 95% confidence interval; sorts by its width',
      className: 'num',
      cell: (r) => r.ci && <StatValue shown={showCI(r.ci)} testId={`pair-${pairId}-${r.id}-ci`} />,
      sortValue: (r) => ciWidth(r.ci),
    },
  ];
}

function PairCard({ p, categories, scheme }: { p: PairAgreementView; categories: string[]; scheme: string }): ReactNode {
  const id = `${p.a}-${p.b}`;
  const statRows = useMemo<PairStatRow[]>(
    () => [
      { id: 'percent', name: 'Percent agreement', stat: p.percentAgreement, ci: null },
      { id: 'kappa', name: "Cohen's κ", stat: p.cohenKappa, ci: p.ci95 },
      { id: 'kappa-linear', name: "Cohen's κ (linear weights)", stat: p.cohenKappaLinear, ci: null },
      { id: 'kappa-quadratic', name: "Cohen's κ (quadratic weights)", stat: p.cohenKappaQuadratic, ci: null },
      { id: 'psa', name: 'Positive specific agreement', stat: p.psa, ci: null },
      { id: 'nsa', name: 'Negative specific agreement', stat: p.nsa, ci: null },
    ],
    [p],
  );
  const columns = useMemo(() => pairStatColumns(id), [id]);
  const rowTotals = p.confusion.map((r) => r.reduce((a, b) => a + b, 0));
  const colTotals = categories.map((_, j) => p.confusion.reduce((a, r) => a + (r[j] ?? 0), 0));
  const label = (c: string): string => describeLabel(scheme, c).text || c;
  return (
    <div className="pair-card" data-testid={`pair-${id}`}>
      <h3>
        {p.a} × {p.b} <span className="muted small">{fmtInt(p.items)} pairs labeled by both</span>
      </h3>
      <DataTable<PairStatRow>
        rows={statRows}
        columns={columns}
        rowId={(r) => r.id}
        testId={`pair-${id}-stats`}
        className="compact"
        filter={(r) => r.name}
        filterLabel="Filter"
        caption={`agreement of ${p.a} and ${p.b}`}
      />
      <table className="data compact confusion" data-testid={`confusion-${id}`} aria-label={`confusion matrix: rows ${p.a}, columns ${p.b}`}>
        <thead>
          <tr>
            <th className="corner">
              {p.a} ↓ · {p.b} →
            </th>
            {categories.map((c) => (
              <th key={c} className="num">
                {label(c)}
              </th>
            ))}
            <th className="num">Σ</th>
          </tr>
        </thead>
        <tbody>
          {categories.map((c, i) => (
            <tr key={c}>
              <th>{label(c)}</th>
              {categories.map((_, j) => {
                const n = p.confusion[i]?.[j] ?? 0;
                return (
                  <td key={j} className={`num ${i === j ? 'diag' : n > 0 ? 'off' : ''}`} data-testid={`confusion-${id}-${i}-${j}`}>
                    {fmtInt(n)}
                  </td>
                );
              })}
              <td className="num muted">{fmtInt(rowTotals[i] ?? 0)}</td>
            </tr>
          ))}
          <tr>
            <th>Σ</th>
            {colTotals.map((n, j) => (
              <td key={j} className="num muted">
                {fmtInt(n)}
              </td>
            ))}
            <td className="num muted">{fmtInt(rowTotals.reduce((a, b) => a + b, 0))}</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}
