/**
 * Worker entry (worker_threads) of parallel-segment-builder.ts: tokenizes the documents an import
 * sends into one segment at a time and posts each segment back encoded (persistence.ts
 * encodeAppended); the import's thread writes it inside its own transaction. Opens no database.
 * Bundled as its own entry (scripts/build-node.mjs → out/node/segment-worker.mjs;
 * electron.vite.config.ts → out/main/segment-worker.js).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { addDocuments } from './add-documents';
import { IndexState } from './index-state';
import { encodeAppended } from './persistence';
import type { FromSegmentWorker, SegmentWorkerData, ToSegmentWorker } from './segment-worker-protocol';

const port = parentPort;
if (port) {
  const { options, progress } = workerData as SegmentWorkerData;
  const handled = new Int32Array(progress);
  let st = new IndexState(options);
  let failed = false;
  const post = (m: FromSegmentWorker): void => port.postMessage(m);
  port.on('message', (msg: ToSegmentWorker) => {
    try {
      if (failed) return;
      if (msg.type === 'docs') addDocuments(st, msg.docs);
      else {
        const data = encodeAppended(st);
        st = new IndexState(options);
        post({ type: 'segment', data });
      }
    } catch (e) {
      failed = true;
      Atomics.store(handled, 1, 1);
      post({ type: 'error', message: (e as Error)?.message ?? String(e) });
    } finally {
      Atomics.add(handled, 0, 1);
      Atomics.notify(handled, 0);
    }
  });
}
