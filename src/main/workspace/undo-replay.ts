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
  /** `kept` by table. */
  keptBy: Record<string, number>;
  /**
   * Undoing a finished import only (ReplayState.checkChanged): updates and deletes of the import
   * left as they are because the row was changed (or its key taken) again since.
   */
  skipped: number;
  /** `skipped` by table. */
  skippedBy: Record<string, number>;
  /** Entries that could not be applied (kept as they are). */
  failed: number;
}

/** A report with nothing undone yet. */
export const newReport = (): UndoReport => ({ undone: 0, kept: 0, keptBy: {}, skipped: 0, skippedBy: {}, failed: 0 });

/** Counts a row of `tbl` kept (rows written since refer to it) or skipped (changed again since), in total and by table. */
function tally(report: UndoReport, what: 'kept' | 'skipped', tbl: string): void {
  report[what]++;
  const byTable = what === 'kept' ? report.keptBy : report.skippedBy;
  byTable[tbl] = (byTable[tbl] ?? 0) + 1;
}

/**
 * Tables whose rows written since never keep an undone row: a model's runs and their scores,
 * computed from the pool (the app scores every pool after a training). A run made since on a pool
 * the import brought goes with that pool — it kept the pool before, empty of its pairs, with scores
 * of pairs that no longer existed. (Runs are only ever imported by an import, which would be the
 * last one then.)
 */
const DERIVED_TABLES = new Set(['runs', 'run_scores']);

/** Dependent-row guards and the "table being undone" marker, TEMP on the replaying connection. */
export function createGuards(db: Db): string[] {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS qp_undo_now (tbl TEXT)`);
  if (!db.prepare(`SELECT 1 FROM temp.qp_undo_now`).get()) db.exec(`INSERT INTO temp.qp_undo_now VALUES (NULL)`);
  const names: string[] = [];
  const tables = db.prepare(`SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table'`).pluck().all() as string[];
  for (const t of tables) {
    if (t.startsWith('sqlite_') || JOURNAL_TABLES.has(t) || DERIVED_TABLES.has(t)) continue;
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
  /**
   * Undoing a finished import (undo-last.ts): an update is written back only when the row is still
   * as the import left it (the entry's rkey matches it), a deleted row is put back only when its
   * key is free; otherwise the entry is skipped, so no later work is written over.
   */
  checkChanged: boolean;
  /** With checkChanged: the pass whose held question ids (holdQuestions) are in temp.qp_undo_held and temp.qp_undo_held_answers. */
  heldPass?: number;
  /** When the write began (its header's `started`): a pool created since is one made after it, for a header without POOLS_MARK (holdQuestions). */
  started: string;
  /** The write's own journal entries are those with seq above this (its header's from_seq). */
  from: number;
  /**
   * The kept journal's header (JSON) of the import before, while this write ran over it
   * (import_journal.kept): put back as the header once this write is undone; its entries stay.
   */
  previous: string | null;
}

/** What a replay needs of the header of the write it undoes (undo-journal.ts JournalHeader). */
export interface ReplayedHeader {
  seqs: string;
  started: string;
  from_seq: number;
  kept: string | null;
}

/** A replay from its start, of the write whose header is `h`. */
export const newReplay = (h: ReplayedHeader, checkChanged = false): ReplayState => ({
  pass: 1,
  seqsBefore: h.seqs,
  below: new Map(),
  checkChanged,
  started: h.started,
  from: h.from_seq,
  previous: h.kept,
});
const NO_ROWID_BOUND = 9223372036854775807n;

function isDependentError(e: unknown): boolean {
  const msg = (e as Error).message ?? '';
  return msg.includes('qpairs-undo-dependent') || /FOREIGN KEY/i.test(msg);
}

/**
 * Undoing a finished import: the ids of the questions that the pools' pairs and labels left in the
 * workspace name (in pass 3, those written since the import: the import's own are undone by then),
 * so that their texts stay — a pool made or a label given since on a question the import brought
 * keeps its text (heldRows). Rebuilt at the start of each pass of range deletes.
 *
 * The answers the import brought are held only for the questions that were labeled since it began
 * (label seq above the import's start), or put in a pool made since (id above the largest pool id
 * when it began, POOLS_MARK: pool creation waits for a running import, and pools go only by undoing
 * or rolling back the import that made them, so a pool made since never reuses an id at or below
 * it), and for the held questions the import brought itself —
 * so that a question judged since still reads as it was judged. The answers it added to questions
 * that were only in pools made before it, with no label since, go with it: no one judged them with
 * those answers (before, every pooled question kept them, and undoing a dump import that only added
 * answers to pooled questions took none of them out).
 */
function holdQuestions(db: Db, state: ReplayState): void {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS qp_undo_held (id TEXT PRIMARY KEY) WITHOUT ROWID`);
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS qp_undo_held_answers (id TEXT PRIMARY KEY) WITHOUT ROWID`);
  db.exec(`DELETE FROM temp.qp_undo_held; DELETE FROM temp.qp_undo_held_answers`);
  db.exec(`INSERT OR IGNORE INTO temp.qp_undo_held(id)
             SELECT query_id FROM main.pool_queries UNION SELECT candidate_id FROM main.pool_candidates
             UNION SELECT query_id FROM main.labels UNION SELECT candidate_id FROM main.labels`);
  const labelSeq = seqBefore(state.seqsBefore, 'labels');
  // A header written before POOLS_MARK has none (null): a pool made since is then told by its creation time,
  // which a clock set back (NTP, a VM resumed) can misplace.
  const poolsMark = seqsBeforeJson(state.seqsBefore)[POOLS_MARK] ?? null;
  const questionsMark = rangeMark(db, state.from, 'questions');
  db.prepare(
    `INSERT OR IGNORE INTO temp.qp_undo_held_answers(id)
       SELECT query_id FROM main.labels WHERE seq > @labelSeq UNION SELECT candidate_id FROM main.labels WHERE seq > @labelSeq
       UNION SELECT pq.query_id FROM main.pool_queries pq JOIN main.pools p ON p.id = pq.pool_id WHERE ${MADE_SINCE}
       UNION SELECT pc.candidate_id FROM main.pool_candidates pc JOIN main.pools p ON p.id = pc.pool_id WHERE ${MADE_SINCE}
       UNION SELECT h.id FROM temp.qp_undo_held h JOIN main.questions x ON x.id = h.id WHERE x.rowid > @questionsMark`,
  ).run({ labelSeq, poolsMark, started: state.started, questionsMark: questionsMark ?? NO_ROWID_BOUND });
}

