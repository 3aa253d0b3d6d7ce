import { poolsEmptyText } from '../components/NoPools';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ANALYZER_HELP, ANALYZER_NAMES, DEFAULT_ANALYZER, type AnalyzerName } from '../../shared/analyzers';
import { orderAtRandomReason, orderLabel, QUERY_ORDER_HELP, QUERY_ORDERS, type QueryOrder } from '../../shared/label-order';
import type { PoolInfo, PoolProgress } from '../../shared/contract';
import { DataTable } from '../components/DataTable';
import type { SharedState } from '../lib/shared-state';
import { useApp, useEvent, useJobs, useReconnect } from '../lib/context';
import { errorMessage, fmtCount, fmtInt } from '../lib/format';
import { Markdown } from '../lib/markdown';
import { ProgressBar } from '../components/ProgressBar';
import { TeamPanel } from './TeamPanel';
import { AccessPanel } from './AccessPanel';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { NumberInput } from '../components/NumberInput';

type Scheme = 'binary' | 'semeval3' | 'likert5' | 'graded';

/** Query ids from pasted text or a file: one per line, or separated by commas/whitespace. */
export function parseQueryIds(text: string): string[] {
  const ids = text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return [...new Set(ids)];
}

/** The pool form's "every corpus" choice (mixing corpora is explicit). */
const ALL_SOURCES = '@all';

