import Database from 'better-sqlite3';
import { accessSync, closeSync, existsSync, constants as fsc, lstatSync, openSync, readlinkSync, readSync, statSync, type Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QPairsError, WorkspaceFromFutureError } from '../errors';
import { checkMigrationOrder, MIGRATIONS, type Migration } from './migrations';
import { describeHolder, lockFileOf, missingFolder, pidAlive, readLock, shellQuote } from './lock';
import { checkSchemaMatchesVersion } from './schema-check';

// SQLite URI filenames (`file:…?immutable=1`) are how a WAL workspace in a read-only folder is
// read (see openReadonly). better-sqlite3 reads this switch once, when its addon first loads,
// which is after this module is evaluated; QPairs' own paths are passed absolute, so they are
// never taken for URIs.
if (process.env.SQLITE_USE_URI === undefined) process.env.SQLITE_USE_URI = '1';

export type Db = Database.Database;

/** SQLite application_id marking a QPairs workspace ("QPrs"). */
export const APPLICATION_ID = 0x51507273;

/** Tables every QPairs workspace has had since migration 1: with a meta schema_version, a workspace that lost its header marks. */
const QPAIRS_TABLES = ['meta', 'questions', 'pools', 'labels'];

/** The first 16 bytes of every SQLite 3 database file. */
export const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

export interface OpenOptions {
  /** Create the file if it does not exist (default false: opening a missing workspace is an error). */
  create?: boolean;
  /**
   * Open read-only. Default: only when the workspace cannot be written (the file is not
   * writable, its folder is not — SQLite then cannot make the -wal/-shm files — or the file
   * system is read-only); `true` forces it.
   */
  readonly?: boolean;
  /** Migrations to apply (tests inject extra ones); default the app's. */
  migrations?: readonly Migration[];
}

/** An opened workspace database, and whether (and why) it was opened read-only. */
export interface OpenedDb {
  db: Db;
  readonly: boolean;
  /** Why it is read-only (e.g. "the file is not writable"); null when writable. */
  readonlyReason: string | null;
  /** The schema version this open upgraded the workspace from (older QPairs cannot open it any more), else null. */
  upgradedFrom?: number | null;
}

/** True when the file starts with the SQLite 3 header (a database, or a not yet written one). */
export function isSqliteFile(file: string): boolean {
  return describeFile(file).kind === 'sqlite';
}

type FileKind =
  | { kind: 'missing' }
  | { kind: 'directory' }
  | { kind: 'special' }
  | { kind: 'empty' }
  | { kind: 'sqlite'; stat: Stats }
  | { kind: 'other'; what: string }
  | { kind: 'unreadable'; why: string };

/** What a path is, from its type and first bytes (never throws). */
function describeFile(file: string): FileKind {
  let st: Stats;
  try {
    st = statSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? { kind: 'missing' } : { kind: 'unreadable', why: errnoText(e) };
  }
  if (st.isDirectory()) return { kind: 'directory' };
  if (!st.isFile()) return { kind: 'special' };
  if (st.size === 0) return { kind: 'empty' };
  // A -wal beside the file: a SQLite connection may hold it open, maybe in this very process (the
  // server's engine while an import or a training opens it again). Closing a descriptor of our own
  // on the file would then drop every POSIX lock this process holds on it (fcntl locks are per
  // process), and another program's reader (sqlite3, a backup) closing afterwards would think
  // itself the last connection and delete the -wal the server still writes to: the workspace
  // comes out damaged. So it is not read here: SQLite's own open, which keeps the locks, checks it.
  if (existsSync(`${file}-wal`)) return { kind: 'sqlite', stat: st };
  const head = Buffer.alloc(Math.min(512, st.size));
  try {
    const fd = openSync(file, 'r');
    try {
      readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    return { kind: 'unreadable', why: errnoText(e) };
  }
  if (head.length >= 16 && head.subarray(0, 16).equals(SQLITE_HEADER)) return { kind: 'sqlite', stat: st };
  return { kind: 'other', what: guessContent(head, st.size) };
}

function guessContent(head: Buffer, size: number): string {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'a gzip file';
  if (head[0] === 0x50 && head[1] === 0x4b) return 'a zip file';
  if (head.subarray(0, 4).toString('latin1') === '%PDF') return 'a PDF file';
  const text = head.toString('utf8');
  const printable = /^[\s\x20-\x7e\u00a0-\uffff]*$/.test(text.replace(/\uFFFD$/, ''));
  if (printable) {
    const t = text.trimStart();
    if (t.startsWith('<')) return 'an XML or HTML text file';
    if (t.startsWith('{') || t.startsWith('[')) return 'a JSON text file';
    return 'a text file';
  }
  return `${size} bytes of data that are not a SQLite database`;
}

function errnoText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err.code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    case 'EROFS':
      return 'the file system is read-only';
    default:
      return err.code ?? err.message;
  }
}

