/**
 * The workers that open the workspace load the SQLite addon first thing and say so, and a stop
 * asked before that waits for it: a worker terminated while the addon registers itself can abort
 * the whole process (addon-workers.ts). Run on the built bundles, as the engine starts them.
 */
import { once } from 'node:events';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { bundledWorkerPath } from '../worker-bundle';
import { ADDON_LOADED, stopOnceLoaded } from './addon-workers';

const root = path.resolve(import.meta.dirname, '../../..');

describe('workers that open the workspace', () => {
  it.each(['compute-worker', 'train-worker'])('%s stopped as it starts is terminated only once it has loaded the SQLite addon', async (name) => {
    const file = bundledWorkerPath(name, root);
    expect(file, `${name} is built (npm install builds it)`).not.toBeNull();
    const worker = new Worker(file!);
    const seen: unknown[] = [];
    worker.on('message', (m: { type?: unknown }) => seen.push(m.type));
    const stop = stopOnceLoaded(worker);
    await stop(); // asked at once, while the worker still loads its modules; settles once it has exited
    expect(worker.threadId).toBe(-1);
    expect(seen).toEqual([ADDON_LOADED]);
  });

  it('a stop asked after the addon loaded terminates the worker at once', async () => {
    const worker = new Worker(bundledWorkerPath('compute-worker', root)!);
    const stop = stopOnceLoaded(worker);
    await new Promise<void>((resolve) => worker.on('message', (m: { type?: unknown }) => m.type === ADDON_LOADED && resolve()));
    stop();
    const [code] = (await once(worker, 'exit')) as [number];
    expect(code).toBe(1); // terminated (a worker that ended by itself exits 0)
  });
});
