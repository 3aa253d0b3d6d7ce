import type { WorkspaceNotice, WorkspaceStats } from '../../shared/types';
import { openWorkspace, type OpenOptions } from './db';
import { importRecoveryDue, interruptedWriteLeft, noteIn, recoverInterruptedImport, recoveredNote, unrecoveredNote, type NoteForm } from './undo-journal';
import { cleanStagedRuns, deadStagedRuns } from './staged-runs';
import { backgroundUndoNote, finishedUndoNote, finishInterruptedUndo, interruptedUndo, partlyUndoneNote, type ImportUndone } from './undo-last';
import { readUndoMarker, type UndoMarker } from './undo-progress';
import { WorkspaceRuns } from './workspace-runs';
import { now } from './workspace-types';

export type { ChunkedRunOptions } from './workspace-runs';
/** How Workspace.open treats what a crash or kill left. */
export interface WorkspaceOpenOptions extends Omit<OpenOptions, 'create'> {
  /**
   * An undo of the last import whose process is gone: 'finish' (the default, the CLI) finishes it in this
   * open, chunk by chunk, telling `onFinishingUndo` where it stands before the first chunk and after each;
   * 'leave' leaves it as it is, named by `undoToFinish` (the app and serve mode finish it as a background
   * job, answering requests meanwhile: engine/undo-import.ts).
   */
  interruptedUndo?: 'finish' | 'leave';
  onFinishingUndo?: (m: UndoMarker) => void;
  /**
   * What a writer whose process is gone left (an interrupted import, runs half stored): 'now' (the default; a
   * connection of a process that holds the lock already) rolls it back in this open; 'later' leaves it for
   * recoverLeftWrites, which the CLI, serve mode and the app call once they hold the workspace's lock, so that two
   * processes never recover at once and none recovers while another writes (`leftWrite`, `recoveryDue` say what is left).
   */
  recovery?: 'now' | 'later';
}

export { QuestionInUseError, SourceConflictError, describeUse, type QuestionUse, type AnnotatorRole, type LabelInput, type NewAnswer, type NewPool, type NewQuestion, type UpsertOptions, type UpsertResult } from './workspace-types';

/**
 * A QPairs workspace: one SQLite file holding the corpus, user-marked duplicates, pools,
 * annotators, the append-only label history and rankers' runs. Synchronous (better-sqlite3);
 * every write outside an explicit transaction is its own durable transaction.
 *
 * Layers, each in its own file: the connection (workspace-core.ts), the corpus (workspace-corpus.ts),
 * pools, annotators and labels (workspace-pools.ts), runs (workspace-runs.ts); opening, imports and
 * statistics here.
 */
export class Workspace extends WorkspaceRuns {
  static create(path: string): Workspace {
    return new Workspace(openWorkspace(path, { create: true }), path);
  }

  /**
   * Opens a workspace. One that cannot be written opens read-only (see `readonly`); a path that
   * is not a workspace (a directory, an empty or foreign file, another application's database)
   * is a QPairsError naming it.
   */
  static open(path: string, opts: WorkspaceOpenOptions = {}): Workspace {
    const { interruptedUndo: onUndo = 'finish', onFinishingUndo, recovery = 'now', ...dbOpts } = opts;
    const ws = new Workspace(openWorkspace(path, dbOpts), path);
    if (!ws.readonly) {
      try {
        if (recovery === 'later') {
          ws.recoveryDue = importRecoveryDue(ws.db) || deadStagedRuns(ws.db).length > 0;
          ws.leftWrite = interruptedWriteLeft(ws.db);
          ws.undoToFinish = interruptedUndo(ws.db);
        } else {
          ws.recoverLeftWrites();
          // An undo of the last import a crash or kill stopped partway is finished (see undo-last.ts).
          if (onUndo === 'leave') ws.undoToFinish = interruptedUndo(ws.db);
          else ws.finishedUndo = finishInterruptedUndo(ws.db, onFinishingUndo);
        }
      } catch (e) {
        ws.close();
        throw e;
      }
    } else ws.unrecoveredWrite = interruptedWriteLeft(ws.db);
    // An undo of the last import under way in another process, or stopped partway (a cancel; a kill this open could not finish).
    ws.undoPartway = ws.undoToFinish ? null : readUndoMarker(ws.db);
    return ws;
  }

  /**
   * Rolls back what a writer whose process is gone left: an import a crash or kill interrupted (undo-journal.ts; sets
   * `recoveredWrite`) and runs half stored (out of sight: no reader ever saw them; staged-runs.ts). A writable open does
   * it (recovery 'now'), or the process that opened with recovery 'later' once it holds the workspace's lock.
   */
  recoverLeftWrites(): void {
    if (this.readonly) return;
    const r = recoverInterruptedImport(this.db);
    if (r && !r.committed) this.recoveredWrite = { what: r.what, started: r.started };
    cleanStagedRuns(this.db);
    this.recoveryDue = false;
    this.leftWrite = null;
  }

