/**
 * Worker threads that open the workspace (train-worker, compute-worker) load the SQLite addon
 * (better-sqlite3) in their own thread. A worker terminated while that addon registers itself can
 * abort the whole process: "FATAL ERROR: Error::New napi_get_last_error_info" from the addon's
 * napi_register_module_v1, seen twice in CI in train-worker's first read when the test had just
 * cancelled its job. So such a worker loads the addon first thing and says so (ADDON_LOADED), and
 * its host terminates it only once it has said so.
 */
import type { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';

export const ADDON_LOADED = 'addon-loaded';

/** The worker's first message: the SQLite addon is loaded in its thread. */
export interface AddonLoaded {
  type: typeof ADDON_LOADED;
}

/** In the worker, before anything else: loads the SQLite addon and tells the host. */
export function loadAddonThenSay(port: { postMessage(m: AddonLoaded): void } | null): void {
  new Database(':memory:').close();
  port?.postMessage({ type: ADDON_LOADED });
}

/**
 * In the host: a stop for `worker` that terminates it at once when it has said it loaded the addon,
 * else as soon as it says so (a worker that dies before that needs no stopping).
 */
export function stopOnceLoaded(worker: Worker): () => void {
  let loaded = false;
  let wanted = false;
  worker.on('message', (m: { type?: unknown } | null) => {
    if (m?.type !== ADDON_LOADED) return;
    loaded = true;
    if (wanted) void worker.terminate();
  });
  return () => {
    wanted = true;
    if (loaded) void worker.terminate();
  };
}
