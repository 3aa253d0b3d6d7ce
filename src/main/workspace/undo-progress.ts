/**
 * An undo of the last import that is under way (undo-last.ts), as the workspace records it: the
 * undo commits in chunks, so that labels are acknowledged between them, and a row (below) says
 * from its first short transaction to its last that the import is being undone —
 * who undoes it (process, host, token), which import, the row counts it began from and how far the
 * replay has got (its pass, its place in the bulk tables, the report so far), updated by every chunk
 * in that chunk's transaction. So a cancel, a crash or a kill leaves a workspace that says it is half
 * undone, and the undo resumes exactly where its last committed chunk left it: by `import undo` (the
 * app's Undo last import), or by the next writable open once its process is gone (Workspace.open).
 * The record is the one row of `import_undo_progress` (migration 19, which older QPairs refuse: they
 * would not know the state and could import over a partly undone journal).
 */
import os from 'node:os';
import type { Db } from './db';
import type { UndoReport } from './undo-replay';

export interface UndoMarker {
  token: string;
  pid: number;
  host: string;
  /** When the undo began (ISO). */
  at: string;
  /** The import being undone: its journal header's `what` and `started`. */
  what: string;
  started: string;
  /** The undone import's files (its audit row's, read before the replay takes that row out). */
  files: string;
  /** Journal entries and rows the whole undo goes through (its progress bar's total). */
  total: number;
  /** Rows of the bulk tables (questions, answers) when it began: only long writes change them. */
  bulkBefore: Record<string, number>;
  /** Rows taken out (negative) or put back, by table, of the other counted tables: summed per chunk. */
  changed: Record<string, number>;
  /** The report so far. */
  report: UndoReport;
  /** The replay's place (ReplayState's pass and per range entry the lowest rowid tried). */
  pass: 1 | 2 | 3;
  below: Array<[number, number]>;
}

/** Tokens of the undos running in this process (a marker with one of them is not an interrupted undo). */
export const liveUndoTokens = new Set<string>();

export function readUndoMarker(db: Db): UndoMarker | null {
  let v: string | undefined;
  try {
    v = db.prepare(`SELECT marker FROM import_undo_progress WHERE id = 1`).pluck().get() as string | undefined;
  } catch {
    return null; // a workspace opened at a schema before migration 19 (tests of older migrations): no undo under way
  }
  if (v === undefined) return null;
  try {
    return JSON.parse(v) as UndoMarker;
  } catch {
    return null;
  }
}

export function writeUndoMarker(db: Db, m: UndoMarker): void {
  db.prepare(`INSERT INTO import_undo_progress(id, marker) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET marker = excluded.marker`).run(JSON.stringify(m));
}

export function clearUndoMarker(db: Db): void {
  db.prepare(`DELETE FROM import_undo_progress`).run();
}

/** The process running a long write (an undo's marker, an import's journal header), as messages name it: `process 4242`, with ` on h` when h is another host. */
export function processText(w: { pid: number; host: string }): string {
  return `process ${w.pid}${w.host !== os.hostname() ? ` on ${w.host}` : ''}`;
}

/** Why an undo (or an import) is refused while another process undoes the last import. */
export function undoRunningMessage(m: { what: string; started: string; pid: number; host: string }): string {
  return `the ${m.what} started ${m.started} is being undone by ${processText(m)}: wait for it to finish`;
}

/** Why an import is refused while the undo of the last import stands stopped partway (cancelled in this process). */
export function undoStoppedMessage(m: { what: string; started: string }): string {
  return `the undo of the ${m.what} started ${m.started} stopped partway and that import is partly undone: undo the last import again to finish it, then import`;
}

/**
 * Why an import (`asked` 'import') or an undo ('undo') is refused while the app or serve mode finishes, in the background, an
 * undo a crash or kill had stopped partway (Workspace.undoToFinish).
 */
export function undoFinishingMessage(m: { what: string; started: string }, asked: 'import' | 'undo'): string {
  return (
    `the undo of the ${m.what} started ${m.started}, which a crash or kill had stopped partway, is being finished in the background ` +
    `(its progress is on the Workspace screen): ${asked === 'import' ? 'wait for it to finish, then import' : 'it undoes that import; there is nothing else to undo until it is done'}`
  );
}
