/**
 * A model trained on a blind pool's labels is scored into every pool: an annotator of an open pool
 * sharing pairs with the blind one must not see its scores, ranks or name (access.ts,
 * run-visibility.ts). A model trained on open labels stays in sight; owners and judges see all.
 */
import { describe, expect, it } from 'vitest';
import { addOpenPoolBesideBlind, trainTfidf, useTrainedModels } from './test-models';

const alice = { annotator: 'alice', local: false };
const carol = { annotator: 'carol', local: false };

describe('runs of models trained on a blind pool’s labels', () => {
  const t = useTrainedModels('blind-runs', [], (ws) => {
    addOpenPoolBesideBlind(ws);
    ws.ensureAnnotator('carol', 'judge');
  });

  it('are left out of everything an annotator of an open pool reads, names included; judges and owners keep them', async () => {
    expect(t.ws.findPool('p')!.blind).toBe(true);
    await trainTfidf(t.engine, 'leaky', ['p']);
    await trainTfidf(t.engine, 'clean', ['o']);
    await t.engine.invoke('live.set', { pool: 'o', enabled: false, trainPools: ['p'] });
    const names = (x: unknown): string => JSON.stringify(x);

    const view = (await t.engine.invoke('annotate.query', { pool: 'o', annotator: 'alice', queryId: 'q0' }, alice)) as { runNames: string[]; candidates: Array<{ runs: Record<string, unknown> }> };
    expect(view.runNames.sort()).toEqual(['bm25', 'clean']);
    for (const c of view.candidates) expect(Object.keys(c.runs).sort()).toEqual(['bm25', 'clean']);
    const nav = await t.engine.invoke('annotate.navigate', { pool: 'o', annotator: 'alice', from: 'q0', direction: 'next' }, alice);
    expect(names(nav)).not.toContain('leaky');

    const ev = (await t.engine.invoke('eval.pool', { pool: 'o', annotator: 'bob' }, alice)) as { runs: Record<string, unknown>; curve: Array<{ runs: Record<string, unknown> }> };
    expect(Object.keys(ev.runs).sort()).toEqual(['bm25', 'clean']);
    expect(names(ev.curve)).not.toContain('leaky');
    const q = (await t.engine.invoke('eval.query', { pool: 'o', queryId: 'q0', annotator: 'bob' }, alice)) as { rankers: Array<{ run: string }> };
    expect(q.rankers.map((r) => r.run).sort()).toEqual(['bm25', 'clean']);
    const order = await t.engine.invoke('eval.order', { pool: 'o', annotator: 'bob' }, alice);
    expect(names(order)).not.toContain('leaky');
    expect((order as { rankers: Array<{ run: string }> }).rankers.map((r) => r.run).sort()).toEqual(['bm25', 'clean']);

    const pools = (await t.engine.invoke('pool.list', {}, alice)) as Array<{ name: string; runs?: number }>;
    expect(pools.find((p) => p.name === 'o')?.runs).toBe(2);
    // Pool o's live models would learn from p's blind labels: nothing of them, nor p's name.
    const live = (await t.engine.invoke('live.status', { pool: 'o' }, alice)) as { trainPools: string[]; models: string[]; curve: unknown[] };
    expect(live.trainPools).toEqual([]);
    expect(live.models).toEqual([]);

    // The judge and the owner see every run (they see every label already).
    for (const who of [carol, undefined]) {
      const all = (await t.engine.invoke('eval.pool', { pool: 'o', annotator: 'bob' }, who)) as { runs: Record<string, unknown> };
      expect(Object.keys(all.runs).sort()).toEqual(['bm25', 'clean', 'leaky']);
    }
    const ownerLive = (await t.engine.invoke('live.status', { pool: 'o' })) as { trainPools: string[] };
    expect(ownerLive.trainPools).toEqual(['p']);

    // Once p is open, its labels are anyone's to see: the run comes back.
    await t.engine.invoke('pool.set', { pool: 'p', blind: false });
    const after = (await t.engine.invoke('eval.pool', { pool: 'o', annotator: 'bob' }, alice)) as { runs: Record<string, unknown> };
    expect(Object.keys(after.runs).sort()).toEqual(['bm25', 'clean', 'leaky']);
  });
});
