/**
 * Serve mode's Export downloads over time, by the page's clock (Playwright's, moved on by fastForward):
 * a file the browser never fetches (it blocked the site's downloads, a prompt was dismissed) is said so
 * after a while, with what to do, and the files after it keep waiting; a failed file's Retry says until
 * when the server keeps it (export.downloads' expiresAt, as a clock time), and once that time passes with
 * the screen open the file turns expired with no answer from the server needed (here it cannot be reached).
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { exportPoolP, ignoreFirstDownloadClick } from './download-clicks';
import { useServedSmallPool } from './small-pool';

test.describe.configure({ mode: 'serial' });

const SCREENS = path.resolve(import.meta.dirname, '../../test-results/screens');

const served = useServedSmallPool('export-downloads-expiry', 270, (pairs) => pairs.map(([q, c], i) => `${q},${c},ann,${i % 2}`));

/** Opens Export on the page's own clock, the first download click ignored; exports pool p as trec-run and answers its downloads. */
async function exportIgnoringFirst(page: Page): Promise<Array<{ id: string; name: string; expiresAt: number }>> {
  await page.clock.install();
  await page.reload();
  await page.goto('/#export');
  await ignoreFirstDownloadClick(page);
  return exportPoolP(page, 'trec-run');
}

test('a file the browser has not fetched after a while says it was likely blocked and what to do; nothing after it starts on its own', async () => {
  const page = served.page;
  const downloads = await exportIgnoringFirst(page);
  const rows = page.getByTestId('export-download');
  await expect(rows.first()).toHaveAttribute('data-state', 'offered');
  await expect(rows.first()).not.toContainText('has not fetched it');
  let saved = 0;
  page.on('download', () => void saved++);
  await page.clock.fastForward(11_000);
  await expect(rows.first()).toContainText('your browser has not fetched it: it was likely blocked');
  await expect(rows.first()).toContainText("allow this site's automatic downloads");
  await expect(rows.first()).toContainText('Choose Download again, until');
  // Still asked: the files after it wait, and none was fetched on its own.
  for (let i = 1; i < downloads.length; i++) await expect(rows.nth(i)).toHaveAttribute('data-state', 'waiting');
  await page.clock.fastForward(2_000);
  expect(saved).toBe(0);
  await page.getByTestId('export-done').screenshot({ path: path.join(SCREENS, 'export-downloads-stalled.png') });
  await page.getByTestId('export-download-again').click();
  await expect(rows.first()).not.toContainText('has not fetched it');
  for (const [i, d] of downloads.entries()) await expect(rows.nth(i), d.name).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });
});

test("a failed file's Retry says until when, and once that passes the file turns expired though the server cannot be asked", async () => {
  const page = served.page;
  const downloads = await exportIgnoringFirst(page);
  const rows = page.getByTestId('export-download');
  await expect(rows.first()).toHaveAttribute('data-state', 'offered');
  // The first file made unreadable in this server's own download folder (a folder in its place): its transfer fails, Retry offered.
  const uid = process.getuid?.();
  const base = path.join(tmpdir(), uid === undefined ? 'qpairs-downloads' : `qpairs-downloads.u${uid}`);
  const mine = readdirSync(base).filter((d) => d.startsWith(`${served.server!.pid}-`));
  const found = mine.flatMap((d) => readdirSync(path.join(base, d), { recursive: true, withFileTypes: true })).filter((e) => e.isFile() && e.name === downloads[0]!.name);
  expect(found).toHaveLength(1);
  const file = path.join(found[0]!.parentPath, found[0]!.name);
  rmSync(file);
  mkdirSync(file);
  await page.getByTestId('export-download-again').click();
  await expect(rows.first()).toHaveAttribute('data-state', 'failed');
  for (const [i, d] of downloads.entries()) if (i > 0) await expect(rows.nth(i), d.name).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });
  // "until HH:MM", the page's clock time of the id's expiry as the server gave it (15 minutes from the export).
  const until = await page.evaluate((at) => {
    const t = new Date(at);
    return `${String(t.getHours()).padStart(2, '0')}:${String(t.getMinutes()).padStart(2, '0')}`;
  }, downloads[0]!.expiresAt);
  await expect(rows.first()).toContainText(`Retry fetches it again until ${until}, when the server stops keeping it`);
  await expect(page.getByTestId('export-download-retry')).toBeVisible();
  // The server cannot be reached from now on: the page's clock alone turns the file expired once its time passes.
  await page.route('**/api/invoke', (route) => route.abort());
  await page.clock.fastForward(downloads[0]!.expiresAt - (await page.evaluate(() => Date.now())) - 1_000);
  await expect(rows.first()).toHaveAttribute('data-state', 'failed');
  await page.clock.fastForward(2_000);
  await expect(rows.first()).toHaveAttribute('data-state', 'expired');
  await expect(rows.first()).toContainText('expired: the server no longer has it');
  await expect(page.getByTestId('export-download-retry')).toHaveCount(0);
  await expect(page.getByTestId('export-downloads-announce')).toHaveText(`Downloads: ${downloads.length - 1} of ${downloads.length} files sent by the server, 1 expired.`);
  await page.getByTestId('export-done').screenshot({ path: path.join(SCREENS, 'export-downloads-expired.png') });
  await page.unroute('**/api/invoke');
  rmSync(file, { recursive: true });
});

test('leaving the Export screen while a file is asked for stops the questions to the server: nothing is asked once it is gone', async () => {
  const page = served.page;
  await exportIgnoringFirst(page);
  const rows = page.getByTestId('export-download');
  await expect(rows.first()).toHaveAttribute('data-state', 'offered');
  await page.waitForResponse((r) => (r.request().postData() ?? '').includes('"export.downloads"'));
  await page.goto('/#workspace');
  await expect(page.getByTestId('export-write')).toHaveCount(0);
  // An answer already under way may still come; after it, none (the pauses and the expiry timer ended with the screen).
  await page.clock.fastForward(1_000);
  const asked: string[] = [];
  page.on('request', (r) => void ((r.postData() ?? '').includes('"export.downloads"') && asked.push(r.url())));
  for (let i = 0; i < 4; i++) await page.clock.fastForward(6_000);
  await page.clock.fastForward(16 * 60_000);
  await page.evaluate(() => new Promise((r) => setTimeout(r, 0))); // what those timers started has been sent
  expect(asked).toEqual([]);
});