/** SQL condition: pool p was made since the write began (by id; by creation time for a header without POOLS_MARK). */
const MADE_SINCE = `(p.id > @poolsMark OR (@poolsMark IS NULL AND p.created >= @started))`;

/**
 * The key, in a write's header's `seqs` JSON (sqlite_sequence as it was), of the largest pool id when it began
 * (pools.id is no AUTOINCREMENT, so sqlite_sequence has no entry for it; restoreSequences sets only the counters
 * sqlite_sequence has, so this key is never written back). Not a table name.
 */
export const POOLS_MARK = 'max(pools.id)';

/** The header's `seqs` JSON, parsed; empty when it cannot be read. */
function seqsBeforeJson(seqsBefore: string): Record<string, number> {
  try {
    return JSON.parse(seqsBefore) as Record<string, number>;
  } catch {
    return {};
  }
}

/** An AUTOINCREMENT counter as it was when the write began (the header's sqlite_sequence JSON); 0 when it had none. */
function seqBefore(seqsBefore: string, table: string): number {
  return seqsBeforeJson(seqsBefore)[table] ?? 0;
}

/** Where the write's range entry of `tbl` begins (the table's largest rowid when it began); null without one. */
function rangeMark(db: Db, from: number, tbl: string): number | null {
  const rkey = db.prepare(`SELECT rkey FROM import_undo WHERE ${IS_RANGE} AND seq > ? AND tbl = ?`).pluck().get(from, tbl) as string | undefined;
  const m = rkey === undefined ? null : RANGE_KEY.exec(rkey);
  return m ? Number(m[1]) : null;
}

