/** Helpers shared by the CLI command modules (each exports `(argv, out) => Promise<number>`). */
import type { IntervalView, StatView } from '../../../shared/gold';
import { fixedDecimals } from '../../../shared/decimals';
import { QPairsError } from '../../errors';
import { acquireWorkspaceLock, type WorkspaceLock } from '../../workspace/lock';
import { recoveredNote, runningWriteElsewhere, unrecoveredNote } from '../../workspace/undo-journal';
import { finishedUndoNote, finishingUndoNote, partlyUndoneNote } from '../../workspace/undo-last';
import { Workspace } from '../../workspace/workspace';
import { importLeftNote, undoLeftNote } from '../undo-left-note';
import { exactInt, UsageError } from '../args';

export type Out = { log: (s: string) => void; err: (s: string) => void };
/** A command: main hands it the signal Ctrl-C aborts when the command is cancellable (see CANCELLABLE in ../index.ts). */
export type Command = (argv: string[], out: Out, signal: AbortSignal) => Promise<number>;

/** The command line recorded in the workspace lock (set by main: `qpairs import W …`). */
let commandLine: string | undefined;
export function setCommandLine(argv: readonly string[]): void {
  commandLine = ['qpairs', ...argv].join(' ');
  openedPath = undefined;
}

/** The workspace the running command opened (as the user named it), for errors SQLite raises later without a file name. */
let openedPath: string | undefined;
export function commandWorkspace(): string | undefined {
  return openedPath;
}

export interface OpenFor {
  /**
   * The command writes, named as the user typed it (e.g. "import", "pool create"): the
   * workspace must be writable, and the command holds its lock (one writer process at a time).
   */
  write?: string;
  /** Where the read-only note goes (stderr). */
  out?: Out;
  /**
   * Refuses the command, with the message this returns, while another process runs an import on the
   * workspace (`import undo`: there is none to undo until it ends), instead of noting it and running.
   */
  whileImporting?: (w: { what: string; pid: number; host: string; started: string }) => string;
}

const locks = new WeakMap<Workspace, WorkspaceLock>();

/**
 * Opens the workspace for a command. Read-only commands open a workspace that cannot be written
 * read-only, saying so once on stderr; writing commands refuse it ("… is read-only …") and take
 * the workspace lock (refused with the holder when another process writes to it). Close with
 * closeWorkspace (withWorkspace does).
 */
export function openWorkspace(path: string | undefined, o: OpenFor = {}): Workspace {
  if (!path) throw new UsageError('missing workspace path W');
  openedPath = path;
  // An undo a crash or kill stopped partway is left by the open: a writing command finishes it once it holds the lock
  // (below), a reading one says so and leaves it (before, every command's open finished it, also while another process held the lock).
  // So is what a writer whose process is gone left (an interrupted import, runs half stored): it is rolled back only under the
  // lock — by a writing command once it holds it, by a reading one that can hold it for that moment (recoverForReader).
  const ws = Workspace.open(path, { interruptedUndo: 'leave', recovery: 'later' });
  const upgraded = ws.upgradeNote();
  if (upgraded) o.out?.err(upgraded);
  // What a crash left, undone now; or a long write under way elsewhere, whose rows so far a reader sees.
  if (!o.write && ws.recoveryDue) {
    try {
      recoverForReader(ws, path, o.out);
    } catch (e) {
      ws.close();
      throw e;
    }
  }
  if (ws.undoPartway) o.out?.err(partlyUndoneNote(ws.undoPartway));
  const running = runningWriteElsewhere(ws.db);
  if (running && o.whileImporting) {
    ws.close();
    throw new QPairsError(o.whileImporting(running), { file: path });
  }
  if (running) {
    o.out?.err(
      `note: a ${running.what} is running in another process (pid ${running.pid} on ${running.host}, since ${running.started}): ` +
        `what it has written so far is included here, and is undone if it fails`,
    );
  }
  if (ws.readonly) {
    if (o.write) {
      ws.close();
      throw new QPairsError(
        `workspace ${path} is read-only (${ws.readonlyReason}): "qpairs ${o.write}" changes it, so it cannot run. ` +
          `Make the file and its folder writable, or work on a copy.`,
        { file: path },
      );
    }
    o.out?.err(`note: workspace ${path} is read-only (${ws.readonlyReason}); opened it read-only: reading works, changes are refused`);
    if (ws.unrecoveredWrite) o.out?.err(unrecoveredNote(ws.unrecoveredWrite));
    return ws;
  }
  if (!o.write) {
    if (ws.undoToFinish) o.out?.err(undoLeftNote(ws.undoToFinish, path));
    return ws;
  }
  try {
    locks.set(ws, acquireWorkspaceLock(ws.path, { command: commandLine, onNote: (m) => o.out?.err(m) }));
    ws.recoverLeftWrites();
    if (ws.recoveredWrite) o.out?.err(recoveredNote(ws.recoveredWrite));
    finishUndoLeft(ws, o.out);
  } catch (e) {
    closeWorkspace(ws);
    throw e;
  }
  return ws;
}

