import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
// Types only from the contract: importing its values would bundle zod, whose eval probe trips the CSP.
import type { ImportUndoReport, UndoableImport } from '../../shared/contract';
import { useApp, useJobs, useReconnect, useWorkspaceChangedExceptDraws } from '../lib/context';
import { errorMessage, fmtInt } from '../lib/format';
import { ProgressBar } from '../components/ProgressBar';
import { FINISHING_UNDO } from '../../shared/undo-finishing';

/**
 * The Workspace screen's "Undo last import" (owner only): names the last finished import and when it
 * started, asks for confirmation, and runs `import.undo` as a job with progress and Cancel (the undo
 * commits in chunks: a cancelled undo leaves the import partly undone, and the button then finishes it, at one click, the
 * focus on it). `busy`: an import is under way (no undo meanwhile). An undo this page did not ask for is followed too, from
 * its next progress event: the one the app or serve mode runs when it opens a workspace whose undo a crash or kill stopped
 * partway, or another owner tab's.
 */
export function UndoImportPanel({ busy, importDone, onDone }: { busy: boolean; importDone: unknown; onDone: () => void }): ReactNode {
  const { client } = useApp();
  const jobs = useJobs();
  const [last, setLast] = useState<UndoableImport | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(() => {
    client
      .invoke('import.undoable', {})
      .then(setLast)
      .catch((e: unknown) => setError(errorMessage(e)));
  }, [client]);
  // Also when this tab's import ends: one that failed or changed nothing announces no change (the import before is still the one to undo).
  useEffect(refresh, [refresh, importDone]);
  useWorkspaceChangedExceptDraws(refresh);
  useReconnect(refresh);

  const job = jobs.get(jobId);
  const done = job?.done ?? null;
  useEffect(() => {
    if (!done) return;
    refresh();
    onDone();
  }, [done, refresh]); // eslint-disable-line react-hooks/exhaustive-deps

  // Asked about the last import as the engine has it now (another tab may have imported since this one read it). Finishing
  // an undo that stopped partway asks nothing: it was confirmed when it began, and there is no keeping the import now.
  const ask = (): void => {
    setError(null);
    client
      .invoke('import.undoable', {})
      .then((l) => {
        setLast(l);
        if (l?.partlyUndone) start(l);
        else setConfirming(l !== null);
      })
      .catch((e: unknown) => setError(errorMessage(e)));
  };
  const start = (l: UndoableImport | null = last): void => {
    setConfirming(false);
    setError(null);
    client
      .invoke('import.undo', l ? { started: l.started } : {})
      .then((r) => setJobId(r.jobId))
      .catch((e: unknown) => setError(errorMessage(e)));
  };
  const running = jobId !== null && !done;
  const runningElsewhere = jobs.latestRunning('undo')?.progress?.jobId ?? null;
  useEffect(() => {
    if (running || runningElsewhere === null || runningElsewhere === jobId) return;
    setJobId(runningElsewhere);
    setConfirming(false);
    setError(null);
  }, [running, runningElsewhere, jobId]);
  const finishing = job?.progress?.message === FINISHING_UNDO;

  // The question replaces the button, and the undo's outcome the question: the focus follows, never left on <body>.
  const startButton = useRef<HTMLButtonElement | null>(null);
  const outcome = useRef<HTMLDivElement | null>(null);
  const [focusStart, setFocusStart] = useState(false);
  const keep = (): void => {
    setConfirming(false);
    setFocusStart(true);
  };
  useEffect(() => {
    if (!focusStart || confirming) return;
    startButton.current?.focus();
    setFocusStart(false);
  }, [focusStart, confirming]);
  // A cancelled undo: the focus on Finish undoing last import (its note, an alert, is read out), one key from finishing it.
  useEffect(() => {
    const at = document.activeElement;
    if (!done || (at && at !== document.body && document.contains(at))) return;
    if (done.cancelled && startButton.current) startButton.current.focus();
    else outcome.current?.querySelector<HTMLElement>('[data-outcome]')?.focus();
  }, [done]);
  const report = done?.ok ? (done.report as ImportUndoReport) : null;

  return (
    <div className="undo-import" data-testid="undo-import" ref={outcome}>
      {last && !running && (
        <p>
          {confirming ? (
            <span
              className="confirm"
              role="alertdialog"
              aria-label="Undo the last import?"
              onKeyDown={(e) => {
                if (e.key !== 'Escape') return;
                e.stopPropagation();
                keep();
              }}
            >
              Undo the {last.what} started {new Date(last.started).toLocaleString()}? Its rows go, except what labels given since refer to; rows changed since
              stay as they are.{' '}
              <button type="button" className="danger" data-testid="undo-import-confirm" onClick={() => start()}>
                Undo it
              </button>{' '}
              <button type="button" data-testid="undo-import-keep" onClick={keep} autoFocus>
                Keep it
              </button>
            </span>
          ) : (
            <button ref={startButton} type="button" data-testid="undo-import-start" disabled={busy} onClick={ask}>
              {last.partlyUndone ? 'Finish undoing last import' : 'Undo last import'}: {last.what}, {new Date(last.started).toLocaleString()}
            </button>
          )}
        </p>
      )}
      {running && (
        <div data-testid="undo-import-running">
          <ProgressBar testId="undo-import-progress" done={job?.progress?.done ?? 0} total={job?.progress?.total ?? 0} />
          <p className="small muted">
            {finishing ? 'Finishing the undo of the last import, which a crash or kill had stopped partway' : 'Undoing the import'} ({fmtInt(job?.progress?.done ?? 0)} of{' '}
            {fmtInt(job?.progress?.total ?? 0)} rows)… Labels go on meanwhile{finishing ? '; imports are refused until it is done' : ''}.{' '}
            <button type="button" data-testid="undo-import-cancel" onClick={() => client.invoke('job.cancel', { jobId: jobId! }).catch((e: unknown) => setError(errorMessage(e)))}>
              Cancel
            </button>
          </p>
        </div>
      )}
      {done && !done.ok && (
        <div className={done.cancelled ? 'note-box' : 'error-box'} role="alert" data-testid="undo-import-error" tabIndex={-1} data-outcome>
          <strong>{done.cancelled ? 'Undo cancelled.' : 'The undo failed.'}</strong>{' '}
          {done.cancelled ? 'The import is partly undone, and imports are refused, until the undo is finished: Finish undoing last import carries on where it stopped.' : done.error}
        </div>
      )}
      {report && (
        <div className="ok-box" data-testid="undo-import-report" tabIndex={-1} data-outcome>
          <strong>Import undone.</strong>
          <ul className="report-list">
            {report.lines.map((l, i) => (
              <li key={i}>{l}</li>
            ))}
          </ul>
        </div>
      )}
      {error && (
        <p className="error" role="alert" data-testid="undo-import-error">
          {error}
        </p>
      )}
    </div>
  );
}
