/**
 * Test fixture (not used by the app): an engine on a new workspace in a scratch folder, made before
 * each test and closed (its jobs over) and removed after it — the hooks engine tests wrote out each time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { cleanupTemp, tempDir } from '../import/test-helpers';
import { importTuning } from './work';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';
import type { JobDone, JobProgress } from '../../shared/contract';

/**
 * Registers the hooks: before each test a new folder `<prefix>…` and the engine `make` builds there,
 * given to `use` (the test file keeps its own `engine`); after it, once its jobs are over, the engine
 * closed and the folder removed.
 */
export function useFreshEngine(prefix: string, make: (dir: string) => Engine, use: (engine: Engine, dir: string) => void): void {
  let dir = '';
  let engine: Engine | null = null;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    engine = make(dir);
    use(engine, dir);
  });
  afterEach(async () => {
    // Jobs a test started (imports, pools) end before the workspace closes.
    await engine?.jobs.idle();
    engine?.close();
    engine = null;
    rmSync(dir, { recursive: true, force: true });
  });
}

/** For useFreshEngine: an engine on workspace `w.qpairs` in `dir`, holding what `fill` writes (in one transaction). */
export function engineOn(dir: string, fill: (ws: Workspace) => void = () => {}, transport: 'http' | 'electron' = 'http'): Engine {
  const ws = Workspace.create(path.join(dir, 'w.qpairs'));
  ws.transaction(() => fill(ws));
  return new Engine(ws, { transport });
}

/**
 * Registers the hooks of a file of import tests: one scratch folder for the file's tests (tempDir),
 * removed with what they made there after the last one, and importTuning's chunk time put back after
 * each test (a test may shorten it to get many chunks).
 */
export function useImportScratch(): { readonly dir: string } {
  let dir = '';
  beforeAll(() => {
    dir = tempDir();
  });
  afterAll(() => cleanupTemp());
  afterEach(() => {
    importTuning.chunkMs = undefined;
  });
  return {
    get dir() {
      return dir;
    },
  };
}

/**
 * Runs `fn` with the events of `kind`'s jobs collected, in order (`onProgress` sees each progress as it
 * comes): its progress, its done events (one event-loop turn after `fn` settles), and how `fn` settled.
 */
export async function withJobEvents<T>(
  engine: Engine,
  kind: JobProgress['kind'],
  fn: () => Promise<T>,
  onProgress: (p: JobProgress) => void = () => {},
): Promise<{ progress: JobProgress[]; done: JobDone[]; result: PromiseSettledResult<T> }> {
  const progress: JobProgress[] = [];
  const done: JobDone[] = [];
  const off1 = engine.on('job.progress', (p) => {
    if (p.kind !== kind) return;
    progress.push(p);
    onProgress(p);
  });
  const off2 = engine.on('job.done', (d) => d.kind === kind && done.push(d));
  try {
    const [result] = await Promise.allSettled([fn()]);
    await new Promise((r) => setImmediate(r));
    return { progress, done, result: result! };
  } finally {
    off1();
    off2();
  }
}

/**
 * A progress handler for withJobEvents that asks job.cancel (as `caller`) at the first progress event
 * `match` accepts, once; `asked` is that request's answer, null while none matched.
 */
export function cancelAtFirst(engine: Engine, match: (p: JobProgress) => boolean, caller?: Parameters<Engine['invoke']>[2]): { onProgress: (p: JobProgress) => void; readonly asked: Promise<unknown> | null } {
  let asked: Promise<unknown> | null = null;
  return {
    onProgress: (p) => {
      if (asked === null && match(p)) asked = engine.invoke('job.cancel', { jobId: p.jobId }, caller);
    },
    get asked() {
      return asked;
    },
  };
}
