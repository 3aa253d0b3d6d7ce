/**
 * Long writes (imports) that commit in bounded chunks and can still be undone as a whole.
 *
 * A long write runs on its own connection. Before its first chunk it creates TEMP triggers on
 * that connection only (other connections — the app's label writes — are not journaled): after
 * every INSERT, UPDATE and DELETE on a workspace table they append to `import_undo` (migration 6)
 * the inverse of the change — the key of an inserted row; the old values of an updated or
 * deleted row (not for rows the same write inserted: deleting those undoes them). The triggers
 * are generated from PRAGMA table_xinfo, so they cover every table (generated columns left out,
 * WITHOUT ROWID tables keyed by their primary key, rowid tables by rowid, so a restored row keeps
 * its rowid). Each chunk's journal rows commit with the chunk, so at every commit the journal
 * undoes exactly what is on disk. `import_journal` holds the one running long write (process,
 * start, sqlite_sequence as it was) and is written in the first chunk.
 *
 * Bulk tables (WATERMARKED_TABLES: questions, answers, bm25_docs — rowid tables that only long
 * writes insert into, and long writes run one at a time) are not journaled row by row for inserts
 * (a trigger insert per row had roughly doubled each insert's cost): the write records one *range
 * entry* per table, `rkey = 'rowid > N'` with N the table's largest rowid when it began, and its
 * triggers journal an insert only at or below N (an explicit rowid). A row above N is one this
 * write inserted, so its updates and deletes are not journaled either. Undo deletes the rows above
 * N in three passes: first those nothing refers to (before the journal's re-inserts, which could
 * collide with them on a unique key), then the journal newest first, then the rest (what the
 * journal's inserted rows referred to); a row still referred to then is kept, as below.
 *
 * Chunks commit with synchronous = NORMAL (WAL: a crash may lose the last chunks, never part of
 * one); the write's last commit runs at the connection's own level (FULL) and so syncs them all.
 *
 * Success: a last commit after the last chunk marks the journal `committed` (or clears it at once
 * when small); the journal is then cleared (in chunks
 * when large). Failure or cancel: the open chunk is rolled back, then the journal is replayed
 * newest first (in chunks, between which other writers go on), AUTOINCREMENT counters are put
 * back, and the journal is cleared. A process that dies mid-import leaves the journal behind:
 * the next writable open of the workspace (Workspace.open) replays it (or, when the import had
 * committed, just clears it) — see recoverInterruptedImport.
 *
 * Rows that other writers made depend on meanwhile are kept: the replay deletes an inserted row
 * only when no other row references it (a label given between two chunks on a pair that a failed
 * import had created keeps that pair, its query and its pool), so no acknowledged label is lost.
 * An update by the import is undone by writing the old values back, over any later change.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { CancelledError, QPairsError, throwIfAborted } from '../errors';
import type { Db } from './db';

/**
 * What the journal needs of a workspace (Workspace fits; this file does not import it, since
 * Workspace.open runs the journal's crash recovery).
 */
export interface JournaledWorkspace {
  readonly db: Db;
  readonly readonly: boolean;
  readonlyError(): Error;
  transactionAsync<T>(fn: () => Promise<T>): Promise<T>;
}

/** The turns of the engine's write gate (engine/write-gate.ts GateTurns; structural, so domain code does not import the engine). */
export interface WriteTurns {
  acquire(): Promise<void>;
  release(): void;
  readonly contended: boolean;
}

export interface UndoableOptions {
  /** What runs, for the journal (e.g. `questions-jsonl import of a.jsonl`). */
  what: string;
  /** The engine's write gate: given up between chunks so that waiting writes run. None: the CLI. */
  turns?: WriteTurns;
  /**
   * A chunk commits once it has run this long (ms). Default 50 with `turns` (other writers wait
   * for the gate), else LONE_CHUNK_MS: a CLI import is the workspace's only writer (the workspace
   * lock), so fewer commits cost less and block no one.
   */
  chunkMs?: number;
  /** …or, when another write waits for the gate, once it has run this long. Default 5. */
  contendedMs?: number;
  /** Checked at every chunk boundary. */
  signal?: AbortSignal;
  /** One transaction, no chunks, no journal (the old way; for comparisons). */
  oneTransaction?: boolean;
}

