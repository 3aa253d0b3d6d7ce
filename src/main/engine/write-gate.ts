/**
 * Serialises writes to the workspace: one holder at a time, in request order.
 *
 * Short writes (`run`: a label, an undo, guidelines, an assignment…) hold the gate while they
 * run. A long write (`long`: an import) takes it in turns: it commits a bounded chunk, gives the
 * gate up so that the writes that queued meanwhile run (a label waits at most about one chunk),
 * then takes it back for its next chunk. Long writes never overlap one another; a holder that
 * must see no import in progress (pool creation: its BM25 candidates must not come from half an
 * import) calls `afterLongWrites`, which gives its turn up until the import has ended (committed
 * or rolled back) and then takes it back ahead of later writers.
 *
 * An import runs on its own connection and journals how to undo each committed chunk (see
 * workspace/undo-journal.ts), so a label written between two of its chunks is never part of it:
 * when the import fails, the undo removes the import's rows only, and a label is acknowledged
 * only once it is committed.
 */

/** The turns of a long write: release between chunks, acquire before the next one. */
export interface GateTurns {
  /** Waits for the gate (behind the writes that queued while the long write held it). */
  acquire(): Promise<void>;
  /** Gives the gate up (no-op when not holding it). */
  release(): void;
  /** True when a write that may run now (not one waiting for the long write to end) is waiting. */
  readonly contended: boolean;
}

interface Entry {
  /** Exclusive entries (a long write's start, a holder resuming after long writes) wait while a long write runs. */
  exclusive: boolean;
  start(): void;
}

interface Hold {
  suspended: boolean;
  resume: Entry | null;
}

export class WriteGate {
  private held = false;
  private readonly queue: Entry[] = [];
  private holders = 0;
  private longActive = false;
  /** The hold whose fn is being called right now (see afterLongWrites). */
  private starting: Hold | null = null;
  private idleWaiters: Array<() => void> = [];

