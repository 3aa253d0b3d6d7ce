/**
 * Scoring a pool with a model takes the write gate for storing the scores only. It used to hold the
 * gate for the whole scoring (reading the pool's texts, the model's scores in its worker), so after
 * a training in serve mode on a 100,000-question workspace every label waited, up to 10.8 s, while
 * the new model scored the pools. The reading and scoring are done by the model worker on its own
 * connection when there is one (training/pool-scores.ts), else on this thread: outside the gate either way.
 */
import { describe, expect, it, vi } from 'vitest';
import type { PoolEvaluation } from '../../shared/contract';
import { defaultWorkerPath, deleteModelAndRuns, scoreEveryPool, scorePool } from '../training/train';
import { Workspace } from '../workspace/workspace';
import { jobDone as engineJobDone } from './test-team';
import { trainTfidf, useTrainedModels } from './test-models';
import type { LiveStatus } from '../../shared/live';

const t = useTrainedModels('score-gate', ['tf']);
const jobDone = (jobId: string) => engineJobDone(t.engine, jobId);

describe('scoring with a model and the write gate', () => {
  it('models.score reads and scores the pool while another writer holds the gate, and stores once it is free', async () => {
    const { ws, engine } = t;
    const replaced = vi.spyOn(ws, 'replaceRunInChunks');
    let release!: () => void;
    const held = engine.writes.run(() => new Promise<void>((r) => (release = r)));
    const asked = vi.spyOn(engine.writes, 'run');
    try {
      const { jobId } = (await engine.invoke('models.score', { name: 'tf', pool: 'p' })) as { jobId: string };
      const done = jobDone(jobId);
      // The pool is read and scored meanwhile, the job then asking for the gate to store the
      // scores: before, the job waited for the gate to start at all.
      await vi.waitFor(() => expect(asked).toHaveBeenCalled(), { timeout: 10_000 });
      expect(replaced).not.toHaveBeenCalled();
      release();
      await held;
      expect(await done).toMatchObject({ ok: true, report: { queries: 4, pairs: 16 } });
      expect(replaced).toHaveBeenCalledTimes(1);
    } finally {
      release?.();
      asked.mockRestore();
      replaced.mockRestore();
    }
  });

  it("scoreEveryPool's write wraps storing the scores only, each chunk", async () => {
    const { ws } = t;
    const order: string[] = [];
    const read = vi.spyOn(ws, 'poolQueries').mockImplementation(function (this: Workspace, pool: string) {
      order.push('read');
      return Workspace.prototype.poolQueries.call(ws, pool);
    });
    const replaced = vi.spyOn(ws, 'replaceRunInChunks');
    try {
      for (const workerPath of [undefined, null]) {
        order.length = 0;
        replaced.mockClear();
        const scored = await scoreEveryPool(ws, 'tf', async (f) => {
          order.push('write');
          return f();
        }, workerPath);
        expect(scored).toEqual([expect.objectContaining({ pool: 'p', pairs: 16 })]);
        // In the worker (the bundle, when built), nothing read on this connection; else before the writes:
        // the model checked, the run staged, its one chunk of scores, the swap, the old run's scores deleted.
        expect(order).toEqual([...(workerPath === null || !defaultWorkerPath() ? ['read'] : []), 'write', 'write', 'write', 'write', 'write']);
        expect(replaced).toHaveBeenCalledTimes(1);
      }
    } finally {
      read.mockRestore();
      replaced.mockRestore();
    }
  });

  it('models.score stores the run in chunks out of sight: labels acknowledged between them, live metrics updated, not rebuilt, until the run appears at once with one workspace.changed', async () => {
    const { ws, engine } = t;
    const args = { pool: 'p', annotator: 'alice' };
    await engine.invoke('label.set', { pool: 'p', queryId: 'q0', candidateId: 'c0-0', annotator: 'alice', value: '1' });
    const first = (await engine.invoke('eval.pool', args)) as PoolEvaluation;
    const stats = engine.liveEvaluations.stats;
    const rebuilds = stats.rebuilds;
    const runsBefore = ws.listRuns('p');
    const changed: string[] = [];
    const off = engine.hub.on('workspace.changed', (w) => changed.push(w.what));
    const during: Array<{ runs: unknown; rebuilds: number; tf: number | undefined; runEvents: number }> = [];
    const original = ws.replaceRunInChunks.bind(ws);
    const chunked = vi.spyOn(ws, 'replaceRunInChunks').mockImplementation((pool, name, kind, config, rows, o = {}) =>
      original(pool, name, kind, config, rows, {
        ...o,
        chunk: 3,
        write: async (f) => {
          const out = await o.write!(f);
          // Between two chunks, with the gate free: a label is acknowledged and the live metrics read.
          await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'c1-0', annotator: 'alice', value: String(during.length % 2) });
          const ev = (await engine.invoke('eval.pool', args)) as PoolEvaluation;
          during.push({ runs: ws.listRuns('p'), rebuilds: stats.rebuilds, tf: ev.runs.tf?.queries, runEvents: changed.filter((w) => w === 'run').length });
          return out;
        },
      }),
    );
    try {
      const { jobId } = (await engine.invoke('models.score', { name: 'tf', pool: 'p' })) as { jobId: string };
      expect(await jobDone(jobId)).toMatchObject({ ok: true, report: { queries: 4, pairs: 16 } });
      expect(chunked).toHaveBeenCalledTimes(1);
      // The staging row and 6 chunks of 3 pairs, then the swap, then the old run's 16 scores deleted in 6 chunks.
      expect(during).toHaveLength(1 + 6 + 1 + 6);
      const swap = 7;
      for (const d of during.slice(0, swap)) expect(d).toEqual({ runs: runsBefore, rebuilds, tf: first.runs.tf!.queries, runEvents: 0 });
      const after = ws.listRuns('p');
      expect(after.map((r) => r.id)).not.toEqual(runsBefore.map((r) => r.id));
      expect(after.map((r) => [r.name, r.kind, r.pairs])).toEqual(runsBefore.map((r) => [r.name, r.kind, r.pairs]));
      // The swap is a change the metrics see: rebuilt once, then updated by labels again.
      for (const d of during.slice(swap)) expect(d).toMatchObject({ runs: after, rebuilds: rebuilds + 1 });
      expect(changed.filter((w) => w === 'run')).toEqual(['run']);
      expect(ws.db.prepare(`SELECT count(*) FROM runs WHERE staged IS NOT NULL`).pluck().get()).toBe(0);
    } finally {
      off();
      chunked.mockRestore();
    }
  });

  it('a live retrain stores its run in chunks out of sight: labels acknowledged between them, the run and its curve point appear together', async () => {
    const { ws, engine } = t;
    const seen: Array<{ run: boolean; curve: number; retrainedTo: number }> = [];
    const original = ws.replaceRunsInChunks.bind(ws);
    let acks = 0;
    const chunked = vi.spyOn(ws, 'replaceRunsInChunks').mockImplementation((pool, runs, o = {}) =>
      original(pool, runs, {
        ...o,
        chunk: 3,
        write: async (f) => {
          const out = await o.write!(f);
          await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'c1-0', annotator: 'alice', value: String(acks++ % 2) });
          const st = (await engine.invoke('live.status', { pool: 'p' })) as LiveStatus;
          seen.push({
            run: ws.runKinds('p').some((r) => r.name === 'live-tfidf' && r.kind === 'live'),
            curve: st.curve.length,
            retrainedTo: ws.db.prepare(`SELECT last_label_seq FROM live_training`).pluck().get() as number,
          });
          return out;
        },
      }),
    );
    try {
      await engine.invoke('live.set', { pool: 'p', enabled: true, models: ['tfidf'], everyLabels: 10_000, idleSeconds: 0 });
      for (const round of [1, 2]) {
        seen.length = 0;
        const { jobId } = (await engine.invoke('live.retrain', { pool: 'p' })) as { jobId: string };
        const done = await jobDone(jobId);
        expect(done.ok, done.error).toBe(true);
        // The staging row and 6 chunks of 3 of the run's 16 pairs, then the swap (then, the second
        // time, the old live run's 16 scores deleted in 6 chunks): a label acknowledged after each.
        expect(seen).toHaveLength(1 + 6 + 1 + (round === 2 ? 6 : 0));
        const before = seen[0]!;
        expect(before).toMatchObject({ run: round === 2, curve: round - 1 });
        for (const d of seen.slice(0, 7)) expect(d).toEqual(before);
        for (const d of seen.slice(7)) expect(d).toMatchObject({ run: true, curve: round });
        expect(seen[7]!.retrainedTo).toBeGreaterThan(before.retrainedTo);
      }
      expect(chunked).toHaveBeenCalledTimes(2);
      expect(ws.listRuns('p').find((r) => r.name === 'live-tfidf')).toMatchObject({ kind: 'live', pairs: 16 });
      // With the pools it learned from (the live pool p, blind: run-visibility.ts).
      expect(ws.runConfig('p', 'live-tfidf')).toEqual({ model: 'tfidf', scoring: 'out of fold on labeled queries', labelPools: [expect.objectContaining({ name: 'p', blind: true })] });
      expect(ws.db.prepare(`SELECT count(*) FROM runs WHERE staged IS NOT NULL`).pluck().get()).toBe(0);
    } finally {
      chunked.mockRestore();
      await engine.invoke('live.set', { pool: 'p', enabled: false });
    }
  });

  it('models.delete takes the model and its runs away in one short write, announced then, then deletes their scores in chunks: labels acknowledged between them', async () => {
    const { ws, engine } = t;
    await trainTfidf(engine, 'gone', ['p']);
    expect(ws.listRuns('p').find((r) => r.name === 'gone')).toMatchObject({ kind: 'model', pairs: 16 });
    const runsAfter = ws.listRuns('p').filter((r) => r.name !== 'gone');
    const changed: string[] = [];
    const off = engine.hub.on('workspace.changed', (w) => changed.push(w.what));
    const seen: Array<{ runs: unknown; model: boolean; changed: number }> = [];
    const original = ws.deleteRunsInChunks.bind(ws);
    let acks = 0;
    const chunked = vi.spyOn(ws, 'deleteRunsInChunks').mockImplementation((pick, o = {}) =>
      original(pick, {
        ...o,
        chunk: 3,
        write: async (f) => {
          const out = await o.write!(f);
          await engine.invoke('label.set', { pool: 'p', queryId: 'q2', candidateId: 'c2-0', annotator: 'alice', value: String(acks++ % 2) });
          seen.push({ runs: ws.listRuns('p'), model: ws.db.prepare(`SELECT count(*) FROM models WHERE name = 'gone'`).pluck().get() === 1, changed: changed.length });
          return out;
        },
      }),
    );
    try {
      const r = await engine.invoke('models.delete', { name: 'gone' });
      expect(r).toEqual({ deleted: true, featureOf: [], note: null });
      // The model and its run gone at the first write; the run's 16 scores then deleted 3 at a time.
      expect(seen).toHaveLength(1 + 6);
      // workspace.changed is announced with the first write, when the model leaves readers' sight (it came after the
      // last chunk: screens showed the model for the whole delete though it was gone), and not again.
      for (const d of seen) expect(d).toEqual({ runs: runsAfter, model: false, changed: 1 });
      expect(changed).toEqual(['run']);
      expect(ws.db.prepare(`SELECT count(*) FROM runs WHERE staged IS NOT NULL`).pluck().get()).toBe(0);
      expect(ws.db.prepare(`SELECT count(*) FROM run_scores WHERE run_id NOT IN (SELECT id FROM runs)`).pluck().get()).toBe(0);
      expect(await engine.invoke('models.delete', { name: 'gone' })).toEqual({ deleted: false, featureOf: [], note: null });
      expect(changed, 'a delete that finds no model announces nothing').toEqual(['run']);
    } finally {
      off();
      chunked.mockRestore();
    }
  });

  it('stores nothing when the model was deleted while it scored', async () => {
    const { ws } = t;
    const before = ws.db.prepare(`SELECT count(*) FROM runs WHERE name = 'tf'`).pluck().get();
    expect(before).toBe(1);
    await expect(
      scorePool(ws, 'tf', 'p', {
        workerPath: null,
        write: async (f) => {
          await deleteModelAndRuns(ws, 'tf');
          return f();
        },
      }),
    ).rejects.toThrow('model "tf" changed while it scored pool "p": its scores were not stored');
    expect(ws.db.prepare(`SELECT count(*) FROM runs WHERE name = 'tf'`).pluck().get()).toBe(0);
  });
});
