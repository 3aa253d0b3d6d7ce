/**
 * One writer process per workspace. A process that writes — serve mode and the desktop app for
 * their lifetime, the CLI's writing commands (those opened with `write`, cli/commands/common.ts:
 * import, import undo, pool create, pool set, assign, label, aggregate with --rule or --threshold,
 * annotators add/role/invite/revoke, train, score, models delete, corpus index) for their
 * duration — holds the lock file `W.lock` beside the workspace W. It is created with O_EXCL (so
 * exactly one process can make it) and holds the holder's pid, host name, command line and start
 * time, which a refused writer prints. Readers (stats, eval, agreement, aggregate without --rule
 * or --threshold, adjudicate, export, pool list, models list, annotators list, corpus export) take
 * no lock: SQLite's WAL lets them read while the writer writes. What a writer whose process is
 * gone left (an interrupted import, runs half stored) is rolled back only under the lock: a reader
 * takes it for that moment when it is free, and leaves it otherwise; an import's undo stopped
 * partway is finished only by a writer.
 *
 * A lock whose process is gone (its pid is not alive on the same host: a crash or kill -9) is
 * stale and taken over, with a note. A lock held on another host cannot be checked and is
 * respected; the message says to delete the file once no QPairs runs there.
 *
 * The lock follows the file, not its name. The lock file's path comes from the workspace's real
 * path (symlinks and relative paths resolved); a workspace with hard links (other names for the
 * same file) is refused for writing (`WorkspaceHardLinkedError`); and a second lock file keyed by
 * the file's device + inode, under the machine's temporary folder (`qpairs-locks/DEV-INO.lock`),
 * catches the names realpath cannot tell apart (a bind mount of the folder, another mount of the
 * same file system). Within one process the engine may open more connections (an import runs on
 * a second one); the lock is per process, not per connection.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, closeSync, constants as fsc, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QPairsError } from '../errors';
import { shellQuote } from '../../shared/shell-word';

/** A path as a shell word, for commands printed as advice (src/shared/shell-word.ts; db.ts and the CLI import it from here). */
export { shellQuote };

/** A missing folder as a workspace's creation and its lock both refuse it, with the command that makes it. */
export function missingFolder(folder: string): string {
  return `the folder ${folder} does not exist (create it first: mkdir -p ${shellQuote(folder)})`;
}

/** Who holds a workspace's lock (the lock file's content). */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** The holder's command line, e.g. `qpairs serve W.qpairs --port 5180`. */
  command: string;
  /** ISO time the lock was taken. */
  since: string;
}

interface LockFileContent extends LockHolder {
  /** Tells this holder's file from a later one of the same pid. */
  token: string;
}

/** A held lock: release it when done (also released when the process exits normally). */
export interface WorkspaceLock {
  readonly file: string;
  readonly holder: LockHolder;
  /** The stale lock taken over, if any (its process was gone). */
  readonly tookOver: LockHolder | null;
  release(): void;
}

/** The refusal: another live process holds the workspace's lock. */
export class WorkspaceLockedError extends QPairsError {
  constructor(
    readonly workspace: string,
    readonly lockFile: string,
    readonly holder: LockHolder | null,
  ) {
    super(lockedMessage(workspace, lockFile, holder), { file: workspace });
    this.name = 'WorkspaceLockedError';
  }
}

/** The refusal: the workspace file has hard links, so a second writer could open it under another name. */
export class WorkspaceHardLinkedError extends QPairsError {
  constructor(
    readonly workspace: string,
    readonly links: number,
  ) {
    super(
      `refusing to write workspace ${workspace}: the file has ${links} hard links (other names for the same file), so another ` +
        `process could write it under another name while this one does. Keep one name: list them with ` +
        `\`find / -xdev -samefile ${workspace}\` and remove the others (cp makes an independent copy instead).`,
      { file: workspace },
    );
    this.name = 'WorkspaceHardLinkedError';
  }
}

/**
 * The device + inode lock of an existing workspace file (null when it does not exist yet): one
 * file per file system object, whatever path names it.
 */
export function inodeLockFileOf(workspace: string): string | null {
  let st;
  try {
    st = statSync(workspace, { bigint: true });
  } catch {
    return null;
  }
  return path.join(inodeLockDir(), `${st.dev}-${st.ino}.lock`);
}

