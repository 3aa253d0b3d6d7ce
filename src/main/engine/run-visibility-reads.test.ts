/**
 * Which runs an annotator is not shown depends on the models' training records and the pools' blind
 * flags (run-visibility.ts). Every annotator result with runs in it read and parsed every model's
 * record, eval.order and live.status twice; the set is now kept until a model or a pool's name or
 * blind flag changes (migration 16's change count), whoever changed it.
 */
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import type { CommandName } from '../../shared/contract';
import { Workspace } from '../workspace/workspace';
import { modelsTrainedOnBlindLabels } from './run-visibility';
import { addOpenPoolBesideBlind, trainTfidf, useTrainedModels } from './test-models';

const alice = { annotator: 'alice', local: false };
const TRAINING_READ = /SELECT name, training FROM models/;

describe('run visibility is worked out once per change, not once per call', () => {
  // Pool p is blind (live-test-pool); pool o, open, holds the same pairs, labeled by bob.
  const t = useTrainedModels('run-visibility-reads', [], addOpenPoolBesideBlind);

  /** Runs `fn`, counting the reads of the models' training records. */
  async function countReads(fn: () => Promise<unknown>): Promise<number> {
    const original = t.ws.stmt.bind(t.ws);
    let reads = 0;
    const spy = vi.spyOn(t.ws, 'stmt').mockImplementation((sql: string) => {
      if (TRAINING_READ.test(sql)) reads++;
      return original(sql);
    });
    try {
      await fn();
    } finally {
      spy.mockRestore();
    }
    return reads;
  }

  /** The runs of pool o alice is shown, as eval.pool gives them. */
  async function shown(): Promise<string[]> {
    const runs = Object.keys(((await t.engine.invoke('eval.pool', { pool: 'o', annotator: 'bob' }, alice)) as { runs: Record<string, unknown> }).runs).sort();
    // The set kept is the one a workspace opened afresh works out.
    const fresh = Workspace.open(t.ws.path);
    try {
      expect([...modelsTrainedOnBlindLabels(t.ws)].sort()).toEqual([...modelsTrainedOnBlindLabels(fresh)].sort());
    } finally {
      fresh.close();
    }
    return runs;
  }

  const CALLS: Array<[CommandName, Record<string, unknown>]> = [
    ['eval.order', { pool: 'o', annotator: 'bob' }],
    ['live.status', { pool: 'o' }],
    ['eval.pool', { pool: 'o', annotator: 'bob' }],
    ['eval.query', { pool: 'o', queryId: 'q0', annotator: 'bob' }],
    ['annotate.query', { pool: 'o', annotator: 'alice', queryId: 'q0' }],
    ['pool.list', {}],
  ];

  it('an annotator call reads the training records at most once after a change, and not at all while nothing changed (was: eval.order and live.status twice, every call)', async () => {
    await trainTfidf(t.engine, 'leaky', ['p']);
    let value = 0;
    for (const [command, args] of CALLS) {
      // A change before each: the set must be worked out again, once.
      await t.engine.invoke('pool.set', { pool: 'p', blind: false });
      await t.engine.invoke('pool.set', { pool: 'p', blind: true });
      expect([command, await countReads(() => t.engine.invoke(command, args as never, alice))]).toEqual([command, 1]);
      // Labels change nothing it depends on.
      await t.engine.invoke('label.set', { pool: 'o', queryId: 'q1', candidateId: 'c1-1', annotator: 'alice', value: String(value++ % 2) }, alice);
      expect([command, await countReads(() => t.engine.invoke(command, args as never, alice))]).toEqual([command, 0]);
    }
    expect(await shown()).toEqual(['bm25']);
  });

  it('the hidden set follows every change: a model trained, retrained, deleted; a pool made blind or open; by this process or another', async () => {
    // The first test's model, deleted.
    expect(await shown()).toEqual(['bm25']);
    await t.engine.invoke('models.delete', { name: 'leaky' });
    expect(await shown()).toEqual(['bm25']);
    await trainTfidf(t.engine, 'clean', ['o']);
    expect(await shown()).toEqual(['bm25', 'clean']);
    // Trained on the blind pool: hidden at once.
    await trainTfidf(t.engine, 'blinded', ['p']);
    expect(await shown()).toEqual(['bm25', 'clean']);
    // The blind pool made open, then blind again.
    await t.engine.invoke('pool.set', { pool: 'p', blind: false });
    expect(await shown()).toEqual(['blinded', 'bm25', 'clean']);
    await t.engine.invoke('pool.set', { pool: 'p', blind: true });
    expect(await shown()).toEqual(['bm25', 'clean']);
    // Another process on the same file: 'clean' rewritten as trained on p, then p made open.
    const other = new Database(t.ws.path);
    try {
      const record = (name: string): Record<string, unknown> => JSON.parse(other.prepare(`SELECT training FROM models WHERE name = ?`).pluck().get(name) as string) as Record<string, unknown>;
      // Its pools as a model trained on p records them (which pool, and blind: run-visibility.ts).
      const onP = { trainPools: ['p'], labelPools: record('blinded').labelPools };
      other.prepare(`UPDATE models SET training = ? WHERE name = 'clean'`).run(JSON.stringify({ ...record('clean'), ...onP }));
      t.ws.noticeExternalChanges();
      expect(await shown()).toEqual(['bm25']);
      other.prepare(`UPDATE pools SET blind = 0 WHERE name = 'p'`).run();
      t.ws.noticeExternalChanges();
      expect(await shown()).toEqual(['blinded', 'bm25', 'clean']);
      other.prepare(`UPDATE pools SET blind = 1 WHERE name = 'p'`).run();
    } finally {
      other.close();
    }
    t.ws.noticeExternalChanges();
    expect(await shown()).toEqual(['bm25']);
    // Deleted: its run goes with it; the one left is hidden still.
    await t.engine.invoke('models.delete', { name: 'blinded' });
    expect(await shown()).toEqual(['bm25']);
    await t.engine.invoke('models.delete', { name: 'clean' });
    expect(await shown()).toEqual(['bm25']);
  });
});
