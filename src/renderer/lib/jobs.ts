/**
 * Remembers job events by job id. Over HTTP a job's first events can arrive on the WebSocket
 * before the POST that started it returns its id, so every job event is recorded and the UI
 * looks its job up once it knows the id.
 */
import type { JobDone, JobProgress } from '../../shared/contract';
import type { AppClient } from '../client/types';

export interface JobState {
  progress: JobProgress | null;
  done: JobDone | null;
}

export class JobStore {
  private jobs = new Map<string, JobState>();
  private listeners = new Set<() => void>();
  private version = 0;

  constructor(client: Pick<AppClient, 'on'>) {
    client.on('job.progress', (p) => this.update(p.jobId, { progress: p }));
    client.on('job.done', (d) => this.update(d.jobId, { done: d }));
  }

  get(jobId: string | null): JobState | null {
    return jobId ? (this.jobs.get(jobId) ?? null) : null;
  }

  /** The latest unfinished job of a kind (pool creation reports progress as a job). */
  latestRunning(kind: JobProgress['kind']): JobState | null {
    let found: JobState | null = null;
    for (const s of this.jobs.values()) if (s.progress?.kind === kind && !s.done) found = s;
    return found;
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  };

  snapshot = (): number => this.version;

  private update(jobId: string, patch: Partial<JobState>): void {
    const cur = this.jobs.get(jobId) ?? { progress: null, done: null };
    this.jobs.set(jobId, { ...cur, ...patch });
    if (this.jobs.size > 200) this.jobs.delete(this.jobs.keys().next().value!);
    this.version++;
    for (const fn of [...this.listeners]) fn();
  }
}
