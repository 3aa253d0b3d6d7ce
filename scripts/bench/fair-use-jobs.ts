/** Resolves with a job's `job.done` event (subscribe right after starting it). */
import type { JobDone } from '../../src/shared/contract';
import type { Engine } from '../../src/main/engine/engine';

export function jobDoneOf(engine: Engine, jobId: string): Promise<JobDone> {
  return new Promise((resolve) => {
    const off = engine.on('job.done', (d) => {
      if (d.jobId === jobId) {
        off();
        resolve(d);
      }
    });
  });
}