function canWrite(p: string): boolean {
  try {
    accessSync(p, fsc.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Why the workspace file cannot be opened for writing, or null when it can. */
function whyReadonly(file: string): string | null {
  try {
    accessSync(file, fsc.W_OK);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EROFS' ? 'it is on a read-only file system' : 'the file is not writable';
  }
  // SQLite's FILE-wal and FILE-shm beside the file: a read-only open of a read-only file makes them
  // with the file's mode, so they stay read-only after the file is made writable again.
  const stuck = [`${file}-wal`, `${file}-shm`].filter((f) => existsSync(f) && !canWrite(f));
  if (stuck.length > 0) {
    const names = stuck.map((f) => path.basename(f));
    return (
      `${names.join(' and ')} beside it ${names.length > 1 ? 'are' : 'is'} not writable (SQLite's files of the workspace, left read-only ` +
      `by an open while the workspace was read-only): make ${names.length > 1 ? 'them' : 'it'} writable too, e.g. chmod u+w ${stuck.map(shellQuote).join(' ')}`
    );
  }
  const dir = path.dirname(file);
  if (canWrite(dir)) return null;
  // SQLite makes FILE-wal and FILE-shm beside the file; they may already be there.
  if (canWrite(`${file}-wal`) && canWrite(`${file}-shm`)) return null;
  return `its folder ${dir} is not writable, so SQLite cannot make ${path.basename(file)}-wal and -shm there`;
}

/** The target of `file` when it is a symbolic link to nothing (as written in the link), else null. */
function danglingTarget(file: string): string | null {
  try {
    return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : null;
  } catch {
    return null;
  }
}

/** A path as a shell word, for commands printed as advice (in lock.ts, which db.ts imports). */
export { shellQuote };

/** A URI filename for SQLite (better-sqlite3 passes names starting with file: as URIs). */
function uriOf(abs: string, query: string): string {
  return `file:${encodeURI(abs).replace(/\?/g, '%3F').replace(/#/g, '%23')}?${query}`;
}

function sqliteCode(e: unknown): string {
  return typeof (e as { code?: unknown })?.code === 'string' ? (e as { code: string }).code : '';
}

/**
 * Opens an existing database read-only. A WAL database needs its -shm file (created beside it
 * when the folder allows); in a read-only folder without one, SQLite's `immutable` mode reads
 * the file as it is — right when nothing else can write there, and refused when a -wal file
 * holds changes that were never written back (they would be missed).
 */
function openReadonly(file: string): Db {
  let db: Db | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.prepare(`SELECT count(*) FROM sqlite_schema`).get();
    return db;
  } catch (e) {
    db?.close();
    const code = sqliteCode(e);
    if (!code.startsWith('SQLITE_CANTOPEN') && !code.startsWith('SQLITE_READONLY') && code !== 'SQLITE_IOERR_LOCK') throw e;
    let wal = 0;
    try {
      wal = statSync(`${file}-wal`).size;
    } catch {
      wal = 0;
    }
    if (wal > 0) {
      throw new QPairsError(
        `${file} cannot be read here: ${path.basename(file)}-wal holds changes not yet written into it, and SQLite cannot read them ` +
          `from a read-only folder. Open it once where its folder is writable (it is then tidied up), or copy the folder.`,
        { file },
      );
    }
    const imm = new Database(uriOf(path.resolve(file), 'immutable=1'), { readonly: true });
    try {
      imm.prepare(`SELECT count(*) FROM sqlite_schema`).get();
    } catch (e2) {
      imm.close();
      throw e2;
    }
    return imm;
  }
}

/** True when the database file's header says WAL mode (file format write version 2, byte 18). */
function isWalFile(file: string): boolean {
  const head = Buffer.alloc(20);
  const fd = openSync(file, 'r');
  try {
    return readSync(fd, head, 0, 20, 0) === 20 && head[18] === 2;
  } finally {
    closeSync(fd);
  }
}

/**
 * The read-only connection that checks a workspace before it is opened for writing. A plain
 * read-only connection to a WAL database makes FILE-wal and FILE-shm and, being read-only, leaves
 * them behind; so when no -wal exists (no connection has the file open, everything is in the main
 * file) the probe reads it in SQLite's immutable mode, which makes nothing beside it: a refused
 * workspace is left exactly as it was. (A writer starting in between writes to its own -wal, not
 * the main file, and the writable open that follows re-reads everything under SQLite's locks.)
 * Otherwise as openReadonly.
 */
function openProbe(file: string): Db {
  // The -wal first: with one, isWalFile's read of the file could drop this process's locks (describeFile).
  if (existsSync(`${file}-wal`) || !isWalFile(file)) return openReadonly(file);
  const db = new Database(uriOf(file, 'immutable=1'), { readonly: true });
  try {
    db.prepare(`SELECT count(*) FROM sqlite_schema`).get();
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

interface Header {
  userVersion: number;
  applicationId: number;
  tables: string[];
  /** The schema version a QPairs `meta` table records, when the file has one. */
  metaVersion: number | null;
}

/** SQLite's codes for a file that starts like a database but cannot be read as one. */
function isDamageCode(code: string): boolean {
  return code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB';
}

/**
 * The refusal of a workspace file SQLite finds damaged while QPairs checks it (a copy or download
 * cut short, a disk that filled up, bytes overwritten): it names the file, says it was not changed
 * and what to do. Anything else is returned as it is.
 */
function damagedOr(e: unknown, file: string, untouched = true): unknown {
  if (!isDamageCode(sqliteCode(e))) return e;
  return new QPairsError(
    `${file} is damaged: SQLite cannot read it as a database (${(e as Error).message}) — a copy or download cut short, ` +
      `a disk that filled up while it was written, or bytes changed by another program.${untouched ? ' QPairs did not change it.' : ''} ` +
      `${restoreAdvice(file)}, or open the copy it was made from.`,
    { file },
  );
}

/**
 * How to restore a damaged workspace from a backup. SQLite's -wal and -shm files beside it belong
 * to the damaged file: left there, the next open replays them onto the restored copy (a kill -9
 * leaves them; restoring an older backup under them damaged the backup's copy too).
 */
export function restoreAdvice(file: string): string {
  const beside = [`${file}-wal`, `${file}-shm`].filter((f) => existsSync(path.resolve(f)));
  if (beside.length === 0) return 'Restore the workspace from a backup (see "Backups" in the README)';
  return (
    `Restore the workspace from a backup (see "Backups" in the README): with no QPairs using it, first delete ` +
    `${beside.map((f) => path.basename(f)).join(' and ')} beside it (SQLite's files of the damaged workspace: left there, they would be replayed ` +
    `onto the restored copy and damage it too), e.g. rm ${beside.map(shellQuote).join(' ')}, then copy the backup over ${path.basename(file)}`
  );
}

/** Opens a workspace file through `open`, turning SQLite's "damaged" errors into damagedOr's refusal. */
function openChecked<T>(file: string, open: () => T, untouched = true): T {
  try {
    return open();
  } catch (e) {
    throw damagedOr(e, file, untouched);
  }
}

function readHeader(db: Db, file: string): Header {
  try {
    const userVersion = db.pragma('user_version', { simple: true }) as number;
    const applicationId = db.pragma('application_id', { simple: true }) as number;
    const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`).pluck().all() as string[];
    let metaVersion: number | null = null;
    if (tables.includes('meta')) {
      try {
        const v = Number(db.prepare(`SELECT value FROM meta WHERE key = 'schema_version'`).pluck().get());
        metaVersion = Number.isInteger(v) && v > 0 ? v : null;
      } catch {
        /* another application's meta table */
      }
    }
    return { userVersion, applicationId, tables, metaVersion };
  } catch (e) {
    if (isDamageCode(sqliteCode(e))) throw damagedOr(e, file);
    throw new QPairsError(`${file} is not a QPairs workspace (not a readable SQLite database: ${(e as Error).message})`, { file });
  }
}

/**
 * Throws unless the header is a QPairs workspace's (or, when creating, an empty database) this
 * version can open: QPairsError for another application's database, WorkspaceFromFutureError for
 * a newer schema. An empty database (no tables, no version) is refused unless creating, as an
 * empty file is: a reading command such as `stats` made a workspace of any SQLite file that had
 * no tables yet (another program's, just created), writing QPairs' 30 tables into it.
 */
function checkHeader(h: Header, file: string, latest: number, create: boolean): void {
  if (!create && h.applicationId === 0 && h.userVersion === 0 && h.tables.length === 0) {
    throw new QPairsError(
      `${file} is an empty SQLite database (no tables), not a QPairs workspace; it was left untouched. ` +
        `To start a new workspace there, delete it and run: qpairs init ${shellQuote(file)}`,
      { file },
    );
  }
  if (h.applicationId === 0 && h.userVersion === 0 && h.metaVersion !== null && QPAIRS_TABLES.every((t) => h.tables.includes(t))) {
    // SQLite's .dump (and tools built on it) writes tables and rows but not these two header fields.
    throw new QPairsError(
      `${file} has a QPairs workspace's tables but lacks the marks SQLite keeps in its header (application id and schema version): ` +
        `it was probably rebuilt from a text dump (sqlite3 .dump leaves them out; ".backup" keeps them). If it is a QPairs workspace, ` +
        `put them back with: sqlite3 ${shellQuote(file)} "PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${h.metaVersion}" ` +
        `(the schema version its meta table records). The file was left untouched.`,
      { file },
    );
  }
  if (h.applicationId !== APPLICATION_ID && !(h.applicationId === 0 && h.tables.length === 0)) {
    const shown = h.tables.slice(0, 5).join(', ') + (h.tables.length > 5 ? ', …' : '');
    throw new QPairsError(
      `${file} is a SQLite database but not a QPairs workspace (tables: ${shown || 'none'}); refusing to touch it`,
      { file },
    );
  }
  if (h.userVersion > latest) {
    throw new WorkspaceFromFutureError(
      `${file} was written by a newer QPairs (workspace schema ${h.userVersion}; this version knows up to ${latest}). ` +
        `Upgrade QPairs to open it; the file was left untouched.`,
      h.userVersion,
      latest,
      { file },
    );
  }
}

/**
 * Refuses to upgrade a workspace another QPairs process holds open for writing (its lock: serve
 * mode, the desktop app, a writing CLI command). That process is an older QPairs — a current one
 * would have upgraded it — which goes on writing as its own version would, into a file it no
 * longer understands (and which it refuses once restarted). A lock whose process is gone on this
 * host is no obstacle; one held on another host is respected, as writers do.
 */
function checkNotHeldForUpgrade(file: string, abs: string, from: number, to: number): void {
  const h = readLock(abs);
  if (!h) return;
  const here = h.hostname === os.hostname();
  if (here && (h.pid === process.pid || !pidAlive(h.pid))) return;
  const lockFile = lockFileOf(abs);
  throw new QPairsError(
    `${file} needs an upgrade from workspace schema ${from} to ${to} (it was written by an older QPairs), but another QPairs process has it open:\n` +
      `  ${describeHolder(h)}\n` +
      `Upgrading it under that process would leave an older QPairs writing to a workspace it does not know. The file was left untouched. ` +
      (here
        ? `Stop that process (or let it finish), then run the command again: it upgrades the workspace.`
        : `It runs on another machine (${h.hostname}): stop it there, then run the command again; if no QPairs uses the workspace there any more, delete ${lockFile}.`),
    { file },
  );
}

/** The user-facing error for a path that is not a workspace file (null when it may be one). */
function notAWorkspace(file: string, k: FileKind, create: boolean): QPairsError | null {
  switch (k.kind) {
    case 'directory':
      return new QPairsError(
        `${file} is a directory, not a QPairs workspace (a workspace is one file, e.g. ${path.join(file, 'W.qpairs')}; create one with: qpairs init FILE)`,
        { file },
      );
    case 'special':
      return new QPairsError(`${file} is not a regular file (a device, pipe or socket), so it cannot be a QPairs workspace`, { file });
    case 'unreadable':
      return new QPairsError(`cannot read workspace ${file}: ${k.why}`, { file });
    case 'empty':
      return create
        ? null
        : new QPairsError(
            `${file} is an empty file (0 bytes), not a QPairs workspace. To start a new workspace there, delete it and run: qpairs init ${shellQuote(file)}`,
            { file },
          );
    case 'other':
      return new QPairsError(`${file} is not a QPairs workspace: it is ${k.what}, not a SQLite database`, { file });
    default:
      return null;
  }
}

/**
 * Opens (or creates) a workspace database: checks it is ours, not from a newer QPairs and that
 * its recorded schema version matches its tables (all refused before anything is written, read
 * through a read-only connection), then applies pending migrations in one transaction.
 * Pragmas: WAL journal, synchronous=FULL (an acknowledged write survives a crash or power
 * loss), foreign keys on. The migration list must run 1 … N without gaps (checkMigrationOrder).
 *
 * Refused with a QPairsError naming the file and what it is: a directory, an empty file (unless
 * creating), a file that is not SQLite, a SQLite database of another application; one from a
 * newer QPairs as WorkspaceFromFutureError; one whose recorded version is below or above its
 * tables as WorkspaceSchemaMismatchError (schema-check.ts). A workspace that cannot be written
 * (see OpenOptions.readonly) opens read-only: `readonly` is then true and every write fails; one
 * that would need a migration cannot.
 */
export function openWorkspace(file: string, opts: OpenOptions = {}): OpenedDb {
  const migrations = opts.migrations ?? MIGRATIONS;
  const latest = checkMigrationOrder(migrations);
  if (file === ':memory:') return writable(new Database(':memory:'), migrations);
  // Absolute, so that a name starting with "file:" is never taken for a SQLite URI.
  const abs = path.resolve(file);
  const k = describeFile(abs);
  if (k.kind === 'missing') {
    // A symbolic link whose target is missing: SQLite would create the target, in its folder.
    const target = danglingTarget(abs);
    const dangling = target === null ? '' : ` (a symbolic link to ${target}, which does not exist)`;
    if (!opts.create) throw new QPairsError(`workspace ${file} does not exist${dangling} (create it with: qpairs init ${shellQuote(file)})`, { file });
    // SQLite creates the file, not its folder; better-sqlite3's own refusal is a TypeError.
    const folder = target === null ? path.dirname(file) : path.dirname(target);
    // A link's target is relative to the link's folder; the file named is relative to the working folder.
    const folderAbs = target === null ? path.dirname(abs) : path.resolve(path.dirname(abs), path.dirname(target));
    const f = describeFile(folderAbs);
    if (f.kind === 'missing') {
      throw new QPairsError(`cannot create workspace ${file}${dangling}: ${missingFolder(folder)}`, { file });
    }
    if (f.kind === 'unreadable') throw new QPairsError(`cannot create workspace ${file}${dangling}: the folder ${folder}: ${f.why}`, { file });
    if (f.kind !== 'directory') throw new QPairsError(`cannot create workspace ${file}${dangling}: ${folder} is not a folder`, { file });
    // SQLite's own refusal is "unable to open database file" (SQLITE_CANTOPEN), which names nothing.
    if (!canWrite(folderAbs)) {
      throw new QPairsError(`cannot create workspace ${file}${dangling}: the folder ${folder} is not writable (permission denied or a read-only file system)`, { file });
    }
    return writable(new Database(abs), migrations);
  }
  const bad = notAWorkspace(file, k, !!opts.create);
  if (bad) throw bad;
  const reason = opts.readonly ? 'opened read-only as asked' : whyReadonly(abs);
  if (reason !== null) {
    if (k.kind === 'empty') throw new QPairsError(`${file} is an empty file and read-only (${reason}): cannot make a workspace of it`, { file });
    const db = openChecked(file, () => openReadonly(abs));
    try {
      const h = readHeader(db, file);
      checkHeader(h, file, latest, !!opts.create);
      checkSchemaMatchesVersion(db, file, h.userVersion, migrations);
      if (h.userVersion < latest) {
        throw new QPairsError(
          `${file} is read-only (${reason}) and needs an upgrade to workspace schema ${latest} (it has ${h.userVersion}), which writes to it. ` +
            `Open it once with write access.`,
          { file },
        );
      }
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      return { db, readonly: true, readonlyReason: reason };
    } catch (e) {
      db.close();
      throw e;
    }
  }
  if (k.kind === 'sqlite') {
    const probe = openChecked(file, () => openProbe(abs));
    try {
      const h = readHeader(probe, file);
      checkHeader(h, file, latest, !!opts.create);
      checkSchemaMatchesVersion(probe, file, h.userVersion, migrations);
      if (h.userVersion > 0 && h.userVersion < latest) checkNotHeldForUpgrade(file, abs, h.userVersion, latest);
    } finally {
      probe.close();
    }
  }
  // Damage the checks above did not reach (they read the header and the schema) may still stop the migration.
  return openChecked(file, () => writable(new Database(abs), migrations), false);
}

/** openWorkspace's database only (tests, tools). */
export function openWorkspaceDb(file: string, opts: OpenOptions = {}): Db {
  return openWorkspace(file, opts).db;
}

/** A writable connection configured (WAL, synchronous=FULL, foreign keys, busy timeout) and migrated. */
function writable(db: Db, migrations: readonly Migration[]): OpenedDb {
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    const from = migrate(db, migrations);
    // A new workspace (from 0) is made, not upgraded.
    return { db, readonly: false, readonlyReason: null, upgradedFrom: from !== null && from > 0 ? from : null };
  } catch (e) {
    db.close();
    throw e;
  }
}
/** Applies the pending migrations in one transaction; the version it started from, or null when none was pending. */
function migrate(db: Db, migrations: readonly Migration[]): number | null {
  const latest = migrations[migrations.length - 1]!.version;
  if ((db.pragma('user_version', { simple: true }) as number) >= latest) return null;
  const run = db.transaction((): number | null => {
    // Read again under the write lock: another process opening the same old workspace at the same
    // moment may have upgraded it while this one waited (it re-ran those migrations: "table … already exists").
    const current = db.pragma('user_version', { simple: true }) as number;
    const pending = migrations.filter((m) => m.version > current);
    if (pending.length === 0) return null;
    if (current === 0) db.pragma(`application_id = ${APPLICATION_ID}`);
    for (const m of pending) {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }
    db.prepare(`INSERT INTO meta(key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(
      String(pending[pending.length - 1]!.version),
    );
    return current;
  });
  // Foreign keys cannot be switched inside a transaction; migrations that rebuild tables rely on this.
  db.pragma('foreign_keys = OFF');
  try {
    return run.immediate();
  } finally {
    db.pragma('foreign_keys = ON');
  }
}
