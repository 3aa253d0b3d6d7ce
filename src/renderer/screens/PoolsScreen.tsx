import { poolsEmptyText } from '../components/NoPools';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { orderAtRandomReason, orderLabel, QUERY_ORDER_HELP } from '../../shared/label-order';
import type { PoolInfo, PoolProgress } from '../../shared/contract';
import { DataTable } from '../components/DataTable';
import type { SharedState } from '../lib/shared-state';
import { useApp, useEvent, useReconnect } from '../lib/context';
import { errorMessage, fmtCount, fmtInt } from '../lib/format';
import { ProgressBar } from '../components/ProgressBar';
import { TeamPanel } from './TeamPanel';
import { AccessPanel } from './AccessPanel';
import { NewPoolForm } from './NewPoolForm';
import { ReadOnlyNote } from '../components/ReadOnlyNote';
import { PoolGuidelines } from './PoolGuidelines';

export function PoolsScreen({ shared }: { shared: SharedState }): ReactNode {
  const { client, info } = useApp();
  const { pools } = shared;
  // Creating pools, switching them blind or open, assigning and writing guidelines are the owner's.
  const owner = shared.role === 'owner';

  // ------------------------------------------------------------ the workspace's questions
  const [sources, setSources] = useState<Record<string, number>>({});
  /** The workspace's questions (null until read): what the empty state's next step is. */
  const [questions, setQuestions] = useState<number | null>(null);
  useEffect(() => {
    client
      .invoke('workspace.stats', {})
      .then((st) => {
        setSources(st.sources ?? {});
        setQuestions(st.questions);
      })
      .catch(() => {});
  }, [client, pools.length]);

  // ------------------------------------------------------------ progress per pool
  const [progress, setProgress] = useState<Record<string, PoolProgress>>({});
  const refreshProgress = useCallback(() => {
    for (const p of pools) {
      client
        .invoke('pool.progress', { pool: p.name })
        .then((pr) => setProgress((cur) => ({ ...cur, [p.name]: pr })))
        .catch(() => {});
    }
  }, [client, pools]);
  useEffect(refreshProgress, [refreshProgress]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEvent('label.changed', () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(refreshProgress, 300);
  });
  useReconnect(refreshProgress);

  // ------------------------------------------------------------ blind or open
  const [confirmOpen, setConfirmOpen] = useState<string | null>(null);
  /** Counts the Guidelines buttons pressed: each takes the focus to the guidelines shown below. */
  const [guidelinesAsked, setGuidelinesAsked] = useState(0);
  const [blindBusy, setBlindBusy] = useState<string | null>(null);
  const [blindMessage, setBlindMessage] = useState<{ ok: boolean; text: string } | null>(null);
  // The toggle comes back in place of the question (enabled again once saved): the focus goes back to it then.
  const [toggleToFocus, focusBlindToggle] = useState<string | null>(null);
  useEffect(() => {
    if (toggleToFocus === null || blindBusy !== null) return;
    document.querySelector<HTMLButtonElement>(`[data-testid="pool-blind-toggle-${CSS.escape(toggleToFocus)}"]`)?.focus();
    focusBlindToggle(null);
  }, [toggleToFocus, blindBusy, confirmOpen]);
  const keepBlind = (pool: string): void => {
    setConfirmOpen(null);
    focusBlindToggle(pool);
  };
  const setPoolBlind = async (pool: string, value: boolean): Promise<void> => {
    setConfirmOpen(null);
    setBlindBusy(pool);
    setBlindMessage(null);
    try {
      const p = await client.invoke('pool.set', { pool, blind: value });
      setBlindMessage({ ok: true, text: p.blind ? `Pool “${p.name}” is blind again: its annotators see only their own labels.` : `Pool “${p.name}” is open: its annotators now see rankers’ scores and each other’s labels.` });
      shared.refreshPools();
    } catch (e) {
      setBlindMessage({ ok: false, text: `Pool “${pool}” was not changed: ${errorMessage(e)}` });
    } finally {
      setBlindBusy(null);
      focusBlindToggle(pool);
    }
  };
  const hasLabels = (pool: string): boolean => (progress[pool]?.annotators ?? []).some((a) => a.labeledPairs > 0);

  const selected = pools.find((p) => p.name === shared.pool) ?? null;

  return (
    <div className="pools-screen">
      <section className="card">
        <h2>Pools</h2>
        {shared.poolsError && <p className="error" role="alert">{shared.poolsError}</p>}
        {pools.length === 0 ? (
          <p className="muted" data-testid="pools-empty">
            {poolsEmptyText(questions)}
          </p>
        ) : (
          <DataTable<PoolInfo>
            testId="pools-table"
            caption="Pools"
            rows={pools}
            rowId={(p) => p.name}
            rowTestId={(p) => `pool-row-${p.name}`}
            rowClassName={(p) => (p.name === shared.pool ? 'selected' : undefined)}
            filter={(p) => `${p.name} ${p.scheme} ${p.retriever ?? ''} ${p.sampling ?? ''}`}
            filterLabel="Filter pools"
            columns={[
              {
                id: 'name',
                header: 'Name',
                sortValue: (p) => p.name,
                className: 'wrap-anywhere pool-name',
                cell: (p) => (
                  <>
                    <strong>{p.name}</strong>
                    {/* Where the lesser columns are hidden (a window up to 1000 px wide: styles.css .pools-lesser), their figures stand here. */}
                    <div className="small muted pool-details" data-testid={`pool-details-${p.name}`}>
                      {poolDetails(p)}
                    </div>
                    {p.sampling && <div className="small muted">{p.sampling}</div>}
                    {p.label_order && p.label_order !== 'pool' && (
                      <div className="small muted" data-testid={`pool-order-${p.name}`} title={orderAtRandomReason(p.label_order, p.runs ?? 0) ?? QUERY_ORDER_HELP[p.label_order]}>
                        next query: {orderLabel(p.label_order, p.runs ?? 0)}
                        {orderAtRandomReason(p.label_order, p.runs ?? 0) && <span className="visually-hidden">: {orderAtRandomReason(p.label_order, p.runs ?? 0)}</span>}
                      </div>
                    )}
                  </>
                ),
              },
              { id: 'scheme', header: 'Scheme', className: 'pools-lesser', foldsInto: 'name', sortValue: (p) => p.scheme, cell: (p) => p.scheme },
              { id: 'retriever', header: 'Retriever', className: 'pools-lesser', foldsInto: 'name', sortValue: (p) => p.retriever, cell: (p) => p.retriever ?? '—' },
              { id: 'depth', header: 'Depth', className: 'num pools-lesser', foldsInto: 'name', sortValue: (p) => p.depth, cell: (p) => p.depth ?? '—' },
              { id: 'queries', header: 'Queries', className: 'num pools-lesser', foldsInto: 'name', sortValue: (p) => p.queries, cell: (p) => fmtInt(p.queries) },
              { id: 'pairs', header: 'Pairs', className: 'num pools-lesser', foldsInto: 'name', sortValue: (p) => p.pairs, cell: (p) => fmtInt(p.pairs) },
              {
                id: 'blind',
                header: 'Blind',
                title: "Blind: each annotator sees only their own labels, candidates in their own order, no rankers' scores. Open: they see scores and each other's labels.",
                sortValue: (p) => (p.blind ? 'blind' : 'open'),
                className: 'blind-cell',
                cellTestId: (p) => `pool-blind-${p.name}`,
                cellData: (p) => ({ 'data-blind': p.blind ? 'true' : 'false' }),
                cell: (p) => (
                  <>

                      <span
                        className={p.blind ? 'blind-badge' : 'blind-badge open'}
                        title={p.blind ? "annotators see only their own labels, in their own order, no rankers' scores" : "annotators see rankers' scores and each other's labels"}
                      >
                        {p.blind ? 'blind' : 'open'}
                      </span>
                      {owner &&
                        (confirmOpen === p.name ? (
                          <span
                            className="confirm"
                            role="alertdialog"
                            aria-label={`Open pool ${p.name}?`}
                            data-testid={`pool-open-confirm-box-${p.name}`}
                            onKeyDown={(e) => {
                              if (e.key !== 'Escape') return;
                              e.stopPropagation();
                              keepBlind(p.name);
                            }}
                          >
                            <br />
                            Open “{p.name}”? Its annotators will see each other’s labels and rankers’ scores
                            {hasLabels(p.name) ? ', and the labels they gave blind so far' : ''}; labels given while it is open may not be independent. The
                            pool’s datasheet will record when it was open.{' '}
                            <button className="danger" data-testid={`pool-open-confirm-${p.name}`} onClick={() => void setPoolBlind(p.name, false)}>
                              Open it
                            </button>{' '}
                            {/* The question takes the focus from the toggle it replaces, on the choice that changes nothing. */}
                            <button data-testid={`pool-open-keep-${p.name}`} onClick={() => keepBlind(p.name)} autoFocus>
                              Keep blind
                            </button>
                          </span>
                        ) : (
                          <button
                            className="link-button underline small"
                            data-testid={`pool-blind-toggle-${p.name}`}
                            disabled={blindBusy === p.name}
                            onClick={() => (p.blind ? setConfirmOpen(p.name) : void setPoolBlind(p.name, true))}
                            title={p.blind ? 'let annotators see scores and each other’s labels (asks first)' : 'annotators see only their own labels from now on'}
                          >
                            {p.blind ? 'open…' : 'make blind'}
                          </button>
                        ))}
                  </>
                ),
              },
              {
                id: 'progress',
                header: 'Progress per annotator',
                cellTestId: (p) => `pool-progress-${p.name}`,
                cell: (p) => {
                  const pr = progress[p.name];
                  return (
                    <>

                      {!pr || pr.annotators.length === 0 ? (
                        <span className="muted small">no labels yet</span>
                      ) : (
                        <PoolProgressCell progress={pr} />
                      )}
                    </>
                  );
                },
              },
              {
                id: 'actions',
                header: <span className="visually-hidden">Actions</span>,
                className: 'row-actions',
                cell: (p) => (
                  <>

                      <button
                        data-testid={`pool-guidelines-${p.name}`}
                        onClick={() => {
                          shared.setPool(p.name);
                          setGuidelinesAsked((n) => n + 1);
                        }}
                      >
                        Guidelines
                      </button>
                      <button
                        data-testid={`pool-annotate-${p.name}`}
                        onClick={() => {
                          shared.setPool(p.name);
                          shared.goTo('annotate');
                        }}
                      >
                        Annotate
                      </button>
                  </>
                ),
              },
            ]}
          />
        )}
        {blindMessage && (
          <p className={blindMessage.ok ? 'ok small' : 'error small'} role={blindMessage.ok ? 'status' : 'alert'} data-testid="pool-blind-message">
            {blindMessage.text}
          </p>
        )}
      </section>

      {pools.length > 0 && <TeamPanel shared={shared} />}

      {owner && <AccessPanel />}

      {owner && info?.readonly && (
        <section className="card">
          <h2>New pool</h2>
          <ReadOnlyNote refused="making a pool" testId="new-pool-readonly" />
        </section>
      )}
      {owner && !info?.readonly && <NewPoolForm shared={shared} sources={sources} />}

      {selected && <PoolGuidelines selected={selected} owner={owner} focusRequest={guidelinesAsked} />}
    </div>
  );
}

