/**
 * Undoing a long write from its journal (undo-journal.ts says how the journal works), and clearing
 * the journal of one that committed: each call is one bounded transaction, so other writers go on
 * between them, and a replay a crash interrupts is resumed by the next writable open.
 */
import type { Db } from './db';
import { IS_RANGE, JOURNAL_TABLES, RANGE_KEY, lit, q } from './undo-triggers';

/** Journal rows replayed or cleared per statement batch (each batch stays within the chunk time). */
const BATCH = 256;

export interface UndoReport {
  /** Journal entries replayed. */
  undone: number;
  /** Inserted rows kept because rows written meanwhile by others reference them. */
  kept: number;
  /** Entries that could not be applied (kept as they are). */
  failed: number;
}

/** Dependent-row guards and the "table being undone" marker, TEMP on the replaying connection. */
export function createGuards(db: Db): string[] {
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
export interface ReplayState {
  pass: 1 | 2 | 3;
  /** sqlite_sequence as it was when the write began (its journal header's JSON). */
  seqsBefore: string;
  /** Per range entry (its seq): the lowest rowid tried in this pass. */
  below: Map<number, number>;
}

/** A replay from its start, for a write whose header kept `seqsBefore`. */
export const newReplay = (seqsBefore: string): ReplayState => ({ pass: 1, seqsBefore, below: new Map() });
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
export function replayBatch(db: Db, report: UndoReport, maxMs: number, state: ReplayState): boolean {
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
        restoreSequences(db, state.seqsBefore);
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
function restoreSequences(db: Db, seqsBefore: string): void {
  let before: Record<string, number> = {};
  try {
    before = JSON.parse(seqsBefore) as Record<string, number>;
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
export function clearBatch(db: Db, maxMs: number): boolean {
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
