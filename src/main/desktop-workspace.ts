/**
 * The desktop app's open workspace: its engine and its lock, for the app's lifetime or until the
 * user opens another (Open workspace…, New workspace…). Knows nothing of Electron (index.ts and
 * ipc.ts do the windows and dialogs), so it runs under plain Node in the unit tests.
 *
 * Opening another workspace:
 *  - is refused while a job runs here (an import, an undo, a training, an export…), naming it: the
 *    user cancels it (or lets it end) first — switching never cancels work behind the user's back.
 *    Two kinds do not hold it up, as nothing of theirs is lost: a learn-as-we-label retraining (each
 *    one trains on all of the pool's labels, so the next, a few labels later, catches up) and an export
 *    preview (drawn again when the Export screen is next open); they are cancelled and waited for;
 *  - opens the other workspace and takes its lock before anything of this one is let go, so one that
 *    is refused (a newer QPairs wrote it, not a workspace, damaged, held by another process, a missing
 *    file) leaves this one open, untouched, with the refusal's reason for the user;
 *  - then closes this engine and releases its lock, and remembers the new one as the last workspace.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { QPairsError } from './errors';
import { Engine } from './engine/engine';
import { ensureDemoWorkspace } from './engine/demo';
import { jobSubjectText, type JobKind, type RunningJob } from './engine/jobs';
import { lastMissingNote, rememberWorkspace, type StartupChoice } from './engine/recent-workspace';
import { cancelJobsOnStop } from './engine/stop-jobs';
import { acquireWorkspaceLock, type WorkspaceLock } from './workspace/lock';
import { Workspace } from './workspace/workspace';

export interface DesktopWorkspaceOptions {
  /** Where the memory of the last workspaces lives (recent-workspace.ts). */
  configDir: string;
  version: string;
  /** Warm the BM25 index in the background after opening (the app does; tests need not). */
  preloadIndex?: boolean;
  log?: (line: string) => void;
}

/** Why a new workspace cannot be made at `file` (null: it can), as `qpairs init` refuses. */
function newWorkspaceRefusal(file: string): string | null {
  if (existsSync(file)) return `${file} already exists; not overwriting it (open it with Open workspace… instead)`;
  return null;
}

/** A new workspace's file: the name chosen, with `.qpairs` added when it has no extension. */
export function newWorkspacePath(chosen: string): string {
  const p = path.resolve(chosen);
  return path.extname(p) === '' ? `${p}.qpairs` : p;
}

/** What each kind of job is called in a refusal. */
const JOB_NOUNS: Record<JobKind, string> = {
  import: 'import',
  undo: 'undo of an import',
  pool: 'pool creation',
  train: 'model training',
  score: 'model scoring',
  live: 'learn-as-we-label retraining',
  export: 'export',
  preview: 'export preview',
};

/** Jobs a switch cancels rather than waits for: nothing of theirs is lost (see the header). */
const REDONE_LATER: ReadonlySet<JobKind> = new Set<JobKind>(['live', 'preview']);

/** A running job as a refusal names it: `the import of big.jsonl (questions-jsonl)`, `the model training on pool p`. */
export function runningJobText(j: RunningJob): string {
  return `the ${JOB_NOUNS[j.kind]}${jobSubjectText(j)}`;
}

export class DesktopWorkspace {
  private current: { engine: Engine; lock: WorkspaceLock | null; file: string } | null = null;
  private readonly listeners = new Set<(engine: Engine) => void>();

  constructor(private readonly o: DesktopWorkspaceOptions) {}

  /** The open workspace's engine (throws before the first open). */
  get engine(): Engine {
    if (!this.current) throw new Error('no workspace is open');
    return this.current.engine;
  }

  /** The open workspace's path (null before the first open). */
  get file(): string | null {
    return this.current?.file ?? null;
  }

