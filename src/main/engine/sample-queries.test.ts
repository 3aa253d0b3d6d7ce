/**
 * A pool's seeded sample of queries (work.ts sampleQueries) is read in pages of doc numbers, the engine's
 * write gate given to waiting labels between them (reading 1M questions' ids at once held it 360 ms):
 * the same ids, in the same order, as the one-query reading gave for every seed.
 */
import { describe, expect, it } from 'vitest';
import { CancelledError } from '../errors';
import { mulberry32 } from './seeded';
import { sampleQueries } from './work';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import type { Workspace } from '../workspace/workspace';

const scratch = scratchWorkspaces('qpairs-sample-queries-');

/** The sample as it was drawn before pages: every id with text in doc order, then a partial Fisher–Yates. */
function sampledAtOnce(ws: Workspace, n: number, seed: number, source?: string): string[] {
  const ids = (source === undefined
    ? ws.db.prepare(`SELECT id FROM questions WHERE title <> '' OR body <> '' ORDER BY doc`).pluck().all()
    : ws.db.prepare(`SELECT id FROM questions WHERE source = ? AND (title <> '' OR body <> '') ORDER BY doc`).pluck().all(source)) as string[];
  const rnd = mulberry32(seed);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rnd() * (ids.length - i));
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return ids.slice(0, n);
}

describe('sampleQueries', () => {
  it('reads in pages, letting waiting writes in between, and draws the same sample as reading at once', async () => {
    const ws = scratch.fresh('w');
    ws.transaction(() => {
      for (let i = 0; i < 60; i++) ws.upsertQuestion({ id: `q${i}`, source: i % 3 ? 'a' : 'b', title: i % 11 === 0 ? '' : `title ${i}`, body: i % 22 === 0 ? '' : `body ${i}` });
    });
    for (const seed of [1, 7, 42]) {
      let turns = 0;
      const between = async (): Promise<void> => void turns++;
      expect(await sampleQueries(ws, 20, seed, { between, pageSize: 7 })).toEqual(sampledAtOnce(ws, 20, seed));
      expect(turns).toBe(8); // 57 questions with text: pages of 7, 7, …, 1
      expect(await sampleQueries(ws, 10, seed, { source: 'a', pageSize: 4 })).toEqual(sampledAtOnce(ws, 10, seed, 'a'));
    }
    await expect(sampleQueries(ws, 58, 1, { pageSize: 7 })).rejects.toThrow(/cannot sample 58 queries: the workspace has 57 questions with text/);
  });

  it('lets the event loop turn between pages, so requests arriving meanwhile reach the gate, and stops when cancelled', async () => {
    const ws = scratch.fresh('w');
    ws.transaction(() => {
      for (let i = 0; i < 40; i++) ws.upsertQuestion({ id: `q${i}`, source: 'a', title: `title ${i}`, body: '' });
    });
    // A request that arrives while sampling runs: it is heard (a macrotask) before the sampling ends.
    let heard = false;
    setImmediate(() => (heard = true));
    const heardBy: boolean[] = [];
    await sampleQueries(ws, 5, 3, { pageSize: 10, between: async () => void heardBy.push(heard) });
    expect(heardBy).toEqual([true, true, true, true]);
    const ac = new AbortController();
    const sampling = sampleQueries(ws, 5, 3, { pageSize: 10, signal: ac.signal });
    ac.abort();
    await expect(sampling).rejects.toBeInstanceOf(CancelledError);
  });
});
