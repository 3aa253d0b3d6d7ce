import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { Convention, PoolEvaluation, QueryEvaluation, RunMetrics, TieRule } from '../../shared/contract';
import { DEFAULT_RELEVANCE_THRESHOLD, everyGradeSimilarNote } from '../../shared/labels';
import { DEFAULT_TIES } from '../../shared/stat-defaults';
import { describeSelectedOn } from '../../shared/selected-on';
import { GradeThreshold } from '../components/GradeThreshold';
import type { SharedState } from '../lib/shared-state';
import { useApp, useEvent, useReconnect, useWorkspaceChangedExceptDraws } from '../lib/context';
import { errorMessage, fmtInt, fmtMetric } from '../lib/format';
import { LineChart, PALETTE } from '../components/LineChart';
import { ComparePanel } from './ComparePanel';
import { LabelOrderPanel } from './LabelOrderPanel';
import { LivePanel } from './LivePanel';
import { useDebounced } from '../lib/hooks';
import { mayCall } from '../lib/roles';
import { ClientError } from '../client/types';
import { DataTable, type Column } from '../components/DataTable';
import { METRIC_HELP, MetricLegend } from '../components/MetricLegend';
import { PoolSelect } from '../components/PoolSelect';
import { NoPools } from '../components/NoPools';
import { drillNote } from '../lib/drill-note';
import { ChoiceSelect } from '../components/ChoiceSelect';

const isForbidden = (e: unknown): boolean => e instanceof ClientError && e.code === 'forbidden';

const METRICS = ['MAP', 'MRR', 'P@1', 'P@5', 'R-Prec'] as const;
type Metric = (typeof METRICS)[number];
const metricId = (m: Metric): string => m.replace('@', '').replace('-', '');

type Evaluation = PoolEvaluation;
/** The label source chosen by the engine's default rule (shared with the CLI): annotator omitted. */
const DEFAULT_SOURCE = '@default';
type RunRow = { run: string; i: number; r: RunMetrics };
const nullMetric = (x: unknown): boolean => x == null || (typeof x === 'number' && !Number.isFinite(x));

