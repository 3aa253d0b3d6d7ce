/**
 * Serve mode refuses a caller's request with 429 when that caller already has too many in flight, or
 * too many computing commands waiting (src/main/serve/fair-use.ts). A page reloaded at once meets it:
 * the server still counts the requests of the page that went, until it has seen their connections close.
 * A read so refused is sent again after the server's Retry-After, a bounded number of times, while the
 * page says it is waiting for the server (the connection chip); anything else fails at once, as before.
 */
import { BUSY_RETRIED_READS } from '../../shared/busy-reads';
import { ClientError } from './types';

/** How many times a refused read is sent again before its refusal is shown (each waits Retry-After, ~1 s, and the server holds a 429 ~1 s). */
export const BUSY_RETRIES = 10;

/** Whether a failure is serve mode's "busy, retry after a moment" (429). */
export function isBusyRefusal(e: unknown): e is ClientError {
  return e instanceof ClientError && e.status === 429;
}

export interface BusyRetryOptions {
  command: string;
  signal?: AbortSignal | undefined;
  /** Told +1 when a refused read starts waiting to be sent again, -1 when that wait is over. */
  onWaiting: (delta: 1 | -1) => void;
  /** Waits `ms` (tests pass a fake); rejects when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const sleepFor = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new DOMException('cancelled', 'AbortError'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal?.reason instanceof Error ? signal.reason : new DOMException('cancelled', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** `send()`, sent again after each busy refusal when `command` is a read (BUSY_RETRIED_READS), up to BUSY_RETRIES times. */
export async function sendRetryingBusyReads<T>(send: () => Promise<T>, opts: BusyRetryOptions): Promise<T> {
  const retried = BUSY_RETRIED_READS.has(opts.command);
  const sleep = opts.sleep ?? sleepFor;
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (e) {
      if (!retried || !isBusyRefusal(e) || attempt >= BUSY_RETRIES) throw e;
      opts.onWaiting(1);
      try {
        await sleep(Math.max(1, e.retryAfterSeconds ?? 1) * 1000, opts.signal);
      } finally {
        opts.onWaiting(-1);
      }
    }
  }
}
