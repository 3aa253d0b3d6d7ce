/**
 * Pauses that end with their owner (a screen closing): `wait(ms)` resolves after `ms`, or at once when
 * `endAll()` is called, its timer cleared either way — no timer outlives the screen that started it.
 */
export interface Pauses {
  wait(ms: number): Promise<void>;
  /** Ends every pause under way now (each resolves; its timer is cleared). */
  endAll(): void;
  /** How many pauses are under way. */
  readonly size: number;
}

export function createPauses(): Pauses {
  const open = new Set<() => void>();
  return {
    wait: (ms) =>
      new Promise<void>((resolve) => {
        const end = (): void => {
          clearTimeout(timer);
          open.delete(end);
          resolve();
        };
        const timer = setTimeout(end, ms);
        open.add(end);
      }),
    endAll: () => {
      for (const end of [...open]) end();
    },
    get size() {
      return open.size;
    },
  };
}
