/**
 * Undoing the last finished import from its kept journal (undo-journal.ts keeps it until another
 * long write finishes having changed something): `qpairs import undo` and the engine's `import.undo`.
 *
 * In chunks, each its own transaction (about 50 ms of work with the engine's write gate, given up
 * between them so that labels are acknowledged meanwhile; LONE_CHUNK_MS from the CLI). Its first
 * short transaction writes a marker (undo-progress.ts) that every chunk brings up to date and the
 * last one removes with the journal, so the workspace always says when it is half undone: a cancel
 * stops between chunks and the next undo carries on where it stopped (an import is refused until
 * then); after a crash or kill the next writable open finishes it (finishInterruptedUndo). The
 * replay checks what happened since, chunk by chunk (a label given between two chunks on a pair not
 * yet undone keeps that pair as one given before the undo does; pools, and so pairs, are not made
 * while it runs: pool creation waits for long writes):
 * - an inserted row that rows written since refer to (a label on a pair the import made) is kept,
 *   and so are what it refers to (the pair's questions, its pool): counted by table (`keptBy`); the answers the
 *   import brought are kept only for questions labeled, or put in a pool made, since it began (undo-replay.ts
 *   holdQuestions), those it added to questions only pooled before it go;
 * - an update is written back only when the row is still as the import left it, a deleted row put
 *   back only when its key is free; otherwise it is skipped (`skippedBy`): later work is never
 *   written over.
 * The import's audit row goes with it and the undo is recorded in the imports audit (format
 * `undo`); the journal is gone with the commit, so the same import cannot be undone twice.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { CancelledError, QPairsError, yieldThenThrowIfAborted } from '../errors';
import { counted } from '../../shared/plural';
import type { Db } from './db';
import { keptImport, LONE_CHUNK_MS, noteIn, undoableActive, writerAlive, type JournaledWorkspace, type NoteForm, type WriteTurns } from './undo-journal';
import { tableRows } from './undo-nouns';
import { clearUndoMarker, liveUndoTokens, processText, readUndoMarker, undoRunningMessage, writeUndoMarker, type UndoMarker } from './undo-progress';
import { createGuards, newReplay, newReport, replayStep, type ReplayState, type UndoReport } from './undo-replay';
import { dropTriggers, IS_RANGE, q, RANGE_KEY } from './undo-triggers';

/** The import an undo would undo: what it was and when it started; `partlyUndone` when its undo stopped partway. */
export interface UndoableImport {
  what: string;
  started: string;
  partlyUndone?: boolean;
}

/** The tables whose rows an undo's report counts, said in their nouns (undo-nouns.ts; the journal's entries say little: 7 for 2 questions). */
const COUNTED: readonly string[] = ['questions', 'answers', 'pools', 'pool_queries', 'labels', 'runs', 'models', 'annotators'];
/** Of COUNTED, the bulk tables, which only long writes change (counted before and after the whole undo)… */
const BULK: readonly string[] = ['questions', 'answers'];
/** …and the others, which labels and other short writes change between the undo's chunks (counted in each chunk's transaction). */
const SMALL: readonly string[] = COUNTED.filter((t) => !BULK.includes(t));

function smallCounts(db: Db): number[] {
  return SMALL.map((t) => db.prepare(`SELECT count(*) FROM main.${q(t)}`).pluck().get() as number);
}

export interface ImportUndone extends UndoReport, UndoableImport {
  /** Rows the undo took out (or, for rows the import had deleted, put back), by table: after minus before. */
  rowsChanged: Record<string, number>;
  /**
   * The stored BM25 index was left torn (an index written since the import — the engine indexes
   * questions it lacks on first use — over the import's segments) and was dropped: the next search
   * or pool creation builds it again from the questions.
   */
  indexDropped: boolean;
}

/** The last finished import, if it can still be undone. */
export function undoableImport(db: Db): UndoableImport | null {
  const h = keptImport(db);
  if (!h) return null;
  const partly = readUndoMarker(db)?.started === h.started;
  return { what: h.what, started: h.started, ...(partly ? { partlyUndone: true } : {}) };
}

