/**
 * Stopping with jobs running (serve mode on SIGINT, SIGTERM or SIGHUP; the desktop app on quit):
 * every running job — an import, an undo, a training, an export… — is cancelled and waited for, so
 * that an import's committed chunks are rolled back now, as its Cancel does, and not left for the
 * next open to undo as a crash's (an undo stops between its chunks, the next open finishing it). The log says what was cancelled.
 */
import type { JobDone } from '../../shared/contract';
import type { Engine } from './engine';
import { jobSubjectText } from './jobs';

/** How long stopping waits for cancelled jobs to end (a big import's rollback); what is left is rolled back at the next open. */
export const STOP_WAIT_MS = 30_000;

/** What a cancel left, by job kind: an import rolled back; an undo stopped between chunks (undo-last.ts), finished by the next writable open. */
const CANCELLED_NOTE: Partial<Record<JobDone['kind'], string>> = {
  import: ': what it had written is rolled back',
  undo: ': the import it was undoing is partly undone; the next start (or command that opens the workspace for writing) finishes the undo',
};

/** A job as the log names it: its kind, and what an import imports or the pool it works on. */
function jobText(d: JobDone): string {
  return `${d.kind}${jobSubjectText(d)}`;
}

/**
 * Cancels the engine's running jobs at once and returns how many ran, with a promise that settles
 * once they have ended or `waitMs` has passed, logging each job's end.
 */
export function cancelJobsOnStop(engine: Engine, log: (line: string) => void, waitMs = STOP_WAIT_MS): { cancelled: number; settled: Promise<void> } {
  const off = engine.on('job.done', (d) => {
    if (d.cancelled) log(`cancelled the running ${jobText(d)}${CANCELLED_NOTE[d.kind] ?? ''}`);
    else log(`the running ${jobText(d)} ended before it could be cancelled (${d.ok ? 'done' : `failed: ${d.error ?? ''}`})`);
  });
  const cancelled = engine.jobs.cancelAll();
  if (cancelled === 0) {
    off();
    return { cancelled, settled: Promise.resolve() };
  }
  log(`cancelling ${cancelled === 1 ? 'the running job' : `${cancelled} running jobs`}…`);
  let timer: NodeJS.Timeout | undefined;
  const settled = Promise.race([
    engine.jobs.idle().then(() => true, () => true),
    new Promise<boolean>((r) => (timer = setTimeout(() => r(false), waitMs))),
  ]).then((ended) => {
    clearTimeout(timer);
    off();
    if (!ended) log(`a cancelled job still runs after ${waitMs / 1000} s; stopping anyway (the next open rolls back an import's committed part)`);
  });
  return { cancelled, settled };
}
