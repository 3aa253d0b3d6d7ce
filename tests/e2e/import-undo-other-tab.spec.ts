/**
 * An import this page did not start: the page was reloaded mid-import, or another owner tab started
 * it. Before, such a page showed an idle import form: the import still running could be neither seen
 * nor cancelled there, and its "Undo last import" still offered the import before, which the engine
 * no longer holds while one runs (a click took the button away without a word). Now the Workspace
 * screen follows the running import — its bar, its Cancel, its report, and which import it is (file, format, who started
 * it) — and Undo waits for it; an undo asked for over the API meanwhile says an import runs.
 */
import { expect, test } from '@playwright/test';
import { useServedWorkspace } from './served-workspace';
import { questionsFile as questionsIn } from './import-undo-setup';

const served = useServedWorkspace('import-undo-other-tab', 93, { workspace: 'w.qpairs' });

const questionsFile = (name: string, prefix: string, n: number): string => questionsIn(served.dir, name, prefix, n);

test('another owner tab follows the running import: its bar and report, Undo waiting for it', async () => {
  const importer = served.page;
  const small = questionsFile('small.jsonl', 's', 200);
  // Enough questions that the import runs for a few seconds.
  const large = questionsFile('large.jsonl', 'l', 150_000);

  await importer.goto('/#workspace');
  await importer.getByTestId('import-format').selectOption('questions-jsonl');
  await importer.getByTestId('import-paths').fill(small);
  await importer.getByTestId('import-start').click();
  await expect(importer.getByTestId('import-report')).toBeVisible({ timeout: 60_000 });
  // The report is a status, announced as its failures are (role alert): a screen reader heard nothing of a finished import.
  await expect(importer.getByRole('status').filter({ hasText: 'Import finished.' })).toContainText('200 questions added');

  const other = await importer.context().newPage();
  await other.goto(importer.url());
  const undo = other.getByTestId('undo-import-start');
  await expect(undo).toContainText('Undo last import: questions-jsonl import of small.jsonl, ');
  await expect(undo).toBeEnabled();
  await expect(other.getByTestId('import-running')).toHaveCount(0);

  await importer.getByTestId('import-paths').fill(large);
  await importer.getByTestId('import-start').click();
  await expect(importer.getByTestId('import-running')).toBeVisible();
  // The other tab shows the import under way, with its Cancel, and its Undo waits.
  await expect(other.getByTestId('import-running')).toBeVisible();
  await expect(other.getByTestId('import-cancel')).toBeVisible();
  await expect(undo).toBeDisabled();
  // It says which import runs: the file by its base name (never the server's path), its format, who started it and when
  // (before, the following tab showed a bare bar).
  await expect(other.getByTestId('import-running-what')).toHaveText(/^Importing large\.jsonl \(questions-jsonl\), started by the owner at \S/);
  await expect(other.getByTestId('import-running')).not.toContainText(served.dir);
  // An undo asked for over the API meanwhile says an import runs (it answered "there is no import to undo…").
  const refused = await other.evaluate(async () => {
    const r = await fetch('/api/invoke', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-QPairs': '1' }, body: JSON.stringify({ command: 'import.undo', args: {} }) });
    return { status: r.status, message: ((await r.json()) as { message: string }).message };
  });
  expect(refused.message).toMatch(/^an import is running \(questions-jsonl import of large\.jsonl, started \S+\): wait for it to finish or cancel it, then undo$/);
  expect(refused.status).toBeGreaterThanOrEqual(400);

  await expect(importer.getByTestId('import-report')).toBeVisible({ timeout: 120_000 });
  await expect(other.getByTestId('import-report')).toContainText('150,000 questions added');
  await expect(other.getByTestId('stat-questions')).toHaveText('150,200');
  await expect(undo).toContainText('Undo last import: questions-jsonl import of large.jsonl, ');
  await expect(undo).toBeEnabled();
  await other.close();
});

test('a page reloaded mid-import shows the import still running, and its Cancel stops it: nothing imported', async () => {
  const page = served.page;
  const more = questionsFile('more.jsonl', 'm', 150_000);
  await page.goto('/#workspace');
  await expect(page.getByTestId('stat-questions')).toHaveText('150,200');
  await page.getByTestId('import-format').selectOption('questions-jsonl');
  await page.getByTestId('import-paths').fill(more);
  await page.getByTestId('import-start').click();
  await expect(page.getByTestId('import-running')).toBeVisible();

  await page.reload();
  await expect(page.getByTestId('import-running')).toBeVisible();
  await page.getByTestId('import-cancel').click();
  await expect(page.getByTestId('import-error')).toHaveText('Import cancelled. Nothing was imported: what it had written is rolled back.', { timeout: 60_000 });
  await expect(page.getByTestId('import-running')).toHaveCount(0);
  await expect(page.getByTestId('stat-questions')).toHaveText('150,200');
  await expect(page.getByTestId('undo-import-start')).toContainText('Undo last import: questions-jsonl import of large.jsonl, ');
});
