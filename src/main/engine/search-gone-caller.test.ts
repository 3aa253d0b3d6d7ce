/**
 * A search whose caller goes away (serve mode: the page reloaded or closed) while the BM25 index loads in
 * the background (3-8 s after a start, an import or an undo at 1M questions) stops waiting for it at once:
 * serve mode's computing slot of that caller is free again, rather than held until the load is over while
 * the page's next searches wait (a 4.5 s wait measured on a 1M-question workspace). The load itself goes
 * on, for the next search, and a search whose caller stays answers as before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CancelledError } from '../errors';
import { Engine } from './engine';
import { heldIndex, indexReady, preloadIndex, runImport } from './work';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import type { BrowseSearch } from '../../shared/contract';

const scratch = scratchWorkspaces('qpairs-search-gone-');
let engine: Engine | null = null;
afterEach(() => {
  engine?.close();
  engine = null;
});

/** A closed workspace with a stored index of two imports' questions. */
async function storedWorkspace(): Promise<string> {
  const ws = scratch.fresh('w');
  for (const k of [0, 1]) {
    const f = path.join(scratch.dir, `q${k}.jsonl`);
    writeFileSync(f, Array.from({ length: 60 }, (_, i) => JSON.stringify({ id: `q${k}-${i}`, title: `topic${k} question ${i}`, body: `topic${k} body` })).join('\n') + '\n');
    await runImport(ws, 'questions-jsonl', [f], {});
  }
  const file = ws.path;
  ws.close();
  return file;
}

/** The engine, its index loading in the background one step per event-loop turn (sliceMs 0). */
async function loadingEngine(): Promise<Engine> {
  engine = Engine.open(await storedWorkspace(), { transport: 'http' });
  void preloadIndex(engine.ws, undefined, 0);
  expect(heldIndex(engine.ws)).toBeUndefined();
  return engine;
}

const searchAs = (e: Engine, signal?: AbortSignal): Promise<BrowseSearch> =>
  e.invoke('questions.search', { text: 'topic1 question', limit: 3 }, { annotator: null, local: false, ...(signal ? { signal } : {}) }) as Promise<BrowseSearch>;

describe('a search whose caller goes while the index loads', () => {
  it('stops waiting at once, while the load goes on for the next search', async () => {
    const e = await loadingEngine();
    const gone = new AbortController();
    const order: string[] = [];
    const search = searchAs(e, gone.signal).then(
      () => order.push('answered'),
      (err: unknown) => order.push(err instanceof CancelledError ? 'cancelled' : `failed: ${String(err)}`),
    );
    const loaded = indexReady(e.ws).then(() => order.push('index loaded'));
    gone.abort();
    await Promise.all([search, loaded]);
    // Without the signal heeded, the search waited for the whole load, then answered a caller who had gone.
    expect(order).toEqual(['cancelled', 'index loaded']);
    expect(heldIndex(e.ws)).toBeDefined();
    expect((await searchAs(e)).results.map((r) => r.id.split('-')[0])).toEqual(['q1', 'q1', 'q1']);
  });

  it('answers as before when its caller stays', async () => {
    const e = await loadingEngine();
    const stays = new AbortController();
    const during = await searchAs(e, stays.signal);
    const after = await searchAs(e);
    expect(during.results.length).toBe(3);
    expect(during).toEqual(after);
  });
});
