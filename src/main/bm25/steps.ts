/**
 * Work in steps: a generator that yields between bounded pieces of work (loading an index segment
 * by segment, warming its search bounds), run at once or in slices that let the event loop turn.
 */
import { throwIfAborted } from '../errors';

/** Runs the steps to the end, at once. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * Runs steps on this thread in slices of about `sliceMs`, letting the event loop turn between them
 * (a server goes on answering meanwhile); `signal` stops them between slices (CancelledError).
 */
export async function runStepsInSlices<T>(steps: Generator<void, T>, sliceMs: number, signal?: AbortSignal): Promise<T> {
  let began = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - began >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      throwIfAborted(signal);
      began = performance.now();
    }
  }
}