/** A running long write, as seen by the code doing it. */
export interface ChunkPoint {
  /** A chunk boundary: commits and lets waiting writers in when the chunk is due. */
  checkpoint(): Promise<void>;
}

const NO_CHUNKS: ChunkPoint = { checkpoint: async () => {} };

/** Tables never journaled: the journal itself and SQLite's own. */
const JOURNAL_TABLES = new Set(['import_journal', 'import_undo']);

/**
 * Rowid tables whose inserts are journaled by one range entry (see the top): only long writes insert
 * into them. Listed parents first; undo deletes their rows in the reverse order (children first).
 */
export const WATERMARKED_TABLES = ['questions', 'bm25_docs', 'answers'] as const;
const RANGE_KEY = /^rowid > (-?\d+)$/;
/** SQL condition: the journal entry is a range entry. */
const IS_RANGE = `(op = 'i' AND typeof(rkey) = 'text' AND rkey GLOB 'rowid > *')`;

/** Chunk time (ms) of a long write without turns (see UndoableOptions.chunkMs). */
export const LONE_CHUNK_MS = 500;

/** Journal rows cleared within the last chunk; a longer journal is cleared in chunks afterwards. */
const CLEAR_INLINE = 4096;
/** Journal rows replayed or cleared per statement batch (each batch stays within the chunk time). */
const BATCH = 256;
/** Replaying or clearing the journal goes on for at least this long per transaction (ms), whatever the chunk time. */
const MIN_BATCH_MS = 20;
/** A checkpoint lets the event loop run at least this often (ms), committing or not. */
const YIELD_MS = 10;

/** Tokens of the long writes running in this process (their journal is not an interrupted one). */
const liveTokens = new Set<string>();
/** The long write running on a workspace object (nested imports join it). */
const sessions = new WeakMap<JournaledWorkspace, UndoableWrite>();

