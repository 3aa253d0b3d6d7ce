/**
 * An export written (export.write) runs as a job of kind 'export', as pool creation does (and an
 * export.preview's datasheet agreement as one of kind 'preview', export-preview.ts): the
 * request still answers with the export, and meanwhile the job's `job.progress` events say its stage
 * (and the agreement bootstrap's resamples done of all) and `job.cancel` stops it before anything is
 * written. Its `job.done` carries the files' names and sizes only, never their content (a download's
 * content goes in the answer, once).
 */
import { CancelledError, QPairsError } from '../errors';
import { EXPORT_CANCELLED, exportProgressMessage, type ExportProgress } from '../export';
import type { EngineCore as Engine } from './core';

/** What the export's work is handed: the job's cancel (or the caller's going away), and its progress. */
export interface ExportJobRun {
  signal: AbortSignal;
  onProgress: ExportProgress;
}

/**
 * Runs `work` as an export job started for the current caller (so its events reach them and the
 * owners only); `transport`: the request's own signal (the HTTP client went away), which cancels it
 * too. A cancel rejects with EXPORT_CANCELLED (a caller gone, with the CancelledError).
 */
export async function runExportJob<T extends { files: ReadonlyArray<{ name: string; bytes: number }> }>(
  engine: Engine,
  transport: AbortSignal | undefined,
  work: (run: ExportJobRun) => Promise<T>,
): Promise<T> {
  return runRenderJob(engine, transport, work, { kind: 'export', cancelled: EXPORT_CANCELLED, report: (r) => ({ files: r.files.map((f) => ({ name: f.name, bytes: f.bytes })) }) });
}

/** How a rendering job is told apart: its kind (and pool, in its events), what a cancel says, its job.done report. */
export interface RenderJobKind<T> {
  kind: 'export' | 'preview';
  pool?: string;
  cancelled: string;
  report: (r: T) => unknown;
  /** Told the job's id as it starts (export.preview's newer request cancels the caller's older one). */
  onStart?: (jobId: string) => void;
}

/** runExportJob for any rendering: export.write's (kind 'export') and export.preview's datasheet (kind 'preview'). */
export async function runRenderJob<T>(engine: Engine, transport: AbortSignal | undefined, work: (run: ExportJobRun) => Promise<T>, how: RenderJobKind<T>): Promise<T> {
  let settle!: { resolve: (r: T) => void; reject: (e: unknown) => void };
  const finished = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  const jobId = engine.jobs.start(how.kind, async (ctx) => {
    const ac = new AbortController();
    const stop = (): void => ac.abort();
    for (const s of [ctx.signal, transport]) {
      if (s?.aborted) ac.abort();
      s?.addEventListener('abort', stop, { once: true });
    }
    const onProgress: ExportProgress = (stage, done, total) => ctx.progress(done, total, exportProgressMessage(stage, done, total));
    // At once, so the Export screen shows the bar and Cancel while the export waits for a compute worker.
    onProgress('reading', 0, 0);
    try {
      const r = await work({ signal: ac.signal, onProgress });
      settle.resolve(r);
      return how.report(r);
    } catch (e) {
      settle.reject(e);
      throw e;
    } finally {
      for (const s of [ctx.signal, transport]) s?.removeEventListener('abort', stop);
    }
  }, how.pool === undefined ? {} : { pool: how.pool });
  how.onStart?.(jobId);
  return finished.catch((e: unknown) => {
    // Cancelled (job.cancel) is the user's choice, not an internal error: said as such, over HTTP too. A caller
    // gone (transport) has no one to tell: the CancelledError goes on as it is (serve logs "the client went away").
    throw e instanceof CancelledError && !transport?.aborted ? new QPairsError(how.cancelled) : e;
  });
}
