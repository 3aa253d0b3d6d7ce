import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
// Types only from the contract: importing its values would bundle zod, whose eval probe trips the CSP.
import type { ImportFormat, ImportSource, WorkspaceStats } from '../../shared/contract';
// The form's labels are the ones the engine's import messages name (the CLI's name its flags).
import { IMPORT_FORM_LABELS as FIELD, QUESTIONS_ONLY_FORMATS, UNUSED_IMPORT_OPTIONS } from '../../shared/import-controls';
import type { SharedState } from '../lib/shared-state';
import { useDebounced } from '../lib/hooks';
import { useApp, useEvent, useJobs, useReconnect, useWorkspaceChangedExceptDraws } from '../lib/context';
import { cleanUploadPaths, errorMessage, fmtImportProgress, fmtImportSubject, fmtInt } from '../lib/format';
import { ProgressBar } from '../components/ProgressBar';
import { reportLines } from '../lib/report';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { UndoImportPanel } from './UndoImportPanel';
import { ReadOnlyNote } from '../components/ReadOnlyNote';

const FORMAT_HELP: Record<ImportFormat, string> = {
  'questions-jsonl': 'questions, one JSON object per line (id, title, body, tags…)',
  'questions-csv': 'questions as CSV with a header row',
  'labels-csv': 'labels as CSV (query, candidate, label) into a pool',
  'labels-jsonl': 'labels as JSON lines into a pool',
  qrels: 'TREC qrels (query 0 doc grade) into a pool',
  'trec-run': "a ranker's TREC run file (query Q0 doc rank score name) into an existing pool",
  'askubuntu-corpus': 'AskUbuntu text_tokenized corpus (id \\t title \\t body)',
  'askubuntu-pairs': 'AskUbuntu train_random pairs (query \\t similar \\t candidates)',
  'askubuntu-pool': 'AskUbuntu dev/test pools with BM25 scores',
  semeval: 'SemEval 2016 Task 3 XML (questions, pools and gold labels)',
  'semeval-relevancy': 'SemEval scorer gold (.relevancy): true/false labels into a pool (its rank and score columns are not read: a run comes as a TREC run)',
  stackexchange: "Stack Exchange data dump: Posts.xml / PostLinks.xml, or the site's archive as downloaded (site.stackexchange.com.7z, .zip, .tar.gz)",
};

/** The contract's 12 formats, in its order (FORMAT_HELP is a Record over ImportFormat, so none is missing). */
const FORMATS = Object.keys(FORMAT_HELP) as ImportFormat[];

const SCHEMES = ['', 'binary', 'semeval3', 'likert5', 'graded'] as const;

const STAT_ROWS: Array<[keyof WorkspaceStats, string]> = [
  ['questions', 'Questions'],
  ['answers', 'Answers'],
  ['duplicatePairs', 'Duplicate pairs'],
  ['pools', 'Pools'],
  ['labels', 'Labels'],
  ['labelEvents', 'Label events'],
  ['annotators', 'Annotators'],
  ['runs', 'Runs'],
  ['indexedQuestions', 'Indexed questions'],
];