const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;
const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`;

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
function journaledTables(db: Db): TableShape[] {
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
 * (rows above it are this write's; inserts above it are not journaled).
 */
function triggerSql(t: TableShape, n: number, mark: number | null): string[] {
  const tbl = lit(t.name);
  const on = `main.${q(t.name)}`;
  // `+(…)`: an expression without affinity, so that the index on (tbl, rkey) serves the lookup
  // (an INTEGER-affinity OLD.rowid would make SQLite convert rkey, an ANY column, and scan).
  const journaled = (r: 'NEW' | 'OLD'): string => `EXISTS (SELECT 1 FROM main.import_undo WHERE op = 'i' AND tbl = ${tbl} AND rkey = +(${keyExpr(t, r)}))`;
  const inserted = (r: 'NEW' | 'OLD'): string => (mark === null ? journaled(r) : `(${r}.rowid > ${mark} OR ${journaled(r)})`);
  const insertWhen = mark === null ? '' : ` WHEN NEW.rowid <= ${mark}`;
  const set = t.cols.map((c, i) => `${lit(`${i ? ', ' : ''}${q(c)}=`)} || quote(OLD.${q(c)})`).join(' || ');
  const insCols = [...(t.pk || t.alias ? [] : ['rowid']), ...t.cols];
  const insVals = insCols.map((c, i) => `${i ? `',' || ` : ''}quote(OLD.${c === 'rowid' ? 'rowid' : q(c)})`).join(' || ');
  const name = (k: string): string => q(`qp_undo_${k}_${n}`);
  return [
    `CREATE TEMP TRIGGER ${name('i')} AFTER INSERT ON ${on}${insertWhen} BEGIN
       INSERT INTO main.import_undo(tbl, op, rkey) VALUES (${tbl}, 'i', ${keyExpr(t, 'NEW')}); END`,
    `CREATE TEMP TRIGGER ${name('u')} AFTER UPDATE ON ${on} WHEN NOT ${inserted('OLD')} BEGIN
       INSERT INTO main.import_undo(tbl, op, stmt) VALUES (${tbl}, 'u',
         ${lit(`UPDATE ${q(t.name)} SET `)} || ${set} || ' WHERE ' || ${whereExpr(t, 'NEW')}); END`,
    // A row this write inserted whose key then changed: the undo must delete it under its new key.
    `CREATE TEMP TRIGGER ${name('k')} AFTER UPDATE ON ${on} WHEN (${keyExpr(t, 'NEW')}) IS NOT (${keyExpr(t, 'OLD')}) AND ${inserted('OLD')} BEGIN
       INSERT INTO main.import_undo(tbl, op, rkey) VALUES (${tbl}, 'i', ${keyExpr(t, 'NEW')}); END`,
    `CREATE TEMP TRIGGER ${name('d')} AFTER DELETE ON ${on} WHEN NOT ${inserted('OLD')} BEGIN
       INSERT INTO main.import_undo(tbl, op, stmt) VALUES (${tbl}, 'd',
         ${lit(`INSERT OR IGNORE INTO ${q(t.name)}(${insCols.map((c) => (c === 'rowid' ? 'rowid' : q(c))).join(', ')}) VALUES (`)} || ${insVals} || ')'); END`,
  ];
}

function createJournalTriggers(db: Db, tables: readonly TableShape[], marks: ReadonlyMap<string, number>): string[] {
  const names: string[] = [];
  tables.forEach((t, n) => {
    for (const sql of triggerSql(t, n, marks.get(t.name) ?? null)) {
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
function writeRangeEntries(db: Db, tables: readonly TableShape[]): Map<string, number> {
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

function dropTriggers(db: Db, names: readonly string[]): void {
  if (!db.open) return;
  for (const n of names) db.exec(`DROP TRIGGER IF EXISTS temp.${n}`);
}

// ------------------------------------------------------------------ the journal header

interface JournalHeader {
  token: string;
  pid: number;
  host: string;
  started: string;
  what: string;
  state: 'running' | 'committed';
  seqs: string;
}

function readHeader(db: Db): JournalHeader | null {
  try {
    return (db.prepare(`SELECT token, pid, host, started, what, state, seqs FROM import_journal WHERE id = 1`).get() as JournalHeader | undefined) ?? null;
  } catch {
    return null; // a workspace older than migration 6 (opened read-only): nothing to recover
  }
}

/** True when the long write that wrote this header may still be running. */
function headerAlive(h: JournalHeader): boolean {
  return writerAlive(h, liveTokens);
}

/**
 * True when the writer (a process on a host; in this process, a token of `live`) may still be
 * running: a process of another machine is respected (it cannot be told), one of this machine is
 * asked whether it still runs. The undo journal's and the runs stored out of sight's (staged-runs.ts).
 */
export function writerAlive(w: { host: string; pid: number; token: string }, live: ReadonlySet<string>): boolean {
  if (w.host !== os.hostname()) return true; // another machine: cannot tell, so respect it
  if (w.pid === process.pid) return live.has(w.token);
  try {
    process.kill(w.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// ------------------------------------------------------------------ replay (undo) and clearing

export interface UndoReport {
  /** Journal entries replayed. */
  undone: number;
  /** Inserted rows kept because rows written meanwhile by others reference them. */
  kept: number;
  /** Entries that could not be applied (kept as they are). */
  failed: number;
}

/** Dependent-row guards and the "table being undone" marker, TEMP on the replaying connection. */
function createGuards(db: Db): string[] {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS qp_undo_now (tbl TEXT)`);
  if (!db.prepare(`SELECT 1 FROM temp.qp_undo_now`).get()) db.exec(`INSERT INTO temp.qp_undo_now VALUES (NULL)`);
  const names: string[] = [];
  const tables = db.prepare(`SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table'`).pluck().all() as string[];
  for (const t of tables) {
    if (t.startsWith('sqlite_') || JOURNAL_TABLES.has(t)) continue;
    const fks = db.prepare(`SELECT count(*) FROM pragma_foreign_key_list(?, 'main')`).pluck().get(t) as number;
    if (!fks) continue;
    const name = q(`qp_guard_${names.length}`);
    // A row of a child table deleted while another table is being undone is an ON DELETE CASCADE
    // victim: a row the import did not write (its own rows are undone before their parents).
    db.exec(`CREATE TEMP TRIGGER ${name} BEFORE DELETE ON main.${q(t)} WHEN (SELECT tbl FROM temp.qp_undo_now) IS NOT ${lit(t)}
             BEGIN SELECT RAISE(ABORT, 'qpairs-undo-dependent'); END`);
    names.push(name);
  }
  return names;
}