  /** What a process that opened the workspace tells its user when that open upgraded it (null when it did not). */
  upgradeNote(): string | null {
    return this.upgradedFrom === null ? null : noteIn('cli', `upgraded workspace ${this.path} ${this.upgradeText()}`);
  }

  private upgradeText(): string {
    return (
      `from workspace schema ${this.upgradedFrom} to ${this.db.pragma('user_version', { simple: true }) as number}: ` +
      `the QPairs that wrote it (and any other older QPairs) can no longer open it — upgrade QPairs wherever it is used`
    );
  }

  /**
   * What this open did or found that the workspace's owner should know — the notes the CLI and
   * the serve log print (upgradeNote, recoveredNote, unrecoveredNote) — as the app shows them
   * (their `app` form, noteIn): sentences without the workspace's path (a remote owner never sees
   * server-side paths).
   */
  openNotices(): WorkspaceNotice[] {
    const out: WorkspaceNotice[] = [];
    if (this.upgradedFrom !== null) out.push({ kind: 'upgraded', message: noteIn('app', `this workspace was upgraded when it was opened, ${this.upgradeText()}`) });
    return [...out, ...this.longWriteNotes('app')];
  }

  /**
   * What this open did or found of an import or an import's undo — rolled back, finished, partly undone, left
   * half written — in `form`: the app's notices (openNotices) and, in order, the serve log's notes. (The CLI
   * prints the same notes, the last one after its read-only note: cli/commands/common.ts.)
   */
  longWriteNotes(form: NoteForm): WorkspaceNotice[] {
    const out: WorkspaceNotice[] = [];
    if (this.recoveredWrite) out.push({ kind: 'import-undone', message: recoveredNote(this.recoveredWrite, form) });
    if (this.finishedUndo) out.push({ kind: 'undo-finished', message: finishedUndoNote(this.finishedUndo, form) });
    if (this.undoToFinish) out.push({ kind: 'import-undoing', message: backgroundUndoNote(this.undoToFinish, form) });
    if (this.undoPartway) out.push({ kind: 'undo-partway', message: partlyUndoneNote(this.undoPartway, form) });
    if (this.unrecoveredWrite) out.push({ kind: 'import-left', message: unrecoveredNote(this.unrecoveredWrite, form) });
    return out;
  }

  /**
   * Why this workspace opened read-only and what to do, for its owners: the reason may name the file, its
   * folder or its -wal/-shm files, so app.info gives it to an owner not on this machine without server paths.
   */
  readonlyNotices(): WorkspaceNotice[] {
    if (!this.readonly) return [];
    const why = this.readonlyReason ?? 'opened read-only';
    return [{ kind: 'read-only', message: `This workspace opened read-only (${why}): labels, imports and other changes are refused. Once it can be written, open it again.` }];
  }

  /**
   * Finishes, in this process and chunk by chunk, the interrupted undo this open left (`undoToFinish`, opened with
   * interruptedUndo 'leave'): the CLI's writing commands call it once they hold the workspace's lock, so that no
   * command finishes an undo while another process writes to the workspace. Sets `finishedUndo` (null when there
   * was none, or another process took the undo over meanwhile).
   */
  finishLeftUndo(onChunk?: (m: UndoMarker) => void): ImportUndone | null {
    if (!this.undoToFinish) return null;
    this.undoToFinish = null;
    this.finishedUndo = finishInterruptedUndo(this.db, onChunk);
    this.undoPartway = readUndoMarker(this.db);
    return this.finishedUndo;
  }

  /** Opened with recovery 'later': a writer whose process is gone left something for recoverLeftWrites to roll back. */
  recoveryDue = false;

  /** Opened with recovery 'later': the import a crash or kill interrupted whose rows are still here until recoverLeftWrites runs. */
  leftWrite: { what: string; pid: number; host: string; started: string } | null = null;

  /** The interrupted long write (an import killed or crashed) this open rolled back, if any. */
  recoveredWrite: { what: string; started: string } | null = null;

  /** The undo of the last import a crash or kill had stopped partway, which this open finished (finishInterruptedUndo), if any. */
  finishedUndo: ImportUndone | null = null;

  /**
   * An undo of the last import whose process is gone, which this open left for the engine to finish in the background
   * (interruptedUndo 'leave'); the engine sets it back to null when that job ends (finishedUndo, or undoPartway if it stopped).
   */
  undoToFinish: UndoMarker | null = null;

