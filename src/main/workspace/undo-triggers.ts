/**
 * The undo journal's triggers (undo-journal.ts says how the journal works): TEMP triggers on the
 * long write's connection that append to `import_undo` the inverse of every change to a workspace
 * table, generated from PRAGMA table_xinfo; and the range entries (`rowid > N`) that stand for every
 * row a watermarked table gains. Also the SQL quoting and the range entries' form the replay reads.
 */
import type { Db } from './db';

/**
 * Tables never journaled: the journal itself and SQLite's own; and change_counts (migration 16),
 * which only ever goes up: an undo that put a count back would let a result kept at that count be
 * taken for the one after the undo's own changes; and import_undo_progress (migration 19), the record
 * of an undo under way, which belongs to the journal.
 */
export const JOURNAL_TABLES = new Set(['import_journal', 'import_undo', 'change_counts', 'import_undo_progress']);

/**
 * Rowid tables whose inserts are journaled by one range entry (see the top): only long writes insert
 * into them. Listed parents first; undo deletes their rows in the reverse order (children first).
 */
export const WATERMARKED_TABLES = ['questions', 'bm25_docs', 'answers'] as const;
/** A range entry's key, `rowid > N`: the rows the write added above N. */
export const RANGE_KEY = /^rowid > (-?\d+)$/;
/** SQL condition: the journal entry is a range entry. */
export const IS_RANGE = `(op = 'i' AND typeof(rkey) = 'text' AND rkey GLOB 'rowid > *')`;

/** An SQL identifier, quoted. */
export const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;
/** An SQL string literal. */
export const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`;

interface TableShape {
  name: string;
  /** Stored columns (generated ones left out). */
  cols: string[];
  /** Primary-key columns of a WITHOUT ROWID table; null for a rowid table. */
  pk: string[] | null;
  /** The INTEGER PRIMARY KEY column aliasing rowid, if any. */
  alias: string | null;
}

/** Every ordinary table of the main schema that a long write can change. */
export function journaledTables(db: Db): TableShape[] {
  const list = db.prepare(`SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table'`).all() as Array<{ name: string; wr: number }>;
  const out: TableShape[] = [];
  for (const t of list) {
    if (t.name.startsWith('sqlite_') || JOURNAL_TABLES.has(t.name)) continue;
    const xinfo = db.prepare(`SELECT name, type, pk, hidden FROM pragma_table_xinfo(?, 'main') ORDER BY cid`).all(t.name) as Array<{
      name: string;
      type: string;
      pk: number;
      hidden: number;
    }>;
    const cols = xinfo.filter((c) => c.hidden === 0).map((c) => c.name);
    const pkCols = xinfo.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    const alias = !t.wr && pkCols.length === 1 && pkCols[0]!.type.toUpperCase() === 'INTEGER' ? pkCols[0]!.name : null;
    out.push({ name: t.name, cols, pk: t.wr ? pkCols.map((c) => c.name) : null, alias });
  }
  return out;
}

/** SQL (in a trigger) computing the journal key of row R (NEW or OLD): rowid, or a WHERE clause over the primary key. */
function keyExpr(t: TableShape, r: 'NEW' | 'OLD'): string {
  if (!t.pk) return `${r}.rowid`;
  return t.pk.map((c, i) => `${lit(`${i ? ' AND ' : ''}${q(c)}=`)} || quote(${r}.${q(c)})`).join(' || ');
}

/** SQL (in a trigger) computing a WHERE clause finding row R. */
function whereExpr(t: TableShape, r: 'NEW' | 'OLD'): string {
  return t.pk ? keyExpr(t, r) : `'rowid=' || ${r}.rowid`;
}

/**
 * The journal triggers of table t. `mark`: t is watermarked, its largest rowid when the write began
 * (rows above it are this write's; inserts above it are not journaled). `from`: the write's own
 * entries are those above it (below lies the kept journal of the import before, whose inserted rows
 * this write's changes to are journaled like any other's).
 */