  /**
   * Runs fn when every earlier holder is done (between two chunks of a running long write).
   * Resolves or rejects with fn's result once fn (and the promise it returns) has settled.
   * `letWaitingWritesRun`, awaited by a long-running fn between steps that must not see another
   * write (pool creation's retrieval), gives its turn to the short writes waiting now — labels
   * are acknowledged meanwhile — and takes it back before any long write (an import) may start.
   */
  run<T>(fn: (letWaitingWritesRun: () => Promise<void>) => T | Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.holders++;
      const hold: Hold = { suspended: false, resume: null };
      const letWaitingWritesRun = (): Promise<void> => this.letShortWritesRun(hold);
      const finish = (): void => {
        this.holders--;
        if (hold.suspended) {
          // Settled while waiting for long writes (it did not wait for the promise): drop its turn.
          if (hold.resume) this.remove(hold.resume);
          hold.suspended = false;
          this.notifyIdle();
          return;
        }
        this.release();
      };
      this.enqueue({
        exclusive: false,
        start: () => {
          queueMicrotask(() => {
            let r: T | Promise<T>;
            this.starting = hold;
            try {
              r = fn(letWaitingWritesRun);
            } catch (e) {
              this.starting = null;
              finish();
              reject(e);
              return;
            }
            this.starting = null;
            Promise.resolve(r).then(
              (v) => {
                finish();
                resolve(v);
              },
              (e: unknown) => {
                finish();
                reject(e);
              },
            );
          });
        },
      });
    });
  }

  /**
   * Runs a long write: fn starts when every earlier holder is done and no other long write runs,
   * holding the gate; between its chunks it calls `turns.release()` and `await turns.acquire()`.
   * The gate is given up when fn settles, whatever it holds then.
   */
  long<T>(fn: (turns: GateTurns) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.holders++;
      let holding = false;
      let waiting: Entry | null = null;
      const gate = this;
      const turns: GateTurns = {
        acquire: () =>
          new Promise<void>((res) => {
            if (holding) return res();
            waiting = {
              exclusive: false,
              start: () => {
                waiting = null;
                holding = true;
                res();
              },
            };
            this.enqueue(waiting);
          }),
        release: () => {
          if (!holding) return;
          holding = false;
          this.release();
        },
        get contended(): boolean {
          return gate.queue.some((e) => !e.exclusive);
        },
      };
      const end = (): void => {
        this.holders--;
        this.longActive = false;
        if (waiting) this.remove(waiting);
        if (holding) {
          holding = false;
          this.held = false;
        }
        this.grant();
        this.notifyIdle();
      };
      this.enqueue({
        exclusive: true,
        start: () => {
          this.longActive = true;
          holding = true;
          queueMicrotask(() => {
            let p: Promise<T>;
            try {
              p = fn(turns);
            } catch (e) {
              end();
              reject(e);
              return;
            }
            p.then(
              (v) => {
                end();
                resolve(v);
              },
              (e: unknown) => {
                end();
                reject(e);
              },
            );
          });
        },
      });
    });
  }

  /**
   * Resolves when no long write runs or waits to run. Called by a holder of the gate as the first
   * thing its fn does (synchronously, e.g. `await engine.writes.afterLongWrites()` at the top of
   * an async fn), it gives the gate up meanwhile (writes queued behind it and the long write's
   * chunks go ahead) and holds it again when the promise resolves.
   */
  afterLongWrites(): Promise<void> {
    const hold = this.starting;
    const pending = this.longActive || this.queue.some((e) => e.exclusive);
    if (!pending) return Promise.resolve();
    if (hold && !hold.suspended && this.held) return this.suspend(hold, true, (resume) => this.queue.push(resume));
    return new Promise<void>((resolve) => {
      this.idleWaiters.push(resolve);
      this.notifyIdle();
    });
  }

  /**
   * See run: while `hold` holds the gate and short writes wait, it gives the gate up to them and
   * resumes right after them, ahead of any long write's start queued (which must not run under it).
   */
  private letShortWritesRun(hold: Hold): Promise<void> {
    if (hold.suspended || !this.held || !this.queue.some((e) => !e.exclusive)) return Promise.resolve();
    return this.suspend(hold, false, (resume) => {
      const firstExclusive = this.queue.findIndex((e) => e.exclusive);
      this.queue.splice(firstExclusive < 0 ? this.queue.length : firstExclusive, 0, resume);
    });
  }

  /**
   * Gives `hold`'s turn up: its resumption, an entry `place` puts in the queue, resolves the promise
   * when its turn comes again.
   */
  private suspend(hold: Hold, exclusive: boolean, place: (resume: Entry) => void): Promise<void> {
    return new Promise<void>((resolve) => {
      hold.suspended = true;
      const resume: Entry = {
        exclusive,
        start: () => {
          hold.suspended = false;
          hold.resume = null;
          resolve();
        },
      };
      hold.resume = resume;
      place(resume);
      this.release();
    });
  }

  /** True while a holder runs or waits (e.g. an import is in progress). */
  get busy(): boolean {
    return this.holders > 0;
  }

  /** True while a long write (an import) is in progress. */
  get longWriteActive(): boolean {
    return this.longActive;
  }

  private enqueue(e: Entry): void {
    this.queue.push(e);
    this.grant();
  }

  private remove(e: Entry): void {
    const i = this.queue.indexOf(e);
    if (i >= 0) this.queue.splice(i, 1);
  }

  private release(): void {
    this.held = false;
    this.grant();
  }

  /** Starts the first waiting entry that may run now (exclusive ones wait while a long write runs). */
  private grant(): void {
    if (this.held) return;
    const i = this.queue.findIndex((e) => !e.exclusive || !this.longActive);
    if (i < 0) return;
    const [e] = this.queue.splice(i, 1);
    this.held = true;
    e!.start();
    if (e!.exclusive) this.notifyIdle();
  }

  private notifyIdle(): void {
    if (this.longActive || this.queue.some((e) => e.exclusive)) return;
    const ws = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of ws) w();
  }
}
