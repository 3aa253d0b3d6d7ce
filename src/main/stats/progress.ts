/** Options shared by long-running resampling procedures. */
export interface LongWorkOptions {
  /** Called now and then with (done, total) resamples. */
  onProgress?: (done: number, total: number) => void;
  /** Cancels the work; the function then throws CancelledError. */
  signal?: AbortSignal;
}

/** How often (in resamples) progress is reported and the signal checked. */
export const PROGRESS_EVERY = 256;
