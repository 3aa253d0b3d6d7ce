/**
 * Scoring a pool with a model takes the write gate for storing the scores only. It used to hold the
 * gate for the whole scoring (reading the pool's texts, the model's scores in its worker), so after
 * a training in serve mode on a 100,000-question workspace every label waited, up to 10.8 s, while
 * the new model scored the pools. The reading and scoring are done by the model worker on its own
 * connection when there is one (training/pool-scores.ts), else on this thread: outside the gate either way.
 */
import { describe, expect, it, vi } from 'vitest';
import { defaultWorkerPath, deleteModelAndRuns, scoreEveryPool, scorePool } from '../training/train';
import { Workspace } from '../workspace/workspace';
import { jobDone as engineJobDone } from './test-team';
import { useTrainedModels } from './test-models';

const t = useTrainedModels('score-gate', ['tf']);
const jobDone = (jobId: string) => engineJobDone(t.engine, jobId);

describe('scoring with a model and the write gate', () => {
  it('models.score reads and scores the pool while another writer holds the gate, and stores once it is free', async () => {
    const { ws, engine } = t;
    const replaced = vi.spyOn(ws, 'replaceRun');
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

  it("scoreEveryPool's write wraps storing the scores only", async () => {
    const { ws } = t;
    const order: string[] = [];
    const read = vi.spyOn(ws, 'poolQueries').mockImplementation(function (this: Workspace, pool: string) {
      order.push('read');
      return Workspace.prototype.poolQueries.call(ws, pool);
    });
    const replaced = vi.spyOn(ws, 'replaceRun');
    try {
      for (const workerPath of [undefined, null]) {
        order.length = 0;
        const scored = await scoreEveryPool(ws, 'tf', async (f) => {
          order.push('write');
          const r = f();
          order.push(replaced.mock.calls.length === 1 ? 'stored' : 'not stored');
          replaced.mockClear();
          return r;
        }, workerPath);
        expect(scored).toEqual([expect.objectContaining({ pool: 'p', pairs: 16 })]);
        // In the worker (the bundle, when built), nothing read on this connection; else before the write.
        expect(order).toEqual([...(workerPath === null || !defaultWorkerPath() ? ['read'] : []), 'write', 'stored']);
      }
    } finally {
      read.mockRestore();
      replaced.mockRestore();
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
          deleteModelAndRuns(ws, 'tf');
          return f();
        },
      }),
    ).rejects.toThrow('model "tf" changed while it scored pool "p": its scores were not stored');
    expect(ws.db.prepare(`SELECT count(*) FROM runs WHERE name = 'tf'`).pluck().get()).toBe(0);
  });
});
