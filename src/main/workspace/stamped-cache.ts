/**
 * Results computed from a workspace, kept per key with the workspace's change stamp when they were
 * read (WorkspaceCore.changeStamp: any commit, this connection's or another's, changes it), so a
 * result is handed out again only while nothing was committed since; at most `max` keys, the least
 * recently stored dropped first. For reads repeated within one request or one screen's burst of
 * requests (a pool's labels, 50-500 ms on a big pool), never for anything written.
 */
export class StampedCache<K, V> {
  private readonly entries = new Map<K, { stamp: string; value: V }>();

  constructor(
    private readonly ws: { changeStamp(): string },
    private readonly max: number,
  ) {}

  /** The value kept for `key` if it was read at `stamp`. */
  at(key: K, stamp: string): V | undefined {
    const e = this.entries.get(key);
    return e && e.stamp === stamp ? e.value : undefined;
  }

  /** Keeps `value` for `key`, read at `stamp` (taken before the read began: a commit meanwhile makes it stale). */
  put(key: K, stamp: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { stamp, value });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  /** The value for `key` as of now: the kept one, or `read()`'s, kept. */
  get(key: K, read: () => V): V {
    const stamp = this.ws.changeStamp();
    const kept = this.entries.get(key);
    if (kept && kept.stamp === stamp) return kept.value;
    const value = read();
    this.put(key, stamp, value);
    return value;
  }
}
