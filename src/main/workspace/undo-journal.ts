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
 * Success: a last commit after the last chunk marks the journal `committed`, and it is KEPT: the
 * last finished import can be undone (`qpairs import undo`, undo-last.ts) until another long write
 * finishes having changed something. The next long write runs OVER it (migration 17): its header
 * takes the kept one's place, with that header in `kept` and its own entries above `from_seq` (the
 * kept journal's largest seq), and its triggers tell its own inserted rows by entries above it. If
 * it is undone (failed, cancelled, interrupted: undo-replay.ts endJournal) or says it changed
 * nothing (ChunkPoint.changedNothing), its entries go and the kept header is put back; if it
 * finishes, the kept entries below `from_seq` are left over, cleared (in chunks) when the long write
 * after it begins. Clearing deletes the oldest entries first, the range entries among them, so a
 * journal a crash left half cleared is told from a whole one (keptImport) and is never undone,
 * only cleared. Failure or cancel: the open chunk is rolled back, then the journal is replayed
 * newest first (in chunks, between which other writers go on), AUTOINCREMENT counters are put
 * back, and the journal is cleared. A process that dies mid-import leaves the journal behind:
 * the next writable open of the workspace (Workspace.open) replays it (a committed one it leaves:
 * the kept journal of the last import; a half-cleared one it clears) — see recoverInterruptedImport.
 *
 * Rows that other writers made depend on meanwhile are kept: the replay deletes an inserted row
 * only when no other row references it (a label given between two chunks on a pair that a failed
 * import had created keeps that pair, its query and its pool), so no acknowledged label is lost.
 * An update by a failed import is undone by writing the old values back; undoing a finished import
 * writes them back only where the row is still as the import left it (undo-last.ts).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { CancelledError, QPairsError, throwIfAborted } from '../errors';
import type { Db } from './db';
import { liveUndoTokens, processText, readUndoMarker, undoRunningMessage, undoStoppedMessage } from './undo-progress';
import { clearBatch, createGuards, endJournal, newReplay, newReport, POOLS_MARK, replayBatch, type UndoReport } from './undo-replay';
import { createJournalTriggers, dropTriggers, IS_RANGE, journaledTables, WATERMARKED_TABLES, writeRangeEntries } from './undo-triggers';

export { WATERMARKED_TABLES } from './undo-triggers';
export type { UndoReport } from './undo-replay';
export { newReport } from './undo-replay';

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
  /**
   * Says the write changed nothing an owner would undo (an import of files the workspace holds as
   * they are; its audit row aside): once it finishes, the last import before it stays the one
   * `import undo` undoes, as if it had not run.
   */
  changedNothing(): void;
}

const NO_CHUNKS: ChunkPoint = { checkpoint: async () => {}, changedNothing: () => {} };


/** Chunk time (ms) of a long write without turns (see UndoableOptions.chunkMs). */
export const LONE_CHUNK_MS = 500;

/** Replaying or clearing the journal goes on for at least this long per transaction (ms), whatever the chunk time. */
const MIN_BATCH_MS = 20;
/** A checkpoint lets the event loop run at least this often (ms), committing or not. */
const YIELD_MS = 10;

/** Tokens of the long writes running in this process (their journal is not an interrupted one). */
const liveTokens = new Set<string>();
/** The long write running on a workspace object (nested imports join it). */
const sessions = new WeakMap<JournaledWorkspace, UndoableWrite>();


// ------------------------------------------------------------------ the journal header

export interface JournalHeader {
  token: string;
  pid: number;
  host: string;
  started: string;
  what: string;
  state: 'running' | 'committed';
  seqs: string;
  /** This write's journal entries are those with seq above it (migration 17). */
  from_seq: number;
  /** While it runs over the kept journal of the import before: that journal's header (JSON). */
  kept: string | null;
}

