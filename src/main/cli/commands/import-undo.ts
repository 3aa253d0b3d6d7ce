import { CancelledError } from '../../errors';
import { importRunningMessage, undoLastImport, undoSummary } from '../../workspace/undo-last';
import { parse, takePositionals } from '../args';
import { ProgressBar } from '../progress';
import { json, withWorkspace, type Out } from './common';

/**
 * `qpairs import undo W [--json]`: undoes the last finished import (workspace/undo-last.ts), in chunks;
 * Ctrl+C or a kill stops it partway, and the next command that opens the workspace for writing finishes
 * it (this one then reports that undo); refused while another process imports. Prints what was undone, kept (rows that
 * later work refers to) and skipped (rows changed again since), by table.
 */
export async function cmdImportUndo(argv: string[], out: Out, signal: AbortSignal): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' } });
  takePositionals(positionals, ['W'], 'import undo');
  const w = positionals[0];
  return withWorkspace(
    w,
    async (ws) => {
      // An undo a kill had stopped partway, which the open finished once it held the lock (its note said so): that was this undo.
      if (ws.finishedUndo) {
        if (values.json) out.log(json(ws.finishedUndo));
        else for (const line of undoSummary(ws.finishedUndo)) out.log(line);
        return 0;
      }
      const bar = new ProgressBar('undoing the last import');
      try {
        let r;
        try {
          r = await undoLastImport(ws, { signal, onProgress: (done, total) => bar.update(done, total) });
        } catch (e) {
          // Stopped between two chunks: not "nothing was changed" (main's word for a cancel) but how far it got.
          if (e instanceof CancelledError && e.message !== new CancelledError().message) {
            bar.done();
            out.err(`qpairs import undo: ${e.message}; the next command that opens the workspace for writing finishes it`);
            return 130;
          }
          throw e;
        }
        bar.done();
        if (values.json) out.log(json(r));
        else for (const line of undoSummary(r)) out.log(line);
        return 0;
      } finally {
        bar.done();
      }
    },
    {
      write: 'import undo',
      out,
      // Said before the workspace lock's refusal (which names the importing process's command but not why no undo can run).
      whileImporting: (w) => importRunningMessage({ what: w.what, started: w.started, where: `in process ${w.pid} on host ${w.host}` }),
    },
  );
}
