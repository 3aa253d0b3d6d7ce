/**
 * Undoing the last finished import from its kept journal (undo-journal.ts keeps it until another
 * long write finishes having changed something): `qpairs import undo` and the engine's `import.undo`.
 *
 * All or nothing: the whole undo is ONE transaction (the journal's replay in steps, the event loop
 * let run between them for progress and a cancel). A cancel, an error or a killed process leaves
 * the import whole and its journal kept, so the undo can be run again; other writers wait for it
 * (a 150,000-question import's undo: see README). The replay checks what happened since:
 * - an inserted row that rows written since refer to (a label on a pair the import made) is kept,
 *   and so are what it refers to (the pair's questions, its pool): counted by table (`keptBy`);
 * - an update is written back only when the row is still as the import left it, a deleted row put
 *   back only when its key is free; otherwise it is skipped (`skippedBy`): later work is never
 *   written over.
 * The import's audit row goes with it and the undo is recorded in the imports audit (format
 * `undo`); the journal is gone with the commit, so the same import cannot be undone twice.
 */
import { CancelledError, QPairsError, throwIfAborted, yieldThenThrowIfAborted } from '../errors';
import { counted } from '../../shared/plural';
import type { Db } from './db';
import { keptImport, undoableActive, type JournaledWorkspace } from './undo-journal';
import { tableRows } from './undo-nouns';
import { createGuards, newReplay, newReport, replayStep, type UndoReport } from './undo-replay';
import { dropTriggers, IS_RANGE, q, RANGE_KEY } from './undo-triggers';

/** The import an undo would undo: what it was and when it started. */
export interface UndoableImport {
  what: string;
  started: string;
}

/** The tables whose rows an undo's report counts, said in their nouns (undo-nouns.ts; the journal's entries say little: 7 for 2 questions). */
const COUNTED: readonly string[] = ['questions', 'answers', 'pools', 'pool_queries', 'labels', 'runs', 'models', 'annotators'];

function rowCounts(db: Db): number[] {
  return COUNTED.map((t) => db.prepare(`SELECT count(*) FROM main.${q(t)}`).pluck().get() as number);
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

/** Journal work per step of the transaction before the event loop runs again (ms). */
const STEP_MS = 50;

/** The last finished import, if it can still be undone. */
export function undoableImport(db: Db): UndoableImport | null {
  const h = keptImport(db);
  return h ? { what: h.what, started: h.started } : null;
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
 * Undoes the last finished import (see the top). Refused when there is none, when the workspace is
 * read-only, or while a long write runs on this workspace object; with `started`, also when the last
 * import is not the one that started then (another import came since it was named to the user).
 * `onProgress(done, total)` after each step.
 */
export async function undoLastImport(
  ws: JournaledWorkspace,
  opts: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void; started?: string } = {},
): Promise<ImportUndone> {
  if (ws.readonly) throw ws.readonlyError();
  if (undoableActive(ws) || ws.db.inTransaction) throw new QPairsError('an import into this workspace is running; undo the last import once it has finished');
  const db = ws.db;
  const guards = createGuards(db);
  try {
    db.exec('BEGIN IMMEDIATE');
    try {
      const h = keptImport(db);
      if (!h) throw new QPairsError(NOTHING_TO_UNDO);
      refuseAnotherImport(h, opts.started);
      const total = workOf(db, h.from_seq);
      const before = rowCounts(db);
      const files = auditedFiles(db, h.from_seq);
      const report = newReport();
      const state = newReplay(h, true);
      for (;;) {
        if (replayStep(db, report, STEP_MS, state)) break;
        opts.onProgress?.(report.undone + report.kept + report.skipped + report.failed, total);
        await yieldThenThrowIfAborted(opts.signal);
      }
      dropTriggers(db, guards); // (the replay's guards would take dropping the index for a cascade)
      const after = rowCounts(db);
      const rowsChanged = Object.fromEntries(COUNTED.map((t, i) => [t, after[i]! - before[i]!]).filter(([, d]) => d !== 0));
      const out: ImportUndone = { ...report, what: h.what, started: h.started, rowsChanged, indexDropped: dropTornIndex(db) };
      db.prepare(`INSERT INTO imports(format, files, at, report) VALUES ('undo', ?, ?, ?)`).run(files, new Date().toISOString(), JSON.stringify({ undid: out }));
      throwIfAborted(opts.signal);
      db.exec('COMMIT');
      opts.onProgress?.(total, total);
      return out;
    } catch (e) {
      if (db.inTransaction) db.exec('ROLLBACK');
      if (e instanceof CancelledError) e.message = `${e.message}: the undo was rolled back, the import is whole`;
      throw e;
    }
  } finally {
    dropTriggers(db, guards);
  }
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
    const answers = r.keptBy.answers ? '; a question kept keeps its answers' : '';
    lines.push(`kept ${byTable(r.keptBy)} that rows written since the import refer to (labels given since, and what they refer to${answers})`);
  }
  if (r.skipped) lines.push(`skipped ${byTable(r.skippedBy)} changed again since the import: their later values stay`);
  if (r.indexDropped) lines.push('the stored BM25 index no longer matched the questions and was dropped: the next search or pool creation builds it again');
  if (r.failed) lines.push(`${r.failed.toLocaleString('en-US')} change${r.failed === 1 ? '' : 's'} could not be undone and stay as they are`);
  return lines;
}