/**
 * Where a replay is, across its transactions. Pass 1 deletes the rows of range entries (rows a
 * watermarked table gained) that nothing refers to; pass 2 replays the other entries newest first;
 * pass 3 deletes what is left of the ranges (rows the journal's inserted rows referred to), keeping
 * a row that others' rows still refer to. A replay resumed after a crash starts again at pass 1,
 * which only deletes rows pass 3 would delete too.
 */
interface ReplayState {
  pass: 1 | 2 | 3;
  /** Per range entry (its seq): the lowest rowid tried in this pass. */
  below: Map<number, number>;
}

const newReplay = (): ReplayState => ({ pass: 1, below: new Map() });
const NO_ROWID_BOUND = 9223372036854775807n;

function isDependentError(e: unknown): boolean {
  const msg = (e as Error).message ?? '';
  return msg.includes('qpairs-undo-dependent') || /FOREIGN KEY/i.test(msg);
}

/**
 * Deletes the rows above the marks of the journal's range entries, newest first, children's
 * tables first (entries newest first). Failed deletes are left (pass 1) or counted kept/failed
 * (pass 3, `last`). Returns false when `due()` stopped it.
 */
function deleteRanges(db: Db, report: UndoReport, state: ReplayState, setNow: ReturnType<Db['prepare']>, due: () => boolean, last: boolean): boolean {
  const ranges = db.prepare(`SELECT seq, tbl, rkey FROM import_undo WHERE ${IS_RANGE} ORDER BY seq DESC`).all() as Array<{ seq: number; tbl: string; rkey: string }>;
  for (const r of ranges) {
    const m = RANGE_KEY.exec(r.rkey);
    if (!m) continue;
    const mark = Number(m[1]);
    setNow.run(r.tbl);
    const next = db.prepare(`SELECT rowid FROM main.${q(r.tbl)} WHERE rowid > ? AND rowid < ? ORDER BY rowid DESC LIMIT ${BATCH}`).pluck();
    const del = db.prepare(`DELETE FROM main.${q(r.tbl)} WHERE rowid = ?`);
    for (;;) {
      const ids = next.all(mark, state.below.get(r.seq) ?? NO_ROWID_BOUND) as number[];
      if (ids.length === 0) break;
      for (const id of ids) {
        try {
          del.run(id);
          report.undone++;
        } catch (e) {
          if (last) {
            if (isDependentError(e)) report.kept++;
            else report.failed++;
          }
        }
        state.below.set(r.seq, id);
        if (due()) return false;
      }
    }
  }
  return true;
}

/**
 * Replays up to `maxMs` of the journal in one transaction (the passes of ReplayState), deleting
 * the entries it applied; when the journal is done, puts AUTOINCREMENT counters back and removes
 * the header. Returns true when done.
 */
