/**
 * Quitting the desktop app (through the fake Electron shell, as desktop-shell.spec.ts) while an import
 * runs: the import is cancelled and its committed chunks rolled back before the main process ends, as
 * Cancel does, and the workspace lock is released after that. Before, quitting closed the workspace
 * under the running import: its chunks stayed in the file, marked as running, for the next open to undo
 * as a crash's ("note: undid the … import …, which was interrupted (its process is gone)"). First, the
 * import's Cancel button over IPC.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { useDesktopApp } from './desktop-app';
import { qpairs } from './small-pool';

const root = path.resolve(import.meta.dirname, '../..');
const QUESTIONS = 300_000;

test.describe.configure({ mode: 'serial' });

let workspace = '';
let corpus = '';
const app = useDesktopApp('desktop-quit', {
  prepare(d) {
    workspace = path.join(d, 'w.qpairs');
    qpairs('init', workspace);
    corpus = path.join(d, 'big.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < QUESTIONS; i++) lines.push(JSON.stringify({ id: `q${i}`, title: `title ${i} word${i % 997} other${i % 13}`, body: `body ${i % 31} more words ${i % 101}`, source: 'gen' }));
    writeFileSync(corpus, lines.join('\n') + '\n');
    return workspace;
  },
});

test("the import's Cancel, over IPC: what it wrote is rolled back and the form is ready again", async () => {
  test.setTimeout(180_000);
  const { page, shell } = app;
  shell.answerDialogs([[corpus]]);
  await page.getByTestId('tab-workspace').click();
  await page.getByTestId('import-format').selectOption('questions-jsonl');
  await page.getByTestId('import-choose').click();
  await page.getByTestId('import-start').click();
  await expect(page.getByTestId('import-running')).toContainText(/[1-9][\d,]* records/, { timeout: 60_000 });
  await page.getByTestId('import-cancel').click();
  await expect(page.getByTestId('import-error')).toHaveText('Import cancelled. Nothing was imported: what it had written is rolled back.', { timeout: 60_000 });
  await expect(page.getByTestId('stat-questions')).toHaveText('0');
  await expect(page.getByTestId('import-start')).toBeEnabled();
});

test('quitting while an import runs rolls the import back, then releases the lock and ends the main process', async () => {
  test.setTimeout(180_000);
  const { page, shell } = app;
  await page.getByTestId('tab-workspace').click();
  await expect(page.getByTestId('import-chosen')).toContainText('big.jsonl');
  await page.getByTestId('import-start').click();
  // Some chunks are committed (records counted) and the import goes on.
  await expect(page.getByTestId('import-running')).toContainText(/[1-9][\d,]* records/, { timeout: 60_000 });
  const code = await shell.quit();
  expect(code, shell.log()).toBe(0);
  expect(existsSync(`${workspace}.lock`)).toBe(false);
  expect(shell.errorBoxes).toEqual([]);

  // The next process to open the workspace finds it as it was before the import, with nothing to undo.
  const stats = spawnSync(path.join(root, 'node_modules', '.bin', 'node'), [path.join(root, 'bin', 'qpairs.mjs'), 'stats', workspace, '--json'], { encoding: 'utf8' });
  expect(stats.status, stats.stderr).toBe(0);
  expect(stats.stderr).toBe('');
  expect(JSON.parse(stats.stdout)).toMatchObject({ questions: 0, indexedQuestions: 0 });
});
