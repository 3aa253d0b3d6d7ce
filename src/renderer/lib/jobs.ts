/**
 * Remembers job events by job id. Over HTTP a job's first events can arrive on the WebSocket
 * before the POST that started it returns its id, so every job event is recorded and the UI
 * looks its job up once it knows the id.
 */
import type { JobDone, JobProgress } from '../../shared/contract';
import type { AppClient } from '../client/types';
import { applyTrainProgress, type TrainTrace } from './models';

/**
 * Said for a job whose end this page missed: the server no longer runs it and its job.done never came
 * (sent while the event stream was down, or the server was restarted mid-job).
 */
export const LOST_JOB_ERROR =
  'the server no longer runs this job, and its outcome did not reach this page: it ended while the connection was down, ' +
  'or the server was restarted (which undoes an interrupted import). The figures shown now are the workspace as it is.';

export interface JobState {
  progress: JobProgress | null;
  done: JobDone | null;
  /** A training job's loss and dev metrics so far (train.progress events), kept across screens. */
  train?: TrainTrace | null;
  /** Set by track(): the kind of a job started here, before any of its events. */
  kind?: JobProgress['kind'];
  /** Its `done` was made here (LOST_JOB_ERROR): the server no longer ran it after a reconnect. */
  lost?: boolean;
}

export class JobStore {
  private jobs = new Map<string, JobState>();
  private listeners = new Set<() => void>();
  private version = 0;

  constructor(client: Pick<AppClient, 'on'> & Partial<Pick<AppClient, 'invoke' | 'onConnection'>>) {
    client.on('job.progress', (p) => this.update(p.jobId, { progress: p }));
    client.on('job.done', (d) => this.update(d.jobId, { done: d, lost: false }));
    client.on('train.progress', (t) => this.update(t.jobId, { train: applyTrainProgress(this.jobs.get(t.jobId)?.train ?? null, t) }));
    // Events sent while the stream was down are lost: on reconnecting, ask about every job still
    // shown as running, so a page does not show a finished (or, after a restart, undone) job forever.
    if (client.invoke && client.onConnection) {
      const invoke = client.invoke.bind(client);
      let last: string | null = null;
      client.onConnection((s) => {
        if (s === 'open' && last === 'closed') this.reconcile(invoke);
        last = s;
      });
    }
  }

  private reconcile(invoke: NonNullable<AppClient['invoke']>): void {
    for (const [jobId, s] of this.jobs) {
      if (s.done) continue;
      const kind = s.kind ?? s.progress?.kind;
      if (!kind) continue;
      invoke('job.status', { jobId })
        .then(({ running }) => {
          // A job.done that arrived meanwhile is the real outcome: kept.
          if (!running && !this.jobs.get(jobId)?.done) this.update(jobId, { done: { jobId, kind, ok: false, error: LOST_JOB_ERROR }, lost: true });
        })
        .catch(() => {
          // Unanswered (the connection dropped again): the next reconnect asks again.
        });
    }
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

  /** The ids of every job of a kind this page has seen (running or finished). */
  idsOf(kind: JobProgress['kind']): Set<string> {
    const ids = new Set<string>();
    for (const [id, s] of this.jobs) if (s.kind === kind || s.progress?.kind === kind || s.done?.kind === kind) ids.add(id);
    return ids;
  }

  /**
   * The first job of a kind not among `before` (idsOf taken as this page started the command), running
   * or finished: a command that runs as a job but answers only at its end (export.write), whose id this
   * page learns from the job's events. An owner receives other people's jobs' events too: the latest
   * running one could be someone else's export, and Cancel would have stopped it.
   */
  firstSince(kind: JobProgress['kind'], before: ReadonlySet<string>): JobState | null {
    for (const [id, s] of this.jobs) if (!before.has(id) && (s.progress?.kind === kind || s.done?.kind === kind)) return s;
    return null;
  }

  /**
   * The latest running job of a kind (of `pool`, named in its events) not among `before`: export.preview's
   * job, whose page asks for one at a time and cancels the one it no longer wants (ExportScreen).
   */
  runningSince(kind: JobProgress['kind'], before: ReadonlySet<string>, pool: string): JobState | null {
    let found: JobState | null = null;
    for (const [id, s] of this.jobs) if (!before.has(id) && !s.done && s.progress?.kind === kind && s.progress.pool === pool) found = s;
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