function replayBatch(db: Db, report: UndoReport, maxMs: number, state: ReplayState): boolean {
  const t0 = performance.now();
  const due = (): boolean => performance.now() - t0 >= maxMs;
  const setNow = db.prepare(`UPDATE temp.qp_undo_now SET tbl = ?`);
  const pick = db.prepare(`SELECT seq, tbl, op, rkey, stmt FROM import_undo WHERE NOT ${IS_RANGE} ORDER BY seq DESC LIMIT ${BATCH}`);
  const forget = db.prepare(`DELETE FROM import_undo WHERE seq >= ? AND NOT ${IS_RANGE}`);
  const delRowid = new Map<string, ReturnType<Db['prepare']>>();
  let current: string | null = null;
  let done = false;
  db.exec('BEGIN IMMEDIATE');
  try {
    for (let stop = false; !stop && !done; ) {
      if (state.pass !== 2) {
        current = null;
        if (!deleteRanges(db, report, state, setNow, due, state.pass === 3)) break;
        if (state.pass === 1) {
          state.pass = 2;
          state.below.clear();
          continue;
        }
        db.exec(`DELETE FROM import_undo`);
        restoreSequences(db);
        db.exec(`DELETE FROM import_journal`);
        done = true;
        break;
      }
      const rows = pick.all() as Array<{ seq: number; tbl: string; op: string; rkey: unknown; stmt: string | null }>;
      if (rows.length === 0) {
        state.pass = 3;
        continue;
      }
      let last = rows[0]!.seq;
      for (const r of rows) {
        if (r.tbl !== current) {
          setNow.run(r.tbl);
          current = r.tbl;
        }
        try {
          if (r.op === 'i') {
            if (typeof r.rkey === 'number' || typeof r.rkey === 'bigint') {
              let st = delRowid.get(r.tbl);
              if (!st) delRowid.set(r.tbl, (st = db.prepare(`DELETE FROM main.${q(r.tbl)} WHERE rowid = ?`)));
              st.run(r.rkey);
            } else {
              db.prepare(`DELETE FROM main.${q(r.tbl)} WHERE ${String(r.rkey)}`).run();
            }
          } else if (r.stmt) {
            db.prepare(r.stmt).run();
          }
          report.undone++;
        } catch (e) {
          if (r.op === 'i' && isDependentError(e)) report.kept++;
          else report.failed++;
        }
        last = r.seq;
        if (due()) {
          stop = true;
          break;
        }
      }
      forget.run(last);
    }
    setNow.run(null);
    db.exec('COMMIT');
    return done;
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  }
}

/** AUTOINCREMENT counters back to where they were (or to the largest rowid left, whichever is higher). */
function restoreSequences(db: Db): void {
  const h = readHeader(db);
  let before: Record<string, number> = {};
  try {
    before = JSON.parse(h?.seqs ?? '{}') as Record<string, number>;
  } catch {
    before = {};
  }
  let now: Array<{ name: string; seq: number }>;
  try {
    now = db.prepare(`SELECT name, seq FROM sqlite_sequence`).all() as Array<{ name: string; seq: number }>;
  } catch {
    return; // no AUTOINCREMENT table was ever written
  }
  for (const { name } of now) {
    const max = db.prepare(`SELECT max(rowid) FROM main.${q(name)}`).pluck().get() as number | null;
    const target = Math.max(before[name] ?? 0, max ?? 0);
    if (before[name] === undefined && max === null) db.prepare(`DELETE FROM sqlite_sequence WHERE name = ?`).run(name);
    // As an INTEGER, as SQLite keeps it (a JS number binds as a REAL: 5.0 in a dump of the undone workspace).
    else db.prepare(`UPDATE sqlite_sequence SET seq = CAST(? AS INTEGER) WHERE name = ?`).run(target, name);
  }
}

/** Clears up to `maxMs` of a committed write's journal in one transaction; removes the header at the end. Returns true when done. */
function clearBatch(db: Db, maxMs: number): boolean {
  const t0 = performance.now();
  db.exec('BEGIN IMMEDIATE');
  try {
    let done = false;
    do {
      const upTo = db.prepare(`SELECT seq FROM import_undo ORDER BY seq LIMIT 1 OFFSET ${BATCH * 16 - 1}`).pluck().get() as number | undefined;
      if (upTo === undefined) {
        db.exec(`DELETE FROM import_undo; DELETE FROM import_journal;`);
        done = true;
        break;
      }
      db.prepare(`DELETE FROM import_undo WHERE seq <= ?`).run(upTo);
    } while (performance.now() - t0 < maxMs);
    db.exec('COMMIT');
    return done;
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  }
}