export function readHeader(db: Db): JournalHeader | null {
  for (const cols of ['from_seq, kept', '0 AS from_seq, NULL AS kept']) {
    try {
      return (db.prepare(`SELECT token, pid, host, started, what, state, seqs, ${cols} FROM import_journal WHERE id = 1`).get() as JournalHeader | undefined) ?? null;
    } catch {
      // a workspace older than migration 17 opened read-only: the header without its columns;
      // older than migration 6: nothing to recover
    }
  }
  return null;
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
 * called by a writable Workspace.open, or, when it leaves it (recovery 'later': the CLI, serve mode, the app), once
 * the workspace's lock is held (Workspace.recoverLeftWrites), so that two processes never recover at once. Does nothing when there is none, or when it may still
 * be running (its process is alive). Synchronous; each step is its own transaction, so a crash
 * here too is resumed by the next open.
 */
export function recoverInterruptedImport(db: Db): (UndoReport & { what: string; started: string; committed: boolean }) | null {
  const h = readHeader(db);
  if (!h || (h.state === 'committed' && keptImport(db)) || headerAlive(h)) return null; // (the last import's journal, kept for its undo)
  const report = newReport();
  if (h.state === 'committed') {
    while (!clearBatch(db, 200)); // a journal a crash left half cleared: it cannot undo anything
    return { ...report, what: h.what, started: h.started, committed: true };
  }
  const guards = createGuards(db);
  const state = newReplay(h);
  try {
    while (!replayBatch(db, report, 200, state));
  } finally {
    dropTriggers(db, guards);
  }
  return { ...report, what: h.what, started: h.started, committed: false };
}

/** True when recoverInterruptedImport has something to do (an interrupted write, or a journal a crash left half cleared); reads only. */
export function importRecoveryDue(db: Db): boolean {
  const h = readHeader(db);
  return !!h && !(h.state === 'committed' && keptImport(db)) && !headerAlive(h);
}

/**
 * The last finished import, whose journal is kept for its undo (undo-last.ts): its header, when the
 * journal is committed and whole — its first entry a range entry and none of them missing
 * (writeRangeEntries writes them first; clearing deletes the oldest entries first). Null when there is none.
 */
export function keptImport(db: Db): JournalHeader | null {
  const h = readHeader(db);
  if (!h || h.state !== 'committed') return null;
  return wholeJournal(db, h.from_seq) ? h : null;
}

/** True when the journal entries above `from` are a whole one: the first a range entry, none of the range entries missing. */
function wholeJournal(db: Db, from: number): boolean {
  const first = db.prepare(`SELECT ${IS_RANGE} AS range FROM import_undo WHERE seq > ? ORDER BY seq LIMIT 1`).get(from) as { range: number } | undefined;
  const ranges = db.prepare(`SELECT count(*) FROM import_undo WHERE ${IS_RANGE} AND seq > ?`).pluck().get(from) as number;
  return !!first?.range && ranges === WATERMARKED_TABLES.length;
}

/** Refuses a long write while the last import is being undone, or its undo stands stopped partway (undo-last.ts): that undo is finished first. */
function refuseWhileUndoing(db: Db): void {
  const undoing = readUndoMarker(db);
  if (undoing) throw new QPairsError(writerAlive(undoing, liveUndoTokens) ? undoRunningMessage(undoing) : undoStoppedMessage(undoing));
}

/** Clears the kept journal of the last finished import inside a transaction the caller holds (a long write without chunks): it can no longer be undone. */
function forgetKeptImportNow(db: Db): void {
  refuseWhileUndoing(db);
  if (readHeader(db)?.state === 'committed') db.exec(`DELETE FROM import_undo; DELETE FROM import_journal;`);
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
  /** This write's journal entries are those above it: below lies the kept journal of the import before (`kept`), if any. */
  private from = 0;
  /**
   * The header (JSON, as this write's header's `kept` holds it) of the last finished import's journal,
   * kept under this write's: put back if this write is undone or changed nothing. Null: none.
   */
  private kept: string | null = null;
  /** total_changes() when the write said it changed nothing (changedNothing); null: it did not say so. */
  private changesWhenNothing: number | null = null;

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
    let h = readHeader(db);
    // An undo of the last import under way, or stopped partway: it is finished first (its journal must not go under this write's).
    refuseWhileUndoing(db);
    if (h?.state === 'running') {
      if (headerAlive(h)) throw busyError(h);
      recoverInterruptedImport(db); // (Workspace.open does this too; here in case it was open already)
      h = readHeader(db); // (the import it ran over, put back)
    }
    // The last import's journal stays under this write's until it finishes (then this write replaces it).
    const keep = h?.state === 'committed' ? await this.setAsideKeptImport(h) : null;
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
    if (keep ? !(again?.state === 'committed' && again.token === keep.token) : again) {
      throw again ? busyError(again) : new QPairsError('another process changed the import journal as this import began; run it again');
    }
    const seqs: Record<string, number> = {};
    try {
      for (const r of db.prepare(`SELECT name, seq FROM sqlite_sequence`).all() as Array<{ name: string; seq: number }>) seqs[r.name] = r.seq;
    } catch {
      /* no sqlite_sequence yet */
    }
    // With them, the largest pool id: a pool made since the write began has a larger one (undo-replay.ts holdQuestions).
    seqs[POOLS_MARK] = db.prepare(`SELECT coalesce(max(id), 0) FROM pools`).pluck().get() as number;
    this.from = keep ? (db.prepare(`SELECT coalesce(max(seq), 0) FROM import_undo`).pluck().get() as number) : 0;
    const header = [this.token, process.pid, os.hostname(), new Date().toISOString(), this.opts.what, JSON.stringify(seqs), this.from] as const;
    if (keep) {
      const { token, pid, host, started, what, seqs: keptSeqs, from_seq } = keep;
      this.kept = JSON.stringify({ token, pid, host, started, what, seqs: keptSeqs, from_seq });
      db.prepare(`UPDATE import_journal SET token = ?, pid = ?, host = ?, started = ?, what = ?, state = 'running', seqs = ?, from_seq = ?, kept = ? WHERE id = 1`).run(
        ...header,
        this.kept,
      );
    } else {
      db.prepare(`INSERT INTO import_journal(id, token, pid, host, started, what, state, seqs, from_seq) VALUES (1, ?, ?, ?, ?, ?, 'running', ?, ?)`).run(...header);
    }
    const tables = journaledTables(db);
    this.triggers = createJournalTriggers(db, tables, writeRangeEntries(db, tables), this.from);
  }

  /**
   * The last finished import's journal before this write begins: what earlier imports left below
   * it is cleared; a whole journal is returned, to be kept under this write's; one a crash left half
   * cleared is cleared (it can undo nothing). Clears in short batches, giving the gate up between
   * them so that labels go first (a labels or run import keeps a row per label or score).
   */
  private async setAsideKeptImport(h: JournalHeader): Promise<JournalHeader | null> {
    if (h.from_seq > 0) while (!clearBatch(this.db, MIN_BATCH_MS, h.from_seq)) await this.letWritersIn();
    if (keptImport(this.db)) return h;
    while (!clearBatch(this.db, MIN_BATCH_MS)) await this.letWritersIn();
    return null;
  }

  changedNothing(): void {
    this.changesWhenNothing = totalChanges(this.db);
  }

  /** Gives the gate up, lets the event loop run (the writers waiting for the gate go first), and takes it again. */
  private async letWritersIn(): Promise<void> {
    this.opts.turns?.release();
    await new Promise<void>((r) => setImmediate(r));
    await this.opts.turns?.acquire();
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
    await this.letWritersIn();
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

  /** Commits the last chunk; the journal is then kept, committed, for `import undo`. */
  async finish(): Promise<void> {
    const db = this.db;
    throwIfAborted(this.opts.signal);
    // (Nothing written after it said so, the index's segments included.)
    const nothingChanged = this.changesWhenNothing === totalChanges(db);
    db.exec('COMMIT'); // the last chunk, not yet synced (see begin)
    this.inTx = false;
    this.dispose(); // the connection's own synchronous setting again
    // The commit that ends the write: at the connection's setting (FULL), so it syncs the WAL
    // with every chunk before it. A crash before it leaves the journal running: undone at the next open.
    // Committed: from here on nothing is undone on its own, even after a crash; the journal stays
    // for an owner's `import undo` until another long write finishes having changed something (the
    // kept one of the import before, below from_seq, is left to the next long write to clear).
    // A write that changed nothing is not the one to undo: the import before stays the last one
    // (its kept journal's header back), or, with none, nothing is left to undo.
    if (nothingChanged) db.transaction(() => endJournal(db, this.from, this.kept))();
    else db.exec(`UPDATE import_journal SET state = 'committed', kept = NULL`);
  }

  /** Undoes everything: the open chunk by ROLLBACK, the committed ones from the journal (in chunks). */
  async rollback(): Promise<UndoReport> {
    const db = this.db;
    const report = newReport();
    if (this.inTx && db.inTransaction) db.exec('ROLLBACK');
    this.inTx = false;
    this.dispose();
    const h = readHeader(db);
    if (h?.token !== this.token || h.state === 'committed') return report; // nothing committed yet / the import stands
    const guards = createGuards(db);
    const state = newReplay(h);
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

/** Rows inserted, updated or deleted through this connection so far (the journal's own entries included). */
function totalChanges(db: Db): number {
  return db.prepare(`SELECT total_changes()`).pluck().get() as number;
}

function busyError(h: JournalHeader): QPairsError {
  return new QPairsError(
    `another import into this workspace is running (${h.what}; ${processText(h)}, started ${h.started}); ` +
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
  if (opts.oneTransaction || ws.db.inTransaction) {
    return ws.transactionAsync(() => {
      // Its rows would fall above the kept journal's marks: that import can no longer be undone.
      if (!ws.readonly) forgetKeptImportNow(ws.db);
      return fn(NO_CHUNKS);
    });
  }
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