/** The machine-wide folder of device + inode locks, shared by every user (mode 1777, as /tmp). */
function sharedInodeLockDir(): string {
  return path.join(os.tmpdir(), 'qpairs-locks');
}

/**
 * Where the device + inode locks go: the shared folder, unless it exists and this user cannot
 * write there (another user made it without write access for others, as QPairs did before its
 * mode was set past the umask): then a folder of this user's own, so that user's writes are not
 * refused for good; its locks still catch this user's second writer.
 */
function inodeLockDir(): string {
  const shared = sharedInodeLockDir();
  let st;
  try {
    st = lstatSync(shared);
  } catch {
    return shared; // not made yet: this process makes it
  }
  // A symbolic link (or a file) in the shared temporary folder is not QPairs' folder: never write through it.
  if (st.isDirectory() && !st.isSymbolicLink()) {
    try {
      accessSync(shared, fsc.W_OK | fsc.X_OK);
      return shared;
    } catch {
      /* another user's, without write access for others */
    }
  }
  return path.join(os.tmpdir(), `qpairs-locks-${uid() ?? 'user'}`);
}

/** This user's id, or null where there are none (Windows). */
function uid(): number | null {
  return typeof process.getuid === 'function' ? process.getuid() : null;
}

/**
 * Makes the folder of `inodeFile`. The shared one gets mode 1777 (everyone may add locks, only
 * a lock's owner may remove it) whatever the umask: mkdir's mode is masked by it, which made the
 * folder 1755 and refused every other user's writes with "permission denied". A shared folder
 * this user owns with a narrower mode is widened — only a real folder (lstat: a symbolic link
 * someone put in its place is never followed to chmod what it points to); a per-user one must be
 * this user's own real folder.
 */
function makeInodeLockDir(inodeFile: string): void {
  const dir = path.dirname(inodeFile);
  const shared = dir === sharedInodeLockDir();
  mkdirSync(dir, { recursive: true, mode: shared ? 0o1777 : 0o700 });
  const st = lstatSync(dir);
  const mine = uid() === null || st.uid === uid();
  if (!st.isDirectory() || st.isSymbolicLink() || (!shared && !mine)) {
    throw new QPairsError(`cannot lock: ${dir} is not a folder of this user's own (a symbolic link or another user's); remove it and try again`);
  }
  if (shared && mine && (st.mode & 0o7777) !== 0o1777) chmodSync(dir, 0o1777);
}

/** The lock file of a workspace: its real path (symlinks resolved) plus `.lock`. */
export function lockFileOf(workspace: string): string {
  let real: string;
  try {
    real = realpathSync(workspace);
  } catch {
    // Not created yet: its folder's real path, so the name matches once it exists.
    try {
      real = path.join(realpathSync(path.dirname(path.resolve(workspace))), path.basename(workspace));
    } catch {
      real = path.resolve(workspace);
    }
  }
  return `${real}.lock`;
}

/** Who holds the workspace's lock now (null when nobody, or the file cannot be parsed). */
export function readLock(workspace: string): LockHolder | null {
  const c = readContent(lockFileOf(workspace));
  return c.kind === 'ok' ? strip(c.content) : null;
}

/** A short description of a holder: `qpairs serve W (pid 12, host h, since 2025-…)`. */
export function describeHolder(h: LockHolder): string {
  return `${h.command || '(unknown command)'} (pid ${h.pid} on host ${h.hostname}, since ${h.since})`;
}

function lockedMessage(workspace: string, lockFile: string, h: LockHolder | null): string {
  if (!h) {
    return (
      `workspace ${workspace} is locked by another QPairs process (lock file ${lockFile}, being written). ` +
      `Try again in a moment; if it stays, delete ${shellQuote(lockFile)}.`
    );
  }
  const here = h.hostname === os.hostname();
  const who = here && h.pid === process.pid ? 'this process (it is already open for writing here)' : `another QPairs process`;
  const gone = here
    ? `If that process no longer exists, delete ${shellQuote(lockFile)}.`
    : `It runs on another machine (${h.hostname}), so QPairs cannot tell whether it still runs: once no QPairs uses the workspace there, delete ${shellQuote(lockFile)}.`;
  return (
    `workspace ${workspace} is being written by ${who}:\n` +
    `  ${describeHolder(h)}\n` +
    `Only one process may write to a workspace at a time. Wait for it to finish or stop it (for serve mode or the desktop app: ` +
    `do this there instead, e.g. import through its Workspace screen); commands that only read (stats, eval, agreement, ` +
    `aggregate W --pool P without --rule or --threshold, adjudicate, export, pool list, models list, annotators list, corpus export) ` +
    `work meanwhile. ${gone}`
  );
}

