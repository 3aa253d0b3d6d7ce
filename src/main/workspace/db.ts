import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { QPairsError } from '../errors';
import { MIGRATIONS, SCHEMA_VERSION, type Migration } from './migrations';

export type Db = Database.Database;

/** SQLite application_id marking a QPairs workspace ("QPrs"). */
export const APPLICATION_ID = 0x51507273;

export interface OpenOptions {
  /** Create the file if it does not exist (default false: opening a missing workspace is an error). */
  create?: boolean;
  readonly?: boolean;
  /** Migrations to apply (tests inject extra ones); default the app's. */
  migrations?: readonly Migration[];
}

function readHeader(path: string): { userVersion: number; applicationId: number; tables: number } {
  const probe = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const userVersion = probe.pragma('user_version', { simple: true }) as number;
    const applicationId = probe.pragma('application_id', { simple: true }) as number;
    const tables = (probe.prepare(`SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'`).get() as { n: number }).n;
    return { userVersion, applicationId, tables };
  } catch (e) {
    throw new QPairsError(`${path} is not a QPairs workspace (not a readable SQLite database: ${(e as Error).message})`, {
      file: path,
    });
  } finally {
    probe.close();
  }
}

/**
 * Opens (or creates) a workspace database: checks it is ours and not from a newer QPairs
 * (refused before anything is written), then applies pending migrations in one transaction.
 * Pragmas: WAL journal, synchronous=FULL (an acknowledged write survives a crash or power
 * loss), foreign keys on.
 */
export function openWorkspaceDb(path: string, opts: OpenOptions = {}): Db {
  const migrations = opts.migrations ?? MIGRATIONS;
  const latest = migrations[migrations.length - 1]?.version ?? SCHEMA_VERSION;
  const exists = path !== ':memory:' && existsSync(path);
  if (!exists && path !== ':memory:' && !opts.create) {
    throw new QPairsError(`workspace ${path} does not exist (create it with: qpairs init ${path})`, { file: path });
  }
  if (exists) {
    const h = readHeader(path);
    if (h.applicationId !== APPLICATION_ID && !(h.applicationId === 0 && h.tables === 0)) {
      throw new QPairsError(`${path} is a SQLite database but not a QPairs workspace; refusing to touch it`, { file: path });
    }
    if (h.userVersion > latest) {
      throw new QPairsError(
        `${path} was written by a newer QPairs (workspace schema ${h.userVersion}; this version knows up to ${latest}). ` +
          `Upgrade QPairs to open it; the file was left untouched.`,
        { file: path },
      );
    }
  }
  const db = new Database(path, { readonly: opts.readonly ?? false });
  try {
    if (!opts.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
    }
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    if (!opts.readonly) migrate(db, migrations);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

function migrate(db: Db, migrations: readonly Migration[]): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return;
  const run = db.transaction(() => {
    if (current === 0) db.pragma(`application_id = ${APPLICATION_ID}`);
    for (const m of pending) {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }
    db.prepare(`INSERT INTO meta(key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(
      String(pending[pending.length - 1]!.version),
    );
  });
  // Foreign keys cannot be switched inside a transaction; migrations that rebuild tables rely on this.
  db.pragma('foreign_keys = OFF');
  try {
    run.immediate();
  } finally {
    db.pragma('foreign_keys = ON');
  }
}