/**
 * A pool's "Progress per annotator": each annotator's queries done and pairs labeled; a judge's
 * rulings on disagreements and labels that are not a person's (gold, a system) apart, without a
 * progress bar — they are not labeling progress.
 */
function PoolProgressCell({ progress: pr }: { progress: PoolProgress }): ReactNode {
  const labelers = pr.annotators.filter((a) => a.kind === 'annotator');
  const judges = pr.annotators.filter((a) => a.kind === 'judge');
  const sources = pr.annotators.filter((a) => a.kind === 'source');
  return (
    <>
      {labelers.length === 0 && <span className="muted small">no annotator labels yet</span>}
      {labelers.map((a) => (
        <div key={a.annotator} className="annotator-progress" data-testid={`progress-${pr.pool}-${a.annotator}`} data-kind={a.kind}>
          {/* A name longer than its 6rem column stands whole on its own line, above its bar. */}
          <span className={a.annotator.length > WHO_FITS ? 'who who-long' : 'who'} title={a.annotator}>
            {a.annotator}
          </span>
          <ProgressBar done={a.doneQueries} total={pr.queries} label={`${a.annotator} queries done`} />
          <span className="small muted" data-testid={`progress-${pr.pool}-${a.annotator}-pairs`}>
            {fmtCount(a.labeledPairs, 'pair')}
          </span>
        </div>
      ))}
      <LabelerLine pool={pr.pool} kind="judges" heading="Rulings" title="a judge’s labels settle the pool’s disagreements; they are not annotator progress" labelers={judges} count={(a) => `(judge) ${fmtCount(a.labeledPairs, 'ruling')}`} />
      <LabelerLine pool={pr.pool} kind="sources" heading="Sources" title="labels that are not a person’s: imported gold, a reference system" labelers={sources} count={(a) => fmtCount(a.labeledPairs, 'label')} />
    </>
  );
}

