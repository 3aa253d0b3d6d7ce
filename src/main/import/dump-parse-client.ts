/**
 * The rows of a Stack Exchange dump file (dump-rows.ts), parsed beside the import's thread: this
 * thread reads the file's bytes (reader.ts readByteChunks: progress, cancel, gzip, archive members)
 * and hands them chunk by chunk to a worker (dump-parse-worker.ts) that decodes and validates the
 * UTF-8 (utf8-text.ts), runs the XML scanner and the HTML → text conversion, the larger part of a
 * dump import's work, and posts the rows back; this thread hands them to the sink (the importer,
 * which writes them) in document order. Bytes, not text, cross between the threads: a transferred
 * buffer costs this thread next to nothing, where decoding the text and cloning it to the worker
 * took about a tenth of this thread's work in a dump import (which, in serve mode, is also the
 * thread acknowledging labels). With no bundled worker (a source run without out/node) it all runs here.
 *
 * Same results either way, errors included: the worker runs the same parser and handlers
 * (dumpRowHandlers) and reports a parse or UTF-8 error after the rows before it; a read error
 * (a corrupt gzip or archive) is raised only after the rows of the chunks already sent are handled,
 * so an error the importer raises on an earlier row still comes first, as on one thread.
 * Flow control: at most MAX_IN_FLIGHT chunks (64 KiB each) are with the worker at once.
 */
import { Worker } from 'node:worker_threads';
import { CancelledError, QPairsError } from '../errors';
import { bundledWorkerPath } from '../worker-bundle';
import type { DumpParseWorkerData, FromDumpParseWorker, ToDumpParseWorker } from './dump-parse-protocol';
import { dumpRowHandlers, unpackDumpRows, type DumpRowSink } from './dump-rows';
import { readByteChunks } from './reader';
import { lineBreaks } from './utf8-text';
import type { ImportContext } from './types';
import { parseRowsXml } from './xml-rows';

/** Chunks posted to the worker and not yet answered, at most. */
const MAX_IN_FLIGHT = 16;

/** The bundled worker (out/node/dump-parse-worker.mjs, out/main/dump-parse-worker.js); null when there is none. */
export function defaultDumpParseWorkerPath(here = import.meta.dirname): string | null {
  return bundledWorkerPath('dump-parse-worker', here);
}

/**
 * Reads `file` (a dump's Posts.xml or PostLinks.xml, or an archive member) and passes its root
 * element and rows to `sink` in order. `workerPath`: the worker bundle (default: the bundled
 * one); null parses on this thread.
 */
export async function readDumpRows(ctx: ImportContext, file: string, sink: DumpRowSink, workerPath: string | null = defaultDumpParseWorkerPath()): Promise<void> {
  if (workerPath === null) return parseRowsXml(ctx, file, dumpRowHandlers(sink));
  const data: DumpParseWorkerData = { file };
  const worker = new Worker(workerPath, { workerData: data });
  const replies: FromDumpParseWorker[] = [];
  let failure: Error | null = null;
  let closed = false;
  let wake: (() => void) | null = null;
  worker.on('message', (m: FromDumpParseWorker) => {
    replies.push(m);
    wake?.();
  });
  worker.on('error', (e) => {
    failure ??= e instanceof Error ? e : new Error(String(e));
    wake?.();
  });
  worker.on('exit', (code) => {
    if (!closed) failure ??= new QPairsError(`${file}: the parsing worker exited (code ${code})`, { file });
    wake?.();
  });

  let sent = 0;
  let answered = 0;
  let done = false;
  const post = (m: ToDumpParseWorker): void => worker.postMessage(m);
  /** Set when handleReplies threw: the sink's or the worker's error, never a read error. */
  let failed = false;
  /** Handles the replies that came, in order (the sink's errors and the worker's parse error are thrown from here). */
  const handleReplies = (): void => {
    try {
      while (replies.length > 0) {
        const m = replies.shift()!;
        if (m.type === 'rows') {
          answered++;
          unpackDumpRows(m.rows, sink);
        } else if (m.type === 'done') done = true;
        else if (m.user) throw new QPairsError(m.message, m.details ?? {});
        else throw new Error(`${file}: parsing failed: ${m.message}`);
      }
    } catch (e) {
      failed = true;
      throw e;
    }
  };
  /** Waits for at least one more reply (or the worker's failure). */
  const nextReply = async (): Promise<void> => {
    while (replies.length === 0) {
      if (failure) throw failure;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
  };

  try {
    try {
      let line = 1;
      for await (const chunk of readByteChunks(ctx, file, () => line)) {
        handleReplies();
        line += lineBreaks(chunk).lines;
        // A copy of the chunk's own bytes (a chunk may be a view on a larger buffer), transferred.
        const bytes = new Uint8Array(chunk);
        worker.postMessage({ type: 'bytes', bytes } satisfies ToDumpParseWorker, [bytes.buffer]);
        sent++;
        while (sent - answered > MAX_IN_FLIGHT) {
          await nextReply();
          handleReplies();
        }
      }
    } catch (e) {
      // The sink's or the worker's error (thrown by handleReplies) as it is; so is a cancel.
      if (failed || e instanceof CancelledError || !(e instanceof QPairsError)) throw e;
      // A read error after some chunks: their rows first (the importer may fail on one of them
      // first, as it would on one thread), then the read error.
      while (answered < sent && !done) {
        await nextReply();
        handleReplies();
      }
      throw e;
    }
    post({ type: 'end' });
    while (!done) {
      await nextReply();
      handleReplies();
    }
  } finally {
    closed = true;
    await worker.terminate();
  }
}