/** How many rows and entries the undo goes through: the journal's entries and the rows above its range entries' marks. */
function workOf(db: Db, from: number): number {
  let n = db.prepare(`SELECT count(*) FROM import_undo WHERE NOT ${IS_RANGE} AND seq > ?`).pluck().get(from) as number;
  for (const r of db.prepare(`SELECT tbl, rkey FROM import_undo WHERE ${IS_RANGE} AND seq > ?`).all(from) as Array<{ tbl: string; rkey: string }>) {
    const m = RANGE_KEY.exec(r.rkey);
    if (m) n += db.prepare(`SELECT count(*) FROM main.${q(r.tbl)} WHERE rowid > ?`).pluck().get(Number(m[1])) as number;
  }
  return n;
}

/**
 * Drops the stored BM25 index when the undo left it torn: segments without the index's format
 * record, documents listed in segments that are gone, or a document count the segments disagree
 * with. Returns true when it did.
 */
function dropTornIndex(db: Db): boolean {
  const r = db
    .prepare(
      `SELECT (SELECT count(*) FROM bm25_segments) AS segs,
              (SELECT count(*) FROM bm25_meta WHERE key = 'format') AS format,
              (SELECT count(*) FROM bm25_docs) AS docs,
              (SELECT coalesce(sum(n_docs - n_removed), 0) FROM bm25_segments) AS live,
              (SELECT count(*) FROM bm25_docs AS d WHERE NOT EXISTS (SELECT 1 FROM bm25_segments AS s WHERE s.seg = d.seg)) AS orphans`,
    )
    .get() as { segs: number; format: number; docs: number; live: number; orphans: number };
  if (r.segs === 0 ? r.docs === 0 : r.format > 0 && r.orphans === 0 && r.docs === r.live) return false;
  db.exec(`DELETE FROM bm25_postings; DELETE FROM bm25_docs; DELETE FROM bm25_segments; DELETE FROM bm25_meta;`);
  return true;
}

/** The audit row the import wrote (the journal holds its rowid), for the undo's own audit row. */
function auditedFiles(db: Db, from: number): string {
  const id = db.prepare(`SELECT rkey FROM import_undo WHERE tbl = 'imports' AND op = 'i' AND seq > ? ORDER BY seq DESC LIMIT 1`).pluck().get(from);
  const files = id === undefined ? undefined : (db.prepare(`SELECT files FROM imports WHERE rowid = ?`).pluck().get(id) as string | undefined);
  return files ?? '[]';
}

/**
 * The pools the last finished import changed in place (its audit row's poolsChangedInPlace: a question's text, a
 * run's scores), which its undo changes back without changing what they hold; none when its audit row is gone
 * (undone already, partly) or predates the list.
 */
export function keptImportPoolsChangedInPlace(db: Db): string[] {
  const h = keptImport(db);
  if (!h) return [];
  const id = db.prepare(`SELECT rkey FROM import_undo WHERE tbl = 'imports' AND op = 'i' AND seq > ? ORDER BY seq DESC LIMIT 1`).pluck().get(h.from_seq);
  const report = id === undefined ? undefined : (db.prepare(`SELECT report FROM imports WHERE rowid = ?`).pluck().get(id) as string | undefined);
  const pools = report === undefined ? undefined : (JSON.parse(report) as { poolsChangedInPlace?: unknown }).poolsChangedInPlace;
  return Array.isArray(pools) ? pools.filter((p): p is string => typeof p === 'string') : [];
}

/** Journal work per chunk (ms) with the engine's write gate (labels wait at most about one chunk); without it (the CLI, the only writer), LONE_CHUNK_MS. */
const GATE_CHUNK_MS = 50;

/** An undo under way in this process: its marker (undo-progress.ts), its replay and its guards. */
interface UndoRun {
  marker: UndoMarker;
  state: ReplayState;
  guards: string[];
}

/** Rows of the bulk tables now (only long writes change them: counted once before the undo and once after). */
function bulkCounts(db: Db): Record<string, number> {
  return Object.fromEntries(BULK.map((t) => [t, db.prepare(`SELECT count(*) FROM main.${q(t)}`).pluck().get() as number]));
}