  /** Calls `fn` with each engine opened from now on (to forward its events). Returns the unsubscribe function. */
  onOpened(fn: (engine: Engine) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** The workspace chosen at start-up: made first when new (the demo, or a path with no file yet), then opened. */
  async start(choice: StartupChoice): Promise<void> {
    let lock: WorkspaceLock | null = null;
    try {
      if (choice.reason === 'demo') {
        mkdirSync(path.dirname(choice.workspace), { recursive: true });
        if (!existsSync(choice.workspace)) lock = this.lock(choice.workspace);
        await ensureDemoWorkspace(choice.workspace);
      } else if (!existsSync(choice.workspace)) {
        // A new path starts a new, empty workspace.
        lock = this.lock(choice.workspace);
        Workspace.create(choice.workspace).close();
      }
      // The last workspace is gone: the demo opened instead, which the user is told above every screen.
      const lastMissing = choice.lastMissing;
      const startNotices = lastMissing ? [{ kind: 'last-missing' as const, message: lastMissingNote(lastMissing, choice.workspace) }] : [];
      this.openEngine(choice.workspace, lock, startNotices);
    } catch (e) {
      lock?.release();
      throw e;
    }
    // Remembered once it opened: one refused must not replace the last one that opened, or every
    // later start would reopen the refusal. The demo is not remembered (it is the fallback anyway).
    if (choice.reason !== 'demo') rememberWorkspace(this.o.configDir, choice.workspace);
  }

  /** Why this workspace cannot be let go now (a job runs: named), or null. */
  busyReason(): string | null {
    const running = (this.current?.engine.jobs.runningJobs() ?? []).filter((j) => !REDONE_LATER.has(j.kind));
    if (running.length === 0) return null;
    const what = running.map(runningJobText).join(', ');
    const one = running.length === 1;
    return `${one ? 'A job is' : `${running.length} jobs are`} running in this workspace (${what}): cancel ${one ? 'it' : 'them'} or let ${one ? 'it' : 'them'} end, then open the other workspace. Nothing was changed.`;
  }

  /**
   * Opens `file` in place of the workspace open now (`create`: makes it first, as `qpairs init`
   * would). Throws a QPairsError saying why when it is refused; the workspace open now then stays
   * open, as it was.
   */
  async switchTo(file: string, o: { create?: boolean } = {}): Promise<void> {
    const target = path.resolve(file);
    const busy = this.busyReason();
    if (busy) throw new QPairsError(busy);
    if (!o.create && this.current && path.resolve(this.current.file) === target) throw new QPairsError(`${target} is the workspace open now.`);
    let lock: WorkspaceLock | null = null;
    try {
      if (o.create) {
        const refused = newWorkspaceRefusal(target);
        if (refused) throw new QPairsError(refused);
        lock = this.lock(target);
        Workspace.create(target).close();
      } else if (!existsSync(target)) {
        throw new QPairsError(`${target} is no longer there (moved, renamed or deleted).`, { file: target });
      }
      const before = this.current;
      this.openEngine(target, lock, []);
      lock = null; // the open workspace's now
      if (before) {
        // A retraining or a preview still running there (busyReason lets them by) ends first: cancelled, then waited for.
        await cancelJobsOnStop(before.engine, (line) => this.o.log?.(line)).settled;
        before.engine.close();
        before.lock?.release();
      }
    } catch (e) {
      lock?.release();
      throw e;
    }
    rememberWorkspace(this.o.configDir, target);
    this.o.log?.(`opened workspace ${target}`);
  }

  /** Closes the engine and releases the lock (the app quitting). */
  close(): void {
    const c = this.current;
    this.current = null;
    if (!c) return;
    try {
      c.engine.close();
    } finally {
      c.lock?.release();
    }
  }

  private lock(file: string): WorkspaceLock {
    return acquireWorkspaceLock(file, { command: `QPairs desktop app (${file})`, onNote: (m) => this.o.log?.(m) });
  }

  /**
   * Opens the engine on `file` and takes its lock unless it is already held (`lock`) or the
   * workspace is read-only (nothing can write it; its writes fail saying so). On a refusal nothing
   * is kept open. Becomes the current workspace; the old one is the caller's to close.
   */
  private openEngine(file: string, lock: WorkspaceLock | null, startNotices: Array<{ kind: 'last-missing'; message: string }>): void {
    let held = lock;
    let engine: Engine;
    try {
      // The lock is taken before what a crashed writer left is rolled back (Engine.openLocked).
      engine = Engine.openLocked(file, { transport: 'electron', version: this.o.version, preloadIndex: this.o.preloadIndex ?? false, startNotices }, (ws) => {
        if (!ws.readonly && !held) held = this.lock(file);
        return held !== null;
      });
    } catch (e) {
      if (held !== lock) held?.release();
      throw e;
    }
    this.current = { engine, lock: held, file };
    // An undo a crash or kill stopped partway: finished in the background (the Workspace screen follows it).
    if (held) engine.finishInterruptedUndo();
    for (const fn of this.listeners) fn(engine);
  }
}
