/**
 * The Export screen's preview (export.preview) in two steps: first the files' first lines and the
 * datasheet at once, its agreement section "being computed" (agreementLater); then, when the engine says
 * the agreement is pending, the whole datasheet as a job of kind 'preview' whose progress this hook
 * exposes with Cancel. A newer preview (format, pool or option changed, a label given) supersedes the
 * older: its job is cancelled here (serve mode runs a caller's computing requests one at a time, so the
 * newer one would wait behind it; the engine cancels it too) and its answer is never shown.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CommandArgs, ExportPreview } from '../../shared/contract';
import type { AppClient } from '../client/types';
import type { JobState, JobStore } from '../lib/jobs';
import { errorMessage } from '../lib/format';

export type PreviewArgs = Omit<CommandArgs<'export.preview'>, 'agreementLater'>;

/** The datasheet's agreement step: none asked (or done), computing (its job), stopped by Cancel, or failed. */
export type AgreementStep = { step: 'none' } | { step: 'computing' } | { step: 'cancelled'; forExport?: true } | { step: 'failed'; message: string };

/** An agreement step asked: its arguments, the preview jobs this page had seen when it was asked, and whether (and why) it was stopped. */
interface AgreementAsk {
  args: PreviewArgs;
  before: ReadonlySet<string>;
  cancelled: boolean;
  forExport?: boolean;
}

export interface ExportPreviewState {
  preview: ExportPreview | null;
  /** The first step failed: no preview. */
  error: string | null;
  agreement: AgreementStep;
  /** The running agreement step's job (its progress), once its first event has come. */
  job: JobState | null;
  /** Asks for the preview of `args` (superseding any earlier one). */
  load: (args: PreviewArgs) => Promise<void>;
  /** Labels changed: the preview again, for the same arguments (see below). */
  refresh: () => void;
  /** Stops the agreement step (the files' first lines stay); `forExport`: an export starts, which computes it itself. */
  cancel: (forExport?: boolean) => void;
  /** Computes the agreement again after a Cancel or a failure. */
  computeAgreement: () => void;
}

export function useExportPreview(client: Pick<AppClient, 'invoke'>, jobs: JobStore): ExportPreviewState {
  const [preview, setPreview] = useState<ExportPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [agreement, setAgreement] = useState<AgreementStep>({ step: 'none' });
  const seq = useRef(0);
  /** The agreement step under way. */
  const whole = useRef<AgreementAsk | null>(null);
  const last = useRef<PreviewArgs | null>(null);
  /** Labels changed while the agreement step ran: it is asked again once it ends (refresh). */
  const stale = useRef(false);
  /** The last agreement step was cancelled, and the arguments have not changed since: a label refreshes the files only. */
  const stopped = useRef(false);
  /** Whether a preview is shown (a label refreshes it in place, else loads it), and whether it lacks its agreement. */
  const shown = useRef<{ pending: boolean } | null>(null);

  const jobOf = (w: typeof whole.current): JobState | null => (w ? jobs.runningSince('preview', w.before, w.args.pool) : null);
  /** The job last asked to stop (asked once: its events keep coming until it has stopped). */
  const stopAsked = useRef<string | null>(null);
  const stopWhole = (): void => {
    const jobId = jobOf(whole.current)?.progress?.jobId;
    if (!jobId || stopAsked.current === jobId) return;
    stopAsked.current = jobId;
    client.invoke('job.cancel', { jobId }).catch(() => {});
  };

  const askWhole = useCallback(
    async (my: number, args: PreviewArgs): Promise<void> => {
      const w: AgreementAsk = { args, before: jobs.idsOf('preview'), cancelled: false };
      whole.current = w;
      setAgreement({ step: 'computing' });
      try {
        const p = await client.invoke('export.preview', { ...args, agreementLater: false });
        if (my !== seq.current) return;
        shown.current = { pending: false };
        setPreview(p);
        setAgreement({ step: 'none' });
      } catch (e) {
        if (my !== seq.current) return;
        stopped.current = w.cancelled;
        setAgreement(w.cancelled ? { step: 'cancelled', ...(w.forExport ? { forExport: true as const } : {}) } : { step: 'failed', message: errorMessage(e) });
      } finally {
        if (whole.current === w) whole.current = null;
      }
      // Cancelled while an earlier whole preview was shown (a label's refresh): the files and datasheet without the agreement.
      if (my === seq.current && w.cancelled && shown.current?.pending === false) await loadRef.current(args);
      // Labels given meanwhile: the whole preview again (the one shown stays until it is done).
      if (my === seq.current && stale.current && !w.cancelled) {
        stale.current = false;
        await askWhole(++seq.current, args);
      }
    },
    [client, jobs],
  );

  const load = useCallback(
    async (args: PreviewArgs): Promise<void> => {
      stopWhole();
      whole.current = null;
      stale.current = false;
      const same = JSON.stringify(args) === JSON.stringify(last.current);
      stopped.current &&= same;
      last.current = args;
      const my = ++seq.current;
      try {
        const p = await client.invoke('export.preview', { ...args, agreementLater: true });
        if (my !== seq.current) return;
        shown.current = { pending: p.agreementPending === true };
        setPreview(p);
        setError(null);
        if (p.agreementPending && !stopped.current) await askWhole(my, args);
        else if (!p.agreementPending) setAgreement({ step: 'none' });
      } catch (e) {
        if (my !== seq.current) return;
        shown.current = null;
        setPreview(null);
        setError(errorMessage(e));
        setAgreement({ step: 'none' });
      }
    },
    // stopWhole reads refs and the store only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [client, askWhole],
  );

  // A Cancel pressed before the job's first event came: the job is stopped as soon as this page learns its id.
  const job = jobOf(whole.current);
  useEffect(() => {
    if (job && whole.current?.cancelled) stopWhole();
  });

  const loadRef = useRef(load);
  loadRef.current = load;

  /**
   * A label changed: the whole preview again, the one shown staying until it is done — but not in the middle
   * of an agreement step (a team labeling would restart its bootstrap at every label, and it would never end):
   * once that step ends. After a Cancel, the files and the datasheet without the agreement only.
   */
  const refresh = useCallback((): void => {
    const args = last.current;
    if (!args) return;
    if (whole.current) stale.current = true;
    else if (!shown.current || stopped.current) void load(args);
    else void askWhole(++seq.current, args);
  }, [load, askWhole]);

  const cancel = (forExport = false): void => {
    if (!whole.current) return;
    whole.current.cancelled = true;
    whole.current.forExport = forExport;
    stopWhole();
  };
  const computeAgreement = (): void => {
    stopped.current = false;
    if (last.current) void askWhole(++seq.current, last.current);
  };
  return { preview, error, agreement, job, load, refresh, cancel, computeAgreement };
}