function strip(c: LockFileContent): LockHolder {
  return { pid: c.pid, hostname: c.hostname, command: c.command, since: c.since };
}

type Read = { kind: 'ok'; content: LockFileContent } | { kind: 'missing' } | { kind: 'unreadable'; ageMs: number };

function readContent(file: string): Read {
  let text: string;
  let ageMs = 0;
  try {
    text = readFileSync(file, 'utf8');
    ageMs = Date.now() - statSync(file).mtimeMs;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unreadable', ageMs: Infinity };
  }
  try {
    const o = JSON.parse(text) as Partial<LockFileContent>;
    if (typeof o.pid === 'number' && Number.isInteger(o.pid) && o.pid > 0 && typeof o.hostname === 'string') {
      return {
        kind: 'ok',
        content: { pid: o.pid, hostname: o.hostname, command: String(o.command ?? ''), since: String(o.since ?? ''), token: String(o.token ?? '') },
      };
    }
  } catch {
    /* written half, or not ours */
  }
  return { kind: 'unreadable', ageMs };
}

/**
 * Whether a process with this pid exists on this host (EPERM: it exists, owned by someone else). A pid that
 * names no one process (0 or below: kill(2) would signal a process group, or every process) is not alive.
 * The lock and serve mode's upload folders (serve/uploads.ts) both ask it.
 */
export function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function defaultCommand(): string {
  const [, script, ...rest] = process.argv;
  const name = script ? path.basename(script).replace(/\.(mjs|cjs|js|ts)$/, '') : 'qpairs';
  return [name, ...rest].join(' ');
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const held = new Set<{ release(): void }>();
/**
 * The tokens of the lock files this process holds. A lock file naming this process's pid with
 * another token was left by an earlier process that had the same pid (a container's `qpairs
 * serve` is often pid 1 after every restart; pids are reused after a reboot), killed before it
 * could remove it: stale, not "this process".
 */
const heldTokens = new Set<string>();
let exitHook = false;

export interface LockOptions {
  /** The command line recorded in the lock (default: this process's). */
  command?: string;
  /** Receives the note when a stale lock is taken over. */
  onNote?: (message: string) => void;
  /** How long to wait for a lock file that is being written (default 2 s). */
  settleMs?: number;
}

/**
 * Takes the workspace's lock, or throws WorkspaceLockedError naming the holder. A stale lock (its
 * pid gone on this host, or a file unparseable for longer than settleMs) is taken over, with a
 * note through onNote. A folder where the lock cannot be created is a QPairsError saying why.
 */
export function acquireWorkspaceLock(workspace: string, opts: LockOptions = {}): WorkspaceLock {
  const file = lockFileOf(workspace);
  const mine: LockFileContent = {
    pid: process.pid,
    hostname: os.hostname(),
    command: opts.command ?? defaultCommand(),
    since: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  const links = linkCount(workspace);
  if (links > 1) throw new WorkspaceHardLinkedError(workspace, links);
  const tookOver = acquireFile(file, workspace, mine, opts.settleMs ?? 2000);
  // The same file under a name realpath cannot relate (bind mounts): its device + inode lock.
  const inodeFile = inodeLockFileOf(workspace);
  if (inodeFile) {
    try {
      makeInodeLockDir(inodeFile);
      acquireFile(inodeFile, workspace, mine, opts.settleMs ?? 2000);
    } catch (e) {
      releaseFile(file, mine);
      throw e;
    }
  }
  if (tookOver) {
    opts.onNote?.(
      tookOver.pid
        ? `note: took over the lock of ${workspace} left by a QPairs process that no longer runs: ${describeHolder(tookOver)}`
        : `note: replaced an unreadable lock file ${file}`,
    );
  }
  heldTokens.add(mine.token);
  let released = false;
  const lock: WorkspaceLock = {
    file,
    holder: strip(mine),
    tookOver,
    release() {
      if (released) return;
      released = true;
      held.delete(lock);
      heldTokens.delete(mine.token);
      if (inodeFile) releaseFile(inodeFile, mine);
      releaseFile(file, mine);
    },
  };
  held.add(lock);
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const l of [...held]) l.release();
    });
  }
  return lock;
}

