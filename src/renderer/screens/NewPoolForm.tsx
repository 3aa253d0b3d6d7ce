/**
 * The Pools screen's "New pool" card (the owner's): a name, a random sample or given query ids, the
 * BM25 depth, scheme, corpus, analyzer, labeling order and blindness; pool.create with its progress
 * and Cancel, and the pool chosen once made.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ANALYZER_HELP, ANALYZER_NAMES, DEFAULT_ANALYZER, type AnalyzerName } from '../../shared/analyzers';
import { QUERY_ORDER_HELP, QUERY_ORDERS, type QueryOrder } from '../../shared/label-order';
import type { SharedState } from '../lib/shared-state';
import { useApp, useJobs } from '../lib/context';
import { errorMessage, fmtInt } from '../lib/format';
import { ProgressBar } from '../components/ProgressBar';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { NumberInput } from '../components/NumberInput';
import { queriesWithoutCandidateNote } from '../../shared/pool-notes';
import { DEFAULT_POOL_DEPTH, MAX_POOL_DEPTH, MAX_POOL_SAMPLE } from '../../shared/pool-limits';

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

export function NewPoolForm({ shared, sources }: { shared: SharedState; /** Questions per corpus (questions.source). */ sources: Record<string, number> }): ReactNode {
  const { client } = useApp();
  const jobs = useJobs();
  const { pools } = shared;
  const [name, setName] = useState('');
  const [mode, setMode] = useState<'sample' | 'queries'>('sample');
  const [n, setN] = useState(50);
  const [seed, setSeed] = useState(1);
  const [queriesText, setQueriesText] = useState('');
  const [depth, setDepth] = useState(DEFAULT_POOL_DEPTH);
  const [scheme, setScheme] = useState<Scheme>('binary');
  const [blind, setBlind] = useState(true);
  /** '' = the workspace index's analyzer. */
  const [analyzer, setAnalyzer] = useState<AnalyzerName | ''>('');
  const [order, setOrder] = useState<QueryOrder>('pool');
  /** One corpus (questions.source) for queries and candidates; '' = every corpus (an explicit choice when there are several). */
  const [poolSource, setPoolSource] = useState('');
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
      const empty = queriesWithoutCandidateNote(p.queriesWithoutCandidate, p.queries);
      setCreated(`Pool "${p.name}" created: ${fmtInt(p.queries)} queries, ${fmtInt(p.pairs)} pairs.${empty ? ` Note: ${empty}.` : ''}`);
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

  return (
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
              <NumberInput min={1} max={MAX_POOL_SAMPLE} testId="pool-sample-n" value={n} onChange={setN} />
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
          <NumberInput min={1} max={MAX_POOL_DEPTH} testId="pool-depth" value={depth} onChange={setDepth} />
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
            <span className="hint" data-testid="pool-source-hint">
              {poolSource === ALL_SOURCES ? 'queries and candidates from every corpus (BM25 may pair questions of different sites)' : 'queries and their candidates from this corpus only'}
            </span>
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
  );
}
