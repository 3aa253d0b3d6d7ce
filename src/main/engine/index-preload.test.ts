/**
 * The app and serve mode load the BM25 index in the background, in slices (work.ts preloadIndex), when
 * the engine opens and after each import or undo: loading it in one go at the first search or query
 * view held every request, labels included, for 3-8 s at 1M questions. A search then takes the index
 * loaded in the background, never a second load; an index a commit changed while it was read is not kept.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Bm25Index, syncedInSlices } from '../bm25';
import { Engine } from './engine';
import { heldIndex, indexReady, preloadIndex, runImport } from './work';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import { Workspace } from '../workspace/workspace';
import type { BrowseSearch } from '../../shared/contract';
import { jobDone } from './test-team';

const scratch = scratchWorkspaces('qpairs-index-preload-');
let engine: Engine | null = null;
afterEach(() => {
  engine?.close();
  engine = null;
  vi.restoreAllMocks();
});

function jsonl(name: string, ids: string[], words: string): string {
  const f = path.join(scratch.dir, name);
  writeFileSync(f, ids.map((id) => JSON.stringify({ id, title: `${words} ${id}`, body: `${words} body` })).join('\n') + '\n');
  return f;
}

/** A workspace whose stored index has a few segments (three imports), closed. */
async function storedWorkspace(): Promise<string> {
  const ws = scratch.fresh('w');
  for (const k of [0, 1, 2]) await runImport(ws, 'questions-jsonl', [jsonl(`q${k}.jsonl`, Array.from({ length: 40 }, (_, i) => `q${k}-${i}`), `topic${k} question`)], {});
  const file = ws.path;
  ws.close();
  return file;
}

const search = (text: string): Promise<BrowseSearch> => engine!.invoke('questions.search', { text, limit: 3 }) as Promise<BrowseSearch>;

describe('the index loaded in the background', () => {
  it('is loading when the engine opens, and the first search takes it rather than loading it again', async () => {
    const file = await storedWorkspace();
    const load = vi.spyOn(Bm25Index, 'load');
    engine = Engine.open(file, { transport: 'http', preloadIndex: true });
    expect(heldIndex(engine.ws)).toBeUndefined();
    await indexReady(engine.ws);
    expect(heldIndex(engine.ws)).toBeDefined();
    expect((await search('topic1 question')).results.map((r) => r.id.split('-')[0])).toEqual(['q1', 'q1', 'q1']);
    expect(load).not.toHaveBeenCalled();
  });

  it('is loaded again after an import through the engine, with its questions, and after its undo, without them', async () => {
    const file = await storedWorkspace();
    engine = Engine.open(file, { transport: 'http', preloadIndex: true });
    await indexReady(engine.ws);
    const before = heldIndex(engine.ws);
    const load = vi.spyOn(Bm25Index, 'load');
    const { jobId } = (await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: jsonl('more.jsonl', ['m1', 'm2', 'm3'], 'zebra question') }] })) as { jobId: string };
    expect((await jobDone(engine, jobId)).ok).toBe(true);
    await indexReady(engine.ws);
    expect(heldIndex(engine.ws)).toBeDefined();
    expect(heldIndex(engine.ws)).not.toBe(before);
    expect((await search('zebra')).results.map((r) => r.id).sort()).toEqual(['m1', 'm2', 'm3']);
    // And after that import is undone, without its questions.
    const undo = (await engine.invoke('import.undo', {})) as { jobId: string };
    expect((await jobDone(engine, undo.jobId)).ok).toBe(true);
    await indexReady(engine.ws);
    expect(heldIndex(engine.ws)).toBeDefined();
    expect((await search('zebra')).results).toEqual([]);
    expect(load).not.toHaveBeenCalled();
  });

  it('is not loaded by an engine that does not preload (the CLI, tests)', async () => {
    const file = await storedWorkspace();
    engine = Engine.open(file, { transport: 'http' });
    await new Promise((r) => setTimeout(r, 50));
    await indexReady(engine.ws);
    expect(heldIndex(engine.ws)).toBeUndefined();
  });

  it('is not kept when a commit changed the stored index while it was read', async () => {
    const file = await storedWorkspace();
    engine = Engine.open(file, { transport: 'http' });
    const loading = preloadIndex(engine.ws, undefined, 0);
    // Another connection appends a segment between two slices.
    const other = new Database(file);
    Bm25Index.appendSegment(other, [{ doc: 987_654, title: 'appended meanwhile', body: '' }]);
    other.close();
    await loading;
    expect(heldIndex(engine.ws)).toBeUndefined();
    // The next one reads what is stored now, and keeps it.
    await preloadIndex(engine.ws, undefined, 0);
    expect(heldIndex(engine.ws)).toBeDefined();
  });

  it('tells in slices whether it is in step with the questions; one that is not is synced at its first use', async () => {
    const file = await storedWorkspace();
    const ws = Workspace.open(file);
    const idx = Bm25Index.load(ws.db);
    expect(await syncedInSlices(idx, ws.db, 7)).toBe(true);
    // A question added without the index (by other means than an import).
    ws.transaction(() => ws.upsertQuestion({ id: 'added', source: 'api', title: 'walrus question', body: '' }));
    expect(await syncedInSlices(idx, ws.db, 7)).toBe(false);
    idx.close();
    ws.close();
    engine = Engine.open(file, { transport: 'http', preloadIndex: true });
    await indexReady(engine.ws);
    expect((await search('walrus')).results.map((r) => r.id)).toEqual(['added']);
  });
});