/**
 * The long write another process is running on this workspace now (its journal header, its process
 * alive): what it is, its process and when it started; null when there is none (or it is this
 * process's own). Readers see its committed chunks, which it undoes if it fails.
 */
export function runningWriteElsewhere(db: Db): { what: string; pid: number; host: string; started: string } | null {
  const h = readHeader(db);
  if (!h || h.state !== 'running' || (h.pid === process.pid && h.host === os.hostname()) || !headerAlive(h)) return null;
  return { what: h.what, pid: h.pid, host: h.host, started: h.started };
}

/**
 * A long write a crash or kill interrupted that is still in the workspace, not undone: what a
 * read-only open sees (it cannot undo it; the next writable open does). Its rows so far are in
 * every figure and export until then. Null when there is none, when it finished (its rows are
 * complete), or when its process may still run (runningWriteElsewhere).
 */
export function interruptedWriteLeft(db: Db): { what: string; pid: number; host: string; started: string } | null {
  const h = readHeader(db);
  if (!h || h.state !== 'running' || headerAlive(h)) return null;
  return { what: h.what, pid: h.pid, host: h.host, started: h.started };
}

/**
 * Where a note about opening a workspace is read: `cli` — a line on the CLI's stderr or in the serve
 * log ("note: undid the …"); `app` — a sentence the app shows its owner ("Undid the ….").
 */
export type NoteForm = 'cli' | 'app';

/** A note's clause in the form it is read in (NoteForm): the one place both forms are made. */
export function noteIn(form: NoteForm, clause: string): string {
  return form === 'cli' ? `note: ${clause}` : `${clause[0]!.toUpperCase()}${clause.slice(1)}.`;
}

/** What the process whose open rolled back an interrupted import tells its user (Workspace.recoveredWrite): the CLI on stderr, serve mode in its log, the app as a notice. */
export function recoveredNote(w: { what: string; started: string }, form: NoteForm = 'cli'): string {
  return noteIn(form, `undid the ${w.what} started ${w.started}, which was interrupted (its process is gone): the workspace is as it was before it`);
}

/** What a reader of a read-only workspace is told when an interrupted import's rows are still in it (interruptedWriteLeft). */
export function unrecoveredNote(w: { what: string; pid: number; started: string }, form: NoteForm = 'cli'): string {
  return noteIn(
    form,
    `the ${w.what} started ${w.started} was interrupted (its process ${w.pid} is gone) and its rows so far are still in this ` +
      `read-only workspace: what is read here includes them. They are undone the next time it is opened with write access`,
  );
}

/**
 * Rolls back (or, if it had committed, finishes) a long write that a crash or kill interrupted:
 * called by every writable Workspace.open. Does nothing when there is none, or when it may still
 * be running (its process is alive). Synchronous; each step is its own transaction, so a crash
 * here too is resumed by the next open.
 */
export function recoverInterruptedImport(db: Db): (UndoReport & { what: string; started: string; committed: boolean }) | null {
  const h = readHeader(db);
  if (!h || headerAlive(h)) return null;
  const report: UndoReport = { undone: 0, kept: 0, failed: 0 };
  if (h.state === 'committed') {
    while (!clearBatch(db, 200));
    return { ...report, what: h.what, started: h.started, committed: true };
  }
  const guards = createGuards(db);
  const state = newReplay();
  try {
    while (!replayBatch(db, report, 200, state));
  } finally {
    dropTriggers(db, guards);
  }
  return { ...report, what: h.what, started: h.started, committed: false };
}

// ------------------------------------------------------------------ the session

class UndoableWrite implements ChunkPoint {
  readonly token = randomUUID();
  private readonly db: Db;
  private triggers: string[] = [];
  /** The connection's synchronous level, lowered to NORMAL while the chunks run; null: not lowered. */
  private syncBefore: number | null = null;
  private inTx = false;
  private txStart = 0;
  private lastYield = performance.now();
  private readonly chunkMs: number;
  private readonly contendedMs: number;

