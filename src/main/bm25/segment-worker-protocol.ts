/** Messages between parallel-segment-builder.ts and segment-worker.ts. */
import type { Bm25Document, Bm25Options } from './bm25-types';
import type { SegmentData } from './segments';

export interface SegmentWorkerData {
  /** The settings to build with (persistence.ts appendOptions: plain data). */
  options: Bm25Options;
  /**
   * Int32 × 2, shared: [0] messages the worker has handled (it notifies on each), [1] set to 1
   * when it failed. The builder's thread waits on [0] to keep at most a few batches in flight.
   */
  progress: SharedArrayBuffer;
}

export type ToSegmentWorker =
  /** Documents to tokenize into the segment being built. */
  | { type: 'docs'; docs: Bm25Document[] }
  /** End the segment: post it back encoded and start the next. */
  | { type: 'cut' };

export type FromSegmentWorker =
  /** A segment, in cut order (null: it held no live document). */
  | { type: 'segment'; data: SegmentData | null }
  | { type: 'error'; message: string };
