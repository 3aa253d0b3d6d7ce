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
export type AgreementStep = { step: 'none' } | { step: 'computing' } | { step: 'cancelled' } | { step: 'failed'; message: string };

export interface ExportPreviewState {
  preview: ExportPreview | null;
  /** The first step failed: no preview. */
  error: string | null;
  agreement: AgreementStep;
  /** The running agreement step's job (its progress), once its first event has come. */
  job: JobState | null;
  /** Asks for the preview of `args` (superseding any earlier one). */
  load: (args: PreviewArgs) => Promise<void>;
  /** Stops the agreement step (the files' first lines stay). */
  cancel: () => void;
  /** Computes the agreement again after a Cancel or a failure. */
  computeAgreement: () => void;
}

export function useExportPreview(client: Pick<AppClient, 'invoke'>, jobs: JobStore): ExportPreviewState {
  const [preview, setPreview] = useState<ExportPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [agreement, setAgreement] = useState<AgreementStep>({ step: 'none' });
  const seq = useRef(0);
  /** The agreement step under way: its arguments and the preview jobs this page had seen when it was asked. */
  const whole = useRef<{ args: PreviewArgs; before: ReadonlySet<string>; cancelled: boolean } | null>(null);
  const last = useRef<PreviewArgs | null>(null);

  const jobOf = (w: typeof whole.current): JobState | null => (w ? jobs.runningSince('preview', w.before, w.args.pool) : null);
  const stopWhole = (): void => {
    const jobId = jobOf(whole.current)?.progress?.jobId;
    if (jobId) client.invoke('job.cancel', { jobId }).catch(() => {});
  };

  const askWhole = useCallback(
    async (my: number, args: PreviewArgs): Promise<void> => {
      const w = { args, before: jobs.idsOf('preview'), cancelled: false };
      whole.current = w;
      setAgreement({ step: 'computing' });
      try {
        const p = await client.invoke('export.preview', { ...args, agreementLater: false });
        if (my !== seq.current) return;
        setPreview(p);
        setAgreement({ step: 'none' });
      } catch (e) {
        if (my !== seq.current) return;
        setAgreement(w.cancelled ? { step: 'cancelled' } : { step: 'failed', message: errorMessage(e) });
      } finally {
        if (whole.current === w) whole.current = null;
      }
    },
    [client, jobs],
  );

  const load = useCallback(
    async (args: PreviewArgs): Promise<void> => {
      stopWhole();
      whole.current = null;
      last.current = args;
      const my = ++seq.current;
      try {
        const p = await client.invoke('export.preview', { ...args, agreementLater: true });
        if (my !== seq.current) return;
        setPreview(p);
        setError(null);
        if (p.agreementPending) await askWhole(my, args);
        else setAgreement({ step: 'none' });
      } catch (e) {
        if (my !== seq.current) return;
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

  const cancel = (): void => {
    if (!whole.current) return;
    whole.current.cancelled = true;
    stopWhole();
  };
  const computeAgreement = (): void => {
    if (last.current) void askWhole(seq.current, last.current);
  };
  return { preview, error, agreement, job, load, cancel, computeAgreement };
}
