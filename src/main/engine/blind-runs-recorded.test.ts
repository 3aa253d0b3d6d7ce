/**
 * Whether an annotator is shown a model's runs goes by what the model learned, recorded with it when
 * it was trained (training.labelPools, run-visibility.ts), not by the pools named so today. It compared
 * the pool names in each model's training record with today's blind pools: once the import that made
 * blind training pool B was undone, or an open pool was made under B's name, the runs of a model that
 * learned B's blind labels were shown to annotators of an open pool sharing B's pairs.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runImport } from './work';
import { undoLastImport } from '../workspace/undo-last';
import type { Workspace } from '../workspace/workspace';
import { addOpenPoolBesideBlind, trainTfidf, useTrainedModels } from './test-models';
import { jobDone } from './test-team';

const alice = { annotator: 'alice', local: false };

/** Pool `name` holding p's pairs, gold-labeled as p is (c<i>-0 and c<i>-1 similar). */
function addLabeledPool(ws: Workspace, name: string, blind: boolean): void {
  ws.createPool({ name, scheme: 'binary', blind });
  for (let i = 0; i < 4; i++) {
    const cands = [0, 1, 2, 3].map((j) => `c${i}-${j}`);
    ws.addPoolQuery(name, `q${i}`, cands);
    cands.forEach((c, j) => ws.addLabel({ pool: name, queryId: `q${i}`, candidateId: c, annotator: 'gold', value: j < 2 ? '1' : '0', origin: 'test' }));
  }
}