type Labeler = PoolProgress['annotators'][number];

/** The longest annotator name that fits the progress rows' name column (6rem) on one line. */
const WHO_FITS = 10;

/** One line naming the pool's labelers of one kind that are not annotators (judges' rulings, label sources), each with their count. */
function LabelerLine({ pool, kind, heading, title, labelers, count }: { pool: string; kind: string; heading: string; title: string; labelers: Labeler[]; count: (a: Labeler) => string }): ReactNode {
  if (labelers.length === 0) return null;
  return (
    <div className="small muted" data-testid={`progress-${pool}-${kind}`} title={title}>
      {heading}:{' '}
      {labelers.map((a, i) => (
        <span key={a.annotator} data-testid={`progress-${pool}-${a.annotator}`} data-kind={a.kind}>
          {i > 0 && ', '}
          {a.annotator} {count(a)}
        </span>
      ))}
    </div>
  );
}

/** A pool's scheme, retriever, depth, queries and pairs in a line (the lesser columns' figures, under its name in a narrow window). */
function poolDetails(p: PoolInfo): string {
  return [p.scheme, p.retriever, p.depth != null && `depth ${p.depth}`, fmtCount(p.queries, 'query', 'queries'), fmtCount(p.pairs, 'pair')].filter(Boolean).join(' · ');
}
