/**
 * Searching while an import runs reads a read-only copy of the stored index (browse.ts
 * storedIndex), beside the engine's own; once the import is over, the next search lets that copy
 * go, so a served workspace keeps one index in memory, not two.
 */
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Engine } from './engine';
import { heldIndex, importTuning } from './work';
import { browseIndex, highlightVocabulary, holdsStoredSearchIndex } from './browse';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import type { BrowseSearch, QueryView } from '../../shared/contract';
import { jobDone } from './test-team';

const scratch = scratchWorkspaces('qpairs-browse-index-');
let engine: Engine;
let corpus: string;

beforeEach(() => {
  const ws = scratch.fresh('w');
  ws.transaction(() => {
    for (let i = 0; i < 30; i++) ws.upsertQuestion({ id: `s${i}`, source: 'seed', title: `seed question ${i}`, body: 'about searching during imports' });
  });
  engine = new Engine(ws, { transport: 'http' });
  corpus = path.join(scratch.dir, 'q.jsonl');
  writeFileSync(corpus, Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ id: `n${i}`, title: `new question ${i} about imports`, body: `body ${i} `.repeat(20) })).join('\n'));
  importTuning.chunkMs = 5;
});

afterEach(() => {
  importTuning.chunkMs = undefined;
  engine.close();
});

const search = (text: string): Promise<BrowseSearch> => engine.invoke('questions.search', { text, limit: 5 }) as Promise<BrowseSearch>;

describe('the index searches read', () => {
  it('a search during an import reads the stored copy; the first search after it lets the copy go', async () => {
    expect((await search('seed question')).results.length).toBe(5);
    expect(holdsStoredSearchIndex(engine.ws)).toBe(false);

    const { jobId } = (await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: corpus }] })) as { jobId: string };
    const done = jobDone(engine, jobId);
    expect((await search('seed question')).results.length).toBe(5);
    expect(holdsStoredSearchIndex(engine.ws)).toBe(true);
    expect((await done).ok).toBe(true);

    const after = await search('new question about imports');
    expect(after.results.length).toBe(5);
    expect(after.results.every((r) => r.id.startsWith('n'))).toBe(true);
    expect(holdsStoredSearchIndex(engine.ws)).toBe(false);
  });

  it('a copy taken in the last moments of an import, after its last commit, is let go by the first search after it', async () => {
    const gate = { longWriteActive: true, run: <T>(fn: () => T): Promise<T> => Promise.resolve(fn()) };
    const during = await browseIndex(engine.ws, gate);
    expect(holdsStoredSearchIndex(engine.ws)).toBe(true);
    expect(await browseIndex(engine.ws, gate)).toBe(during);
    gate.longWriteActive = false;
    expect(await browseIndex(engine.ws, gate)).not.toBe(during);
    expect(holdsStoredSearchIndex(engine.ws)).toBe(false);
  });

  it('opening a query after a search highlights with the index the search loaded: no second copy is loaded beside it', async () => {
    engine.ws.transaction(() => {
      engine.ws.createPool({ name: 'p', scheme: 'binary' });
      engine.ws.addPoolQuery('p', 's0', ['s1', 's2']);
    });
    expect((await search('seed question')).results.length).toBe(5);
    const view = (await engine.invoke('annotate.query', { pool: 'p', annotator: 'ann', queryId: 's0' })) as QueryView;
    expect(view.candidates.map((c) => c.id).sort()).toEqual(['s1', 's2']);
    expect(holdsStoredSearchIndex(engine.ws)).toBe(false);
    await engine.invoke('annotate.navigate', { pool: 'p', annotator: 'ann', from: 's0', direction: 'next' });
    expect(holdsStoredSearchIndex(engine.ws)).toBe(false);
  });

  it('highlighting reads the stored copy only while a long write runs (as searches do), and lets it go after', async () => {
    await search('seed question');
    const gate = { longWriteActive: false };
    expect(highlightVocabulary(engine.ws, gate)?.N).toBe(30);
    expect(holdsStoredSearchIndex(engine.ws)).toBe(false);
    gate.longWriteActive = true;
    expect(highlightVocabulary(engine.ws, gate)?.N).toBe(30);
    expect(holdsStoredSearchIndex(engine.ws)).toBe(true);
    gate.longWriteActive = false;
    expect(highlightVocabulary(engine.ws, gate)?.N).toBe(30);
    expect(holdsStoredSearchIndex(engine.ws)).toBe(false);
  });

  it('the first query opened loads the index searches use: the search after it finds it loaded, not a copy to load again', async () => {
    engine.ws.transaction(() => {
      engine.ws.createPool({ name: 'p', scheme: 'binary' });
      engine.ws.addPoolQuery('p', 's0', ['s1', 's2']);
    });
    expect(heldIndex(engine.ws)).toBeUndefined();
    await engine.invoke('annotate.query', { pool: 'p', annotator: 'ann', queryId: 's0' });
    const loaded = heldIndex(engine.ws);
    expect(loaded).toBeDefined();
    expect(holdsStoredSearchIndex(engine.ws)).toBe(false);
    expect((await search('seed question')).results.length).toBe(5);
    expect(heldIndex(engine.ws)).toBe(loaded);
  });
});
