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
