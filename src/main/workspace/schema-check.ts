import Database from 'better-sqlite3';
import { WorkspaceSchemaMismatchError } from '../errors';
import type { Migration } from './migrations';

/**
 * Does a workspace's recorded schema version (`user_version`) match its tables? Checked when a
 * workspace is opened, before anything is written (see openWorkspace):
 *
 * - *ahead*: the file already has tables, columns or indexes that only a later migration makes (its
 *   version is below its tables). Migrating would fail halfway ("table … already exists", or
 *   "index … already exists" for a migration that only adds an index, as 14 does) or, for a
 *   migration that rebuilds a table, copy the wrong rows; refused.
 * - *missing*: the file lacks tables or columns its version has (its version is above its tables);
 *   today's code would fail on it later, mid-work. Refused, except tables a pending migration
 *   repairs (Migration.repairs; migration 9 remakes the live-training tables that migration 8
 *   lacked when first released).
 *
 * "Tables and columns" are the names in the main schema (SQLite's own `sqlite_*` tables left out)
 * and each table's columns, generated ones included, and the named indexes (only ever *ahead*: a
 * missing index slows queries but breaks nothing, and 67f969a added labels_pool_seq to migration 15
 * in place); tables no migration makes (none today) are ignored. What each version has is found by running the migrations on an in-memory database
 * once per migration list, so the check can never disagree with the migrations themselves.
 */

/** What schema version v has (v = 0 … N) and which version first made each table or column. */
interface Expected {
  /** states[v]: the tables ("t") and columns ("t.c") after migrations 1 … v. */
  states: ReadonlyArray<ReadonlySet<string>>;
  /** The first version whose schema has the table or column. */
  introducedBy: ReadonlyMap<string, number>;
}

const expectedCache = new WeakMap<readonly Migration[], Expected>();

/** An index's entry among schemaObjects: "t.index:i" (its table first, so it goes with the table). */
const INDEX_MARK = '.index:';

/** The tables ("t"), columns ("t.c", generated ones included) and named indexes ("t.index:i") of a database's main schema. */
export function schemaObjects(db: Database.Database): Set<string> {
  const out = new Set<string>();
  const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`).pluck().all() as string[];
  const columns = db.prepare(`SELECT name FROM pragma_table_xinfo(?)`).pluck();
  for (const t of tables) {
    out.add(t);
    for (const c of columns.all(t) as string[]) out.add(`${t}.${c}`);
  }
  // Indexes made by CREATE INDEX (SQLite's own sqlite_autoindex_* come with their tables).
  const indexes = db.prepare(`SELECT tbl_name, name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL`).all() as Array<{ tbl_name: string; name: string }>;
  for (const i of indexes) out.add(`${i.tbl_name}${INDEX_MARK}${i.name}`);
  return out;
}

function expectedSchemas(migrations: readonly Migration[]): Expected {
  const hit = expectedCache.get(migrations);
  if (hit) return hit;
  const db = new Database(':memory:');
  try {
    const states: Array<Set<string>> = [new Set()];
    const introducedBy = new Map<string, number>();
    for (const m of migrations) {
      db.exec(m.sql);
      const now = schemaObjects(db);
      for (const o of now) if (!introducedBy.has(o)) introducedBy.set(o, m.version);
      states.push(now);
    }
    const expected: Expected = { states, introducedBy };
    expectedCache.set(migrations, expected);
    return expected;
  } finally {
    db.close();
  }
}

/** A difference between a workspace's tables and those of its recorded version. */
export interface SchemaMismatch {
  /** Tables/columns of later migrations the file already has, with the version that makes each. */
  ahead: Array<{ object: string; version: number }>;
  /** Tables/columns of the recorded version the file lacks, with the version that made each. */
  missing: Array<{ object: string; version: number }>;
}

/**
 * Compares a workspace's tables and columns (`objects`, from schemaObjects) with those schema
 * `version` has under `migrations`; null when they match. `version` must be 0 … N (a newer one is
 * refused before this, as WorkspaceFromFutureError).
 */
export function findSchemaMismatch(objects: ReadonlySet<string>, version: number, migrations: readonly Migration[]): SchemaMismatch | null {
  const { states, introducedBy } = expectedSchemas(migrations);
  const has = states[version] ?? new Set<string>();
  const repaired = new Set(migrations.filter((m) => m.version > version).flatMap((m) => m.repairs ?? []));
  const ahead: SchemaMismatch['ahead'] = [];
  for (const o of objects) {
    const v = introducedBy.get(o);
    if (v !== undefined && !has.has(o)) ahead.push({ object: o, version: v });
  }
  const missing: SchemaMismatch['missing'] = [];
  for (const o of has) {
    if (objects.has(o) || repaired.has(o.split('.')[0]!) || o.includes(INDEX_MARK)) continue;
    missing.push({ object: o, version: introducedBy.get(o) ?? version });
  }
  if (ahead.length === 0 && missing.length === 0) return null;
  const order = (a: { object: string; version: number }, b: { object: string; version: number }): number =>
    a.version - b.version || a.object.localeCompare(b.object);
  return { ahead: ahead.sort(order), missing: missing.sort(order) };
}

/** "table t" / "column t.c" / "index i" for a message; tables first, a few at most. */
function describe(list: ReadonlyArray<{ object: string; version: number }>): string {
  const tables = list.filter((x) => !x.object.includes('.'));
  // A missing or extra table's columns and indexes say nothing more than the table.
  const shown = [...tables, ...list.filter((x) => x.object.includes('.') && !tables.some((t) => x.object.startsWith(`${t.object}.`)))];
  const name = (o: string): string => {
    const i = o.indexOf(INDEX_MARK);
    return i >= 0 ? `index ${o.slice(i + INDEX_MARK.length)}` : o.includes('.') ? `column ${o}` : `table ${o}`;
  };
  const first = shown.slice(0, 4).map((x) => `${name(x.object)} (schema ${x.version})`);
  return first.join(', ') + (shown.length > 4 ? ` and ${shown.length - 4} more` : '');
}

/**
 * Throws WorkspaceSchemaMismatchError when the opened (read-only) workspace `db`, whose recorded
 * schema version is `version`, has tables or columns of a later migration or lacks some of its
 * own (see the module comment). Reads only.
 */
export function checkSchemaMatchesVersion(db: Database.Database, file: string, version: number, migrations: readonly Migration[]): void {
  const m = findSchemaMismatch(schemaObjects(db), version, migrations);
  if (!m) return;
  const what =
    m.ahead.length > 0
      ? `it already has ${describe(m.ahead)}: its recorded version is below its tables, so upgrading it would fail or damage it`
      : `it lacks ${describe(m.missing)}: its recorded version is above its tables`;
  throw new WorkspaceSchemaMismatchError(
    `${file} records workspace schema ${version}, but ${what}. QPairs will not open it; the file was left untouched. ` +
      `It was changed outside QPairs or put together from different copies: restore a whole backup, or open it with the QPairs that wrote it.`,
    version,
    m.ahead.map((x) => x.object),
    m.missing.map((x) => x.object),
    { file },
  );
}
