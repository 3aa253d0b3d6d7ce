/**
 * One read at a time (the Review screen's queue): a read asked for while one runs for the same key
 * waits for it and is then made once for all who asked meanwhile — a burst of label events no longer
 * starts overlapping reads of the whole queue whose answers were all thrown away but the last. A
 * forced read (the judge's re-sort) or one for another key (pool and judge) starts at once.
 */
export interface Flight {
  key: string;
  running: Promise<void>;
  /** The read that follows the running one, shared by every caller who asked meanwhile. */
  next: Promise<void> | null;
}

/**
 * Starts `read` now, or returns the read that follows the running one for `key`. `again` asks once
 * more when the running read is done (the caller's own entry point, so it joins a newer flight).
 * The promise resolves once a read started after the call has finished.
 */
export function readOnce(slot: { current: Flight | null }, key: string, force: boolean, read: () => Promise<void>, again: () => Promise<void>): Promise<void> {
  const f = slot.current;
  if (!force && f && f.key === key) {
    f.next ??= f.running.then(again, again);
    return f.next;
  }
  const running = read().finally(() => {
    if (slot.current?.running === running) slot.current = null;
  });
  slot.current = { key, running, next: null };
  return running;
}
