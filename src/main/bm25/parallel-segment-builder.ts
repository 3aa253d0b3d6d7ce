/**
 * SegmentBuilder's work split over two threads: this thread (the import's, which parses and writes
 * rows) sends the documents in batches to a worker (segment-worker.ts) that tokenizes them into a
 * segment; at each `cut` the worker posts the segment back encoded, and this thread writes it
 * (`writeReady`, inside the import's open transaction) — the same rows Bm25Index.appendSegment
 * writes for the same documents. So tokenizing, the larger half of indexing, runs beside the
 * parsing and the SQLite writes on a machine with two cores or more.
 *
 * Flow control: at most MAX_IN_FLIGHT batches are sent and not yet handled; past that, `add`
 * waits (Atomics.wait on a shared counter the worker bumps), so memory stays bounded whatever
 * the import's size. Segments come back as messages, handled when this thread's event loop runs
 * (an import yields at least every few ms); `finish` waits for the last. A failure in the worker
 * is thrown by the next call; `close` terminates the worker (call it in every case).
 */
import type { Database } from 'better-sqlite3';
import { Worker } from 'node:worker_threads';
import { QPairsError } from '../errors';
import { bundledWorkerPath } from '../worker-bundle';
import type { Bm25Document, Bm25Options } from './bm25-types';
import { IndexState } from './index-state';
import { appendOptions, writeEncoded } from './persistence';
import type { SegmentData } from './segments';
import type { FromSegmentWorker, SegmentWorkerData, ToSegmentWorker } from './segment-worker-protocol';

/** Documents per message to the worker. */
const BATCH_DOCS = 256;
/** Messages sent and not yet handled before `add` waits. */
const MAX_IN_FLIGHT = 16;
/**
 * `add` gives up waiting for a worker that handles nothing for this long (ms): one batch takes
 * milliseconds, and a worker that died cannot say so while this thread waits (its exit is an
 * event, and events wait for this thread's loop).
 */
const STALL_MS = 30_000;

/** The bundled segment worker (out/node/segment-worker.mjs, out/main/segment-worker.js); null when there is none. */
export function defaultSegmentWorkerPath(here = import.meta.dirname): string | null {
  return bundledWorkerPath('segment-worker', here);
}

export class ParallelSegmentBuilder {
  private readonly worker: Worker;
  /** An empty state with the worker's settings (writeEncoded checks the stored index against it). */
  private readonly settings: IndexState;
  private readonly handled: Int32Array;
  private sent = 0;
  private batch: Bm25Document[] = [];
  private inSegment = 0;
  private cutsPending = 0;
  private readonly ready: Array<SegmentData | null> = [];
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private closed = false;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    workerPath: string,
    opts: Bm25Options = {},
    private readonly stallMs = STALL_MS,
  ) {
    const options = appendOptions(db, opts);
    this.settings = new IndexState(options);
    const progress = new SharedArrayBuffer(8);
    this.handled = new Int32Array(progress);
    const data: SegmentWorkerData = { options, progress };
    this.worker = new Worker(workerPath, { workerData: data });
    this.worker.on('message', (m: FromSegmentWorker) => {
      if (m.type === 'segment') {
        this.ready.push(m.data);
        this.cutsPending--;
      } else this.failure ??= new QPairsError(`indexing failed: ${m.message}`);
      this.wake?.();
    });
    this.worker.on('error', (e) => {
      this.failure ??= e instanceof Error ? e : new Error(String(e));
      this.wake?.();
    });
    this.worker.on('exit', (code) => {
      if (!this.closed) this.failure ??= new QPairsError(`the indexing worker exited (code ${code})`);
      this.wake?.();
    });
  }

  /** Documents added since the last cut. */
  get size(): number {
    return this.inSegment;
  }

  /** Sends one document to the segment being built; writes the segments that came back meanwhile. */
  add(doc: Bm25Document): void {
    this.check();
    this.batch.push(doc);
    this.inSegment++;
    if (this.batch.length >= BATCH_DOCS) this.sendBatch();
    this.writeReady();
  }

  /** Ends the segment being built (written when it comes back: writeReady, finish). */
  cut(): void {
    this.check();
    this.sendBatch();
    if (this.inSegment === 0) return;
    this.send({ type: 'cut' });
    this.cutsPending++;
    this.inSegment = 0;
  }

  /** Writes the segments that came back, in order. Call inside the caller's transaction. */
  writeReady(): void {
    while (this.ready.length > 0) writeEncoded(this.db, this.settings, this.ready.shift()!);
  }

  /** Cuts, waits for every segment and writes them. Call inside the caller's transaction. */
  async finish(): Promise<void> {
    this.cut();
    while (this.cutsPending > 0) {
      this.check();
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
    this.check();
    this.writeReady();
  }

  /** Stops the worker (whatever state it is in); resolves when its thread has exited. */
  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.exited = this.worker.terminate().then(() => undefined);
    }
    return this.exited;
  }

  private check(): void {
    if (this.closed) throw new Error('ParallelSegmentBuilder used after close');
    if (this.failure) throw this.failure;
  }

  private sendBatch(): void {
    if (this.batch.length === 0) return;
    const docs = this.batch;
    this.batch = [];
    this.send({ type: 'docs', docs });
  }

  private send(msg: ToSegmentWorker): void {
    this.worker.postMessage(msg);
    this.sent++;
    let last = Atomics.load(this.handled, 0);
    let since = Date.now();
    while (this.sent - Atomics.load(this.handled, 0) > MAX_IN_FLIGHT && Atomics.load(this.handled, 1) === 0) {
      Atomics.wait(this.handled, 0, last, 1000);
      const now = Atomics.load(this.handled, 0);
      if (now !== last) {
        last = now;
        since = Date.now();
      } else if (Date.now() - since > this.stallMs) {
        this.failure ??= new QPairsError(`the indexing worker handled nothing for ${this.stallMs / 1000} s`);
        throw this.failure;
      }
    }
  }
}