  constructor(
    ws: JournaledWorkspace,
    private readonly opts: UndoableOptions,
  ) {
    this.db = ws.db;
    this.chunkMs = opts.chunkMs ?? (opts.turns ? 50 : LONE_CHUNK_MS);
    this.contendedMs = opts.contendedMs ?? 5;
  }

  async begin(): Promise<void> {
    const db = this.db;
    liveTokens.add(this.token);
    await this.opts.turns?.acquire();
    const h = readHeader(db);
    if (h) {
      if (headerAlive(h)) throw busyError(h);
      recoverInterruptedImport(db); // (Workspace.open does this too; here in case it was open already)
    }
    db.pragma('recursive_triggers = ON'); // REPLACE's implicit deletes fire the delete triggers
    // Chunks commit without syncing (WAL, synchronous = NORMAL: a crash may lose the last chunks,
    // never half of one, and each chunk's journal commits with it); the write's last commit syncs.
    const sync = db.pragma('synchronous', { simple: true }) as number;
    if (sync > 1) {
      this.syncBefore = sync;
      db.pragma('synchronous = NORMAL');
    }
    this.open();
    const again = readHeader(db);
    if (again) throw busyError(again);
    const seqs: Record<string, number> = {};
    try {
      for (const r of db.prepare(`SELECT name, seq FROM sqlite_sequence`).all() as Array<{ name: string; seq: number }>) seqs[r.name] = r.seq;
    } catch {
      /* no sqlite_sequence yet */
    }
    db.prepare(`INSERT INTO import_journal(id, token, pid, host, started, what, state, seqs) VALUES (1, ?, ?, ?, ?, ?, 'running', ?)`).run(
      this.token,
      process.pid,
      os.hostname(),
      new Date().toISOString(),
      this.opts.what,
      JSON.stringify(seqs),
    );
    const tables = journaledTables(db);
    this.triggers = createJournalTriggers(db, tables, writeRangeEntries(db, tables));
  }

  private open(): void {
    this.db.exec('BEGIN IMMEDIATE');
    this.inTx = true;
    this.txStart = performance.now();
  }

  /** Commits the open chunk, lets the writers waiting for the gate in, and opens the next chunk. */
  private async nextChunk(): Promise<void> {
    this.db.exec('COMMIT');
    this.inTx = false;
    this.opts.turns?.release();
    await new Promise<void>((r) => setImmediate(r));
    await this.opts.turns?.acquire();
    this.lastYield = performance.now();
    throwIfAborted(this.opts.signal);
    this.open();
  }

  async checkpoint(): Promise<void> {
    if (!this.inTx) return;
    if (performance.now() - this.lastYield >= YIELD_MS) {
      // Let the event loop read requests (their writes then queue for the gate: `contended`).
      await new Promise<void>((r) => setImmediate(r));
      this.lastYield = performance.now();
    }
    const ran = performance.now() - this.txStart;
    if (ran >= this.chunkMs || (ran >= this.contendedMs && this.opts.turns?.contended)) await this.nextChunk();
  }

