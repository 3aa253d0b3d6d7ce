/**
 * A first-come-first-served queue for a bounded number of slots: the engine's compute workers
 * (compute.ts: at most `maxWorkers` threads) and its model trainings (training-queue.ts: at most
 * `--max-trainings`). Both say while they wait how many tasks are before them, and both let a
 * waiting task be cancelled.
 *
 * - `acquire` resolves with the slot's release (calling it twice frees one slot once). A task
 *   arriving while others wait queues behind them even if a slot is free (the limit can be
 *   lowered or raised at run time: `max` is read at every acquire and release).
 * - Its place: the tasks before it, those holding a slot and those waiting ahead of it. It is
 *   told once it has waited `noticeMs` (0: at once), and again whenever that number changes.
 * - Beyond `maxQueued` waiting tasks, `acquire` is refused with `busy(load)`'s error.
 * - An aborted signal rejects with `cancelled()`'s error, before or while waiting; the tasks
 *   behind it move up and are told.
 */
import { CancelledError } from '../errors';

export interface SlotQueueOptions {
  /** How many slots there are, read at every acquire and release. */
  max: () => number;
  /** How many tasks may wait; more are refused with busy()'s error. Default: no bound. */
  maxQueued?: () => number;
  busy?: (load: SlotLoad) => Error;
  /** How long a task waits before it is told its place (ms). Default 0: at once. */
  noticeMs?: number;
  cancelled?: () => Error;
}

export interface SlotLoad {
  running: number;
  queued: number;
}

interface Waiter {
  start: () => void;
  place: ((ahead: number) => void) | undefined;
  told: boolean;
}

export class SlotQueue {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly o: SlotQueueOptions) {}

  /** Tasks holding a slot (or not yet released) and tasks waiting for one. */
  get load(): SlotLoad {
    return { running: this.running, queued: this.waiting.length };
  }

  /**
   * Waits for a slot and returns its release. `place(ahead)` hears how many tasks are before this
   * one (see the module comment). Rejects with cancelled()'s error when `signal` aborts first.
   */
  acquire(signal?: AbortSignal, place?: (ahead: number) => void): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(this.cancelledError());
    if (this.running < this.o.max() && this.waiting.length === 0) return Promise.resolve(this.take());
    if (this.o.maxQueued && this.waiting.length >= this.o.maxQueued()) {
      return Promise.reject(this.o.busy?.(this.load) ?? new Error(`too many tasks waiting (${this.waiting.length})`));
    }
    return new Promise((resolve, reject) => {
      let notice: NodeJS.Timeout | undefined;
      const entry: Waiter = {
        start: () => {
          if (notice) clearTimeout(notice);
          signal?.removeEventListener('abort', onAbort);
          resolve(this.take());
        },
        place,
        told: false,
      };
      const onAbort = (): void => {
        if (notice) clearTimeout(notice);
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(this.cancelledError());
        this.tellPlaces();
      };
      const tell = (): void => {
        entry.told = true;
        const i = this.waiting.indexOf(entry);
        if (i >= 0) place?.(this.running + i);
      };
      this.waiting.push(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (!this.o.noticeMs) tell();
      else {
        notice = setTimeout(tell, this.o.noticeMs);
        notice.unref();
      }
    });
  }

  private take(): () => void {
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      let started = false;
      while (this.running < this.o.max() && this.waiting.length > 0) {
        this.waiting.shift()!.start();
        started = true;
      }
      if (started) this.tellPlaces();
    };
  }

  /** Tells each waiting task that has been told before its new place. */
  private tellPlaces(): void {
    this.waiting.forEach((w, i) => w.told && w.place?.(this.running + i));
  }

  private cancelledError(): Error {
    return this.o.cancelled?.() ?? new CancelledError();
  }
}
