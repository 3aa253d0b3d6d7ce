import { describe, expect, it } from 'vitest';
import type { EventName, EventPayloads } from '../../shared/contract';
import { JobStore, LOST_JOB_ERROR } from './jobs';

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

describe('JobStore after a reconnect', () => {
  /** A client whose event stream can drop and come back, and whose server runs the jobs in `running`. */
  function reconnectingClient(running: Set<string>) {
    const c = fakeClient();
    const states: Array<(s: 'connecting' | 'open' | 'closed' | 'ended') => void> = [];
    const asked: string[] = [];
    return {
      ...c,
      asked,
      onConnection(fn: (s: 'connecting' | 'open' | 'closed' | 'ended') => void): () => void {
        states.push(fn);
        fn('open');
        return () => {};
      },
      async invoke(command: string, args: unknown): Promise<never> {
        if (command !== 'job.status') throw new Error(`unexpected ${command}`);
        const { jobId } = args as { jobId: string };
        asked.push(jobId);
        return { running: running.has(jobId) } as never;
      },
      connection(s: 'open' | 'closed'): void {
        for (const fn of states) fn(s);
      },
    };
  }
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('a running job the server no longer runs ends as lost; one it still runs, or whose end arrived, is kept', async () => {
    const running = new Set(['still']);
    const c = reconnectingClient(running);
    const jobs = new JobStore(c as never);
    c.emit('job.progress', { jobId: 'gone', kind: 'import', done: 10, total: 100, message: '' });
    c.emit('job.progress', { jobId: 'still', kind: 'import', done: 10, total: 100, message: '' });
    jobs.track('started', 'train');
    c.emit('job.progress', { jobId: 'ended', kind: 'pool', done: 1, total: 2, message: '' });
    c.emit('job.done', { jobId: 'ended', kind: 'pool', ok: true, report: { n: 1 } });
    // The server is restarted: the import it ran is gone, its job.done never sent.
    c.connection('closed');
    expect(jobs.get('gone')!.done).toBeNull(); // nothing is concluded while the stream is down
    c.connection('open');
    await settle();
    expect(c.asked.sort()).toEqual(['gone', 'started', 'still']);
    expect(jobs.get('gone')!.done).toMatchObject({ jobId: 'gone', kind: 'import', ok: false, error: LOST_JOB_ERROR });
    expect(jobs.get('gone')!.lost).toBe(true);
    expect(jobs.get('started')!.done).toMatchObject({ kind: 'train', ok: false });
    expect(jobs.get('still')!.done).toBeNull();
    expect(jobs.get('ended')!.done).toMatchObject({ ok: true, report: { n: 1 } });
    // A job.done that comes after all is the outcome.
    c.emit('job.done', { jobId: 'gone', kind: 'import', ok: true, report: { n: 2 } });
    expect(jobs.get('gone')!.done).toMatchObject({ ok: true, report: { n: 2 } });
    expect(jobs.get('gone')!.lost).toBe(false);
  });
});

describe('JobStore.firstSince', () => {
  it("finds the export this page started, not another person's running export an owner also sees", () => {
    const c = fakeClient();
    const jobs = new JobStore(c);
    // A judge's export, already running when the owner starts hers (owners receive every job's events).
    c.emit('job.progress', { jobId: 'theirs', kind: 'export', done: 0, total: 0, message: 'rendering the files' });
    c.emit('job.progress', { jobId: 'old', kind: 'export', done: 0, total: 0, message: '' });
    c.emit('job.done', { jobId: 'old', kind: 'export', ok: true });
    const before = jobs.idsOf('export');
    expect([...before].sort()).toEqual(['old', 'theirs']);
    expect(jobs.firstSince('export', before)).toBeNull();
    c.emit('job.progress', { jobId: 'mine', kind: 'export', done: 0, total: 0, message: "reading the pool's labels" });
    // Their export reports again, and another person's starts while mine runs: neither is mine.
    c.emit('job.progress', { jobId: 'theirs', kind: 'export', done: 10, total: 9000, message: 'bootstrap' });
    c.emit('job.progress', { jobId: 'later', kind: 'export', done: 0, total: 0, message: "reading the pool's labels" });
    expect(jobs.latestRunning('export')?.progress?.jobId).toBe('later');
    expect(jobs.firstSince('export', before)?.progress?.jobId).toBe('mine');
    c.emit('job.done', { jobId: 'mine', kind: 'export', ok: false, cancelled: true });
    // Mine ended: it stays the one found (done), not the other person's that still runs.
    expect(jobs.firstSince('export', before)).toMatchObject({ progress: { jobId: 'mine' }, done: { cancelled: true } });
  });
});

describe('JobStore.runningSince', () => {
  it("finds the Export screen's running preview job of its pool started since it asked: not an older one, not another pool's, not an export, not one that ended", () => {
    const c = fakeClient();
    const jobs = new JobStore(c);
    c.emit('job.progress', { jobId: 'older', kind: 'preview', pool: 'p', done: 0, total: 0, message: '' });
    const before = jobs.idsOf('preview');
    expect(jobs.runningSince('preview', before, 'p')).toBeNull();
    c.emit('job.progress', { jobId: 'write', kind: 'export', done: 0, total: 0, message: '' });
    c.emit('job.progress', { jobId: 'other-pool', kind: 'preview', pool: 'q', done: 0, total: 0, message: '' });
    expect(jobs.runningSince('preview', before, 'p')).toBeNull();
    c.emit('job.progress', { jobId: 'mine', kind: 'preview', pool: 'p', done: 5, total: 9000, message: 'bootstrap' });
    expect(jobs.runningSince('preview', before, 'p')?.progress?.jobId).toBe('mine');
    c.emit('job.done', { jobId: 'mine', kind: 'preview', pool: 'p', ok: false, cancelled: true });
    expect(jobs.runningSince('preview', before, 'p')).toBeNull();
  });
});
