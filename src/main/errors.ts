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
