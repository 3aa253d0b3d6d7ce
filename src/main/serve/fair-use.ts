/**
 * Fair use per caller (issue 23): a token's computing commands — searches, evaluations, agreement,
 * exports — run at most `perCaller` at a time; up to `queue` more wait their turn, and beyond that
 * the caller gets 429 with Retry-After. Each turn starts on a fresh event-loop turn
 * (setImmediate), so requests of other callers — a label — are read and answered between two
 * searches of a flooding caller instead of after all of them.
 */

/** Commands that compute over the workspace (bounded per caller); labels and navigation are not. */
export const COMPUTING_COMMANDS: ReadonlySet<string> = new Set([
  'questions.search',
  'question.show',
  'eval.pool',
  'eval.query',
  'eval.order',
  'eval.compare',
  'agreement.report',
  'export.preview',
  'export.write',
  'review.queue',
  'pool.aggregation',
  'models.list',
]);

/** The refusal of a caller who already runs and queues as much as is fair. */
export class BusyError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'BusyError';
  }
}

interface Lane {
  running: number;
  waiting: Array<{ start: () => void; abandon: () => void }>;
}

/** Per-caller slots for computing commands. */
export class FairUse {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly perCaller: number,
    private readonly queue: number,
  ) {}

  /** How many of a caller's commands run and wait now (tests, diagnostics). */
  load(caller: string): { running: number; waiting: number } {
    const l = this.lanes.get(caller);
    return { running: l?.running ?? 0, waiting: l?.waiting.length ?? 0 };
  }

  /**
   * Waits for one of the caller's slots and returns its release; throws BusyError when the caller
   * already has `perCaller` running and `queue` waiting. An aborted wait leaves the queue.
   */
  enter(caller: string, signal?: AbortSignal): Promise<() => void> {
    let lane = this.lanes.get(caller);
    if (!lane) this.lanes.set(caller, (lane = { running: 0, waiting: [] }));
    const l = lane;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      l.running--;
      // The next turn starts after pending I/O: other callers' requests go first.
      setImmediate(() => this.next(caller, l));
    };
    if (l.running < this.perCaller && l.waiting.length === 0) {
      l.running++;
      return Promise.resolve(release);
    }
    if (l.waiting.length >= this.queue) {
      return Promise.reject(
        new BusyError(`too many requests at once from this caller: ${l.running} running and ${l.waiting.length} waiting; retry in a moment`, 1),
      );
    }
    return new Promise<() => void>((resolve, reject) => {
      const entry = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          l.running++;
          resolve(release);
        },
        abandon: () => reject(new BusyError('the request was cancelled while it waited', 1)),
      };
      const onAbort = (): void => {
        const i = l.waiting.indexOf(entry);
        if (i >= 0) l.waiting.splice(i, 1);
        entry.abandon();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      l.waiting.push(entry);
    });
  }

  private next(caller: string, l: Lane): void {
    while (l.running < this.perCaller && l.waiting.length > 0) l.waiting.shift()!.start();
    if (l.running === 0 && l.waiting.length === 0) this.lanes.delete(caller);
  }
}
