/** Test helper (not a test file): how often the event loop turns while some work runs. */

/** Awaits `work` and answers its value with the event-loop turns (setImmediate callbacks) that ran meanwhile. */
export async function turnsWhile<T>(work: Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let running = true;
  const tick = (): void => {
    turns++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  const value = await work.finally(() => (running = false));
  return { value, turns };
}