  /** Commits the last chunk; the journal is then cleared. */
  async finish(): Promise<void> {
    const db = this.db;
    throwIfAborted(this.opts.signal);
    const range = db.prepare(`SELECT min(seq) AS lo, max(seq) AS hi FROM import_undo`).get() as { lo: number | null; hi: number | null };
    const small = range.lo === null || range.hi! - range.lo + 1 <= CLEAR_INLINE;
    db.exec('COMMIT'); // the last chunk, not yet synced (see begin)
    this.inTx = false;
    this.dispose(); // the connection's own synchronous setting again
    // The commit that ends the write: at the connection's setting (FULL), so it syncs the WAL
    // with every chunk before it. A crash before it leaves the journal running: undone at the next open.
    db.exec('BEGIN IMMEDIATE');
    try {
      if (small) db.exec(`DELETE FROM import_undo; DELETE FROM import_journal;`);
      else db.exec(`UPDATE import_journal SET state = 'committed'`);
      db.exec('COMMIT');
    } catch (e) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw e;
    }
    if (small) return;
    // Committed: from here on nothing is undone, even after a crash (the next open just clears).
    try {
      for (;;) {
        this.opts.turns?.release();
        await new Promise<void>((r) => setImmediate(r));
        await this.opts.turns?.acquire();
        if (clearBatch(db, MIN_BATCH_MS)) break; // bookkeeping: short batches, labels first
      }
    } catch {
      // The import stands; what is left of its journal is cleared at the next writable open.
    }
  }

  /** Undoes everything: the open chunk by ROLLBACK, the committed ones from the journal (in chunks). */
  async rollback(): Promise<UndoReport> {
    const db = this.db;
    const report: UndoReport = { undone: 0, kept: 0, failed: 0 };
    if (this.inTx && db.inTransaction) db.exec('ROLLBACK');
    this.inTx = false;
    this.dispose();
    const h = readHeader(db);
    if (h?.token !== this.token || h.state === 'committed') return report; // nothing committed yet / the import stands
    const guards = createGuards(db);
    const state = newReplay();
    try {
      for (;;) {
        await this.opts.turns?.acquire();
        if (replayBatch(db, report, Math.max(this.chunkMs, MIN_BATCH_MS), state)) break;
        this.opts.turns?.release();
        await new Promise<void>((r) => setImmediate(r));
      }
    } finally {
      dropTriggers(db, guards);
    }
    return report;
  }

  /** Drops the triggers; the session no longer journals. */
  dispose(): void {
    dropTriggers(this.db, this.triggers);
    this.triggers = [];
    if (!this.db.open) return;
    this.db.pragma('recursive_triggers = OFF');
    if (this.syncBefore !== null && !this.db.inTransaction) {
      this.db.pragma(`synchronous = ${this.syncBefore}`);
      this.syncBefore = null;
    }
  }

  /** The write is over (its journal is gone or left for recovery). */
  end(): void {
    this.dispose();
    liveTokens.delete(this.token);
  }
}

function busyError(h: JournalHeader): QPairsError {
  return new QPairsError(
    `another import into this workspace is running (${h.what}; process ${h.pid}${h.host !== os.hostname() ? ` on ${h.host}` : ''}, started ${h.started}); ` +
      `wait for it to finish`,
  );
}

/**
 * Runs fn as one undoable long write on the workspace's connection: fn's writes commit in chunks
 * (at each `checkpoint()` that finds the chunk due), and a throw — a bad file, a cancel — undoes
 * all of them, also the committed chunks. Nested calls (an import inside runImport) join the
 * running write. Inside a transaction the caller opened, fn runs in a savepoint without chunks.
 */
export async function runUndoable<T>(ws: JournaledWorkspace, opts: UndoableOptions, fn: (chunks: ChunkPoint) => Promise<T>): Promise<T> {
  const active = sessions.get(ws);
  if (active) return fn(active);
  if (opts.oneTransaction || ws.db.inTransaction) return ws.transactionAsync(() => fn(NO_CHUNKS));
  if (ws.readonly) throw ws.readonlyError();
  const s = new UndoableWrite(ws, opts);
  sessions.set(ws, s);
  try {
    await s.begin();
    const out = await fn(s);
    await s.finish();
    return out;
  } catch (e) {
    let report: UndoReport | null = null;
    try {
      report = await s.rollback();
    } catch (undoError) {
      throw new QPairsError(`${(e as Error).message ?? String(e)}; undoing the import failed too: ${(undoError as Error).message}`);
    }
    if (report.kept > 0 && e instanceof Error && !(e instanceof CancelledError)) {
      e.message += ` (rolled back; ${report.kept} row${report.kept === 1 ? '' : 's'} kept that labels given meanwhile refer to)`;
    }
    throw e;
  } finally {
    s.end();
    sessions.delete(ws);
  }
}

/** True while a long write runs on this workspace object. */
export function undoableActive(ws: JournaledWorkspace): boolean {
  return sessions.has(ws);
}