/**
 * The undo's first short transaction: the import to undo (refused as undoLastImport says) and its
 * marker — a new one, or the marker of an undo that stopped partway (cancelled, or its process
 * gone), carried on from where it stopped by this process.
 */
function beginUndo(db: Db, token: string, started: string | undefined): UndoRun {
  return db.transaction(() => {
    const h = keptImport(db);
    let m = readUndoMarker(db);
    if (!h) {
      if (m) clearUndoMarker(db); // (a marker without its journal: nothing left to undo)
      return null;
    }
    refuseAnotherImport(h, started);
    if (m && m.started !== h.started) m = null;
    if (m && writerAlive(m, liveUndoTokens)) throw new QPairsError(undoRunningMessage(m));
    const me = { token, pid: process.pid, host: os.hostname() };
    m = m
      ? { ...m, ...me }
      : {
          ...me,
          at: new Date().toISOString(),
          what: h.what,
          started: h.started,
          files: auditedFiles(db, h.from_seq),
          total: workOf(db, h.from_seq),
          bulkBefore: bulkCounts(db),
          changed: {},
          report: newReport(),
          pass: 1,
          below: [],
        };
    writeUndoMarker(db, m);
    const state = newReplay(h, true);
    state.pass = m.pass;
    state.below = new Map(m.below);
    return { marker: m, state, guards: [] };
  }).immediate() ?? throwNothingToUndo();
}

function throwNothingToUndo(): never {
  throw new QPairsError(NOTHING_TO_UNDO);
}

/**
 * One chunk of the undo, its own transaction: up to `maxMs` of the replay, and the marker brought up
 * to date with it; the last chunk also drops a torn index, records the undo in the imports audit and
 * removes the marker. Returns the undo's outcome after the last chunk, null before.
 */
function undoChunk(db: Db, run: UndoRun, maxMs: number): ImportUndone | null {
  return db.transaction(() => {
    const m = run.marker;
    const before = smallCounts(db);
    const done = replayStep(db, m.report, maxMs, run.state);
    if (done) dropTriggers(db, run.guards); // (the replay's guards would take dropping the index for a cascade)
    const after = smallCounts(db);
    // Counted inside the chunk's transaction: labels given between chunks are not the undo's doing.
    SMALL.forEach((t, i) => {
      const d = after[i]! - before[i]!;
      if (d) m.changed[t] = (m.changed[t] ?? 0) + d;
    });
    m.pass = run.state.pass;
    m.below = [...run.state.below];
    if (!done) {
      writeUndoMarker(db, m);
      return null;
    }
    const bulk = bulkCounts(db);
    const changed: Record<string, number> = { ...m.changed };
    for (const t of BULK) changed[t] = bulk[t]! - (m.bulkBefore[t] ?? bulk[t]!);
    const rowsChanged = Object.fromEntries(COUNTED.map((t) => [t, changed[t] ?? 0] as const).filter(([, d]) => d !== 0));
    const out: ImportUndone = { ...m.report, what: m.what, started: m.started, rowsChanged, indexDropped: dropTornIndex(db) };
    db.prepare(`INSERT INTO imports(format, files, at, report) VALUES ('undo', ?, ?, ?)`).run(m.files, new Date().toISOString(), JSON.stringify({ undid: out }));
    clearUndoMarker(db);
    return out;
  }).immediate();
}

/** Journal entries and rows the undo has gone through so far (its progress). */
const doneOf = (r: UndoReport): number => r.undone + r.kept + r.skipped + r.failed;

/** How far an undo has got, as its messages say: `1,234 of 300,039 rows and journal entries done`. */
export function undoneSoFar(m: UndoMarker): string {
  return `${doneOf(m.report).toLocaleString('en-US')} of ${m.total.toLocaleString('en-US')} rows and journal entries done`;
}

/**
 * Undoes the last finished import (see the top), in chunks of `chunkMs` each its own transaction,
 * giving `turns` (the engine's write gate) up between them. Refused when there is none, when the
 * workspace is read-only, while a long write runs on this workspace object, or while another
 * process undoes it; with `started`, also when the last import is not the one that started then
 * (another import came since it was named to the user). An undo that stopped partway is resumed.
 * `onProgress(done, total)` after each chunk.
 */
