/**
 * Serve mode stopping (SIGINT, SIGTERM, SIGHUP): every running job — an import, an undo, a
 * training, an export… — is cancelled and waited for, as the desktop app does on quit, so that an
 * import's committed chunks are rolled back now, as its Cancel does, and not left for the next open
 * to undo as a crash's. The server's log says what was cancelled.
 */
import path from 'node:path';
import type { JobDone } from '../../shared/contract';
import type { Engine } from '../engine/engine';

/** How long stopping waits for cancelled jobs to end (a big import's rollback), as the desktop app's quit. */
export const STOP_WAIT_MS = 30_000;

/** A job as the log names it: its kind, and what an import imports or the pool it works on. */
function jobText(d: JobDone): string {
  const what = d.import ? ` of ${d.import.files.map((f) => path.basename(f)).join(', ')} (${d.import.format})` : '';
  return `${d.kind}${what}${d.pool !== undefined ? ` on pool ${d.pool}` : ''}`;
}

/** Cancels the engine's running jobs and waits (up to `waitMs`) until they have ended, logging each. */
export async function cancelJobsOnStop(engine: Engine, log: (line: string) => void, waitMs = STOP_WAIT_MS): Promise<void> {
  const off = engine.on('job.done', (d) => {
    if (d.cancelled) log(`cancelled the running ${jobText(d)}${d.kind === 'import' ? ': what it had written is rolled back' : ''}`);
    else log(`the running ${jobText(d)} ended before it could be cancelled (${d.ok ? 'done' : `failed: ${d.error ?? ''}`})`);
  });
  try {
    const running = engine.jobs.cancelAll();
    if (running === 0) return;
    log(`cancelling ${running === 1 ? 'the running job' : `${running} running jobs`}…`);
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      engine.jobs.idle().then(() => true, () => true),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), waitMs))),
    ]);
    clearTimeout(timer);
    if (!ended) log(`a cancelled job still runs after ${waitMs / 1000} s; stopping anyway (the next open rolls back an import's committed part)`);
  } finally {
    off();
  }
}
