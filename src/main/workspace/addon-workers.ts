/**
 * Worker threads that open the workspace (train-worker, compute-worker) load the SQLite addon
 * (better-sqlite3) in their own thread. A worker terminated while that addon registers itself can
 * abort the whole process: "FATAL ERROR: Error::New napi_get_last_error_info" from the addon's
 * napi_register_module_v1, seen twice in CI in train-worker's first read when the test had just
 * cancelled its job. So such a worker loads the addon first thing and says so (ADDON_LOADED), and
 * its host terminates it only once it has said so. A stopped job is over once its worker has
 * exited: its read-only connection to the workspace gone, the caller's close of the workspace is
 * the last one and takes the -wal and -shm files with it (the CLI's Ctrl-C left them otherwise).
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
 * else as soon as it says so (a worker that dies before that needs no stopping). The stop's promise
 * settles when the worker has exited.
 */
export function stopOnceLoaded(worker: Worker): () => Promise<void> {
  let loaded = false;
  let wanted = false;
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  worker.on('message', (m: { type?: unknown } | null) => {
    if (m?.type !== ADDON_LOADED) return;
    loaded = true;
    if (wanted && !exited) void worker.terminate();
  });
  return () => {
    wanted = true;
    if (loaded && !exited) void worker.terminate();
    return exit;
  };
}
