import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { CancelledError } from '../errors';
import type { ImportSubject, JobProgress } from '../../shared/contract';
import type { EventHub } from './events';

export type JobKind = JobProgress['kind'];

export interface JobContext {
  signal: AbortSignal;
  progress(done: number, total: number, message?: string, phase?: JobProgress['phase']): void;
}

/** A running job as its events name it: its kind, the pool it works on, what an import imports. */
export interface RunningJob {
  kind: JobKind;
  pool?: string;
  import?: ImportSubject;
}

/** What a job works on, after its kind in logs and refusals: ` of big.jsonl (questions-jsonl)` for an import, ` on pool p`, or ''. */
export function jobSubjectText(j: { pool?: string; import?: ImportSubject }): string {
  const what = j.import ? ` of ${j.import.files.map((f) => path.basename(f)).join(', ')} (${j.import.format})` : '';
  return `${what}${j.pool !== undefined ? ` on pool ${j.pool}` : ''}`;
}

/** How a job starts (JobRunner.start). */
export interface JobStartOptions {
  system?: boolean;
  pool?: string;
  import?: ImportSubject;
}

/**
 * Runs long work (imports, pool creation, training) as jobs: each gets an id, reports progress
 * as `job.progress` events (throttled to ~10/s), ends with one `job.done`, and can be cancelled.
 * Jobs run concurrently; those that write take the engine's write gate (write-gate.ts).
 */
export class JobRunner {
  private readonly controllers = new Map<string, AbortController>();
  /** Who started each running job (see access.ts principalOf); its events go to them and owners. */
  private readonly starters = new Map<string, string>();
  private readonly running = new Set<Promise<void>>();
  /** What each running import job imports (its events carry it). */
  private readonly imports = new Map<string, ImportSubject>();
  /** Each running job's kind and what it works on (runningJobs). */
  private readonly jobsAbout = new Map<string, RunningJob>();

  /** `currentStarter` names whoever is calling the engine when a job starts. */
  constructor(
    private readonly hub: EventHub,
    private readonly currentStarter: () => string | undefined = () => undefined,
  ) {}

  /** Who started a running job (undefined once its `job.done` has been sent). */
  starterOf(jobId: string): string | undefined {
    return this.starters.get(jobId);
  }

  /**
   * Starts a job. Its events reach its starter (the caller whose command started it) and owners;
   * `system: true` starts it for no caller (jobs the engine starts by itself, e.g. live retraining
   * triggered by someone's label: only owners see their events). `pool`: the pool it works on,
   * named in its events (live retrains). `import`: what an import job imports, named in its events too.
   */
  start(kind: JobKind, work: (ctx: JobContext) => Promise<unknown>, opts: JobStartOptions = {}): string {
    const jobId = randomUUID();
    const about = { ...(opts.pool === undefined ? {} : { pool: opts.pool }), ...(opts.import === undefined ? {} : { import: opts.import }) };
    if (opts.import) this.imports.set(jobId, opts.import);
    this.jobsAbout.set(jobId, { kind, ...about });
    const ac = new AbortController();
    this.controllers.set(jobId, ac);
    const starter = opts.system ? undefined : this.currentStarter();
    if (starter !== undefined) this.starters.set(jobId, starter);
    let last = 0;
    const ctx: JobContext = {
      signal: ac.signal,
      progress: (done, total, message = '', phase) => {
        const t = Date.now();
        if (t - last < 100 && done < total) return;
        last = t;
        this.hub.emit('job.progress', { jobId, kind, ...about, done, total, message, ...(phase ? { phase } : {}) });
      },
    };
    const run = async (): Promise<void> => {
      try {
        const report = await work(ctx);
        this.imports.delete(jobId); // (an undo asked for on its job.done finds the import over)
        this.hub.emit('job.done', { jobId, kind, ...about, ok: true, report });
      } catch (e) {
        const cancelled = e instanceof CancelledError;
        this.imports.delete(jobId);
        this.hub.emit('job.done', { jobId, kind, ...about, ok: false, cancelled, error: cancelled ? 'cancelled' : (e as Error).message });
      } finally {
        this.controllers.delete(jobId);
        this.starters.delete(jobId);
        this.jobsAbout.delete(jobId);
      }
    };
    // Let the caller receive the job id before the first event.
    const p: Promise<void> = new Promise<void>((r) => setImmediate(() => run().then(r))).finally(() => this.running.delete(p));
    this.running.add(p);
    return jobId;
  }

  /** Whether the job still runs (false once its `job.done` has been sent, and for ids this engine never gave). */
  isRunning(jobId: string): boolean {
    return this.controllers.has(jobId);
  }

  /** The jobs still running (those asked for and not yet done, in the order they were asked for). */
  runningJobs(): RunningJob[] {
    return [...this.jobsAbout.values()];
  }

  /** What the import jobs still running import (those asked for and not yet done, in the order they were asked for). */
  runningImports(): ImportSubject[] {
    return [...this.imports.values()];
  }

  cancel(jobId: string): boolean {
    const ac = this.controllers.get(jobId);
    if (!ac) return false;
    ac.abort();
    return true;
  }

  /** Cancels every running job (the desktop app quitting); returns how many were running. */
  cancelAll(): number {
    for (const ac of this.controllers.values()) ac.abort();
    return this.controllers.size;
  }

  /** Resolves when every running job has finished. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }
}
