/**
 * An undo of the last import that a kill stopped partway: serve mode, started on that workspace, answers at once and
 * finishes the undo as a background job (before, its open finished it before the server answered anything, with no
 * word on the page). The owner's page says so above every screen, and the Workspace screen follows the job — its bar,
 * what it is, its report — though the page did not ask for it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { useServedWorkspace, type ServedWorkspace } from './served-workspace';
import { qpairs } from './small-pool';
import { questionsFile } from './import-undo-setup';

const root = path.resolve(import.meta.dirname, '../..');

/** How many questions the undone import brought: enough that its undo runs for some seconds after the server starts. */
const IMPORTED = 400_000;

/** The workspace: 20 questions, then IMPORTED more whose `qpairs import undo` is killed once it has marked the workspace. */
async function undoKilledPartway(served: ServedWorkspace): Promise<void> {
  const w = served.workspace!;
  qpairs('init', w);
  qpairs('import', w, '--format', 'questions-jsonl', questionsFile(served.dir, 'seed.jsonl', 's', 20));
  qpairs('import', w, '--format', 'questions-jsonl', questionsFile(served.dir, 'big.jsonl', 'b', IMPORTED));
  const undo = spawn(path.join(root, 'node_modules', '.bin', 'node'), [path.join(root, 'bin', 'qpairs.mjs'), 'import', 'undo', w], { stdio: 'ignore' });
  const exited = once(undo, 'exit');
  const marked = (): boolean => {
    const db = new Database(w, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(`SELECT count(*) FROM import_undo_progress`).pluck().get() === 1;
    } catch {
      return false; // (busy: try again)
    } finally {
      db.close();
    }
  };
  const t0 = Date.now();
  while (!marked()) {
    if (undo.exitCode !== null) throw new Error('the undo ended before it marked the workspace');
    if (Date.now() - t0 > 60_000) throw new Error('the undo did not mark the workspace in 60 s');
    await new Promise((r) => setTimeout(r, 5));
  }
  undo.kill('SIGKILL');
  await exited;
}

const served = useServedWorkspace('import-undo-finish', 155, { workspace: 'w.qpairs', prepare: undoKilledPartway });

test('serve mode finishes a killed undo in the background: the page says so and follows it to its report', async () => {
  test.setTimeout(180_000);
  const page = served.page;
  await page.goto('/#workspace');
  await expect(page.getByTestId('open-notice-import-undoing')).toContainText(
    /^Finishing an interrupted undo\. Finishing the undo of the questions-jsonl import of big\.jsonl started \S+, whose undo was interrupted \(its process is gone\), in the background/,
  );
  await expect(page.getByTestId('undo-import-running')).toContainText(
    /Finishing the undo of the last import, which a crash or kill had stopped partway \([\d,]+ of [\d,]+ rows\)… Labels go on meanwhile; imports are refused until it is done\./,
  );
  await expect(page.getByTestId('undo-import-report')).toContainText('Import undone.', { timeout: 120_000 });
  await expect(page.getByTestId('undo-import-report')).toContainText(`undid the questions-jsonl import of big.jsonl started`);
  await expect(page.getByTestId('undo-import-report')).toContainText(`took out ${IMPORTED.toLocaleString('en-US')} questions`);
  await expect(page.getByTestId('stat-questions')).toHaveText('20');
  // The notice above every screen follows: it said the undo runs, it says it finished.
  await expect(page.getByTestId('open-notice-undo-finished')).toContainText(
    /^Interrupted undo finished\. Finished undoing the questions-jsonl import of big\.jsonl started \S+, whose undo was interrupted \(its process is gone\): undid /,
  );
  await expect(page.getByTestId('open-notice-import-undoing')).toHaveCount(0);
  await expect(page.getByTestId('undo-import-start')).toHaveCount(0);
});