export function EvaluateScreen({ shared }: { shared: SharedState }): ReactNode {
  const { client } = useApp();
  const { pools, pool, setPool, role } = shared;
  // In a blind pool an annotator may not see metrics (the engine refuses eval.* with 403): say so
  // instead of asking. `refused` covers a pool list that is not up to date yet.
  const poolInfo = pools.find((p) => p.name === pool) ?? null;
  const [refused, setRefused] = useState<string | null>(null);
  const blindForMe = role === 'annotator' && (poolInfo?.blind === true || refused === pool);
  const [annotators, setAnnotators] = useState<string[]>([]);
  const [who, setWho] = useState<string>('');
  // Issue 24: null = the pool's own convention (PoolInfo.convention), which the engine uses when none is sent.
  const [conventionChoice, setConvention] = useState<Convention | null>(null);
  useEffect(() => setConvention(null), [pool]);
  const convention: Convention = conventionChoice ?? poolInfo?.convention ?? 'zero';
  const [metric, setMetric] = useState<Metric>('MAP');
  // The evaluation with the pool it is of: another pool's is never shown while this one's loads.
  const [evFor, setEvFor] = useState<{ pool: string; ev: Evaluation } | null>(null);
  const ev = evFor && evFor.pool === pool ? evFor.ev : null;
  const [partial, setPartial] = useState(false);
  // As the CLI's --ties and --threshold (defaults: pool order, relevant from grade 1); the threshold
  // is the pool's business (its scheme's grades), so a new pool starts at the default.
  const [ties, setTies] = useState<TieRule>(DEFAULT_TIES);
  const [threshold, setThreshold] = useState(DEFAULT_RELEVANCE_THRESHOLD);
  useEffect(() => setThreshold(DEFAULT_RELEVANCE_THRESHOLD), [pool]);
  const graded = poolInfo !== null && poolInfo.scheme !== 'binary';
  const [evError, setEvError] = useState<string | null>(null);
  const [latency, setLatency] = useState<number | null>(null);
  /** Bumped with each re-evaluation after a change: the drill-down reads its query again. */
  const [updates, setUpdates] = useState(0);
  /** Bumped when the people may have changed: the label sources are read again (once per visit otherwise, not per re-evaluation). */
  const [peopleVersion, setPeopleVersion] = useState(0);

  useEffect(() => {
    client
      .invoke('annotator.list', {})
      .then((list) => setAnnotators(list.map((a) => a.name)))
      .catch(() => {});
  }, [client, peopleVersion]);

  // Default: for judges and owners the CLI's rule (the engine's: gold when the pool has gold
  // labels, else @aggregate); an annotator starts on their own labels, else gold, else whoever has labels.
  useEffect(() => {
    if (who) return;
    if (role !== 'annotator') setWho(DEFAULT_SOURCE);
    else if (shared.annotator && annotators.includes(shared.annotator)) setWho(shared.annotator);
    else if (annotators.includes('gold')) setWho('gold');
    else if (annotators.length) setWho(annotators[0]!);
  }, [annotators, shared.annotator, who, role]);

  const seq = useRef(0);
  const evaluate = useCallback(async () => {
    if (!pool || !who) return;
    const my = ++seq.current;
    if (role === 'annotator' && poolInfo?.blind) {
      setEvFor(null);
      setEvError(null);
      return;
    }
    const t0 = performance.now();
    try {
      const r = await client.invoke('eval.pool', { pool, ...(who === DEFAULT_SOURCE ? {} : { annotator: who }), ...(conventionChoice ? { convention: conventionChoice } : {}), partial, ties, threshold });
      if (my !== seq.current) return;
      setLatency(performance.now() - t0);
      setEvFor({ pool, ev: r });
      setEvError(null);
      setRefused((cur) => (cur === pool ? null : cur));
    } catch (e) {
      if (my !== seq.current) return;
      if (isForbidden(e) && role === 'annotator') {
        setEvFor(null);
        setEvError(null);
        setRefused(pool);
      } else setEvError(errorMessage(e));
    }
  }, [client, pool, who, conventionChoice, role, poolInfo?.blind, partial, ties, threshold]);
  useEffect(() => void evaluate(), [evaluate]);

  const reevaluate = useDebounced(() => {
    void evaluate();
    setUpdates((u) => u + 1);
  }, 80);
  useEvent('label.changed', (rec) => {
    if (rec.pool !== pool) return;
    if (!annotators.includes(rec.annotator)) setPeopleVersion((v) => v + 1);
    if (rec.annotator !== who && who !== '@aggregate' && who !== DEFAULT_SOURCE) return;
    reevaluate();
  });
  // After a change the events did not name, or a break in the connection, the drill-down (version)
  // and the label sources are reloaded with the table: labels may have changed meanwhile.
  const refreshAll = (): void => {
    void evaluate();
    setUpdates((u) => u + 1);
    setPeopleVersion((v) => v + 1);
  };
  // An ordered pool's draws (an annotator given their next query) change no label and no one: nothing to read.
  useWorkspaceChangedExceptDraws(refreshAll);
  useReconnect(refreshAll);

  const runs = ev ? Object.entries(ev.runs) : [];
  const series = ev
    ? Object.keys(ev.runs).map((run) => ({
        name: run,
        // percent, as the table (null metrics are left out of the curve)
        points: ev.curve
          .filter((pt) => pt.runs[run] && !nullMetric(pt.runs[run]![metric]))
          .map((pt) => [pt.labeledQueries, 100 * pt.runs[run]![metric]] as [number, number]),
      }))
    : [];

  // No pools: say what to do, not an empty select and buttons that do nothing.
  if (shared.poolsLoaded && pools.length === 0) {
    return <NoPools role={shared.role} title="Evaluation" testId="eval-no-pools" onOpenPools={() => shared.goTo('pools')} />;
  }

  return (
    <div className="evaluate-screen">
      <section className="card">
        <div className="row wrap">
          <h2 className="grow">Evaluation</h2>
          <PoolSelect testId="eval-pool" pools={pools} value={pool} onChange={setPool} />
          {!blindForMe && (
            <>
              <label className="inline">
                Labels of
                <select data-testid="eval-annotator" value={who} onChange={(e) => setWho(e.target.value)}>
                  <option value={DEFAULT_SOURCE} title="as the CLI's eval: gold when the pool has gold labels, else @aggregate (gold while no one has labeled the pool)">
                    default (as the CLI){ev && who === DEFAULT_SOURCE ? `: ${ev.annotator}` : ''}
                  </option>
                  {!annotators.includes(who) && who && who !== '@aggregate' && who !== DEFAULT_SOURCE && <option value={who}>{who}</option>}
                  {annotators.map((a) => (
                    <option key={a} value={a} title={a === 'gold' ? 'imported gold labels' : `${a}'s labels`}>
                      {a}
                    </option>
                  ))}
                  <option value="@aggregate" title="all annotators' labels combined by the pool's rule">
                    @aggregate (the pool's rule)
                  </option>
                </select>
              </label>
              <fieldset className="radio-row inline" title="Queries without any similar candidate: skip them, or count them as 0">
                <legend>No similar candidate</legend>
                <label className="inline">
                  <input type="radio" name="convention" data-testid="convention-skip" checked={convention === 'skip'} onChange={() => setConvention('skip')} />
                  skip query
                </label>
                <label className="inline">
                  <input type="radio" name="convention" data-testid="convention-zero" checked={convention === 'zero'} onChange={() => setConvention('zero')} />
                  score 0
                </label>
              </fieldset>
              <label className="inline" title="Count queries that are only partly labeled too; their unlabeled candidates count as not similar. Off: only fully labeled queries count (as the CLI's eval).">
                <input type="checkbox" data-testid="eval-partial" checked={partial} onChange={(e) => setPartial(e.target.checked)} />
                include partially labeled queries
              </label>
              <label className="inline" title="How a run's equal scores are ranked (the CLI's --ties): in the pool's candidate order, or as trec_eval does (by document id, descending)">
                Equal scores
                <select data-testid="eval-ties" value={ties} onChange={(e) => setTies(e.target.value as TieRule)}>
                  <option value="pool-order">in pool order</option>
                  <option value="trec-eval">as trec_eval (id descending)</option>
                </select>
              </label>
              {graded && (
                <label className="inline" title="The grade from which a label counts as similar (the CLI's --threshold; default 1: SemEval PerfectMatch and Relevant, Likert above 0)">
                  Similar from grade
                  <GradeThreshold value={threshold} onChange={setThreshold} />
                </label>
              )}
            </>
          )}
        </div>

        {blindForMe && (
          <div className="note-box" role="status" data-testid="eval-blind">
            <strong>Pool “{pool}” is blind.</strong> While you label it you see only your own labels: no metrics, no rankers’ scores and no one
            else’s labels, so that your labels stay independent. The figures appear here if the pool’s owner opens the pool.
          </div>
        )}
        {evError && (
          <p className="error" role="alert" data-testid="eval-error">
            {evError}
          </p>
        )}
        {!who && !blindForMe && <p className="muted">No labels in this workspace yet.</p>}
        {ev && !blindForMe && (
          <>
            <p className="small muted" data-testid="eval-summary">
              <span data-testid="eval-labeled-queries">{fmtInt(ev.labeledQueries)}</span>
              {' / '}
              <span data-testid="eval-total-queries">{fmtInt(ev.totalQueries)}</span> queries {ev.partial ? 'with labels' : 'fully labeled'} by{' '}
              <strong>{ev.annotator}</strong>
              {ev.annotatorChosenBy === 'default' && <span title="the default source, as in the CLI: gold when the pool has gold labels, else @aggregate (gold while no one has labeled the pool)"> (default)</span>} ·{' '}
              <span data-testid="eval-partially">{fmtInt(ev.partiallyLabeledQueries)}</span> partially labeled {ev.partial ? 'included' : 'left out'} · convention{' '}
              <span data-testid="eval-convention">{ev.convention}</span>
              {ev.conventionChosenBy === 'pool' && (
                <span data-testid="eval-convention-default" title="each pool keeps its source's convention: SemEval imports zero, AskUbuntu pools skip, your own pools as created (default zero)">
                  {' '}
                  (the pool’s default)
                </span>
              )}{' '}
              · ties {ev.ties}
              {graded && <> · similar from grade <span data-testid="eval-threshold-shown">{ev.threshold}</span></>}
              {latency !== null && <> · computed in {Math.round(latency)} ms</>}
            </p>
            <p className="small muted" data-testid="eval-labeling">
              {ev.labeling}
            </p>
            {ev.reason && (
              <p className="note-box" role="status" data-testid="eval-reason">
                {ev.reason}
              </p>
            )}
            {ev.convention === 'zero' && runs.length > 0 && ev.labeledQueries > 0 && ev.withoutRelevant === ev.labeledQueries && (
              <p className="note-box" role="status" data-testid="eval-no-similar">
                None of the {fmtInt(ev.labeledQueries)} counted {ev.labeledQueries === 1 ? 'query has' : 'queries have'} a similar candidate (grade {ev.threshold} or above) in the labels of{' '}
                {ev.annotator}: every figure is 0 whatever the rankers’ order (score 0).
              </p>
            )}
            {poolInfo && runs.length > 0 && everyGradeSimilarNote(poolInfo.scheme, ev.threshold) && (
              <p className="note-box" role="status" data-testid="eval-every-similar">
                {/* The CLI's "! similar from grade 0 …" as a sentence. */}
                {everyGradeSimilarNote(poolInfo.scheme, ev.threshold)!.replace(/^s/, 'S')}.
              </p>
            )}
            {runs.length === 0 ? (
              <p className="muted" data-testid="eval-no-runs">
                This pool has no ranker runs to evaluate.
              </p>
            ) : (
              <>
                <DataTable<RunRow>
                  testId="metrics-table"
                  caption="Each ranker's metrics, in percent"
                  rows={runs.map(([run, r], i) => ({ run, i, r: r as RunRow['r'] }))}
                  rowId={(x) => x.run}
                  rowTestId={(x) => `metrics-row-${x.run}`}
                  filter={(x) => x.run}
                  filterLabel="Filter rankers"
                  columns={[
                    {
                      id: 'run',
                      header: 'Ranker',
                      title: 'the run: a retriever’s or a model’s scores over the pool’s candidates',
                      sortValue: (x) => x.run,
                      cell: (x) => (
                        <>
                          <span className="swatch" style={{ background: PALETTE[x.i % PALETTE.length] }} /> {x.run}
                          {x.r.overlap && x.r.overlap.trainedOn > 0 && (
                            <div className="small error" data-testid={`run-overlap-${x.run}`} title="the model was trained on these queries (same id, same text or near-duplicate): its figures are not held out">
                              trained on {x.r.overlap.trainedOn} of these {x.r.overlap.of} queries
                            </div>
                          )}
                          {x.r.selectedOn && (
                            <div className="small error" data-testid={`run-selected-on-${x.run}`} title="these queries chose the model (the version kept is the one that scored best on them): its figures here are optimistic, not held out">
                              {describeSelectedOn(x.run, x.r.selectedOn)}
                            </div>
                          )}
                          {!!x.r.unscoredQueries && (
                            <div className="small error" data-testid={`run-unscored-${x.run}`} title="the run gives none of these queries' candidates a score: there it is ranked in the pool's own order, which can flatter it">
                              scores no candidate of {x.r.unscoredQueries} of its {x.r.queries} queries
                            </div>
                          )}
                          {!!x.r.uniformQueries && (
                            <div className="small error" data-testid={`run-uniform-${x.run}`} title="the run gives every candidate of these queries the same score (a model that learned nothing, or questions without text): there it is ranked by the tie rule, the pool's own order by default, which can flatter it">
                              same score for every candidate in {x.r.uniformQueries} of its {x.r.queries} queries
                            </div>
                          )}
                        </>
                      ),
                    },
                    {
                      id: 'queries',
                      header: 'Queries',
                      title: METRIC_HELP.queries,
                      className: 'num',
                      sortValue: (x) => x.r.queries,
                      cellTestId: (x) => `metric-${x.run}-queries`,
                      cell: (x) => fmtInt(x.r.queries),
                    },
                    ...METRICS.flatMap((m): Array<Column<RunRow>> => [
                      {
                        id: metricId(m),
                        header: <abbr className="metric" title={METRIC_HELP[m]}>{m}</abbr>,
                        className: 'num',
                        sortValue: (x) => (nullMetric(x.r[m]) ? null : x.r[m]),
                        cellTestId: (x) => `metric-${x.run}-${metricId(m)}`,
                        cell: (x) =>
                          nullMetric(x.r[m]) ? (
                            <span title={x.r.reason ?? ev.reason ?? 'no query could be evaluated'} className="muted" role="img" aria-label={`undefined: ${x.r.reason ?? ev.reason ?? 'no query could be evaluated'}`}>
                              —
                            </span>
                          ) : (
                            fmtMetric(x.r[m])
                          ),
                      },
                      // Issue 24: the 95% interval beside each metric (Student t over the per-query values, clipped to [0, 1], as eval.pool gives).
                      {
                        id: `${metricId(m)}-ci`,
                        header: (
                          <abbr className="metric ci-head" title={`95% confidence interval of ${m} over the evaluated queries (Student t: mean ± t·s/√n, clipped to the metric's range 0–100)`}>
                            95% CI
                          </abbr>
                        ),
                        className: 'num ci-cell',
                        sortValue: (x) => x.r.ci?.[m]?.[0] ?? null,
                        cellTestId: (x) => `ci-${x.run}-${metricId(m)}`,
                        cell: (x) => {
                          const ci = x.r.ci?.[m];
                          return ci ? (
                            `${fmtMetric(ci[0])}–${fmtMetric(ci[1])}`
                          ) : (
                            <span className="muted" title={x.r.queries < 2 ? 'needs at least 2 evaluated queries' : `every evaluated query scores the same ${m}: no spread, so no interval`}>
                              —
                            </span>
                          );
                        },
                      },
                    ]),
                  ]}
                />
                {runs.some(([, r]) => nullMetric(r.MAP)) && (
                  <p className="small muted" data-testid="eval-null-reason">
                    “—”: {runs.map(([, r]) => r.reason).find(Boolean) ?? ev.reason ?? 'no query of this pool could be evaluated with these labels (none fully labeled, or none with a similar candidate under “skip”)'}.
                  </p>
                )}
                <MetricLegend />
              </>
            )}
          </>
        )}
      </section>

      {ev && !blindForMe && runs.length > 0 && (
        <section className="card">
          <div className="row wrap">
            <h2 className="grow">Learning curve</h2>
            <label className="inline">
              Metric
              <ChoiceSelect testId="curve-metric" choices={METRICS} value={metric} onChange={setMetric} />
            </label>
          </div>
          {ev.curve.length === 0 ? (
            <p className="muted">The curve appears once a query is fully labeled.</p>
          ) : (
            <LineChart testId="curve-chart" series={series} xLabel="labeled queries" yLabel={`${metric} (%)`} yMin={0} yMax={100} yDigits={0} />
          )}
        </section>
      )}

      {/* Each panel is keyed by the pool (a new pool starts it afresh) under a key of its own: siblings
          sharing one key made React reuse or duplicate them (two "Learn as we label" panels on screen;
          the labeling-order panel of one pool under another's table). */}
      {pool && ev && !blindForMe && runs.length > 0 && <LabelOrderPanel key={`order:${pool}`} pool={pool} annotator={who === DEFAULT_SOURCE ? undefined : who} convention={conventionChoice ?? undefined} partial={partial} ties={ties} threshold={threshold} role={role} />}

      {pool && ev && !blindForMe && <LivePanel key={`live:${pool}`} pool={pool} pools={pools.map((p) => p.name)} role={role} />}

      {pool && ev && !blindForMe && mayCall(role, 'eval.compare') && (
        <ComparePanel key={`compare:${pool}`} pool={pool} annotator={who === DEFAULT_SOURCE ? ev.annotator : who} convention={convention} ties={ties} threshold={threshold} runNames={Object.keys(ev.runs)} partialQueries={ev.partial ? ev.partiallyLabeledQueries : 0} />
      )}

      {pool && who && !blindForMe && <DrillDown key={`drill:${pool}`} pool={pool} annotator={who === DEFAULT_SOURCE ? (ev?.annotator ?? '@aggregate') : who} viewer={shared.annotator || (who === DEFAULT_SOURCE ? (ev?.annotator ?? '') : who)} startQuery={shared.lastQueryId} version={updates} convention={convention} partial={partial} ties={ties} threshold={threshold} />}
    </div>
  );
}

function DrillDown({
  pool,
  annotator,
  viewer,
  startQuery,
  version,
  convention,
  partial,
  ties,
  threshold,
}: {
  pool: string;
  annotator: string;
  viewer: string;
  startQuery: string;
  version: number;
  convention: Convention;
  partial: boolean;
  ties: TieRule;
  threshold: number;
}): ReactNode {
  const { client } = useApp();
  const [qid, setQid] = useState(startQuery);
  const [shown, setShown] = useState<string>('');
  const [qe, setQe] = useState<QueryEvaluation | null>(null);
  const [titles, setTitles] = useState<Record<string, string>>({});
  const [queryTitle, setQueryTitle] = useState('');
  const [err, setErr] = useState<string | null>(null);

  const load = useCallback(
    async (id: string) => {
      if (!id.trim()) return;
      setErr(null);
      try {
        const r = await client.invoke('eval.query', { pool, queryId: id.trim(), annotator, ties, threshold });
        setQe(r);
        setShown(id.trim());
        setQid(id.trim());
        client
          .invoke('annotate.query', { pool, annotator: viewer, queryId: id.trim() })
          .then((v) => {
            setQueryTitle(v.query?.title ?? '');
            setTitles(Object.fromEntries(v.candidates.map((c) => [c.id, c.question?.title ?? ''])));
          })
          .catch(() => {});
      } catch (e) {
        setErr(errorMessage(e));
      }
    },
    [client, pool, annotator, viewer, ties, threshold],
  );

  const step = async (direction: 'next' | 'previous'): Promise<void> => {
    const from = shown || qid;
    try {
      const v = from
        ? await client.invoke('annotate.navigate', { pool, annotator: viewer, from, direction })
        : await client.invoke('annotate.query', { pool, annotator: viewer });
      if (v) await load(v.queryId);
    } catch (e) {
      setErr(errorMessage(e));
    }
  };

  useEffect(() => {
    if (shown) void load(shown);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version, annotator, ties, threshold]);

  // Why this query counts differently from the table above, or not at all (null: it counts as shown).
  const note = qe ? drillNote(qe, convention, partial) : null;

  return (
    <section className="card" data-testid="drilldown">
      <form
        className="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          void load(qid);
        }}
      >
        <h2 className="grow">Per query</h2>
        <button type="button" onClick={() => void step('previous')} data-testid="drill-prev">
          ← previous
        </button>
        {/* A real label (a placeholder names nothing once the field holds text, and is no label). */}
        <label className="inline">
          <span className="visually-hidden">Query id</span>
          <input data-testid="drill-query" value={qid} onChange={(e) => setQid(e.target.value)} placeholder="query id" size={16} />
        </label>
        <button type="submit" className="primary" data-testid="drill-show">
          Show
        </button>
        <button type="button" onClick={() => void step('next')} data-testid="drill-next">
          next →
        </button>
      </form>
      {err && (
        <p className="error" role="alert">
          {err}
        </p>
      )}
      {qe && (
        <>
          <p>
            <strong>{qe.queryId}</strong> {queryTitle}
          </p>
          {qe.rankers.length === 0 && <p className="muted">No ranker has scores for this query.</p>}
          {note && (
            <p className="small muted" data-testid="drill-note">
              {note}
            </p>
          )}
          <div className="rankers">
            {qe.rankers.map((r) => (
              <div key={r.run} className="ranker" data-testid={`drill-ranker-${r.run}`}>
                <h3>
                  {r.run}{' '}
                  <span className="small muted">
                    AP {fmtMetric(r.AP)} · RR {fmtMetric(r.RR)}
                  </span>
                </h3>
                <ol>
                  {r.order.map((o) => (
                    <li key={o.candidateId} className={o.grade === null ? 'unjudged' : o.relevant ? 'relevant' : 'irrelevant'}>
                      <span className="mark" title={o.grade === null ? 'not labeled' : `grade ${o.grade}`}>
                        {/* The mark is read as what it means ("·", "✓", "✗" were read "dot", "check mark", "ballot x"). */}
                        <span aria-hidden="true">{o.grade === null ? '·' : o.relevant ? '✓' : '✗'}</span>
                        <span className="visually-hidden">{o.grade === null ? 'not labeled' : o.relevant ? `similar (grade ${o.grade})` : `not similar (grade ${o.grade})`}</span>
                      </span>{' '}
                      <span className="small">{titles[o.candidateId] || o.candidateId}</span>
                      {o.score !== null && <span className="muted small"> ({Number.isInteger(o.score) ? o.score : o.score.toFixed(2)})</span>}
                    </li>
                  ))}
                </ol>
              </div>
            ))}
          </div>
        </>
      )}
    </section>
  );
}
