import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanupTemp, tempWorkspace } from '../import/test-helpers';
import { Workspace } from '../workspace/workspace';
import type { PoolSpec } from './work';
import { createPool, heldIndex } from './work';
import { poolWriteTuning } from './pool-write';

afterEach(() => {
  vi.restoreAllMocks();
  cleanupTemp();
});

/** Two workspaces holding the same questions (words shared among them, so BM25 finds candidates). */
function twoWorkspaces(): [Workspace, Workspace] {
  const words = ['laptop', 'battery', 'screen', 'printer', 'driver', 'wifi', 'kernel', 'update'];
  return [tempWorkspace(), tempWorkspace()].map((ws) => {
    ws.transaction(() => {
      for (let i = 0; i < 40; i++) ws.upsertQuestion({ id: `q${i}`, source: 't', title: `${words[i % 8]} ${words[(i * 3) % 8]}`, body: `${words[(i * 5 + 1) % 8]} problem ${i}` });
    });
    return ws;
  }) as [Workspace, Workspace];
}

/** Everything a pool shows: its settings, queries and candidates in order, and its bm25 run's scores. */
function shown(ws: Workspace, name: string): unknown {
  const { created: _created, id: _id, ...info } = ws.pool(name) as unknown as Record<string, unknown>;
  const run = ws.db.prepare(`SELECT r.id FROM runs r JOIN pools p ON p.id = r.pool_id WHERE p.name = ? AND r.name = 'bm25'`).pluck().get(name) as number;
  const scores = [...ws.runScores(run)].map(([q, m]) => [q, [...m]]);
  return { info, queries: ws.poolQueries(name), scores };
}

describe('a new pool is written in steps, the event loop turning between them (pool-write.ts)', () => {
  const spec: PoolSpec = { name: 'p', sample: { n: 12, seed: 5 }, depth: 5, scheme: 'binary', order: 'random', orderSeed: 9 };

  it('the same pool as in one step, never seen half-made by the caller\'s connection', async () => {
    const [oneStep, steps] = twoWorkspaces();
    const before = poolWriteTuning.pairsPerStep;
    try {
      poolWriteTuning.pairsPerStep = 1_000_000;
      await createPool(oneStep, spec);
      poolWriteTuning.pairsPerStep = 8;
      // A reader on the caller's connection, turn by turn while the pool is written: what it sees at each step.
      let turns = 0;
      let reading = true;
      const read = (): void => {
        turns++;
        if (reading) setImmediate(read);
      };
      const seen: Array<{ turn: number; pool: boolean }> = [];
      const add = Workspace.prototype.addPoolQueries;
      vi.spyOn(Workspace.prototype, 'addPoolQueries').mockImplementation(function (this: Workspace, ...args) {
        seen.push({ turn: turns, pool: steps.findPool('p') !== null });
        return add.apply(this, args);
      });
      setImmediate(read);
      await createPool(steps, spec);
      reading = false;
      // Several steps (12 queries of up to 5 candidates, 8 pairs a step), with the event loop turning between them.
      expect(seen.length).toBeGreaterThan(3);
      expect(new Set(seen.map((s) => s.turn)).size).toBe(seen.length);
      // The caller's connection saw no pool until the last step was committed.
      expect(seen.every((s) => !s.pool)).toBe(true);
    } finally {
      poolWriteTuning.pairsPerStep = before;
    }
    expect(shown(steps, 'p')).toEqual(shown(oneStep, 'p'));
    expect((shown(steps, 'p') as { queries: unknown[] }).queries).toHaveLength(12);
    // The write on a connection of its own is the caller's: its BM25 index stays loaded (not read again at the next pool).
    const index = heldIndex(steps);
    expect(index).toBeDefined();
    await createPool(steps, { ...spec, name: 'p2' });
    expect(heldIndex(steps)).toBe(index);
    oneStep.close();
    steps.close();
  });

  it('a cancel between two steps leaves no pool, and the name free', async () => {
    const [ws] = twoWorkspaces();
    const before = poolWriteTuning.pairsPerStep;
    const cancel = new AbortController();
    try {
      poolWriteTuning.pairsPerStep = 8;
      const add = Workspace.prototype.addPoolQueries;
      vi.spyOn(Workspace.prototype, 'addPoolQueries').mockImplementation(function (this: Workspace, ...args) {
        cancel.abort();
        return add.apply(this, args);
      });
      await expect(createPool(ws, spec, { signal: cancel.signal })).rejects.toThrow(/cancel/i);
    } finally {
      poolWriteTuning.pairsPerStep = before;
      vi.restoreAllMocks();
    }
    expect(ws.findPool('p')).toBeNull();
    await createPool(ws, spec);
    expect(ws.poolQueries('p')).toHaveLength(12);
    ws.close();
  });
});
