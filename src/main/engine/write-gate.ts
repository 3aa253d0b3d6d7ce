/**
 * Serialises writes to the workspace. An import holds the gate for its whole transaction (it runs
 * on its own connection, so readers keep seeing the last committed state); a label write waits
 * for the gate, then commits, then is acknowledged — so no acknowledged label can be part of an
 * import that later rolls back, and none is acknowledged before it is on disk.
 */
export class WriteGate {
  private tail: Promise<void> = Promise.resolve();
  private holders = 0;

  /** Runs fn when every earlier holder is done. */
  run<T>(fn: () => T | Promise<T>): Promise<T> {
    this.holders++;
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => void this.holders--,
      () => void this.holders--,
    );
    return result;
  }

  /** True while a holder runs or waits (e.g. an import is in progress). */
  get busy(): boolean {
    return this.holders > 0;
  }
}
