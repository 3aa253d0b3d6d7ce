/**
 * The training queue (issue 23): at most `max` model trainings run at once (default 1; serve mode's
 * `--max-trainings N`). A training started while others run waits, shown as queued in its job's
 * progress ("queued: 2 trainings ahead…"); a cancelled queued job leaves the queue without running.
 * Trainings are CPU- and memory-heavy (an LSTM job: one thread, ~90 MB), so they queue instead
 * of piling up.
 */
import { CancelledError } from '../errors';

export const DEFAULT_MAX_TRAININGS = 1;

export class TrainingQueue {
  private running = 0;
  private readonly waiting: Array<{ go: () => void; tell: (ahead: number) => void }> = [];

  constructor(readonly max = DEFAULT_MAX_TRAININGS) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`max concurrent trainings must be a positive whole number (got ${max})`);
  }

  /** Trainings running and waiting now. */
  get load(): { running: number; queued: number } {
    return { running: this.running, queued: this.waiting.length };
  }

  /**
   * Waits for a training slot and returns its release. `onQueued(ahead)` is called when the
   * training has to wait, and again as it moves up. Throws CancelledError when `signal` aborts first.
   */
  acquire(signal: AbortSignal | undefined, onQueued: (ahead: number) => void): Promise<() => void> {
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.running--;
      const next = this.waiting.shift();
      this.waiting.forEach((w, i) => w.tell(i + 1));
      next?.go();
    };
    if (this.running < this.max) {
      this.running++;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const entry = {
        go: () => {
          signal?.removeEventListener('abort', onAbort);
          this.running++;
          resolve(release);
        },
        tell: onQueued,
      };
      const onAbort = (): void => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        this.waiting.forEach((w, k) => w.tell(k + 1));
        reject(new CancelledError());
      };
      if (signal?.aborted) return reject(new CancelledError());
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
      onQueued(this.waiting.length);
    });
  }
}
