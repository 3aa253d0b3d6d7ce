/**
 * The import form by keyboard alone: choose the format, type the file's path (a local owner), start
 * with Enter, follow the progress bar, Tab to Cancel and press Enter. The Cancel button goes away
 * when the import ends; the focus then comes back to Import (before, it dropped to the page, and a
 * keyboard user started again from the top), and the workspace is as it was. A file still uploading
 * (a large dump archive on a slow link) can be cancelled too: before, Cancel came only once the
 * upload had ended.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { useServedWorkspace } from './served-workspace';

const served = useServedWorkspace('import-keyboard', 42, { workspace: 'w.qpairs' });

async function focused(p: Page): Promise<string> {
  return p.evaluate(() => {
    const e = document.activeElement;
    return e ? (e.getAttribute('data-testid') ?? e.tagName.toLowerCase()) : 'none';
  });
}

test('Cancel pressed by keyboard: the import is cancelled, nothing changes, and the focus comes back to Import', async () => {
  const page = served.page;
  // Enough questions that the import runs for a few seconds.
  const file = path.join(served.dir, 'many.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < 150_000; i++) lines.push(JSON.stringify({ id: `q${i}`, title: `question ${i} about mounting drive ${i % 97}`, body: `body ${i} with some words ${(i * 7) % 1000}` }));
  writeFileSync(file, `${lines.join('\n')}\n`);

  await page.goto('/#workspace');
  await expect(page.getByTestId('stat-questions')).toHaveText('0');
  await page.getByTestId('import-format').focus();
  await page.getByTestId('import-format').selectOption('questions-jsonl');
  await page.keyboard.press('Tab'); // the upload field
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('import-paths');
  await page.keyboard.type(file);
  await page.getByTestId('import-start').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('import-running')).toBeVisible();
  await expect(page.getByTestId('import-cancel')).toBeVisible();
  expect(await focused(page)).toBe('import-start');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('import-cancel');
  await page.keyboard.press('Enter');

  await expect(page.getByTestId('import-error')).toContainText('Import cancelled.', { timeout: 60_000 });
  // It says what became of the rows written so far (as the CLI's "cancelled; nothing was changed").
  await expect(page.getByTestId('import-error')).toHaveText('Import cancelled. Nothing was imported: what it had written is rolled back.');
  await expect(page.getByTestId('import-cancel')).toHaveCount(0);
  await expect.poll(() => focused(page)).toBe('import-start');
  await expect(page.getByTestId('stat-questions')).toHaveText('0');
  // Enter on Import starts it again from where the focus is.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('import-report')).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('stat-questions')).toHaveText('150,000');
});

test('Cancel while the file is still uploading: the upload stops, no import runs, and the focus comes back to Import', async () => {
  const page = served.page;
  const file = path.join(served.dir, 'slow.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < 30_000; i++) lines.push(JSON.stringify({ id: `s${i}`, title: `slow question ${i}`, body: `body ${i}` }));
  writeFileSync(file, `${lines.join('\n')}\n`); // about 2 MB
  await page.goto('/#workspace');
  await expect(page.getByTestId('stat-questions')).not.toHaveText('');
  const before = await page.getByTestId('stat-questions').textContent();
  // A slow link: the upload takes about 20 s.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 100 * 1024 });
  try {
    await page.getByTestId('import-format').selectOption('questions-jsonl');
    await page.getByTestId('import-paths').fill('');
    await page.getByTestId('import-files').setInputFiles(file);
    await page.getByTestId('import-start').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText(/Uploading slow\.jsonl/)).toBeVisible();
    // Before, no Cancel was offered until the upload had ended.
    await expect(page.getByTestId('import-cancel')).toBeVisible();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('import-cancel');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('import-error')).toContainText('Import cancelled.', { timeout: 10_000 });
    await expect(page.getByText(/Uploading slow\.jsonl/)).toHaveCount(0);
    await expect(page.getByTestId('import-running')).toHaveCount(0);
    await expect.poll(() => focused(page)).toBe('import-start');
  } finally {
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await cdp.detach();
  }
  await page.waitForTimeout(1000);
  await expect(page.getByTestId('stat-questions')).toHaveText(before ?? '');
});

test('the form greys out the Annotator and Scheme a format does not read, and says why', async () => {
  const page = served.page;
  await page.goto('/#workspace');
  await page.getByTestId('import-format').selectOption('trec-run');
  await expect(page.getByTestId('import-pool')).toBeEnabled();
  for (const f of ['import-annotator', 'import-scheme']) await expect(page.getByTestId(f)).toBeDisabled();
  await expect(page.getByTestId('import-pool-unused')).toHaveText("Annotator and Scheme are not used by trec-run: it imports a ranker's scores into an existing pool, no labels");
  await page.getByTestId('import-format').selectOption('semeval');
  await expect(page.getByTestId('import-annotator')).toBeEnabled();
  await expect(page.getByTestId('import-scheme')).toBeDisabled();
  await expect(page.getByTestId('import-pool-unused')).toContainText('Scheme is not used by semeval: its pools take SemEval’s own scheme, semeval3');
  await page.getByTestId('import-format').selectOption('labels-csv');
  for (const f of ['import-pool', 'import-annotator', 'import-scheme']) await expect(page.getByTestId(f)).toBeEnabled();
  await expect(page.getByTestId('import-pool-unused')).toHaveCount(0);
});