describe('runs of a model that learned blind labels stay hidden whatever becomes of its pools', () => {
  // Pool p is blind (live-test-pool); pool o, open, holds the same pairs, labeled by bob.
  const t = useTrainedModels('blind-runs-recorded', [], addOpenPoolBesideBlind);

  /** The runs of pool o alice (an annotator) is shown, and those the owner is. */
  async function shown(): Promise<{ alice: string[]; owner: string[] }> {
    const runs = async (who?: typeof alice): Promise<string[]> =>
      Object.keys(((await t.engine.invoke('eval.pool', { pool: 'o', annotator: 'bob' }, who)) as { runs: Record<string, unknown> }).runs).sort();
    return { alice: await runs(alice), owner: await runs() };
  }

  /** Pool `name` made by an import of gold labels for p's pairs (c<i>-0 and c<i>-1 similar). */
  async function importLabeledPool(name: string): Promise<void> {
    const file = path.join(t.dir, `${name}.jsonl`);
    const lines = [0, 1, 2, 3].flatMap((i) => [0, 1, 2, 3].map((j) => JSON.stringify({ query_id: `q${i}`, candidate_id: `c${i}-${j}`, annotator: 'gold', label: j < 2 ? '1' : '0' })));
    writeFileSync(file, lines.join('\n') + '\n');
    await runImport(t.ws, 'labels-jsonl', [file], { pool: name, scheme: 'binary' });
  }

  /** What alice is shown of pool o's live models. */
  async function liveShown(): Promise<{ models: string[]; trainPools: string[] }> {
    const { models, trainPools } = (await t.engine.invoke('live.status', { pool: 'o' }, alice)) as { models: string[]; trainPools: string[] };
    return { models, trainPools };
  }

  /** Replaces model `name`'s record of its pools (undefined: a record from before it was kept). */
  function setLabelPools(name: string, labelPools: unknown): void {
    const training = JSON.parse(t.ws.stmt(`SELECT training FROM models WHERE name = ?`).pluck().get(name) as string) as Record<string, unknown>;
    if (labelPools === undefined) delete training.labelPools;
    else training.labelPools = labelPools;
    t.ws.stmt(`UPDATE models SET training = ? WHERE name = ?`).run(JSON.stringify(training), name);
  }

  it('an undone import of blind pool B, a new open pool named B, or an old record naming B gone: hidden all the same', async () => {
    // Blind pool B, made by an import (an import's pools are blind by default), labels p's pairs.
    await importLabeledPool('B');
    expect(t.ws.findPool('B')!.blind).toBe(true);
    await trainTfidf(t.engine, 'fromB', ['B']);
    await trainTfidf(t.engine, 'fromO', ['o']);
    const record = JSON.parse(t.ws.stmt(`SELECT training FROM models WHERE name = 'fromB'`).pluck().get() as string) as { labelPools: Array<{ name: string; blind: boolean }> };
    expect(record.labelPools.map((p) => [p.name, p.blind])).toEqual([['B', true]]);
    // Kept server-side: the models list (and a training's result) leave it out.
    const list = ((await t.engine.invoke('models.list', {})) as { models: Array<{ name: string; training: Record<string, unknown> }> }).models;
    expect(list.find((m) => m.name === 'fromB')!.training).not.toHaveProperty('labelPools');
    const before = await shown();
    expect(before.alice).toEqual(['bm25', 'fromO']);
    expect(before.owner).toEqual(['bm25', 'fromB', 'fromO']);

    // The import undone: B is gone, but not what fromB learned from its labels.
    await undoLastImport(t.ws);
    expect(t.ws.findPool('B')).toBeNull();
    expect((await shown()).alice).toEqual(['bm25', 'fromO']);

    // An open pool made under B's name holds other labels: fromB stays hidden.
    addLabeledPool(t.ws, 'B', false);
    expect((await shown()).alice).toEqual(['bm25', 'fromO']);

    // A record from before labelPools, naming B: while an open B is there it counts as it is now…
    setLabelPools('fromB', undefined);
    expect((await shown()).alice).toEqual(['bm25', 'fromB', 'fromO']);
    // …and a training pool no longer there counts as blind (the safe direction).
    t.ws.db.prepare(`UPDATE pools SET name = 'B2' WHERE name = 'B'`).run();
    expect((await shown()).alice).toEqual(['bm25', 'fromO']);
    expect((await shown()).owner).toEqual(['bm25', 'fromB', 'fromO']);
  });

  it('an open training pool: visible as before, also once a blind pool takes its name; hidden while that same pool is blind', async () => {
    addLabeledPool(t.ws, 'x', false);
    await trainTfidf(t.engine, 'fromX', ['x']);
    expect((await shown()).alice).toContain('fromX');
    // The same pool made blind: the labels fromX learned are not to be shown now.
    t.ws.setPoolBlind('x', true);
    expect((await shown()).alice).not.toContain('fromX');
    // Opened again by its owner: anyone's to see.
    t.ws.setPoolBlind('x', false);
    expect((await shown()).alice).toContain('fromX');
    // Another pool, blind, under the name x: fromX learned the open pool's labels, not these.
    t.ws.db.prepare(`UPDATE pools SET name = 'x-old' WHERE name = 'x'`).run();
    addLabeledPool(t.ws, 'x', true);
    expect((await shown()).alice).toContain('fromX');
  });

  it('a live run learning from a blind pool whose import was undone stays hidden (it keeps what it learned until retrained)', async () => {
    await t.engine.invoke('models.delete', { name: 'fromB' });
    expect((await shown()).alice).toEqual(['bm25', 'fromO', 'fromX']);
    await importLabeledPool('L');
    expect(t.ws.findPool('L')!.blind).toBe(true);
    // Pool o's live models set to learn from L as well: nothing of them is alice's to see.
    await t.engine.invoke('live.set', { pool: 'o', enabled: false, trainPools: ['L'] });
    expect(await liveShown()).toEqual({ models: [], trainPools: [] });
    await undoLastImport(t.ws);
    expect(t.ws.findPool('L')).toBeNull();
    expect(await liveShown()).toEqual({ models: [], trainPools: [] });
    // The owner sees the setting as it is.
    expect(((await t.engine.invoke('live.status', { pool: 'o' })) as { trainPools: string[] }).trainPools).toEqual(['L']);
  });

  it('a live run that learned a blind pool’s labels stays hidden until retrained without them, whatever the setting or the pool become', async () => {
    const retrain = async (): Promise<void> => {
      const { jobId } = (await t.engine.invoke('live.retrain', { pool: 'o' })) as { jobId: string };
      const done = await jobDone(t.engine, jobId);
      expect(done.ok, done.error).toBe(true);
    };
    await importLabeledPool('M');
    await t.engine.invoke('live.set', { pool: 'o', enabled: false, models: ['tfidf'], trainPools: ['M'] });
    await retrain();
    expect((await shown()).owner).toContain('live-tfidf');
    expect((await shown()).alice).not.toContain('live-tfidf');
    // M taken out of the setting: the live run learned M's labels all the same.
    await t.engine.invoke('live.set', { pool: 'o', enabled: false, trainPools: [] });
    expect((await shown()).alice).not.toContain('live-tfidf');
    // M's import undone, then an open pool under its name: still M's labels in it.
    await undoLastImport(t.ws);
    expect((await shown()).alice).not.toContain('live-tfidf');
    addLabeledPool(t.ws, 'M', false);
    expect((await shown()).alice).not.toContain('live-tfidf');
    expect(await liveShown()).toEqual({ models: [], trainPools: [] });
    // Retrained on o's open labels alone: shown.
    await retrain();
    expect((await shown()).alice).toContain('live-tfidf');
    expect((await liveShown()).models).toEqual(['tfidf']);
  });

  it('a live ltr over the run of a model trained on blind labels stays hidden once that model is deleted, until retrained', async () => {
    const retrain = async (): Promise<void> => {
      const { jobId } = (await t.engine.invoke('live.retrain', { pool: 'o' })) as { jobId: string };
      const done = await jobDone(t.engine, jobId);
      expect(done.ok, done.error).toBe(true);
    };
    await trainTfidf(t.engine, 'onP', ['p']);
    await t.engine.invoke('live.set', { pool: 'o', enabled: false, models: ['ltr'], trainPools: [] });
    await retrain();
    expect((await shown()).owner).toContain('live-ltr');
    expect((await shown()).alice).not.toContain('live-ltr');
    // Its scores took onP's as a feature: deleting onP takes its run away, not what live-ltr learned through it.
    await t.engine.invoke('models.delete', { name: 'onP' });
    expect((await shown()).alice).not.toContain('live-ltr');
    await retrain();
    expect((await shown()).alice).toContain('live-ltr');
  });
});