function triggerSql(t: TableShape, n: number, mark: number | null, from: number): string[] {
  const tbl = lit(t.name);
  const on = `main.${q(t.name)}`;
  // `+(…)`: an expression without affinity, so that the index on (tbl, rkey) serves the lookup
  // (an INTEGER-affinity OLD.rowid would make SQLite convert rkey, an ANY column, and scan).
  const journaled = (r: 'NEW' | 'OLD'): string => `EXISTS (SELECT 1 FROM main.import_undo WHERE op = 'i' AND tbl = ${tbl} AND rkey = +(${keyExpr(t, r)}) AND seq > ${from})`;
  const inserted = (r: 'NEW' | 'OLD'): string => (mark === null ? journaled(r) : `(${r}.rowid > ${mark} OR ${journaled(r)})`);
  const insertWhen = mark === null ? '' : ` WHEN NEW.rowid <= ${mark}`;
  const set = t.cols.map((c, i) => `${lit(`${i ? ', ' : ''}${q(c)}=`)} || quote(OLD.${q(c)})`).join(' || ');
  const after = t.cols.map((c) => `${lit(` AND ${q(c)} IS `)} || quote(NEW.${q(c)})`).join(' || ');
  const insCols = [...(t.pk || t.alias ? [] : ['rowid']), ...t.cols];
  const insVals = insCols.map((c, i) => `${i ? `',' || ` : ''}quote(OLD.${c === 'rowid' ? 'rowid' : q(c)})`).join(' || ');
  const name = (k: string): string => q(`qp_undo_${k}_${n}`);
  return [
    `CREATE TEMP TRIGGER ${name('i')} AFTER INSERT ON ${on}${insertWhen} BEGIN
       INSERT INTO main.import_undo(tbl, op, rkey) VALUES (${tbl}, 'i', ${keyExpr(t, 'NEW')}); END`,
    // rkey: a WHERE clause matching the row as this update left it, so that undoing a finished import can tell
    // a row changed again since (undo-last.ts) and leave it be.
    `CREATE TEMP TRIGGER ${name('u')} AFTER UPDATE ON ${on} WHEN NOT ${inserted('OLD')} BEGIN
       INSERT INTO main.import_undo(tbl, op, rkey, stmt) VALUES (${tbl}, 'u', ${whereExpr(t, 'NEW')} || ${after},
         ${lit(`UPDATE ${q(t.name)} SET `)} || ${set} || ' WHERE ' || ${whereExpr(t, 'NEW')}); END`,
    // A row this write inserted whose key then changed: the undo must delete it under its new key.
    `CREATE TEMP TRIGGER ${name('k')} AFTER UPDATE ON ${on} WHEN (${keyExpr(t, 'NEW')}) IS NOT (${keyExpr(t, 'OLD')}) AND ${inserted('OLD')} BEGIN
       INSERT INTO main.import_undo(tbl, op, rkey) VALUES (${tbl}, 'i', ${keyExpr(t, 'NEW')}); END`,
    `CREATE TEMP TRIGGER ${name('d')} AFTER DELETE ON ${on} WHEN NOT ${inserted('OLD')} BEGIN
       INSERT INTO main.import_undo(tbl, op, stmt) VALUES (${tbl}, 'd',
         ${lit(`INSERT OR IGNORE INTO ${q(t.name)}(${insCols.map((c) => (c === 'rowid' ? 'rowid' : q(c))).join(', ')}) VALUES (`)} || ${insVals} || ')'); END`,
  ];
}

/** Creates the journal triggers of every table (watermarked ones with their marks) for a write whose entries lie above `from`; returns their names. */
export function createJournalTriggers(db: Db, tables: readonly TableShape[], marks: ReadonlyMap<string, number>, from: number): string[] {
  const names: string[] = [];
  tables.forEach((t, n) => {
    for (const sql of triggerSql(t, n, marks.get(t.name) ?? null, from)) {
      db.exec(sql);
      names.push(/TRIGGER ("[^"]+")/.exec(sql)![1]!);
    }
  });
  return names;
}

/**
 * Writes the range entries of the watermarked tables (parents first, so that the newest-first
 * replay meets children first) and returns each table's mark. Inside the write's first chunk.
 */
export function writeRangeEntries(db: Db, tables: readonly TableShape[]): Map<string, number> {
  const marks = new Map<string, number>();
  const rowidTables = new Set(tables.filter((t) => !t.pk).map((t) => t.name));
  const add = db.prepare(`INSERT INTO import_undo(tbl, op, rkey) VALUES (?, 'i', ?)`);
  for (const name of WATERMARKED_TABLES) {
    if (!rowidTables.has(name)) continue;
    const max = db.prepare(`SELECT max(rowid) FROM main.${q(name)}`).pluck().get() as number | null;
    const mark = max ?? 0;
    add.run(name, `rowid > ${mark}`);
    marks.set(name, mark);
  }
  return marks;
}

/** Drops TEMP triggers by name (the journal's or the replay's guards); nothing on a closed connection. */
export function dropTriggers(db: Db, names: readonly string[]): void {
  if (!db.open) return;
  for (const n of names) db.exec(`DROP TRIGGER IF EXISTS temp.${n}`);
}