export function WorkspaceScreen({ shared }: { shared: SharedState }): ReactNode {
  const { client, info } = useApp();
  const jobs = useJobs();
  const [stats, setStats] = useState<WorkspaceStats | null>(null);
  const [statsError, setStatsError] = useState<string | null>(null);

  const [format, setFormat] = useState<ImportFormat>('semeval');
  const [files, setFiles] = useState<File[]>([]);
  const [paths, setPaths] = useState<string[]>([]);
  const [pool, setPool] = useState('');
  const [annotator, setAnnotator] = useState('');
  const [scheme, setScheme] = useState<(typeof SCHEMES)[number]>('');
  const [source, setSource] = useState('');
  const [update, setUpdate] = useState(false);
  const [strict, setStrict] = useState(false);
  /** Files named by their path on the engine's machine (a local owner in the browser). */
  const [serverPaths, setServerPaths] = useState('');
  const [phase, setPhase] = useState<'idle' | 'uploading' | 'starting' | 'running'>('idle');
  const [uploadNote, setUploadNote] = useState('');
  const [jobId, setJobId] = useState<string | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  /** Cancel pressed while the files were still uploading: no import was started. */
  const [uploadCancelled, setUploadCancelled] = useState(false);
  const uploadAbort = useRef<AbortController | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const refreshStats = useCallback(() => {
    client
      .invoke('workspace.stats', {})
      .then((s) => {
        setStats(s);
        setStatsError(null);
      })
      .catch((e: unknown) => setStatsError(errorMessage(e)));
  }, [client]);
  useEffect(refreshStats, [refreshStats]);
  useWorkspaceChangedExceptDraws(refreshStats);
  // A team's labels come in bursts: their counts once the burst settles, not a request per label.
  const refreshStatsSoon = useDebounced(refreshStats, 300);
  useEvent('label.changed', refreshStatsSoon);
  useReconnect(refreshStats);

  // An import this page did not start (started before a reload, or in another owner tab) is followed here too, with its
  // progress and Cancel: a page reloaded mid-import showed an idle form, with no way to see or stop the import still running.
  const runningElsewhere = jobs.latestRunning('import')?.progress?.jobId ?? null;
  useEffect(() => {
    if (phase !== 'idle' || runningElsewhere === null || runningElsewhere === jobId) return;
    setJobId(runningElsewhere);
    setStartError(null);
    setUploadCancelled(false);
    setPhase('running');
  }, [phase, runningElsewhere, jobId]);

  const job = jobs.get(jobId);
  const done = job?.done ?? null;
  // When the import ends its Cancel goes away: a focus left there (Cancel pressed by keyboard) or
  // dropped to the page comes back to Import, so the keyboard user is not sent to the top of the page.
  const importButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (done) {
      setPhase('idle');
      refreshStats();
      shared.refreshPools();
    }
  }, [done, refreshStats, shared.refreshPools]); // eslint-disable-line react-hooks/exhaustive-deps
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && phase === 'idle') {
      const at = document.activeElement;
      if (!at || at === document.body || !document.contains(at)) importButton.current?.focus();
    }
    wasRunning.current = phase !== 'idle';
  }, [phase]);

  const electron = client.transport === 'electron';
  // Only the owner imports; files on the engine's machine only for an owner there (the desktop app,
  // serve mode on loopback without tokens): everyone else uploads.
  const canImport = shared.role === 'owner';
  const byPath = canImport && info?.local === true;
  const dialog = electron && byPath && typeof client.pickFiles === 'function';
  const canUpload = !electron && typeof client.upload === 'function';
  const typedPaths = byPath && !electron ? serverPaths.split('\n').map((l) => l.trim()).filter(Boolean) : [];
  const haveFiles = dialog ? paths.length > 0 : files.length > 0 || typedPaths.length > 0;
  const busy = phase !== 'idle';
  // Pool, Annotator and Scheme mean nothing to a format that imports questions only: the form leaves them out (the engine refuses them).
  const labelsToo = !QUESTIONS_ONLY_FORMATS.has(format);
  // Annotator or Scheme some other formats do not read (a run's scores, SemEval's and AskUbuntu's own schemes): left out too.
  const notRead = UNUSED_IMPORT_OPTIONS[format];
  const annotatorToo = labelsToo && !notRead?.options.includes('annotator');
  const schemeToo = labelsToo && !notRead?.options.includes('scheme');

  const choose = async (): Promise<void> => {
    if (!client.pickFiles) return;
    try {
      setPaths(await client.pickFiles({ title: 'Choose files to import', multiple: true }));
    } catch (e) {
      setStartError(errorMessage(e));
    }
  };

  const start = async (): Promise<void> => {
    setStartError(null);
    setJobId(null);
    setUploadCancelled(false);
    const abort = new AbortController();
    uploadAbort.current = abort;
    try {
      let sources: ImportSource[];
      if (dialog) {
        sources = paths.map((p) => ({ path: p }));
      } else {
        sources = typedPaths.map((p) => ({ path: p }));
        if (files.length > 0) {
          if (!client.upload) throw new Error('this client cannot upload files');
          setPhase('uploading');
          for (let i = 0; i < files.length; i++) {
            const f = files[i]!;
            setUploadNote(`Uploading ${f.name} (${i + 1} of ${files.length}, ${fmtInt(f.size)} bytes)…`);
            sources.push(await client.upload(f, f.name, abort.signal));
          }
        }
      }
      if (abort.signal.aborted) throw abort.signal.reason;
      setPhase('starting');
      setUploadNote('');
      const r = await client.invoke('import.start', {
        format,
        sources,
        ...(labelsToo && pool.trim() ? { pool: pool.trim() } : {}),
        ...(annotatorToo && annotator.trim() ? { annotator: annotator.trim() } : {}),
        ...(schemeToo && scheme ? { scheme } : {}),
        ...(source.trim() ? { source: source.trim() } : {}),
        ...(update ? { update: true } : {}),
        ...(strict ? { strict: true } : {}),
      });
      setJobId(r.jobId);
      setPhase('running');
      // Cancel pressed while the import was being started: cancel it now that it has an id.
      if (abort.signal.aborted) client.invoke('job.cancel', { jobId: r.jobId }).catch((e: unknown) => setStartError(errorMessage(e)));
    } catch (e) {
      setPhase('idle');
      setUploadNote('');
      if (abort.signal.aborted) setUploadCancelled(true);
      else setStartError(errorMessage(e));
    } finally {
      if (uploadAbort.current === abort) uploadAbort.current = null;
    }
  };

  const cancel = (): void => {
    // Before the job exists (the files uploading, the import starting): stop the upload (the server
    // drops what it received), or cancel the job as soon as it has an id (start does).
    if (phase === 'uploading' || phase === 'starting') uploadAbort.current?.abort();
    else if (jobId) client.invoke('job.cancel', { jobId }).catch((e: unknown) => setStartError(errorMessage(e)));
  };

  return (
    <div className="workspace-screen">
      <section className="card" data-testid="stats">
        <h2>Workspace</h2>
        {info && (
          <p className="muted small">
            <span data-testid="workspace-file">{info.workspaceName}</span> · {info.transport === 'electron' ? 'desktop app' : 'browser (serve mode)'} ·
            version {info.version}
            {info.readonly && <> · opened read-only</>}
          </p>
        )}
        {statsError && <p className="error" role="alert">Could not load statistics: {statsError}</p>}
        {stats && (
          <>
            <dl className="stats-grid">
              {STAT_ROWS.map(([k, label]) => (
                <div key={k} className="stat">
                  <dt>{label}</dt>
                  <dd data-testid={`stat-${k}`}>{fmtInt(stats[k] as number)}</dd>
                </div>
              ))}
            </dl>
            {stats.questions === 0 && (
              <p className="note-box" data-testid="workspace-empty">
                {canImport ? (
                  <>
                    This workspace holds no questions yet. Import a corpus below: a Stack Exchange site&apos;s dump archive (<code>stackexchange</code>), SemEval-2016
                    Task 3 XML (<code>semeval</code>), an AskUbuntu pool and its texts (<code>askubuntu-pool</code>, <code>askubuntu-corpus</code>), or your own
                    questions as JSON lines or CSV. QPairs&apos; source folder holds public samples of each in <code>datasets/</code> (its README gives their
                    sources and licences). A demo workspace ready to label is made on a first run with no workspace (the desktop app, or{' '}
                    <code>npm run serve</code> without a path): <code>demo.qpairs</code> in <code>~/.qpairs/</code>, or in <code>QPAIRS_CONFIG_DIR</code> when it is set.
                  </>
                ) : (
                  <>This workspace holds no questions yet: its owner imports them.</>
                )}
              </p>
            )}
            {Object.keys(stats.sources).length > 0 && (
              <p className="small muted" data-testid="stat-sources">
                Sources:{' '}
                {Object.entries(stats.sources)
                  .map(([s, n]) => `${s} ${fmtInt(n)}`)
                  .join(' · ')}
              </p>
            )}
          </>
        )}
      </section>

      {canImport && info?.readonly && (
        <section className="card" data-testid="import-card">
          <h2>Import</h2>
          <ReadOnlyNote refused="importing (or undoing an import)" testId="import-readonly" />
        </section>
      )}
      {canImport && !info?.readonly && (
        <section className="card" data-testid="import-card">
          <h2>Import</h2>
          <form
            className="form-grid"
            onSubmit={(e) => {
              e.preventDefault();
              if (!busy && haveFiles) void start();
            }}
          >
            <label>
              Format
              <ChoiceSelect testId="import-format" choices={FORMATS} value={format} onChange={setFormat} disabled={busy} />
              <span className="hint">{FORMAT_HELP[format]}</span>
            </label>
            <label>
              Files
              {dialog ? (
                <span className="row">
                  <button type="button" data-testid="import-choose" onClick={() => void choose()} disabled={busy}>
                    Choose files…
                  </button>
                  <span className="small muted" data-testid="import-chosen">
                    {paths.length ? paths.map((p) => p.split(/[\\/]/).pop()).join(', ') : 'none chosen'}
                  </span>
                </span>
              ) : canUpload ? (
                <input
                  ref={fileInput}
                  type="file"
                  multiple
                  data-testid="import-files"
                  disabled={busy}
                  onChange={(e) => setFiles(Array.from(e.target.files ?? []))}
                />
              ) : (
                <span className="small muted">This app can neither upload files nor open them here.</span>
              )}
              {canUpload && <span className="hint">uploaded to the server, then imported</span>}
            </label>
            {byPath && !electron && (
              <label>
                Or paths on the server <span className="optional">one per line</span>
                <textarea
                  data-testid="import-paths"
                  rows={2}
                  value={serverPaths}
                  onChange={(e) => setServerPaths(e.target.value)}
                  disabled={busy}
                  placeholder="/data/SemEval2016-Task3-CQA-QL-dev.xml"
                />
                <span className="hint">files on this computer, read where they are (no upload)</span>
              </label>
            )}
            <label>
              {FIELD.pool} <span className="optional">optional</span>
              <input data-testid="import-pool" value={pool} onChange={(e) => setPool(e.target.value)} disabled={busy || !labelsToo} list="pool-names" />
              <datalist id="pool-names">
                {shared.pools.map((p) => (
                  <option key={p.name} value={p.name} />
                ))}
              </datalist>
              {!labelsToo && (
                <span className="hint" data-testid="import-pool-unused">
                  Pool, Annotator and Scheme are not used by {format}: it imports questions only
                </span>
              )}
              {labelsToo && notRead && (
                <span className="hint" data-testid="import-pool-unused">
                  {notRead.options.map((o) => FIELD[o]).join(' and ')} {notRead.options.length > 1 ? 'are' : 'is'} not used by {format}: {notRead.why}
                </span>
              )}
            </label>
            <label>
              {FIELD.annotator} <span className="optional">optional</span>
              <input data-testid="import-annotator" value={annotator} onChange={(e) => setAnnotator(e.target.value)} disabled={busy || !annotatorToo} placeholder="gold" />
            </label>
            <label>
              {FIELD.scheme} <span className="optional">optional</span>
              <ChoiceSelect testId="import-scheme" choices={SCHEMES} value={scheme} onChange={setScheme} disabled={busy || !schemeToo} text={(s) => s || '(format default)'} />
            </label>
            <label>
              {FIELD.source} <span className="optional">optional</span>
              <input
                data-testid="import-source"
                value={source}
                onChange={(e) => setSource(e.target.value)}
                disabled={busy}
                placeholder={format === 'stackexchange' ? 'default: the site its name gives (cardano for cardano.stackexchange.com.7z), else stackexchange' : undefined}
              />
            </label>
            <fieldset className="radio-row">
              <legend>Options</legend>
              <label className="inline" title="Questions already in the workspace under the same id are replaced by the file's (otherwise such a clash is refused)">
                <input type="checkbox" data-testid="import-update" checked={update} onChange={(e) => setUpdate(e.target.checked)} disabled={busy} />
                {FIELD.update}
              </label>
              <label className="inline" title="Warnings, such as labels for query ids the workspace does not have, stop the import instead">
                <input type="checkbox" data-testid="import-strict" checked={strict} onChange={(e) => setStrict(e.target.checked)} disabled={busy} />
                {FIELD.strict} (warnings are errors)
              </label>
            </fieldset>
            <div className="actions">
              {/* aria-disabled while importing: a button that turns disabled under the focus drops it to the page. */}
              <button ref={importButton} type="submit" className="primary" data-testid="import-start" disabled={!haveFiles} aria-disabled={busy || undefined}>
                Import
              </button>
              {busy && (
                <button type="button" data-testid="import-cancel" onClick={cancel}>
                  Cancel
                </button>
              )}
            </div>
          </form>

          <UndoImportPanel
            busy={busy}
            importDone={done}
            onDone={() => {
              refreshStats();
              shared.refreshPools();
            }}
          />
          {uploadNote && <p className="small muted">{uploadNote}</p>}
          {phase === 'running' && (
            <div data-testid="import-running">
              <ProgressBar
                testId="import-progress"
                done={job?.progress?.done ?? 0}
                total={job?.progress?.total ?? 0}
                text={fmtImportProgress(job?.progress?.done ?? 0, job?.progress?.total ?? 0, job?.progress?.message ?? '') ?? undefined}
              />
              {job?.progress?.import && (
                <p className="small" data-testid="import-running-what">
                  {fmtImportSubject(job.progress.import)}
                </p>
              )}
              <p className="small muted">{job?.progress?.message || 'Importing…'}</p>
            </div>
          )}
          {startError && (
            <div className="error-box" role="alert" data-testid="import-error">
              <strong>The import could not start.</strong>
              <pre>{cleanUploadPaths(startError)}</pre>
            </div>
          )}
          {uploadCancelled && (
            <div className="note-box" role="alert" data-testid="import-error">
              <strong>Import cancelled.</strong> The upload was stopped; nothing was imported.
            </div>
          )}
          {done && !done.ok && (
            <div className={done.cancelled ? 'note-box' : 'error-box'} role="alert" data-testid="import-error">
              <strong>{done.cancelled ? 'Import cancelled.' : job?.lost ? 'The import is no longer running.' : 'The import failed.'}</strong>
              {done.cancelled ? ' Nothing was imported: what it had written is rolled back.' : <pre>{cleanUploadPaths(done.error ?? 'unknown error')}</pre>}
            </div>
          )}
          {done && done.ok && (
            <div className="ok-box" role="status" data-testid="import-report">
              <strong>Import finished.</strong>
              <dl className="report">
                {reportLines(done.report).map((l) => (
                  <div key={l.key} className="report-row" data-testid={`import-report-${l.key}`}>
                    <dt>{l.label}</dt>
                    <dd>
                      {l.text}
                      {l.list && (
                        <ul className="report-list">
                          {l.list.map((x, i) => (
                            <li key={i}>{x}</li>
                          ))}
                        </ul>
                      )}
                    </dd>
                  </div>
                ))}
              </dl>
            </div>
          )}
        </section>
      )}
    </div>
  );
}
