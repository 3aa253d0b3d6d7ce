/**
 * What an annotator learns of others' work besides their labels: counts and events that moved as
 * others labeled a blind pool (found by calling every annotator command over serve mode as one
 * annotator and listening on her socket while others worked). The calls are a token's: not local.
 */
import { describe, expect, it } from 'vitest';
import type { EventPayloads } from '../../shared/contract';
import { LOCAL_OWNER } from './access';
import { jobDone } from './test-team';
import { addOpenPoolBesideBlind, trainTfidf, useTrainedModels } from './test-models';

const alice = { annotator: 'alice', local: false };
const bob = { annotator: 'bob', local: false };
type Change = EventPayloads['workspace.changed'];

describe('counts and events of others’ work an annotator of a blind pool is not given', () => {
  const t = useTrainedModels('blind-side', [], (ws) => {
    addOpenPoolBesideBlind(ws); // p blind (gold labels), o open beside it (bob's labels); alice and bob annotators
    ws.ensureAnnotator('judy', 'judge');
    ws.ensureAnnotator('erin', 'annotator');
  });

  /** The workspace changes each caller's socket would carry, from now on. */
  function listen(): { heard: (who: 'alice' | 'bob' | 'owner') => Change[]; off: () => void } {
    const got: Array<{ who: string; change: Change }> = [];
    const off = t.engine.hub.on('workspace.changed', (change) => {
      for (const [who, input] of [['alice', alice], ['bob', bob], ['owner', LOCAL_OWNER]] as const) {
        if (t.engine.canSee(input, 'workspace.changed', change)) got.push({ who, change });
      }
    });
    return { heard: (who) => got.filter((g) => g.who === who).map((g) => g.change), off };
  }

  it('workspace.stats counts the people and runs she is shown, not the team’s size nor runs trained on blind labels', async () => {
    type Stats = { annotators: number; runs: number };
    const before = (await t.engine.invoke('workspace.stats', {}, alice)) as Stats;
    const people = (await t.engine.invoke('annotator.list', {}, alice)) as Array<{ name: string }>;
    expect(people.map((p) => p.name).sort()).toEqual(['alice', 'bob']);
    expect(before.annotators).toBe(2); // not 5: judy, erin and gold are not hers to count
    const runsOfPools = async (): Promise<number> => ((await t.engine.invoke('pool.list', {}, alice)) as Array<{ runs?: number }>).reduce((n, p) => n + (p.runs ?? 0), 0);
    expect(before.runs).toBe(await runsOfPools());
    const ownerRuns = ((await t.engine.invoke('workspace.stats', {})) as Stats).runs;
    // A model trained on p's blind labels is scored into both pools: the owner counts its runs, she does not.
    await trainTfidf(t.engine, 'leaky', ['p']);
    expect(((await t.engine.invoke('workspace.stats', {})) as Stats).runs).toBe(ownerRuns + 2);
    expect(await t.engine.invoke('workspace.stats', {}, alice)).toMatchObject({ annotators: 2, runs: before.runs });
    expect(before.runs).toBe(await runsOfPools());
  });

  it('pool.assignment of an open pool does not name the workspace’s judges (annotator.list leaves out who judges)', async () => {
    type View = { judges: string[]; annotators: string[] };
    expect(((await t.engine.invoke('pool.assignment', { pool: 'o' })) as View).judges).toEqual(['judy']);
    const mine = (await t.engine.invoke('pool.assignment', { pool: 'o' }, alice)) as View;
    expect(mine.judges).toEqual([]);
    expect(mine.annotators).toEqual(['bob']); // whoever labeled the open pool: his labels are hers to see
    expect(JSON.stringify(await t.engine.invoke('pool.assignment', { pool: 'o', annotator: 'alice' }, alice))).not.toContain('judy');
  });

  it('her socket is not told of a live retrain on blind labels (every few labels of the others), but is of one she is shown', async () => {
    // The first test's model: while its run is in pool o, o's live runs are hidden too (a live ranker may take it as a feature).
    await t.engine.invoke('models.delete', { name: 'leaky' });
    const { heard, off } = listen();
    for (const pool of ['p', 'o']) {
      await t.engine.invoke('live.set', { pool, enabled: false, models: ['tfidf'] });
      const { jobId } = (await t.engine.invoke('live.retrain', { pool })) as { jobId: string };
      expect((await jobDone(t.engine, jobId)).ok).toBe(true);
    }
    off();
    const runsOf = (who: 'alice' | 'owner'): Array<string | undefined> => heard(who).filter((c) => c.what === 'run').map((c) => c.pool);
    expect(runsOf('owner')).toEqual(['p', 'o']);
    expect(runsOf('alice')).toEqual(['o']);
  });

  it('live.status of an open pool does not tell her how many trainings its retrain waits behind (a blind pool’s retrain, every few labels of the others, among them), nor that it runs', async () => {
    // A training on blind labels holds the one slot (as p's live retrain does while the others label p).
    const release = await t.engine.trainings.acquire(undefined, () => {});
    try {
      const queued = new Promise<void>((resolve) => {
        const off = t.engine.hub.on('job.progress', (p) => p.kind === 'live' && p.message.startsWith('queued:') && (off(), resolve()));
      });
      const { jobId } = (await t.engine.invoke('live.retrain', { pool: 'o' })) as { jobId: string };
      await queued;
      expect(await t.engine.invoke('live.status', { pool: 'o' })).toMatchObject({ running: true, queuedBehind: 1 });
      // Before: queuedBehind 1 for her too, moving as trainings on blind labels started and ended; and `running`
      // true for as long as it waited behind them.
      expect(await t.engine.invoke('live.status', { pool: 'o' }, alice)).toMatchObject({ running: false, jobId: null, queuedBehind: null });
      release();
      expect((await jobDone(t.engine, jobId)).ok).toBe(true);
      expect(await t.engine.invoke('live.status', { pool: 'o' }, alice)).toMatchObject({ running: false, jobId: null, queuedBehind: null });
    } finally {
      release();
    }
  });

  it('in a blind pool her socket is not told of another’s draw (how far they have got); in an open pool it is', async () => {
    await t.engine.invoke('pool.set', { pool: 'p', order: 'random' });
    await t.engine.invoke('pool.set', { pool: 'o', order: 'random' });
    const { heard, off } = listen();
    await t.engine.invoke('annotate.query', { pool: 'p', annotator: 'alice' }, alice);
    await t.engine.invoke('annotate.query', { pool: 'o', annotator: 'alice' }, alice);
    off();
    const draws = (who: 'alice' | 'bob' | 'owner'): Array<string | undefined> => heard(who).filter((c) => c.what === 'draws').map((c) => c.pool);
    expect(draws('owner')).toEqual(['p', 'o']);
    expect(draws('alice')).toEqual(['p', 'o']);
    expect(draws('bob')).toEqual(['o']);
  });

  it('under k per query, a query given to another answers annotate.query as one the pool does not have', async () => {
    await t.engine.invoke('pool.assign', { pool: 'p', annotators: ['alice', 'bob'], perQuery: 1, seed: 1 });
    const { queries } = (await t.engine.invoke('pool.assignment', { pool: 'p', annotator: 'alice' }, alice)) as { queries: string[] };
    const others = ['q0', 'q1', 'q2', 'q3'].find((q) => !queries.includes(q))!;
    const refusal = async (queryId: string, who?: typeof alice): Promise<unknown> =>
      t.engine.invoke('annotate.query', { pool: 'p', annotator: 'alice', queryId }, who).then(
        () => 'answered',
        (e: { code: string; message: string }) => ({ code: e.code, message: e.message.replace(queryId, 'Q') }),
      );
    expect(await refusal(others, alice)).toEqual(await refusal('qx', alice));
    expect(await refusal('qx', alice)).toEqual({ code: 'not-found', message: 'query Q is not in pool "p"' });
    // The owner, who sees every assignment, is still told why.
    expect(await refusal(others)).toMatchObject({ message: 'query Q is not in pool "p" for alice (not assigned)' });
  });

  it('her socket is not told of changes to a pool closed to her (its settings, guidelines, runs scored there)', async () => {
    await t.engine.invoke('pool.assign', { pool: 'o', annotators: ['bob'] });
    await trainTfidf(t.engine, 'clean', ['o']);
    const { heard, off } = listen();
    await t.engine.invoke('pool.setGuidelines', { pool: 'o', markdown: 'only for bob' });
    await t.engine.invoke('pool.set', { pool: 'o', order: 'pool' });
    const { jobId } = (await t.engine.invoke('models.score', { name: 'clean', pool: 'o' })) as { jobId: string };
    expect((await jobDone(t.engine, jobId)).ok).toBe(true);
    off();
    const about = (who: 'alice' | 'bob'): string[] => heard(who).map((c) => `${c.what} ${c.pool}`);
    expect(about('bob')).toEqual(['guidelines o', 'pool o', 'run o']);
    expect(about('alice')).toEqual([]);
  });
});
