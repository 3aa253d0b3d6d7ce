import { describe, expect, it } from 'vitest';
import type { EventName, EventPayloads } from '../../shared/contract';
import { JobStore } from './jobs';

function fakeClient() {
  const listeners = new Map<string, Array<(p: unknown) => void>>();
  return {
    on<E extends EventName>(event: E, fn: (p: EventPayloads[E]) => void): () => void {
      const list = listeners.get(event) ?? [];
      list.push(fn as (p: unknown) => void);
      listeners.set(event, list);
      return () => {};
    },
    emit<E extends EventName>(event: E, p: EventPayloads[E]): void {
      for (const fn of listeners.get(event) ?? []) fn(p);
    },
  };
}

describe('JobStore', () => {
  it('keeps a training job’s trace and finds the latest training job', () => {
    const c = fakeClient();
    const jobs = new JobStore(c);
    expect(jobs.latestId('train')).toBeNull();
    c.emit('job.progress', { jobId: 'imp', kind: 'import', done: 1, total: 2, message: '' });
    // Over HTTP the first events can come before the id: the trace starts anyway.
    c.emit('train.progress', { jobId: 't1', name: 'm1', progress: { epoch: 1, epochs: 2, step: 2, steps: 2, loss: 0.5, devMRR: 0.7, devMAP: 0.6 } });
    expect(jobs.latestId('train')).toBe('t1');
    expect(jobs.get('t1')!.train!.epochs).toEqual([{ epoch: 1, loss: 0.5, devMRR: 0.7, devMAP: 0.6 }]);
    jobs.track('t2', 'train');
    expect(jobs.latestId('train')).toBe('t2');
    expect(jobs.get('t2')!.done).toBeNull();
    c.emit('train.progress', { jobId: 't2', name: 'm2', progress: { epoch: 1, epochs: 1, step: 1, steps: 1, loss: 0 } });
    c.emit('job.done', { jobId: 't2', kind: 'train', ok: false, cancelled: true, error: 'cancelled' });
    expect(jobs.get('t2')!.train!.name).toBe('m2');
    expect(jobs.get('t2')!.done!.cancelled).toBe(true);
    // Later events of an older job do not make it the latest.
    c.emit('job.done', { jobId: 't1', kind: 'train', ok: true, report: {} });
    expect(jobs.latestId('train')).toBe('t2');
    expect(jobs.latestId('import')).toBe('imp');
    expect(jobs.latestId('score')).toBeNull();
  });
});
