/** An error whose message is meant for the user: what went wrong, where, and why. */
export class QPairsError extends Error {
  constructor(
    message: string,
    readonly details: { file?: string; line?: number; record?: string; reason?: string } = {},
  ) {
    super(message);
    this.name = 'QPairsError';
  }
}

/**
 * A user-facing error for a lookup of something that does not exist: an unknown pool, query,
 * candidate (pair), run, model, annotator, label event, job or upload. Transports report it as
 * 'not-found' (HTTP 404); where only QPairsError is known (the CLI) it is an ordinary user error.
 */
export class NotFoundError extends QPairsError {
  constructor(message: string, details: QPairsError['details'] = {}) {
    super(message, details);
    this.name = 'NotFoundError';
  }
}

/**
 * A workspace written by a newer QPairs: its recorded schema version (`user_version`) is above the
 * newest this build knows. Refused before anything is written; the file is left byte-identical.
 */
export class WorkspaceFromFutureError extends QPairsError {
  constructor(
    message: string,
    /** The file's recorded schema version. */
    readonly version: number,
    /** The newest schema version this build knows. */
    readonly known: number,
    details: QPairsError['details'] = {},
  ) {
    super(message, details);
    this.name = 'WorkspaceFromFutureError';
  }
}

/**
 * A workspace whose recorded schema version does not match its tables: tables, columns or indexes
 * of a later migration are already there (upgrading would fail or damage it), or tables its version
 * has are missing. Refused before anything is written; the file is left byte-identical.
 */
export class WorkspaceSchemaMismatchError extends QPairsError {
  constructor(
    message: string,
    /** The file's recorded schema version. */
    readonly version: number,
    /** Tables ("t"), columns ("t.c") or indexes ("t.index:i") of later migrations that the file already has. */
    readonly ahead: readonly string[],
    /** Tables or columns of its recorded version that the file lacks. */
    readonly missing: readonly string[],
    details: QPairsError['details'] = {},
  ) {
    super(message, details);
    this.name = 'WorkspaceSchemaMismatchError';
  }
}

/** Thrown when long work is cancelled through an AbortSignal. */
export class CancelledError extends Error {
  constructor(message = 'cancelled') {
    super(message);
    this.name = 'CancelledError';
  }
}

export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new CancelledError();
}

/**
 * Between two chunks of a long synchronous task (an export's write, `corpus export`): yields to the
 * event loop, so that a Ctrl-C (SIGINT, SIGTERM, SIGHUP: main's signal) or a cancel is heard, then
 * throws CancelledError if `signal` was aborted meanwhile.
 */
export async function yieldThenThrowIfAborted(signal?: AbortSignal): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  throwIfAborted(signal);
}

/**
 * Waits for `work` unless `signal` is aborted first: then rejects with CancelledError at once, and
 * `work` goes on without this waiter (for shared work another request may use: the BM25 index
 * loading in the background). Its result, or failure, when it comes is the waiter's only if not aborted.
 */
export function unlessAborted<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(new CancelledError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new CancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/**
 * An error posted by a worker thread (its name, message and details), made again as the class it
 * was where that class means something to the user: a QPairsError or NotFoundError stays a user
 * error (one line, no stack), a CancelledError a cancel; anything else an Error of that name.
 */
export function errorFromWorker(m: { name: string; message: string; details?: unknown }): Error {
  const details = (m.details ?? {}) as QPairsError['details'];
  if (m.name === 'NotFoundError') return new NotFoundError(m.message, details);
  if (m.name === 'QPairsError') return new QPairsError(m.message, details);
  if (m.name === 'CancelledError') return new CancelledError(m.message);
  return Object.assign(new Error(m.message), { name: m.name });
}
