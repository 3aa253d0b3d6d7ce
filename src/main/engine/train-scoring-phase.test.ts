/**
 * A train job's scoring of the pools, once the model is stored, runs to the end whatever Cancel says (a
 * pool left unscored would lack the model's run): the Models screen showed Cancel through it, and the job
 * then ended "done". The job now says it is in that phase (job.progress phase 'scoring', before job.done),
 * which the screen hides Cancel for; a cancel then changes nothing and the job ends done, every pool scored.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { JobProgress } from '../../shared/contract';
import type { Engine } from './engine';
import { jobDone, teamEngine } from './test-team';

let dir: string;
let engine: Engine;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-train-scoring-'));
  engine = teamEngine(dir);
});
afterEach(async () => {
  await engine.jobs.idle();
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a train job scoring the pools with its stored model', () => {
  it('says so as its phase before it ends; a cancel then leaves it done, every pool scored', async () => {
    const progress: JobProgress[] = [];
    let jobId = '';
    engine.on('job.progress', (p) => {
      progress.push(p);
      if (p.jobId === jobId && p.phase === 'scoring') engine.jobs.cancel(jobId);
    });
    ({ jobId } = (await engine.invoke('models.train', { model: 'tfidf', name: 'tf', trainPools: ['open'] })) as { jobId: string });
    const done = await jobDone(engine, jobId);
    const scoring = progress.filter((p) => p.jobId === jobId && p.phase === 'scoring');
    expect(scoring[0]).toMatchObject({ message: 'training done: the model is stored; scoring the pools with it, to the end' });
    expect(progress.filter((p) => p.jobId === jobId && !p.phase).every((p) => progress.indexOf(p) < progress.indexOf(scoring[0]!))).toBe(true);
    expect(done).toMatchObject({ ok: true });
    expect(done.cancelled).toBeFalsy();
    const pools = engine.ws.listPools().map((p) => p.name);
    expect((done.report as { scored: Array<{ pool: string }> }).scored.map((p) => p.pool)).toEqual(pools);
  }, 60_000);
});