/** The workspace file's number of hard links (0 when it does not exist yet). */
function linkCount(workspace: string): number {
  try {
    return statSync(workspace).nlink;
  } catch {
    return 0;
  }
}

/** Removes `file` when it is still this holder's (its token), never another's. */
function releaseFile(file: string, mine: LockFileContent): void {
  const cur = readContent(file);
  if (cur.kind === 'ok' && cur.content.token === mine.token) {
    try {
      unlinkSync(file);
    } catch {
      /* gone already */
    }
  }
}

/**
 * Creates lock file `file` for `mine`, taking over a stale one (its pid gone on this host, or a
 * file unparseable for longer than settleMs); returns the stale holder taken over, if any. Throws
 * WorkspaceLockedError naming a live holder.
 */
function acquireFile(file: string, workspace: string, mine: LockFileContent, settle: number): LockHolder | null {
  let tookOver: LockHolder | null = null;
  const deadline = Date.now() + settle + 1000;
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(file, mine, workspace)) return tookOver;
    const cur = readContent(file);
    if (attempt > 200) throw new WorkspaceLockedError(workspace, file, cur.kind === 'ok' ? strip(cur.content) : null);
    if (cur.kind === 'missing') continue; // released meanwhile: try again
    if (cur.kind === 'unreadable') {
      // Another process between creating and writing it, or garbage: wait a little, then take it over.
      if (cur.ageMs < settle && Date.now() < deadline) {
        sleepSync(25);
        continue;
      }
      if (takeOver(file, null)) tookOver = { pid: 0, hostname: '?', command: '(unreadable lock file)', since: '?' };
      else if (attempt > 20) throw new WorkspaceLockedError(workspace, file, null);
      continue;
    }
    const h = cur.content;
    const here = h.hostname === mine.hostname;
    const stale = here && (h.pid === process.pid ? !heldTokens.has(h.token) : !pidAlive(h.pid));
    if (!stale) throw new WorkspaceLockedError(workspace, file, strip(h));
    if (takeOver(file, h)) tookOver = strip(h);
    else if (attempt > 20) throw new WorkspaceLockedError(workspace, file, strip(h));
  }
}

/** Creates the lock file with O_EXCL; false when it exists. */
function tryCreate(file: string, mine: LockFileContent, workspace: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o644);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // The desktop app locks a new workspace before creating it: a folder that is not there is not one that cannot be written.
    if (code === 'ENOENT') {
      const folder = path.dirname(file);
      throw new QPairsError(`cannot lock workspace ${workspace} for writing: ${missingFolder(folder)}`, { file: workspace });
    }
    const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EROFS' ? 'read-only file system' : (code ?? (e as Error).message);
    throw new QPairsError(
      `cannot lock workspace ${workspace} for writing: cannot create ${file} (${why}). A workspace is written only where its folder is writable.`,
      { file: workspace },
    );
  }
  let error: unknown = null;
  try {
    writeSync(fd, JSON.stringify(mine) + '\n');
    fsyncSync(fd);
  } catch (e) {
    error = e;
  } finally {
    closeSync(fd);
  }
  if (error) {
    try {
      unlinkSync(file);
    } catch {
      /* ignore */
    }
    throw new QPairsError(`cannot write the lock file ${file}: ${(error as Error).message}`, { file: workspace });
  }
  return true;
}

/**
 * Removes a stale lock file, carefully: it is first renamed aside (atomic), and deleted only when
 * the renamed file is still the stale one; if another process replaced it meanwhile with a live
 * lock, that one is put back (link fails when yet another appeared). Returns true when a file was
 * taken away.
 */
function takeOver(file: string, stale: LockFileContent | null): boolean {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(file, aside);
  } catch {
    return false; // someone else moved it
  }
  const moved = readContent(aside);
  const same =
    stale === null ? moved.kind !== 'ok' : moved.kind === 'ok' && moved.content.pid === stale.pid && moved.content.token === stale.token && moved.content.since === stale.since;
  if (!same) {
    try {
      linkSync(aside, file);
    } catch {
      /* a newer lock is in place: it wins */
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    /* ignore */
  }
  return same;
}
