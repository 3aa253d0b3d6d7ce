/**
 * Worker entry (worker_threads) of compute.ts: opens the workspace file read-only on its own
 * connection, runs one ComputeTask (compute-task.ts) and posts the result back. One task per
 * worker: the engine terminates the worker when the task is done or cancelled. Bundled as its
 * own entry (scripts/build-node.mjs → out/node/compute-worker.mjs; electron.vite.config.ts →
 * out/main/compute-worker.js).
 */
import { parentPort } from 'node:worker_threads';
import { Workspace } from '../workspace/workspace';
import { runComputeTask } from './compute-task';
import type { FromComputeWorker, ToComputeWorker } from './compute-protocol';
import { loadAddonThenSay } from '../workspace/addon-workers';
import type { ExportProgress, ExportStage } from '../export/progress';

const port = parentPort;
// First thing: the host terminates this worker only once the SQLite addon is loaded (addon-workers.ts).
loadAddonThenSay(port);

/** Posts an export's progress: each new stage, and within one at most every 100 ms (the bootstrap reports every few resamples). */
function progressPoster(): ExportProgress {
  let last = 0;
  let lastStage: ExportStage | null = null;
  return (stage, done, total) => {
    const now = Date.now();
    if (stage === lastStage && now - last < 100 && done < total) return;
    last = now;
    lastStage = stage;
    port!.postMessage({ type: 'progress', stage, done, total } satisfies FromComputeWorker);
  };
}

function handle(msg: ToComputeWorker): void {
  let ws: Workspace | null = null;
  let reply: FromComputeWorker;
  try {
    ws = Workspace.open(msg.path, { readonly: true });
    reply = { type: 'done', result: runComputeTask(ws, msg.task, undefined, undefined, progressPoster()) };
  } catch (e) {
    const err = e as Error & { details?: Record<string, unknown> };
    reply = { type: 'error', name: err?.name ?? 'Error', message: err?.message ?? String(e), details: err?.details };
  } finally {
    ws?.close();
  }
  port!.postMessage(reply);
}

if (port) port.once('message', handle);
