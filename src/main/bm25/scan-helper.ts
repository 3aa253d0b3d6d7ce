/**
 * The pruned scan's helper thread: it scans every other window of a query (part 1 of 2, see
 * ./block-max-scoring.ts) while the calling thread scans the others, so one search uses both
 * cores. Searches stay synchronous: the caller posts the query, scans its own part, then blocks
 * (Atomics.wait) until the helper flags its part done and reads it with receiveMessageOnPort.
 *
 * The index is shared, not copied: the postings, length classes and doc numbers live in
 * SharedArrayBuffers (./pruned-search.ts), so the helper adds a few MB (term offsets, escaped
 * postings, its block bounds), not a second index.
 *
 * The thread runs from source text — the kernel's and top-k's factories and helperLoop below,
 * each self-contained — so it needs no bundled file and runs the very code the caller runs,
 * wherever the index module was bundled. Any failure (the thread does not start, throws, or does
 * not answer) marks the helper broken and the caller scans that part itself: same results.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { prunedScanKernel, type ScanIndex, type ScanPart } from './block-max-scoring';
import { topKFactory } from './top-k';

/** Control words in shared memory: [0] the query state (1 posted, 2 answered), [1] 1 once the thread listens. */
const STATE = 0;
const READY = 1;

interface HelperData {
  ctrl: Int32Array;
  theta: BigInt64Array;
  reply: MessagePort;
}

type ToHelper = { type: 'index'; ix: Omit<ScanIndex, 'excluded'> } | { type: 'scan'; ids: Int32Array; ws: Float64Array; k: number; excluded: number[] };
type FromHelper = { ok: true; part: ScanPart } | { ok: false; error: string };

/**
 * The helper thread's message loop (self-contained: it runs from its source text, so it names the
 * control words by their indexes, STATE = 0 and READY = 1, instead of the constants above).
 */
function helperLoop(kernel: ReturnType<typeof prunedScanKernel>, port: { on(ev: 'message', f: (m: ToHelper) => void): void }, data: HelperData): void {
  let ix: ScanIndex | null = null;
  port.on('message', (m) => {
    if (m.type === 'index') {
      ix = { ...m.ix, excluded: new Uint8Array(m.ix.nOrd) };
      return;
    }
    let out: FromHelper;
    try {
      if (!ix) throw new Error('no index');
      const view = ix;
      for (const o of m.excluded) view.excluded[o] = 1;
      try {
        out = { ok: true, part: kernel.scan(view, m.ids, m.ws, m.k, 1, 2, data.theta) };
      } finally {
        for (const o of m.excluded) view.excluded[o] = 0;
      }
    } catch (e) {
      out = { ok: false, error: String((e as Error)?.stack ?? e) };
    }
    data.reply.postMessage(out);
    Atomics.store(data.ctrl, 0, 2);
    Atomics.notify(data.ctrl, 0);
  });
  Atomics.store(data.ctrl, 1, 1);
  Atomics.notify(data.ctrl, 1);
}

const HELPER_SOURCE = `'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const kernel = (${prunedScanKernel.toString()})((${topKFactory.toString()})());
(${helperLoop.toString()})(kernel, parentPort, workerData);
`;

/** How long a search waits for the thread to start, and for its part. */
const START_TIMEOUT_MS = 10_000;
const ANSWER_TIMEOUT_MS = 120_000;

export class ScanHelper {
  private readonly worker: Worker;
  private readonly reply: MessagePort;
  private readonly ctrl = new Int32Array(new SharedArrayBuffer(8));
  /** θ of part 0 and part 1, as float64 bits (see the kernel). */
  readonly theta = new BigInt64Array(new SharedArrayBuffer(16));
  private synced: ScanIndex | null = null;
  private pending = false;
  /** Set when the thread failed once: searches then scan both parts on the calling thread. */
  broken = false;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.reply = port1;
    port1.unref();
    const data: HelperData = { ctrl: this.ctrl, theta: this.theta, reply: port2 };
    this.worker = new Worker(HELPER_SOURCE, { eval: true, workerData: data, transferList: [port2], resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    this.worker.unref();
    this.worker.on('error', () => {
      this.broken = true;
    });
  }

  /** Posts part 1 of a query on `ix` (θ slots reset); false when the helper cannot take it. */
  start(ix: ScanIndex, ids: Int32Array, ws: Float64Array, k: number, excluded: number[]): boolean {
    // A part never collected (the caller's own part threw) is awaited and dropped first, so an
    // answer is never read for the wrong query.
    if (this.pending) this.finish();
    if (this.broken) return false;
    if (Atomics.load(this.ctrl, READY) !== 1) {
      Atomics.wait(this.ctrl, READY, 0, START_TIMEOUT_MS);
      if (Atomics.load(this.ctrl, READY) !== 1) {
        this.close();
        return false;
      }
    }
    this.post(ix);
    this.theta.fill(0n);
    Atomics.store(this.ctrl, STATE, 1);
    this.worker.postMessage({ type: 'scan', ids, ws, k, excluded } satisfies ToHelper);
    this.pending = true;
    return true;
  }

  /** Sends the thread the index `ix` unless it has it (it then answers scans on it; the large arrays are shared, not copied). */
  post(ix: ScanIndex): void {
    if (this.synced === ix || this.broken) return;
    const { excluded: _own, ...shared } = ix;
    this.worker.postMessage({ type: 'index', ix: shared } satisfies ToHelper);
    this.synced = ix;
  }

  /** Waits for the part posted by start; null when the helper failed (the caller scans it then). */
  finish(): ScanPart | null {
    if (!this.pending) return null;
    this.pending = false;
    const deadline = Date.now() + ANSWER_TIMEOUT_MS;
    while (Atomics.load(this.ctrl, STATE) !== 2) {
      const left = deadline - Date.now();
      if (left <= 0 || this.broken) {
        this.close();
        return null;
      }
      Atomics.wait(this.ctrl, STATE, 1, Math.min(left, 1000));
    }
    const got = receiveMessageOnPort(this.reply) as { message: FromHelper } | undefined;
    if (!got || !got.message.ok) {
      this.close();
      return null;
    }
    return got.message.part;
  }

  /** Stops the thread (searches then run on the calling thread alone). */
  close(): void {
    this.broken = true;
    void this.worker.terminate();
  }
}
