import { closeSync, existsSync, fsyncSync, lstatSync, mkdirSync, rmdirSync, openSync, readlinkSync, readSync, realpathSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { CancelledError, QPairsError, throwIfAborted, yieldThenThrowIfAborted } from '../errors';

/** The first 16 bytes of every SQLite 3 database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** The files SQLite and QPairs keep beside a database FILE. */
const COMPANIONS: ReadonlyArray<{ suffix: string; what: string }> = [
  { suffix: '', what: 'itself' },
  { suffix: '-wal', what: 'write-ahead log (-wal)' },
  { suffix: '-shm', what: 'shared-memory file (-shm)' },
  { suffix: '-journal', what: 'rollback journal (-journal)' },
  { suffix: '.lock', what: 'lock file (.lock)' },
];

export interface WriteOptions {
  /**
   * Databases that must never be written over — the open workspace: a target that is one of
   * them or a companion file (-wal, -shm, -journal, .lock), by name, through a symlink or as a
   * hard link, is refused.
   */
  protect?: readonly string[];
}

function statOrNull(p: string, follow = true): Stats | null {
  try {
    return follow ? statSync(p) : lstatSync(p);
  } catch {
    return null;
  }
}

function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    // A file not there yet: its folder's real path plus its name.
    try {
      return path.join(realpathSync(path.dirname(p)), path.basename(p));
    } catch {
      return path.resolve(p);
    }
  }
}

