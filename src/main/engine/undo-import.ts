import type { ImportUndoReport } from '../../shared/contract';
import { FINISHING_UNDO } from '../../shared/undo-finishing';
import { QPairsError } from '../errors';
import { importRunningMessage, keptImportPoolsChangedInPlace, NOTHING_TO_UNDO, refuseAnotherImport, undoableImport, undoLastImport, undoSummary } from '../workspace/undo-last';
import { readUndoMarker, undoFinishingMessage } from '../workspace/undo-progress';
import { Workspace } from '../workspace/workspace';
import type { EngineCore as Engine } from './core';
import { importWhat } from './import-subject';
import { afterImportCommits, importTuning, startLongWriteJob } from './work';
import { poolStamps } from './pool-stamps';

/**
 * Starts undoing the last finished import (`import.undo`; with `started`, only if it is still the one
 * that started then; refused while an import runs); the result arrives as a `job.done` event
 * of kind `undo`. A long write of the engine's write gate, in chunks that give the gate up between
 * them (workspace/undo-last.ts), so labels are acknowledged while it runs; a cancel (job.cancel) stops
 * it between two chunks, leaving the import partly undone (`import.undoable` says so) until the next
 * `import.undo` carries on where it stopped. Afterwards, as after an import: the BM25 index is dropped
 * (reloaded on next use) and every client is told (`workspace.changed`, what: 'import').
 */
export function undoImportJob(engine: Engine, started?: string): string {
  // An import under way (asked for, not yet done): said as such. Before, the undo answered that there
  // was no import to undo (the running one had set the last one's journal aside), or waited for it and
  // then refused to undo the newer import.
  const finishing = engine.ws.undoToFinish;
  if (finishing) throw new QPairsError(undoFinishingMessage(finishing, 'undo'));
  const running = engine.jobs.runningImports()[0];
  if (running) {
    const where = running.startedBy === null ? undefined : `by ${running.startedBy}`;
    throw new QPairsError(importRunningMessage({ what: importWhat(running), started: running.started, where }));
  }
  engine.ws.noticeExternalChanges();
  const last = undoableImport(engine.ws.db);
  if (!last) throw new QPairsError(NOTHING_TO_UNDO);
  refuseAnotherImport(last, started);
  // The import named now, also when the undo waits behind an import that is running: that one's
  // journal would replace this one's, and the undo must not take it for the one asked for.
  const named = last.started;
  return startLongWriteJob(engine, 'undo', async (ctx, turns): Promise<ImportUndoReport> => {
    // Its own connection, as an import's: the app's connection reads the committed chunks meanwhile.
    const undoWs = Workspace.open(engine.ws.path);
    const stampsBefore = poolStamps(engine.ws);
    // The pools whose question texts or run scores it puts back (their stamps do not change): named too.
    const inPlace = keptImportPoolsChangedInPlace(engine.ws.db);
    let undone = false;
    try {
      // In chunks, giving the gate up between them (labels are acknowledged meanwhile); importTuning.oneTransaction
      // (benchmarks: the former behaviour) undoes it in one chunk holding the gate.
      const one = importTuning.oneTransaction;
      const r = await undoLastImport(undoWs, {
        signal: ctx.signal,
        started: named,
        turns: one ? undefined : turns,
        chunkMs: one ? Number.POSITIVE_INFINITY : importTuning.chunkMs,
        onProgress: (d, t) => {
          undone = true; // (a chunk committed: also a cancelled undo changed the workspace)
          ctx.progress(d, t, 'undoing the import');
        },
      });
      return { ...r, lines: undoSummary(r) };
    } finally {
      undoWs.close();
      if (undone) {
        afterImportCommits(engine, stampsBefore, inPlace);
      }
    }
  });
}

/**
 * The app and serve mode: an undo of the last import that a crash or kill stopped partway, which their open left
 * (Workspace.undoToFinish), is finished as a background job of kind `undo`, in chunks with the write gate given up
 * between them, as `import.undo` does: requests are answered from the start (its open finished it at once before,
 * 1.8 s at 150,000 questions before the server's first answer) and labels between chunks. Its progress events say
 * FINISHING_UNDO; imports are refused until it is done (work.ts importJob), and a cancel (job.cancel, stopping)
 * leaves it as a cancelled undo does. Returns the job's id, or null when there is none.
 */
export function finishUndoInBackground(engine: Engine): string | null {
  const m = engine.ws.undoToFinish;
  if (!m) return null;
  return startLongWriteJob(engine, 'undo', async (ctx, turns): Promise<ImportUndoReport> => {
    // The pools' stamps as the interrupted undo left them: the event names the pools this job changes, so an
    // annotator of a pool open to her is told (access.ts), as after an import or Undo last import.
    const stampsBefore = poolStamps(engine.ws);
    const inPlace = keptImportPoolsChangedInPlace(engine.ws.db);
    // Its own connection, leaving the undo to this job (a default open would finish it there and then).
    let undoWs: Workspace | null = null;
    let undone = false;
    try {
      undoWs = Workspace.open(engine.ws.path, { interruptedUndo: 'leave' });
      const r = await undoLastImport(undoWs, {
        signal: ctx.signal,
        started: m.started,
        turns,
        chunkMs: importTuning.chunkMs,
        onProgress: (d, t) => {
          undone = true;
          ctx.progress(d, t, FINISHING_UNDO);
        },
      });
      engine.ws.finishedUndo = r;
      return { ...r, lines: undoSummary(r) };
    } finally {
      undoWs?.close();
      // What the owner's notices say now: the undo finished, or stopped partway (a cancel) and finished by Undo last import.
      engine.ws.undoToFinish = null;
      engine.ws.undoPartway = readUndoMarker(engine.ws.db);
      if (undone) afterImportCommits(engine, stampsBefore, inPlace);
    }
  });
}
