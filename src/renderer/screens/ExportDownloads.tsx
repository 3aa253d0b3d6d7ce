/**
 * Serve mode's Export screen: the export's downloads, fetched one at a time (lib/download-queue.ts),
 * each with its state in words (exportDownloadsView.ts), Retry for a failed one and Download again for
 * one the browser was asked for and has not fetched. A line for all of them is said to screen readers
 * as it changes (polite), as the Annotate and Review screens announce theirs. Once the ids' expiry
 * passes, the files not yet sent turn expired by the screen's clock (DownloadQueue.lapse), their expiry moved onto that
 * clock by how far it is from the server's. Every pause
 * and timer ends with the screen. `exported`: the list is the export's own (one download per file, in the
 * export's result box): headed "Exported, to download:", each file with its size — one list, not the
 * files and then their downloads.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { AppClient } from '../client/types';
import { DownloadQueue, type QueuedDownload } from '../lib/download-queue';
import { offerDownload } from '../lib/download';
import { createPauses } from '../lib/pauses';
import { downloadStateText, downloadsSummary, fmtBytes } from './exportDownloadsView';

type Offered = ReadonlyArray<{ id: string; name: string; bytes: number; expiresAt?: number }>;

export interface ExportDownloadsState {
  files: readonly QueuedDownload[] | null;
  /** Fetches a new export's downloads (the previous export's queue stops); `serverNow`: the server's time when it gave them (export.write's `now`). */
  start: (downloads: Offered, serverNow?: number) => void;
  retry: (id: string) => void;
  offerAgain: (id: string) => void;
}

export function useExportDownloads(client: AppClient): ExportDownloadsState {
  const [files, setFiles] = useState<readonly QueuedDownload[] | null>(null);
  const queue = useRef<DownloadQueue | null>(null);
  /** The queue's pauses between questions: they end (their timers cleared) when the screen closes. */
  const [pauses] = useState(createPauses);
  useEffect(
    () => () => {
      queue.current?.stop();
      pauses.endAll();
    },
    [pauses],
  );
  // When the first file not yet sent stops being fetchable, the screen's clock turns it expired.
  const nextExpiry = files ? queue.current?.nextExpiry : undefined;
  useEffect(() => {
    if (nextExpiry === undefined) return;
    const q = queue.current;
    const timer = setTimeout(() => q?.lapse(Math.max(Date.now(), nextExpiry)), Math.min(Math.max(0, nextExpiry - Date.now()), 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [nextExpiry]);
  const start = useCallback(
    (downloads: Offered, serverNow?: number) => {
      queue.current?.stop();
      const q = new DownloadQueue(downloads, {
        ...(serverNow !== undefined ? { serverNow } : {}),
        offer: (d) => offerDownload(d),
        status: (ids) => client.invoke('export.downloads', { ids }),
        wait: pauses.wait,
        onChange: setFiles,
      });
      queue.current = q;
      void q.run();
    },
    [client, pauses],
  );
  return {
    files,
    start,
    retry: useCallback((id: string) => void queue.current?.retry(id), []),
    offerAgain: useCallback((id: string) => queue.current?.offerAgain(id), []),
  };
}

export function ExportDownloads({ state, exported = false }: { state: ExportDownloadsState; exported?: boolean }): ReactNode {
  const list = useRef<HTMLUListElement>(null);
  if (!state.files) return null;
  const retry = (id: string, i: number): void => {
    state.retry(id);
    // The Retry button goes with its failure: the keyboard stays on the file's row.
    setTimeout(() => list.current?.querySelectorAll<HTMLElement>('li')[i]?.focus(), 0);
  };
  return (
    <div className={exported ? 'export-downloads' : 'note-box export-downloads'} data-testid="export-downloads">
      <p className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="export-downloads-announce">
        {downloadsSummary(state.files)}
      </p>
      <strong aria-hidden="true">{exported ? `Exported, to download: ${downloadsSummary(state.files).replace(/^Downloads: /, '')}` : downloadsSummary(state.files)}</strong>
      <ul className="report-list" ref={list}>
        {state.files.map((f, i) => (
          <li key={f.id} tabIndex={-1} data-testid="export-download" data-name={f.name} data-state={f.state.kind}>
            <span className="export-download-name">{f.name}</span> {exported && <span className="muted small">({fmtBytes(f.bytes)})</span>} <span className={f.state.kind === 'failed' || f.state.kind === 'expired' ? 'error small' : 'muted small'}>{downloadStateText(f)}</span>
            {f.state.kind === 'failed' && (
              <button type="button" className="small" data-testid="export-download-retry" aria-label={`Retry ${f.name}`} onClick={() => retry(f.id, i)}>
                Retry
              </button>
            )}
            {f.state.kind === 'offered' && (
              <button type="button" className="small" data-testid="export-download-again" aria-label={`Download ${f.name} again`} onClick={() => state.offerAgain(f.id)}>
                Download again
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
