/**
 * The Export screen: a pool's gold set in one of the export formats, with its datasheet.
 * export.preview shows the datasheet (rendered with the safe markdown renderer) and the first
 * lines of each file; Export writes it — in the desktop app to a path chosen in the native save
 * dialog (export.write with path), in serve mode as browser downloads of the files the server streamed to its own folder.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { CommandResult, ExportWritten } from '../../shared/contract';
import { AGGREGATE, APP_EXPORT_CONTROLS, EXPORT_FILES_EXIST, EXPORT_FORMATS, EXPORT_REPLACE_BUTTON, type ExportFormat } from '../../shared/gold';
import { ClientError } from '../client/types';
import { counted } from '../../shared/plural';
import type { SharedState } from '../lib/shared-state';
import { useApp, useEvent, useJobs, useReconnect } from '../lib/context';
import { errorMessage } from '../lib/format';
import { Markdown } from '../lib/markdown';
import { baseName } from '../lib/download';
import { useDebounced } from '../lib/hooks';
import { PoolSelect } from '../components/PoolSelect';
import { NoPools } from '../components/NoPools';
import { ChoiceSelect } from '../components/ChoiceSelect';
import { NumberInput } from '../components/NumberInput';
import { ProgressBar } from '../components/ProgressBar';
import { exportDoneView } from './exportDone';
import { ExportDownloads, useExportDownloads, type ExportDownloadsState } from './ExportDownloads';
import { ExportPreviewStatus } from './ExportPreviewStatus';
import { useExportPreview } from './useExportPreview';

const FORMAT_HELP: Record<ExportFormat, string> = {
  askubuntu: 'AskUbuntu dev/test lines (query, similar, candidates, scores) of one run — needs a run',
  qrels: 'TREC qrels: qid 0 docno grade (judged pairs)',
  'trec-run': 'TREC run files: qid Q0 docno rank score tag (one per run, or the chosen one)',
  jsonl: 'one JSON object per pool pair (label, grade, status, votes, judge)',
  csv: 'CSV, one row per pool pair',
  'semeval-relevancy': 'SemEval .relevancy: orgq relq rank score true|false (judged pairs; one run)',
  'hf-dataset': 'Hugging Face dataset folder: data/pairs.jsonl + README.md dataset card',
};

/** Formats that use one run (askubuntu requires one; the engine defaults to the pool's first). */
const RUN_FORMATS: ReadonlySet<ExportFormat> = new Set(['askubuntu', 'semeval-relevancy', 'trec-run']);

/** Formats that can carry the questions' text (issue 13: the gold set stands alone). */
const TEXT_FORMATS: ReadonlySet<ExportFormat> = new Set(['jsonl', 'csv', 'hf-dataset', 'askubuntu']);

/** The default file name of an export (as the engine names serve-mode downloads). */
export function defaultExportFile(pool: string, format: ExportFormat): string {
  const ext: Record<ExportFormat, string> = { askubuntu: '.txt', qrels: '.qrels', 'trec-run': '.run', jsonl: '.jsonl', csv: '.csv', 'semeval-relevancy': '.relevancy', 'hf-dataset': '' };
  return `${pool.replace(/[^A-Za-z0-9._-]+/g, '_') || 'pool'}${ext[format]}`;
}

/**
 * Whether an export was refused for files already there, which "Replace them" writes over: the
 * engine's reason code says so, whatever the message's words (a path or pool name may hold any).
 */
export function refusedForFilesInTheWay(e: unknown): boolean {
  return e instanceof ClientError && e.reason === EXPORT_FILES_EXIST;
}