export async function undoLastImport(
  ws: JournaledWorkspace,
  opts: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void; started?: string; turns?: WriteTurns; chunkMs?: number } = {},
): Promise<ImportUndone> {
  if (ws.readonly) throw ws.readonlyError();
  if (undoableActive(ws) || ws.db.inTransaction) throw new QPairsError('an import into this workspace is running; undo the last import once it has finished');
  const db = ws.db;
  const chunkMs = opts.chunkMs ?? (opts.turns ? GATE_CHUNK_MS : LONE_CHUNK_MS);
  const token = randomUUID();
  liveUndoTokens.add(token);
  let run: UndoRun | null = null;
  try {
    await opts.turns?.acquire();
    run = beginUndo(db, token, opts.started);
    run.guards = createGuards(db);
    for (;;) {
      const out = undoChunk(db, run, chunkMs);
      if (out) {
        opts.onProgress?.(run.marker.total, run.marker.total);
        return out;
      }
      opts.onProgress?.(doneOf(run.marker.report), run.marker.total);
      opts.turns?.release();
      await yieldThenThrowIfAborted(opts.signal);
      await opts.turns?.acquire();
    }
  } catch (e) {
    if (e instanceof CancelledError && run) e.message = `${e.message}: ${stoppedPartway(run.marker)}`;
    // A chunk that failed rolled back alone: the chunks before it stay, and the undo is resumed as after a cancel.
    else if (e instanceof Error && run) e.message = `${e.message} (${stoppedPartway(run.marker)})`;
    throw e;
  } finally {
    if (run) dropTriggers(db, run.guards);
    liveUndoTokens.delete(token);
  }
}

/** What a cancelled undo says: how far it got, that the import is partly undone, and how it is finished. */
function stoppedPartway(m: UndoMarker): string {
  return (
    `the undo stopped partway (${undoneSoFar(m)}): ` +
    `the import is partly undone until the undo is run again, which carries on where it stopped`
  );
}

/** What the process whose open finished an interrupted undo tells its user (Workspace.finishedUndo): the CLI on stderr, serve mode in its log, the app as a notice. */
export function finishedUndoNote(r: ImportUndone, form: NoteForm = 'cli'): string {
  return noteIn(form, `finished undoing the ${r.what} started ${r.started}, whose undo was interrupted (its process is gone): ${undoSummary(r).join('; ')}`);
}

/**
 * What a reader is told while the last import is partly undone (Workspace.undoPartway): its undo runs in
 * another process, or stopped partway; what it reads includes what is left of that import.
 */
export function partlyUndoneNote(m: UndoMarker, form: NoteForm = 'cli'): string {
  const how = writerAlive(m, liveUndoTokens)
    ? `is being undone by ${processText(m)}`
    : 'is partly undone: its undo stopped partway, and undoing the last import again finishes it';
  return noteIn(form, `the ${m.what} started ${m.started} ${how} (${undoneSoFar(m)}); what is read here includes what is left of it`);
}

/**
 * The marker of an undo whose process is gone (a crash or kill mid-undo), which a writable open
 * finishes (finishInterruptedUndo, or the engine's background job: engine/undo-import.ts); null when
 * there is none. An undo stopped in this process (a cancel in the app or serve mode) is not one: it is
 * left for the owner's Undo last import to finish.
 */
export function interruptedUndo(db: Db): UndoMarker | null {
  const m = readUndoMarker(db);
  if (!m || (m.pid === process.pid && m.host === os.hostname()) || writerAlive(m, liveUndoTokens)) return null;
  return m;
}

/**
 * Finishes an undo whose process is gone (interruptedUndo): called by every writable Workspace.open
 * the CLI makes, as an interrupted import is rolled back there. Synchronous, chunk by chunk (a crash
 * here too is resumed by the next open); `onChunk` is told where it stands before its first chunk and
 * after each one (the CLI says so). Null when there is none.
 */