function startsWithSqliteHeader(file: string): boolean {
  const st = statOrNull(file);
  if (!st || !st.isFile() || st.size < 16) return false;
  try {
    const fd = openSync(file, 'r');
    try {
      const head = Buffer.alloc(16);
      readSync(fd, head, 0, 16, 0);
      return head.equals(SQLITE_HEADER);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/**
 * Writes every byte of `data` to `fd`. One write(2) may write less than it was given and report no
 * error — on a full disk it writes what fits — so a single `writeSync` can leave a short file that
 * looks whole; this loops until all is written, and on a full disk the next write fails (ENOSPC).
 */
export function writeAllSync(fd: number, data: string | Uint8Array): void {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let off = 0;
  while (off < buf.length) {
    const n = writeSync(fd, buf, off, buf.length - off);
    if (n <= 0) throw Object.assign(new Error(`ENOSPC: no space left on device, write (${off} of ${buf.length} bytes written)`), { code: 'ENOSPC' });
    off += n;
  }
}

/** Why a file or folder could not be made at `target` (an errno code), in words, naming what is at fault. */
export function whyCannotWrite(target: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const dir = path.dirname(target);
  if (code === 'ENOENT') return `the folder ${dir} does not exist`;
  if (code === 'ENOTDIR') return `a part of ${dir} is a file, not a folder`;
  if (code === 'EROFS') return `${dir} is on a read-only file system (EROFS)`;
  if (code === 'EACCES' || code === 'EPERM') return `no permission to write in ${dir} (${code})`;
  if (code === 'ENOSPC') return 'no space left on the disk (ENOSPC)';
  return code ?? (e as Error).message;
}

/**
 * Throws, as writing `target` would, when its folder does not exist or a file stands in its path:
 * said before an export is rendered (minutes for a large pool), not after.
 */
export function checkTargetFolder(target: string): void {
  const dir = path.dirname(path.resolve(target));
  try {
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error(`${dir} is not a folder`), { code: 'ENOTDIR' });
  } catch (e) {
    throw new QPairsError(`cannot write ${target}: ${whyCannotWrite(target, e)}; nothing was written`, { file: target });
  }
}

/**
 * Creates the folder `dir` and the folders above it that are missing, one level at a time so that
 * a failure names the level and its reason (a read-only disk, a file in the way), not the ENOENT
 * of the level below. Returns the folders it created, outermost first (removeFolders takes them
 * back); on a failure it removes those it had created before throwing.
 */
export function makeFolder(dir: string): string[] {
  const missing: string[] = [];
  for (let d = path.resolve(dir); !existsSync(d) && path.dirname(d) !== d; d = path.dirname(d)) missing.unshift(d);
  const made: string[] = [];
  for (const d of missing) {
    try {
      mkdirSync(d);
      made.push(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && statOrNull(d)?.isDirectory()) continue;
      removeFolders(made);
      throw new QPairsError(`cannot create the folder ${d}: ${whyCannotWrite(d, e)}; nothing was written`, { file: d });
    }
  }
  return made;
}

/** Removes the folders makeFolder created (innermost first), those still empty only. */
export function removeFolders(made: readonly string[]): void {
  for (const d of [...made].reverse()) {
    try {
      rmdirSync(d);
    } catch {
      /* not empty, or gone: left as it is */
    }
  }
}

function refuse(target: string, why: string): QPairsError {
  return new QPairsError(`refusing to write ${target}: ${why}; nothing was written (choose another output file)`, { file: target, reason: why });
}

/**
 * Throws a QPairsError when writing `target` (by rename of a temporary file onto it) could
 * damage a database: when it is, or resolves to (real path, symlinks, hard links by device and
 * inode), a protected database or one of its companion files; when it is any SQLite database
 * file (its first bytes are "SQLite format 3\0") or the -wal/-shm/-journal file of one; or when
 * it is a directory, a device, a pipe or a socket.
 */
export function checkWriteTarget(target: string, opts: WriteOptions = {}): void {
  const abs = path.resolve(target);
  const real = realOrResolved(abs);
  const st = statOrNull(abs);
  const lst = statOrNull(abs, false);
  const via = lst?.isSymbolicLink() ? ' (through a symbolic link)' : '';

  for (const p of opts.protect ?? []) {
    if (p === ':memory:') continue;
    const base = path.resolve(p);
    const baseReal = realOrResolved(base);
    for (const c of COMPANIONS) {
      const names = new Set([base + c.suffix, baseReal + c.suffix]);
      const cst = statOrNull(baseReal + c.suffix) ?? statOrNull(base + c.suffix);
      const what = c.suffix ? `the workspace's ${c.what} of ${p}` : `the workspace ${p} itself`;
      if (names.has(abs) || names.has(real)) throw refuse(target, `it is ${what}${via}`);
      if (st && cst && st.dev === cst.dev && st.ino === cst.ino) {
        throw refuse(target, `it is ${what} (${lst?.isSymbolicLink() ? 'through a symbolic link' : 'another name of the same file: a hard link'})`);
      }
    }
  }
  if (st?.isDirectory()) throw refuse(target, 'it is a directory');
  // A device, pipe or socket (/dev/null, a FIFO), or a name under /dev or /proc (/dev/stdout is a link to
  // /proc/self/fd/1, which is whatever stdout is — a file when redirected): the temporary file would be
  // renamed over the name — as root, in /dev itself — replacing the device's entry with a file.
  const linkTo = lst?.isSymbolicLink() ? path.resolve(path.dirname(abs), readlinkSync(abs)) : null;
  if ([abs, linkTo].some((p) => p !== null && /^\/(dev|proc)\//.test(p))) {
    throw refuse(target, `it is a device or a process's standard stream (${linkTo ? `${abs} → ${linkTo}` : abs}), not a file (exports write files; write to a file and read it from there)`);
  }
  if (st && !st.isFile()) {
    const kind = st.isCharacterDevice() ? 'a character device' : st.isBlockDevice() ? 'a block device' : st.isFIFO() ? 'a named pipe' : st.isSocket() ? 'a socket' : 'not a regular file';
    throw refuse(target, `it is ${kind}${via}, not a file (exports write files)`);
  }
  if (st && startsWithSqliteHeader(abs)) throw refuse(target, `it is a SQLite database file${via} (exports never overwrite a database)`);
  const m = /^(.*)-(wal|shm|journal)$/.exec(real);
  if (m && startsWithSqliteHeader(m[1]!)) throw refuse(target, `it is the ${m[2]} file of the SQLite database ${m[1]}${via}`);
}

/** Bytes written between two points where a cancellable write (writeFilesAtomicCancellable) hears a cancel. */
export const WRITE_CHUNK_BYTES = 1 << 20;

/**
 * Writes files atomically: each goes to a temporary file in its target folder (written and
 * fsynced), and only when all are written are they renamed over their targets. A failure
 * removes the temporary files and leaves the targets untouched (a crash between two renames can
 * leave some files renamed; each file is always either old or new, never partial). Every target
 * is checked first (checkWriteTarget): a database — the workspace above all — is never written
 * over.
 */
export function writeFilesAtomic(files: ReadonlyArray<{ path: string; content: string }>, opts: WriteOptions = {}): void {
  for (const _ of atomicWriteSteps(files, opts)) {
    /* each step is a chunk written; nothing to do between them */
  }
}

/**
 * writeFilesAtomic that stops when `signal` is aborted (the CLI's Ctrl-C, SIGTERM, SIGHUP): it yields
 * to the event loop after every WRITE_CHUNK_BYTES written, so the signal is heard, and then removes
 * its temporary files, renames nothing and throws CancelledError. Written synchronously, a Ctrl-C
 * ended the process on the spot and left `.OUT.PID.HEX.tmp` (up to the whole export) beside OUT.
 */
export async function writeFilesAtomicCancellable(
  files: ReadonlyArray<{ path: string; content: string }>,
  opts: WriteOptions,
  signal: AbortSignal,
  written: readonly WrittenTemp[] = [],
): Promise<void> {
  const steps = atomicWriteSteps(files, opts, written);
  throwIfAborted(signal);
  for (let step = steps.next(); !step.done; step = steps.next()) {
    try {
      await yieldThenThrowIfAborted(signal);
    } catch (e) {
      steps.throw(e); // runs the steps' cleanup (temporary files removed), which rethrows it
    }
  }
}

/** A file already written (and fsynced) to its temporary name `tmp` (an export streamed, line-sink.ts), to rename onto `path` with the others. */
export interface WrittenTemp {
  tmp: string;
  path: string;
}

/**
 * writeFilesAtomic's work, one step per chunk written (the steps' caller may stop it with throw()).
 * `written`: files already in temporary files, renamed with the others — or removed with them on a failure.
 */
function* atomicWriteSteps(files: ReadonlyArray<{ path: string; content: string }>, opts: WriteOptions, written: readonly WrittenTemp[] = []): Generator<void, void, void> {
  const seen = new Set<string>();
  const temps: WrittenTemp[] = [...written];
  for (const f of [...written, ...files]) {
    checkWriteTarget(f.path, opts);
    const real = realOrResolved(f.path);
    if (seen.has(real)) throw new QPairsError(`export failed: two of its files would be ${f.path}`, { file: f.path });
    seen.add(real);
  }
  try {
    for (const f of files) {
      const dir = path.dirname(f.path);
      const tmp = path.join(dir, `.${path.basename(f.path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
      let fd: number;
      try {
        fd = openSync(tmp, 'wx');
      } catch (e) {
        throw new QPairsError(`cannot write ${f.path}: ${whyCannotWrite(f.path, e)}; nothing was written`, { file: f.path });
      }
      temps.push({ tmp, path: f.path });
      try {
        const buf = Buffer.from(f.content, 'utf8');
        for (let off = 0; off < buf.length; off += WRITE_CHUNK_BYTES) {
          writeAllSync(fd, buf.subarray(off, off + WRITE_CHUNK_BYTES));
          yield;
        }
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    // Checked again just before the renames: a target may have changed while the files were written.
    for (const t of temps) checkWriteTarget(t.path, opts);
    for (const t of temps) renameSync(t.tmp, t.path);
  } catch (e) {
    for (const t of temps) {
      try {
        unlinkSync(t.tmp);
      } catch {
        /* already renamed or gone */
      }
    }
    if (e instanceof QPairsError || e instanceof CancelledError) throw e;
    throw new QPairsError(`export failed: ${(e as Error).message}`);
  }
}