/**
 * Undoing a finished import, a watermarked table's rows kept (holdQuestions): the held questions themselves, and the
 * answers of the questions held for them (a question judged since that lost the answers the import brought would read
 * differently from what was judged). A statement telling a row (by rowid) held; null for other tables.
 */
function heldRows(db: Db, tbl: string): ReturnType<Db['prepare']> | null {
  const [key, held] = tbl === 'questions' ? ['id', 'qp_undo_held'] : tbl === 'answers' ? ['question_id', 'qp_undo_held_answers'] : [null, null];
  if (key === null) return null;
  return db.prepare(`SELECT 1 FROM main.${q(tbl)} AS x JOIN temp.${held} AS h ON h.id = x.${key} WHERE x.rowid = ?`).pluck();
}

/**
 * Deletes the rows above the marks of the journal's range entries, newest first, children's
 * tables first (entries newest first). Failed deletes are left (pass 1) or counted kept/failed
 * (pass 3, `last`). Returns false when `due()` stopped it.
 */
function deleteRanges(db: Db, report: UndoReport, state: ReplayState, setNow: ReturnType<Db['prepare']>, due: () => boolean, last: boolean): boolean {
  const ranges = db.prepare(`SELECT seq, tbl, rkey FROM import_undo WHERE ${IS_RANGE} AND seq > ? ORDER BY seq DESC`).all(state.from) as Array<{ seq: number; tbl: string; rkey: string }>;
  if (state.checkChanged && state.heldPass !== state.pass) {
    holdQuestions(db, state);
    state.heldPass = state.pass;
  }
  for (const r of ranges) {
    const m = RANGE_KEY.exec(r.rkey);
    if (!m) continue;
    const mark = Number(m[1]);
    setNow.run(r.tbl);
    const next = db.prepare(`SELECT rowid FROM main.${q(r.tbl)} WHERE rowid > ? AND rowid < ? ORDER BY rowid DESC LIMIT ${BATCH}`).pluck();
    const del = db.prepare(`DELETE FROM main.${q(r.tbl)} WHERE rowid = ?`);
    const held = state.checkChanged ? heldRows(db, r.tbl) : null;
    for (;;) {
      const ids = next.all(mark, state.below.get(r.seq) ?? NO_ROWID_BOUND) as number[];
      if (ids.length === 0) break;
      for (const id of ids) {
        try {
          if (held?.get(id)) {
            if (last) tally(report, 'kept', r.tbl);
          } else {
            del.run(id);
            report.undone++;
          }
        } catch (e) {
          if (last) {
            if (isDependentError(e)) tally(report, 'kept', r.tbl);
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
  db.exec('BEGIN IMMEDIATE');
  try {
    const done = replayStep(db, report, maxMs, state);
    db.exec('COMMIT');
    return done;
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  }
}

/** replayBatch's work inside a transaction the caller holds (undo-last.ts: each chunk of the undo, with its progress record in the same transaction). */
export function replayStep(db: Db, report: UndoReport, maxMs: number, state: ReplayState): boolean {
  const t0 = performance.now();
  const due = (): boolean => performance.now() - t0 >= maxMs;
  const setNow = db.prepare(`UPDATE temp.qp_undo_now SET tbl = ?`);
  const pick = db.prepare(`SELECT seq, tbl, op, rkey, stmt FROM import_undo WHERE NOT ${IS_RANGE} AND seq > ${state.from} ORDER BY seq DESC LIMIT ${BATCH}`);
  const forget = db.prepare(`DELETE FROM import_undo WHERE seq >= ? AND NOT ${IS_RANGE}`);
  const delRowid = new Map<string, ReturnType<Db['prepare']>>();
  let current: string | null = null;
  let done = false;
  for (let stop = false; !stop && !done; ) {
    if (state.pass !== 2) {
      current = null;
      if (!deleteRanges(db, report, state, setNow, due, state.pass === 3)) break;
      if (state.pass === 1) {
        state.pass = 2;
        state.below.clear();
        continue;
      }
      // Undoing a finished import leaves the counters where they are: its label events' numbers were
      // seen since (a live retrain's mark, an undo event's origin), and new events must not take them.
      if (!state.checkChanged) restoreSequences(db, state.seqsBefore);
      endJournal(db, state.from, state.previous);
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
        if (applyEntry(db, r, state.checkChanged, delRowid)) report.undone++;
        else tally(report, 'skipped', r.tbl);
      } catch (e) {
        if (r.op === 'i' && isDependentError(e)) tally(report, 'kept', r.tbl);
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
  return done;
}

/**
 * Applies one journal entry (not a range entry): deletes the inserted row, writes the old values
 * back, or puts the deleted row back. With `checkChanged`, returns false (nothing written) for an
 * update whose row was changed since, or a deleted row whose key (or another unique value) was
 * taken since: the later row stays.
 */
function applyEntry(
  db: Db,
  r: { tbl: string; op: string; rkey: unknown; stmt: string | null },
  checkChanged: boolean,
  delRowid: Map<string, ReturnType<Db['prepare']>>,
): boolean {
  if (r.op === 'i') {
    if (typeof r.rkey === 'number' || typeof r.rkey === 'bigint') {
      let st = delRowid.get(r.tbl);
      if (!st) delRowid.set(r.tbl, (st = db.prepare(`DELETE FROM main.${q(r.tbl)} WHERE rowid = ?`)));
      st.run(r.rkey);
    } else {
      db.prepare(`DELETE FROM main.${q(r.tbl)} WHERE ${String(r.rkey)}`).run();
    }
    return true;
  }
  if (!r.stmt) return true;
  if (checkChanged && !stillAsLeft(db, r)) return false;
  const put = db.prepare(r.stmt).run();
  return !(checkChanged && r.op === 'd' && put.changes === 0);
}

/**
 * An update entry of a finished import: true when its row is still as the import left it (its rkey,
 * written by the journal's update trigger, matches it). An entry without one (a journal older than
 * that check) cannot tell, so false.
 */
function stillAsLeft(db: Db, r: { tbl: string; op: string; rkey: unknown }): boolean {
  if (r.op !== 'u') return true;
  if (typeof r.rkey !== 'string') return false;
  return db.prepare(`SELECT 1 FROM main.${q(r.tbl)} WHERE ${r.rkey} LIMIT 1`).get() !== undefined;
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

/**
 * The end of a write's journal, once its entries (those above `from`) are replayed or dropped: with
 * the kept journal of the import before (`previous`, the header's `kept`), that header is put back
 * and its entries stay; else the journal is emptied.
 */
export function endJournal(db: Db, from: number, previous: string | null): void {
  if (previous === null) {
    db.exec(`DELETE FROM import_undo; DELETE FROM import_journal;`);
    return;
  }
  const h = JSON.parse(previous) as { token: string; pid: number; host: string; started: string; what: string; seqs: string; from_seq: number };
  db.prepare(`DELETE FROM import_undo WHERE seq > ?`).run(from);
  db.prepare(
    `UPDATE import_journal SET token = ?, pid = ?, host = ?, started = ?, what = ?, state = 'committed', seqs = ?, from_seq = ?, kept = NULL WHERE id = 1`,
  ).run(h.token, h.pid, h.host, h.started, h.what, h.seqs, h.from_seq);
}

/**
 * Clears up to `maxMs` of a committed write's journal in one transaction; removes the header at the
 * end. With `upTo`, only the entries at or below it (those a later import left behind, below its
 * header's from_seq), and the header stays. Returns true when done.
 */
export function clearBatch(db: Db, maxMs: number, upTo?: number): boolean {
  const t0 = performance.now();
  db.exec('BEGIN IMMEDIATE');
  try {
    let done = false;
    do {
      const next = db.prepare(`SELECT seq FROM import_undo ORDER BY seq LIMIT 1 OFFSET ${BATCH * 16 - 1}`).pluck().get() as number | undefined;
      if (next === undefined || (upTo !== undefined && next >= upTo)) {
        if (upTo === undefined) db.exec(`DELETE FROM import_undo; DELETE FROM import_journal;`);
        else db.prepare(`DELETE FROM import_undo WHERE seq <= ?`).run(upTo);
        done = true;
        break;
      }
      db.prepare(`DELETE FROM import_undo WHERE seq <= ?`).run(next);
    } while (performance.now() - t0 < maxMs);
    db.exec('COMMIT');
    return done;
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  }
}