export function finishInterruptedUndo(db: Db, onChunk?: (m: UndoMarker) => void): ImportUndone | null {
  const m = interruptedUndo(db);
  if (!m) return null;
  const token = randomUUID();
  liveUndoTokens.add(token);
  let run: UndoRun | null = null;
  try {
    try {
      run = beginUndo(db, token, m.started);
    } catch (e) {
      if (e instanceof QPairsError) return null; // the import is no longer the last (its marker cleared)
      throw e;
    }
    run.guards = createGuards(db);
    onChunk?.(run.marker);
    for (;;) {
      const out = undoChunk(db, run, LONE_CHUNK_MS);
      if (out) return out;
      onChunk?.(run.marker);
    }
  } finally {
    if (run) dropTriggers(db, run.guards);
    liveUndoTokens.delete(token);
  }
}

/** What the CLI says while its open finishes an interrupted undo (finishInterruptedUndo's onChunk): which import, and how far it has got. */
export function finishingUndoNote(m: UndoMarker): string {
  return `note: finishing the undo of the ${m.what} started ${m.started}, whose undo was interrupted (its process is gone): ${undoneSoFar(m)}`;
}

/**
 * What the app and serve mode say while they finish an interrupted undo as a background job (engine/undo-import.ts):
 * the serve log at start, the app's notice to owners until it is done.
 */
export function backgroundUndoNote(m: UndoMarker, form: NoteForm = 'cli'): string {
  return noteIn(
    form,
    `finishing the undo of the ${m.what} started ${m.started}, whose undo was interrupted (its process is gone), in the background ` +
      `(${undoneSoFar(m)} when it began; its progress is on the Workspace screen): labels and reads are answered meanwhile; imports are refused until it is done`,
  );
}

/** Refuses when the last import is not the one named by its start (`started` undefined: any will do). */
export function refuseAnotherImport(last: UndoableImport, started: string | undefined): void {
  if (started !== undefined && started !== last.started) {
    throw new QPairsError(`the last import is now the ${last.what} started ${last.started}, not the one named (started ${started}): nothing was undone`);
  }
}

/**
 * Why an undo is refused while an import runs (before, it answered that there was nothing to undo, or
 * waited and then refused the import that had come meanwhile): the import, when it started, and where
 * (`by alice`, `in another process: pid 12 on host h`).
 */
export function importRunningMessage(w: { what: string; started: string; where?: string }): string {
  return `an import is running (${w.what}, started ${w.started}${w.where ? ` ${w.where}` : ''}): wait for it to finish or cancel it, then undo`;
}

/** Why there is nothing to undo. */
export const NOTHING_TO_UNDO =
  'there is no import to undo: only the last finished import that changed something can be undone, until another one finishes (a failed, cancelled or interrupted import undoes itself)';

/** One line per part of an undo's outcome: what was undone, kept and skipped, by table (in the user's nouns: undo-nouns.ts). */
export function undoSummary(r: ImportUndone): string[] {
  const byTable = (m: Record<string, number>): string =>
    Object.entries(m)
      .map(([t, n]) => tableRows(t, n))
      .join(', ');
  const rows = (sign: 1 | -1): string =>
    COUNTED.filter((t) => sign * (r.rowsChanged[t] ?? 0) > 0)
      .map((t) => tableRows(t, sign * r.rowsChanged[t]!))
      .join(', ');
  const gone = rows(-1);
  const back = rows(1);
  const what = [gone ? `took out ${gone}` : '', back ? `put back ${back}` : ''].filter(Boolean).join('; ') || 'no rows taken out or put back';
  const lines = [`undid the ${r.what} started ${r.started}: ${what} (${counted(r.undone, 'journal entry', 'journal entries')} replayed)`];
  if (r.kept) {
    const answers = r.keptBy.answers
      ? '; the answers it brought to questions labeled, or put in a pool made, since it began stay, so that those questions read as they were judged'
      : '';
    lines.push(`kept ${byTable(r.keptBy)} that rows written since the import refer to (labels given since, and what they refer to${answers})`);
  }
  if (r.skipped) lines.push(`skipped ${byTable(r.skippedBy)} changed again since the import: their later values stay`);
  if (r.indexDropped) lines.push('the stored BM25 index no longer matched the questions and was dropped: the next search or pool creation builds it again');
  if (r.failed) lines.push(`${r.failed.toLocaleString('en-US')} change${r.failed === 1 ? '' : 's'} could not be undone and stay as they are`);
  return lines;
}
