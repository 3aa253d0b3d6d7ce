/**
 * A debounced call with a longest wait. Each call (re)starts a timer of `ms`, so a burst of calls
 * runs `fn` once, `ms` after the last; but never later than `maxWaitMs` after the burst's first
 * call, so that calls coming more often than every `ms` (a team's labels, each a label.changed
 * event, refreshing Evaluate's live figures or Export's preview) do not put the run off for as long
 * as they go on. No React: hooks.ts useDebounced wraps it.
 */
export interface Debounced {
  call(): void;
  cancel(): void;
}

export function debounce(fn: () => void, ms: number, maxWaitMs: number, clock: () => number = () => Date.now()): Debounced {
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** When the first call of the waiting burst came; null: none waits. */
  let firstAt: number | null = null;
  const cancel = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    firstAt = null;
  };
  return {
    call() {
      const now = clock();
      firstAt ??= now;
      if (timer) clearTimeout(timer);
      timer = setTimeout(
        () => {
          timer = null;
          firstAt = null;
          fn();
        },
        Math.max(0, Math.min(ms, firstAt + maxWaitMs - now)),
      );
    },
    cancel,
  };
}