  /** An undo of the last import that was not over when this open looked (undo-progress.ts): the import is partly undone. */
  undoPartway: UndoMarker | null = null;

  /**
   * Read-only opens only: an interrupted long write whose rows are still here (this open cannot
   * undo them; the next writable open will), so every figure and export includes half an import.
   */
  unrecoveredWrite: { what: string; pid: number; started: string } | null = null;

  // ---------------------------------------------------------------- imports & stats

  /**
   * Records an import in the audit table. The stored report also gets `maxDoc`, the highest
   * question doc number after the import, so questionOrigin can tell which import brought a
   * question.
   */
  recordImport(format: string, files: string[], report: unknown): void {
    const maxDoc = (this.stmt(`SELECT coalesce(max(doc), 0) AS n FROM questions`).get() as { n: number }).n;
    const stored = report && typeof report === 'object' && !Array.isArray(report) ? { ...(report as Record<string, unknown>), maxDoc } : report;
    this.stmt(`INSERT INTO imports(format, files, at, report) VALUES (?, ?, ?, ?)`).run(format, JSON.stringify(files), now(), JSON.stringify(stored));
  }

  listImports(): Array<{ id: number; format: string; files: string[]; at: string; report: unknown }> {
    return (this.stmt(`SELECT * FROM imports ORDER BY id`).all() as Array<{ id: number; format: string; files: string; at: string; report: string }>).map(
      (r) => ({ ...r, files: JSON.parse(r.files) as string[], report: JSON.parse(r.report) as unknown }),
    );
  }

  /** Counts of the workspace. */
  stats(): WorkspaceStats {
    const one = (sql: string): number => (this.stmt(sql).get() as { n: number }).n;
    const questions = one(`SELECT count(*) AS n FROM questions`);
    return {
      questions,
      answers: one(`SELECT count(*) AS n FROM answers`),
      duplicatePairs: one(`SELECT count(*) AS n FROM (SELECT DISTINCT lo, hi FROM duplicate_pairs)`),
      pools: one(`SELECT count(*) AS n FROM pools`),
      ...this.labelCounts(),
      annotators: one(`SELECT count(*) AS n FROM annotators`),
      runs: one(`SELECT count(*) AS n FROM runs WHERE staged IS NULL`),
      indexedQuestions: this.indexedCount(),
      sources: this.questionsBySource(questions),
    };
  }

  /**
   * Questions per source, given their total. The sources are found by stepping the source index
   * from one value to the next; a workspace of one source (a team's one dump) then takes the total,
   * not a walk of every index entry to group them (56-99 ms at 1M questions, at each refresh of
   * the Workspace, Pools and Models screens).
   */
  private questionsBySource(total: number): Record<string, number> {
    const names = this.stmt(
      `WITH RECURSIVE s(v) AS (SELECT min(source) FROM questions UNION ALL SELECT (SELECT min(source) FROM questions WHERE source > s.v) FROM s WHERE s.v IS NOT NULL)
       SELECT v FROM s WHERE v IS NOT NULL LIMIT 2`,
    )
      .pluck()
      .all() as string[];
    if (names.length < 2) return names.length ? { [names[0]!]: total } : {};
    const sources: Record<string, number> = {};
    for (const r of this.stmt(`SELECT source, count(*) AS n FROM questions GROUP BY source ORDER BY source`).all() as Array<{ source: string; n: number }>) sources[r.source] = r.n;
    return sources;
  }

  /**
   * The workspace's current labels (`labels`: each person's latest non-cleared label per pair) and
   * label events; with `annotator`, that person's own only (what an annotator is shown: the
   * workspace's totals would tell them how far everyone else has got, in blind pools too).
   */
  labelCounts(annotator?: string): { labels: number; labelEvents: number } {
    const who = annotator === undefined ? '' : ` AND l.annotator_id = (SELECT id FROM annotators WHERE name = ?)`;
    const args = annotator === undefined ? [] : [annotator];
    const one = (sql: string): number => (this.stmt(sql).get(...args) as { n: number }).n;
    return {
      labels: one(
        `SELECT count(*) AS n FROM labels l WHERE l.value IS NOT NULL AND l.seq = (SELECT max(seq) FROM labels m
         WHERE m.pool_id = l.pool_id AND m.annotator_id = l.annotator_id AND m.query_id = l.query_id AND m.candidate_id = l.candidate_id)${who}`,
      ),
      labelEvents: one(`SELECT count(*) AS n FROM labels l WHERE 1${who}`),
    };
  }

  private indexedCount(): number {
    try {
      return (this.stmt(`SELECT count(*) AS n FROM bm25_docs`).get() as { n: number }).n;
    } catch {
      return 0;
    }
  }
}