export function PoolsScreen({ shared }: { shared: SharedState }): ReactNode {
  const { client } = useApp();
  const jobs = useJobs();
  const { pools } = shared;
  // Creating pools, switching them blind or open, assigning and writing guidelines are the owner's.
  const owner = shared.role === 'owner';

  // ------------------------------------------------------------ create
  const [name, setName] = useState('');
  const [mode, setMode] = useState<'sample' | 'queries'>('sample');
  const [n, setN] = useState(50);
  const [seed, setSeed] = useState(1);
  const [queriesText, setQueriesText] = useState('');
  const [depth, setDepth] = useState(20);
  const [scheme, setScheme] = useState<Scheme>('binary');
  const [blind, setBlind] = useState(true);
  /** '' = the workspace index's analyzer. */
  const [analyzer, setAnalyzer] = useState<AnalyzerName | ''>('');
  const [order, setOrder] = useState<QueryOrder>('pool');
  /** One corpus (questions.source) for queries and candidates; '' = every corpus (an explicit choice when there are several). */
  const [poolSource, setPoolSource] = useState('');
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
  const sourceNames = Object.keys(sources);
  // With one corpus there is nothing to choose; with several the form starts on the largest.
  useEffect(() => {
    if (sourceNames.length > 1 && poolSource === '') setPoolSource(sourceNames.sort((a, b) => (sources[b] ?? 0) - (sources[a] ?? 0))[0]!);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sourceNames.join('\u0000')]);
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);

  const queryIds = parseQueryIds(queriesText);
  // Said at the field (the engine would refuse it too), so the name is fixed before anything runs.
  const nameTaken = pools.some((p) => p.name === name.trim());
  const ready = name.trim() !== '' && !nameTaken && (mode === 'sample' ? n >= 1 : queryIds.length > 0);
  const canCreate = !creating && ready;

  const createForm = useRef<HTMLFormElement | null>(null);
  const nameInput = useRef<HTMLInputElement | null>(null);
  const create = async (): Promise<void> => {
    setCreating(true);
    setCreateError(null);
    setCreated(null);
    try {
      const p = await client.invoke('pool.create', {
        name: name.trim(),
        depth,
        scheme,
        blind,
        order,
        ...(analyzer ? { analyzer } : {}),
        ...(poolSource && poolSource !== ALL_SOURCES ? { source: poolSource } : {}),
        ...(mode === 'sample' ? { sample: { n, seed } } : { queries: queryIds }),
      });
      setCreated(`Pool "${p.name}" created: ${fmtInt(p.queries)} queries, ${fmtInt(p.pairs)} pairs.`);
      shared.refreshPools();
      shared.setPool(p.name);
      setName('');
      // The emptied name disables the button: a keyboard user goes on from the name (the next pool).
      if (createForm.current?.contains(document.activeElement)) nameInput.current?.focus();
    } catch (e) {
      setCreateError(errorMessage(e));
    } finally {
      setCreating(false);
    }
  };

  const poolJob = creating ? jobs.latestRunning('pool') : null;
  const poolJobId = poolJob?.progress?.jobId ?? null;
  const cancelCreate = (): void => {
    if (poolJobId) client.invoke('job.cancel', { jobId: poolJobId }).catch((e: unknown) => setCreateError(errorMessage(e)));
  };

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
  const [blindBusy, setBlindBusy] = useState<string | null>(null);
  const [blindMessage, setBlindMessage] = useState<{ ok: boolean; text: string } | null>(null);
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
    }
  };
  const hasLabels = (pool: string): boolean => (progress[pool]?.annotators ?? []).some((a) => a.labeledPairs > 0);

  // ------------------------------------------------------------ guidelines
  const selected = pools.find((p) => p.name === shared.pool) ?? null;
  const [draft, setDraft] = useState('');
  const [draftPool, setDraftPool] = useState<string | null>(null);
  const [saveState, setSaveState] = useState<'clean' | 'dirty' | 'saving' | 'saved' | 'error'>('clean');
  const [saveError, setSaveError] = useState<string | null>(null);
  useEffect(() => {
    // Load the pool's guidelines when the selection changes (not while the user edits).
    if (selected && draftPool !== selected.name) {
      setDraft(selected.guidelines);
      setDraftPool(selected.name);
      setSaveState('clean');
    }
  }, [selected, draftPool]);

  const saveGuidelines = async (): Promise<void> => {
    if (!selected) return;
    setSaveState('saving');
    setSaveError(null);
    try {
      await client.invoke('pool.setGuidelines', { pool: selected.name, markdown: draft });
      setSaveState('saved');
    } catch (e) {
      setSaveState('error');
      setSaveError(errorMessage(e));
    }
  };

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
                className: 'wrap-anywhere',
                cell: (p) => (
                  <>
                    <strong>{p.name}</strong>
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
              { id: 'scheme', header: 'Scheme', sortValue: (p) => p.scheme, cell: (p) => p.scheme },
              { id: 'retriever', header: 'Retriever', sortValue: (p) => p.retriever, cell: (p) => p.retriever ?? '—' },
              { id: 'depth', header: 'Depth', className: 'num', sortValue: (p) => p.depth, cell: (p) => p.depth ?? '—' },
              { id: 'queries', header: 'Queries', className: 'num', sortValue: (p) => p.queries, cell: (p) => fmtInt(p.queries) },
              { id: 'pairs', header: 'Pairs', className: 'num', sortValue: (p) => p.pairs, cell: (p) => fmtInt(p.pairs) },
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
                          <span className="confirm" role="alertdialog" aria-label={`Open pool ${p.name}?`} data-testid={`pool-open-confirm-box-${p.name}`}>
                            <br />
                            Open “{p.name}”? Its annotators will see each other’s labels and rankers’ scores
                            {hasLabels(p.name) ? ', and the labels they gave blind so far' : ''}; labels given while it is open may not be independent. The
                            pool’s datasheet will record when it was open.{' '}
                            <button className="danger" data-testid={`pool-open-confirm-${p.name}`} onClick={() => void setPoolBlind(p.name, false)}>
                              Open it
                            </button>{' '}
                            <button data-testid={`pool-open-keep-${p.name}`} onClick={() => setConfirmOpen(null)}>
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

                      <button data-testid={`pool-guidelines-${p.name}`} onClick={() => shared.setPool(p.name)}>
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

      {owner && (
        <section className="card">
          <h2>New pool</h2>
          <form
            ref={createForm}
            className="form-grid"
            onSubmit={(e) => {
              e.preventDefault();
              if (canCreate) void create();
            }}
          >
            {/* The error describes the field, outside its label: inside, it was read as part of the field's name. */}
            <div className="field">
              <label>
                Name
                {/* Read-only, not disabled, while the pool is made: a disabled field would drop the keyboard focus to the page. */}
                <input
                  data-testid="pool-name"
                  ref={nameInput}
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  readOnly={creating}
                  aria-invalid={nameTaken || undefined}
                  aria-describedby={nameTaken ? 'pool-name-error' : undefined}
                />
              </label>
              <span className="error small" id="pool-name-error" aria-live="polite" data-testid="pool-name-error">
                {nameTaken ? `A pool named “${name.trim()}” exists already: choose another name.` : ''}
              </span>
            </div>
            <fieldset className="radio-row">
              <legend>Queries</legend>
              <label className="inline">
                <input type="radio" name="pool-mode" data-testid="pool-mode-sample" checked={mode === 'sample'} onChange={() => setMode('sample')} />
                random sample
              </label>
              <label className="inline">
                <input type="radio" name="pool-mode" data-testid="pool-mode-queries" checked={mode === 'queries'} onChange={() => setMode('queries')} />
                these query ids
              </label>
            </fieldset>
            {mode === 'sample' ? (
              <>
                <label>
                  Sample size
                  <NumberInput min={1} max={100_000} testId="pool-sample-n" value={n} onChange={setN} />
                </label>
                <label>
                  Seed
                  <NumberInput testId="pool-sample-seed" value={seed} onChange={setSeed} />
                  <span className="hint">the same seed gives the same sample</span>
                </label>
              </>
            ) : (
              <label className="wide">
                Query ids <span className="optional">one per line, or load a file</span>
                <textarea data-testid="pool-queries" rows={5} value={queriesText} onChange={(e) => setQueriesText(e.target.value)} />
                <input
                  type="file"
                  data-testid="pool-queries-file"
                  accept=".txt,.csv,.tsv,text/plain"
                  onChange={(e) => {
                    const f = e.target.files?.[0];
                    if (f) void f.text().then(setQueriesText);
                  }}
                />
                <span className="hint">{fmtInt(queryIds.length)} distinct ids</span>
              </label>
            )}
            <label>
              Depth
              <NumberInput min={1} max={1000} testId="pool-depth" value={depth} onChange={setDepth} />
              <span className="hint">BM25 candidates per query</span>
            </label>
            <label>
              Scheme
              <select data-testid="pool-scheme" value={scheme} onChange={(e) => setScheme(e.target.value as Scheme)}>
                <option value="binary">binary (similar / not)</option>
                <option value="semeval3">semeval3 (perfect / relevant / irrelevant)</option>
                <option value="likert5">likert5 (−2 … +2)</option>
                <option value="graded">graded (integer grades)</option>
              </select>
            </label>
            {sourceNames.length > 1 && (
              <label>
                Corpus
                <select data-testid="pool-source" value={poolSource} onChange={(e) => setPoolSource(e.target.value)}>
                  {sourceNames.map((src) => (
                    <option key={src} value={src}>
                      {src} ({fmtInt(sources[src] ?? 0)} questions)
                    </option>
                  ))}
                  <option value={ALL_SOURCES}>every corpus (queries and candidates may mix corpora)</option>
                </select>
                <span className="hint">queries and their candidates from this corpus only</span>
              </label>
            )}
            <label>
              Analyzer
              <ChoiceSelect<AnalyzerName | ''> testId="pool-analyzer" choices={ANALYZER_NAMES} value={analyzer} onChange={setAnalyzer} emptyText={`the workspace's (default ${DEFAULT_ANALYZER})`} />
              <span className="hint">{analyzer ? ANALYZER_HELP[analyzer] : 'how BM25 reads the texts: as the workspace index does'}</span>
            </label>
            <label>
              Next query
              <ChoiceSelect testId="pool-order" choices={QUERY_ORDERS} value={order} onChange={setOrder} />
              <span className="hint">{QUERY_ORDER_HELP[order]}</span>
            </label>
            <fieldset className="radio-row">
              <legend>Labeling</legend>
              <label className="inline" title="Blind: each annotator sees the candidates in their own order, no rankers' scores and no one else's labels. You can change it later.">
                <input type="checkbox" data-testid="pool-blind" checked={blind} onChange={(e) => setBlind(e.target.checked)} />
                Blind (annotators see only their own labels)
              </label>
            </fieldset>
            <div className="actions">
              {/* aria-disabled while creating: a button that turns disabled under the focus drops it to the page. */}
              <button type="submit" className="primary" data-testid="pool-create" disabled={!ready} aria-disabled={creating || undefined}>
                {creating ? 'Creating…' : 'Create pool'}
              </button>
              {creating && poolJob && (
                <button type="button" data-testid="pool-create-cancel" onClick={cancelCreate}>
                  Cancel
                </button>
              )}
            </div>
          </form>
          {creating && <ProgressBar testId="pool-create-progress" done={poolJob?.progress?.done ?? 0} total={poolJob?.progress?.total ?? 0} />}
          {creating && poolJob?.progress?.message && <p className="small muted">{poolJob.progress.message}</p>}
          {createError && (
            <div className="error-box" role="alert" data-testid="pool-error">
              <strong>The pool was not created.</strong>
              <pre>{createError}</pre>
            </div>
          )}
          {/* Always in the page, so screen readers announce the message when it appears. */}
          <div role="status">
            {created && (
              <p className="ok" data-testid="pool-created">
                {created}
              </p>
            )}
          </div>
        </section>
      )}

      {selected && !owner && (
        <section className="card" data-testid="guidelines-view">
          <h2>Guidelines for “{selected.name}”</h2>
          {selected.guidelines.trim() ? <Markdown source={selected.guidelines} testId="guidelines-preview" /> : <p className="muted">This pool has no guidelines yet.</p>}
        </section>
      )}
      {selected && owner && (
        <section className="card" data-testid="guidelines-editor">
          <h2>Guidelines for “{selected.name}”</h2>
          <div className="guidelines-grid">
            <label className="wide">
              Markdown
              <textarea
                data-testid="guidelines-text"
                rows={14}
                value={draft}
                onChange={(e) => {
                  setDraft(e.target.value);
                  setSaveState('dirty');
                }}
              />
            </label>
            <div>
              <div className="label-like">Preview</div>
              <div className="preview">
                <Markdown source={draft} testId="guidelines-preview" />
              </div>
            </div>
          </div>
          <div className="actions">
            <button className="primary" data-testid="guidelines-save" onClick={() => void saveGuidelines()} disabled={saveState === 'saving' || saveState === 'clean'}>
              Save guidelines
            </button>
            <span className={saveState === 'error' ? 'error small' : 'small muted'} data-testid="guidelines-state">
              {saveState === 'dirty' && 'unsaved changes'}
              {saveState === 'saving' && 'saving…'}
              {saveState === 'saved' && 'saved ✓'}
              {saveState === 'error' && `not saved: ${saveError}`}
            </span>
          </div>
        </section>
      )}
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
          <span className="who" title={a.annotator}>
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