export function ExportScreen({ shared }: { shared: SharedState }): ReactNode {
  const { client, info } = useApp();
  const jobs = useJobs();
  const { pools, pool, setPool } = shared;
  const [format, setFormat] = useState<ExportFormat>('qrels');
  const [runNames, setRunNames] = useState<string[]>([]);
  const [run, setRun] = useState('');
  const [people, setPeople] = useState<CommandResult<'annotator.list'>>([]);
  /** Label source; '' = the engine's default (gold when the pool has gold labels, else the aggregate). */
  const [source, setSource] = useState('');
  const [lines, setLines] = useState(10);
  /** Question title + body in the files (jsonl, csv, hf-dataset columns; askubuntu's corpus file). */
  const [withText, setWithText] = useState(true);
  /** Every person's name in the files as A1, A2, … (export.write/preview `pseudonymize`). */
  const [pseudonymize, setPseudonymize] = useState(false);
  /** The preview in two steps: the files at once, then the datasheet's agreement with a bar and Cancel (useExportPreview.ts). */
  const previewState = useExportPreview(client, jobs);
  const { preview, error: previewError } = previewState;
  const [showSource, setShowSource] = useState(false);
  const [busy, setBusy] = useState(false);
  const [written, setWritten] = useState<WrittenExport | null>(null);
  const [writeError, setWriteError] = useState<string | null>(null);
  /** Desktop: the path chosen when the export was refused for files already there, which "Replace them" writes over. */
  const [replaceAt, setReplaceAt] = useState<string | null>(null);
  // Writing to a path on the engine's machine is for its owner there (the desktop app); others download.
  const desktop = client.transport === 'electron' && typeof client.pickSavePath === 'function' && shared.role === 'owner' && info?.local === true;
  /** Serve mode: the export's downloads, fetched one at a time, each with its state (ExportDownloads.tsx). */
  const downloads = useExportDownloads(client);

  /** Counts reconnections: what failed to load while the server was unreachable loads again. */
  const [reconnects, setReconnects] = useState(0);
  useEffect(() => {
    client
      .invoke('annotator.list', {})
      .then(setPeople)
      .catch(() => {});
  }, [client, reconnects]);

  // The pool's runs (eval.pool lists every run of the pool).
  useEffect(() => {
    if (!pool) return;
    let live = true;
    client
      .invoke('eval.pool', { pool })
      .then((ev) => {
        if (!live) return;
        const names = Object.keys(ev.runs);
        setRunNames(names);
        setRun((r) => (names.includes(r) ? r : ''));
      })
      .catch(() => live && setRunNames([]));
    return () => {
      live = false;
    };
  }, [client, pool, reconnects]);
  useEffect(() => {
    setWritten(null);
    setWriteError(null);
    setReplaceAt(null);
  }, [pool, format, run, source, withText, pseudonymize]);

  // askubuntu needs a run: pick the first one.
  const needsRun = format === 'askubuntu';
  useEffect(() => {
    if (needsRun && !run && runNames.length) setRun(runNames[0]!);
  }, [needsRun, run, runNames]);

  const args = useCallback(
    () => ({
      pool,
      format,
      ...(RUN_FORMATS.has(format) && run ? { run } : {}),
      ...(source ? { annotator: source } : {}),
      ...(TEXT_FORMATS.has(format) ? { text: withText } : {}),
      ...(pseudonymize ? { pseudonymize } : {}),
    }),
    [pool, format, run, source, withText, pseudonymize],
  );

  const { load } = previewState;
  const loadPreview = useCallback(async () => {
    if (pool) await load({ ...args(), lines });
  }, [load, pool, args, lines]);
  useEffect(() => void loadPreview(), [loadPreview]);
  useReconnect(() => {
    setReconnects((n) => n + 1);
    void loadPreview();
  });
  const repreview = useDebounced(previewState.refresh, 800);
  useEvent('label.changed', (rec) => {
    if (rec.pool === pool) repreview();
  });

  const canExport = !busy && pool !== '' && !(needsRun && !run) && !previewError;
  // The running export's job (export.write runs as one): its stage and progress, and Cancel. Its id comes with
  // its events: the first export job this page had not seen when the export started (an owner sees everyone's).
  const exportJobsBefore = useRef<ReadonlySet<string>>(new Set());
  const startedJob = busy ? jobs.firstSince('export', exportJobsBefore.current) : null;
  const exportJob = startedJob && !startedJob.done ? startedJob : null;
  const exportJobId = exportJob?.progress?.jobId ?? null;
  const exportButton = useRef<HTMLButtonElement>(null);
  const exportActions = useRef<HTMLDivElement>(null);
  const cancelExport = (): void => {
    if (exportJobId) client.invoke('job.cancel', { jobId: exportJobId }).catch((e: unknown) => setWriteError(errorMessage(e)));
  };

  /** `replace`: the path of a refused export whose existing files the user chose to replace. */
  const doExport = async (replace: string | null = null): Promise<void> => {
    if (busy) return;
    exportJobsBefore.current = jobs.idsOf('export');
    // The preview's agreement step and the export need the same bootstrap, and the export would wait behind
    // it (one compute worker; serve mode runs a caller's heavy requests one at a time): it stops, and is
    // asked again once the export is over, which then takes the agreement the export computed.
    const previewWasComputing = previewState.agreement.step === 'computing';
    if (previewWasComputing) previewState.cancel(true);
    setBusy(true);
    setWriteError(null);
    setWritten(null);
    setReplaceAt(null);
    let path: string | null = replace;
    try {
      if (desktop) {
        path ??= (await client.pickSavePath!({ title: `Export ${pool} (${format})`, defaultPath: defaultExportFile(pool, format) })) ?? null;
        if (!path) return;
        // The native save dialog asked whether to replace the chosen file, and only it: the datasheet, the
        // askubuntu corpus, trec-run's per-run files and an hf-dataset folder's files beside it are refused
        // when they exist, named in the error, until the user chooses "Replace them" (force).
        const r = await client.invoke('export.write', { ...args(), path, ...(replace ? { force: true } : { replaceChosen: true }) });
        setWritten({ result: r, where: 'disk' });
      } else {
        // The server streams the files to its own folder and gives an id per download (never their content in the answer).
        const r = await client.invoke('export.write', { ...args(), download: true });
        const offered = r.downloads ?? [];
        if (!offered.length) throw new Error('the server gave no download for the export; nothing to download');
        // One at a time, each once the one before has ended: all at once held every connection the tab has to the server.
        downloads.start(offered, r.now);
        // Issue 24: a folder export (hf-dataset) downloads as one FOLDER.zip, its files under the folder.
        setWritten(format === 'hf-dataset' ? { result: r, where: 'download', zip: offered[0]!.name } : { result: r, where: 'download' });
      }
    } catch (e) {
      const msg = errorMessage(e);
      setWriteError(msg);
      if (desktop && path && refusedForFilesInTheWay(e)) setReplaceAt(path);
    } finally {
      setBusy(false);
      if (previewWasComputing) previewState.computeAgreement();
      // Cancel goes away with the export (at its job.done, often before this answer): a keyboard user who was
      // on it, and so is on the page's body now, or on Export goes on from Export.
      const active = document.activeElement;
      if (!active || active === document.body || exportActions.current?.contains(active)) setTimeout(() => exportButton.current?.focus(), 0);
    }
  };

  // Every label source the CLI's --annotator exports: people, imported gold, and reference systems (role
  // system), which the list left out though their labels export as anyone's.
  const sources = people.map((p) => ({ name: p.name, note: p.role === 'system' ? ' (reference system)' : p.role === 'gold' ? ' (imported gold)' : '' }));

  // No pools: say what to do, not an empty select and buttons that do nothing.
  if (shared.poolsLoaded && pools.length === 0) {
    return <NoPools role={shared.role} title="Export a gold set" testId="export-no-pools" onOpenPools={() => shared.goTo('pools')} />;
  }

  return (
    <div className="export-screen">
      <section className="card">
        <h2>Export a gold set</h2>
        <div className="form-grid">
          <PoolSelect testId="export-pool" pools={pools} value={pool} onChange={setPool} inline={false} />
          <label>
            Format
            <ChoiceSelect testId="export-format" choices={EXPORT_FORMATS} value={format} onChange={setFormat} />
            <span className="hint">{FORMAT_HELP[format]}</span>
          </label>
          {TEXT_FORMATS.has(format) && (
            <label className="inline" title="with the text the dataset stands alone; without it, ids only">
              <input type="checkbox" data-testid="export-text" checked={withText} onChange={(e) => setWithText(e.target.checked)} />
              {format === 'askubuntu' ? 'write the corpus file (id, title, body) beside it' : 'include query and candidate title, body and source'}
            </label>
          )}
          <label className="inline" title="the label columns, votes, judges, notes and the datasheet name each person by a pseudonym, the same in every export of this workspace">
            <input type="checkbox" data-testid="export-pseudonymize" checked={pseudonymize} onChange={(e) => setPseudonymize(e.target.checked)} />
            Replace annotator names with A1, A2, …
          </label>
          {RUN_FORMATS.has(format) && (
            <label>
              Run {needsRun ? <span className="optional">required</span> : <span className="optional">optional</span>}
              <select data-testid="export-run" value={run} onChange={(e) => setRun(e.target.value)}>
                {!needsRun && <option value="">{format === 'trec-run' ? '(every run)' : '(the pool’s first run)'}</option>}
                {needsRun && !run && <option value="">(no runs)</option>}
                {runNames.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
              {needsRun && runNames.length === 0 && <span className="hint error">this pool has no runs: the askubuntu format needs scores</span>}
            </label>
          )}
          <label>
            Labels of
            <select data-testid="export-source" value={source} onChange={(e) => setSource(e.target.value)}>
              <option value="">default (gold if the pool has it, else @aggregate)</option>
              <option value={AGGREGATE}>@aggregate (the pool’s rule)</option>
              {sources.map((a) => (
                <option key={a.name} value={a.name}>
                  {a.name}
                  {a.note}
                </option>
              ))}
            </select>
          </label>
          <label>
            Preview lines
            <NumberInput min={0} max={1000} testId="export-lines" value={lines} onChange={setLines} />
          </label>
          <div className="actions" ref={exportActions}>
            {/* aria-disabled while exporting: a button that turns disabled under the focus drops it to the page. */}
            <button ref={exportButton} className="primary" data-testid="export-write" disabled={!canExport && !busy} aria-disabled={busy || undefined} onClick={() => void doExport()}>
              {busy ? 'Exporting…' : desktop ? 'Export to…' : 'Export (download)'}
            </button>
            {busy && exportJobId && (
              <button type="button" data-testid="export-cancel" onClick={cancelExport}>
                Cancel
              </button>
            )}
            <span className="hint">{desktop ? 'writes the files and OUT.datasheet.md where you choose' : 'your browser downloads the files and the datasheet'}</span>
          </div>
        </div>
        {busy && exportJob?.progress && (
          <div data-testid="export-progress">
            <ProgressBar label="export progress" done={exportJob.progress.done} total={exportJob.progress.total} />
            <p className="small muted" data-testid="export-stage">
              {exportJob.progress.message}
            </p>
          </div>
        )}
        {writeError && (
          <div className="error-box" role="alert" data-testid="export-error">
            <strong>Nothing was exported.</strong>
            <pre>{writeError}</pre>
            {replaceAt && (
              <div className="actions">
                <button data-testid="export-replace" disabled={busy} onClick={() => void doExport(replaceAt)}>
                  {EXPORT_REPLACE_BUTTON}
                </button>
                <span className="hint">or {APP_EXPORT_CONTROLS.another}</span>
              </div>
            )}
          </div>
        )}
        {/* One download per file: the export's files are listed once, each with its download's state. */}
        {written && <ExportDone written={written} previewWarnings={preview?.warnings ?? null} downloads={written.where === 'download' && !written.zip ? downloads : null} />}
        {!desktop && !(written?.where === 'download' && !written.zip) && <ExportDownloads state={downloads} />}
      </section>

      {previewError && (
        <div className="error-box" role="alert" data-testid="export-preview-error">
          <strong>No preview:</strong> {previewError}
        </div>
      )}
      <ExportPreviewStatus state={previewState} />
      {preview && (
        <>
          {preview.warnings.length > 0 && (
            <div className="note-box" data-testid="export-warnings">
              {preview.warnings.map((w, i) => (
                <div key={i}>{w}</div>
              ))}
            </div>
          )}
          <section className="card" data-testid="export-files">
            <h2>Files</h2>
            {preview.files.map((f) => (
              <div key={f.name} className="export-file" data-testid={`export-preview-${baseName(f.name)}`}>
                <h3>
                  {baseName(f.name)} <span className="muted small">{counted(f.lines, 'line')}</span>
                </h3>
                {/* "(empty)" only for a file with no line: with Preview lines at 0 every file read "(empty)" beside its line count. */}
                {f.head.length > 0 ? (
                  <pre className="file-head">{f.head.join('\n')}</pre>
                ) : (
                  <p className="muted small">{f.lines === 0 ? '(empty)' : '(no lines shown: Preview lines is 0)'}</p>
                )}
              </div>
            ))}
          </section>
          <section className="card">
            <div className="row">
              <h2 className="grow">Datasheet</h2>
              <label className="inline small">
                <input type="checkbox" checked={showSource} onChange={(e) => setShowSource(e.target.checked)} />
                markdown source
              </label>
            </div>
            {showSource ? <pre className="file-head">{preview.datasheet}</pre> : <Markdown source={preview.datasheet} testId="export-datasheet" />}
          </section>
        </>
      )}
    </div>
  );
}

/** An export's outcome: where its files went; `zip`: the one archive the browser downloaded them in (hf-dataset). */
interface WrittenExport {
  result: ExportWritten;
  where: 'disk' | 'download';
  zip?: string;
}

/**
 * The files written or downloaded, green only when none is empty (exportDone.ts). `downloads`: one per
 * file (serve mode, not a zip) — the files are that list, each with what the server sent of it.
 */
function ExportDone({ written, previewWarnings, downloads }: { written: WrittenExport; previewWarnings: string[] | null; downloads: ExportDownloadsState | null }): ReactNode {
  const view = exportDoneView(written.result.files, written.result.warnings, previewWarnings);
  // Green only while no download failed or expired either.
  const lost = downloads?.files?.some((f) => f.state.kind === 'failed' || f.state.kind === 'expired') ?? false;
  return (
    <div className={view.tone === 'ok' && !lost ? 'ok-box' : 'note-box'} data-testid="export-done">
      {downloads ? (
        <ExportDownloads state={downloads} exported />
      ) : (
        <>
          {/* A zip's files are named by their place in it: "pairs.jsonl" alone read as a file the browser had saved. */}
          {/* A zip's download is the browser's: what the server sent of it is said below (ExportDownloads). */}
          <strong>{written.where === 'disk' ? 'Written:' : `Exported as ${written.zip}, holding:`}</strong>
          <ul className="report-list">
            {written.result.files.map((f) => (
              <li key={f.name} data-testid="export-file">
                {f.name} <span className="muted small">({counted(f.bytes, 'byte')})</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {view.empty && <p data-testid="export-empty">{view.empty}</p>}
      {view.warnings.length > 0 && <p className="small">{view.warnings.join(' · ')}</p>}
    </div>
  );
}