/**
 * A reading command that finds what a writer whose process is gone left: it rolls it back holding the workspace's lock for
 * that moment, saying so; while another process holds the lock (which rolls it back itself) it leaves it and says so.
 * Before, every command's open rolled it back before any lock was checked: two processes could recover at once.
 */
function recoverForReader(ws: Workspace, path: string, out: Out | undefined): void {
  let lock: WorkspaceLock;
  try {
    lock = acquireWorkspaceLock(ws.path, { command: commandLine, onNote: (m) => out?.err(m) });
  } catch (e) {
    if (ws.leftWrite) out?.err(importLeftNote(ws.leftWrite, path, (e as Error).message));
    return;
  }
  try {
    ws.recoverLeftWrites();
  } finally {
    lock.release();
  }
  if (ws.recoveredWrite) out?.err(recoveredNote(ws.recoveredWrite));
}

/** A writing command, holding the lock: the undo a crash or kill stopped partway is finished before it runs, said as it starts, then every second or so. */
function finishUndoLeft(ws: Workspace, out: Out | undefined): void {
  let saidAt = 0;
  const done = ws.finishLeftUndo((m) => {
    if (Date.now() - saidAt < 1000) return;
    saidAt = Date.now();
    out?.err(finishingUndoNote(m));
  });
  if (done) out?.err(finishedUndoNote(done));
  if (ws.undoPartway) out?.err(partlyUndoneNote(ws.undoPartway));
}

/** Closes a workspace opened by openWorkspace, releasing its lock. */
export function closeWorkspace(ws: Workspace): void {
  try {
    ws.close();
  } finally {
    locks.get(ws)?.release();
    locks.delete(ws);
  }
}

/** Runs fn on the opened workspace (see openWorkspace) and closes it. */
export async function withWorkspace<T>(path: string | undefined, fn: (ws: Workspace) => T | Promise<T>, o: OpenFor = {}): Promise<T> {
  const ws = openWorkspace(path, o);
  try {
    return await fn(ws);
  } finally {
    closeWorkspace(ws);
  }
}

export function json(o: unknown): string {
  return JSON.stringify(o, null, 2);
}

/** A comma-separated list flag (`A,B,C`), trimmed, empty entries dropped. */
export function list(v: string | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  const l = v.split(',').map((s) => s.trim()).filter(Boolean);
  if (l.length === 0) throw new UsageError('an empty list was given');
  return l;
}

/** A positive whole number flag. */
export function positiveInt(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`${flag} needs a positive whole number, got "${v}"`);
  return exactInt(v, flag);
}

export function intFlag(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v)) throw new UsageError(`${flag} needs a whole number, got "${v}"`);
  return exactInt(v, flag);
}

export function numberFlag(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new UsageError(`${flag} needs a number, got "${v}"`);
  return n;
}

/** A statistic for a text table: 3 decimals, or "n/a". */
export function fmt(s: { value: number | null }, digits = 3): string {
  return s.value === null ? 'n/a' : fixedDecimals(s.value, digits);
}

/**
 * A p-value for a text table: 4 decimals, "<0.0001" below that (9e-6 printed as "0.0000" read as
 * exactly 0), "0" only when it is 0 (a t-test over differences without spread: the notes say so), or "n/a".
 */
export function fmtP(s: { value: number | null }): string {
  if (s.value === null) return 'n/a';
  if (s.value > 0 && s.value < 0.0001) return '<0.0001';
  return s.value === 0 ? '0' : fixedDecimals(s.value, 4);
}

export function fmtCi(s: { value: [number, number] | null }, digits = 3): string {
  return s.value === null ? 'n/a' : `[${fixedDecimals(s.value[0], digits)}, ${fixedDecimals(s.value[1], digits)}]`;
}

/**
 * The reasons behind n/a values (grouped: one line per reason, naming what it applies to) and the
 * notes of defined statistics (e.g. Fleiss' kappa on the items with the modal number of labels, an
 * interval from one query only or with resamples dropped, a p-value of 0 from differences without spread);
 * `qpairs agreement` and `qpairs eval --compare` list them under their tables.
 */
export class Notes {
  private readonly byReason = new Map<string, string[]>();

  stat(name: string, s: StatView | IntervalView): void {
    let text: string | undefined;
    if (s.value === null) text = s.reason;
    // An interval's note matters when resamples were dropped or there was one query only.
    else if (s.note && !(Array.isArray(s.value) && /^percentile bootstrap, \d+ resamples$/.test(s.note))) text = s.note;
    if (!text) return;
    const names = this.byReason.get(text) ?? [];
    names.push(name);
    this.byReason.set(text, names);
  }

  text(): string {
    return [...this.byReason].map(([reason, names]) => `  ${names.join(', ')}: ${reason}`).join('\n');
  }
}
