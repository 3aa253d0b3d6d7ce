/**
 * Remembers job events by job id. Over HTTP a job's first events can arrive on the WebSocket
 * before the POST that started it returns its id, so every job event is recorded and the UI
 * looks its job up once it knows the id.
 */
import type { JobDone, JobProgress } from '../../shared/contract';
import type { AppClient } from '../client/types';
import { applyTrainProgress, type TrainTrace } from './models';

export interface JobState {
  progress: JobProgress | null;
  done: JobDone | null;
  /** A training job's loss and dev metrics so far (train.progress events), kept across screens. */
  train?: TrainTrace | null;
  /** Set by track(): the kind of a job started here, before any of its events. */
  kind?: JobProgress['kind'];
}

export class JobStore {
  private jobs = new Map<string, JobState>();
  private listeners = new Set<() => void>();
  private version = 0;

  constructor(client: Pick<AppClient, 'on'>) {
    client.on('job.progress', (p) => this.update(p.jobId, { progress: p }));
    client.on('job.done', (d) => this.update(d.jobId, { done: d }));
    client.on('train.progress', (t) => this.update(t.jobId, { train: applyTrainProgress(this.jobs.get(t.jobId)?.train ?? null, t) }));
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

  /** The id of the latest job of a kind seen by this page (running or finished), or null. */
  latestId(kind: JobProgress['kind']): string | null {
    let found: string | null = null;
    for (const [id, s] of this.jobs) if (s.kind === kind || s.progress?.kind === kind || s.done?.kind === kind || (kind === 'train' && s.train)) found = id;
    return found;
  }

  /** Records a job this page started, so latestId() finds it before its first event arrives. */
  track(jobId: string, kind: JobProgress['kind']): void {
    this.update(jobId, { kind });
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
