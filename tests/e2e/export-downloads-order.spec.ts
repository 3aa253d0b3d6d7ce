/**
 * Serve mode's Export (download) of a multi-file export fetches its files one at a time, in order: the
 * next is offered only once the server says it sent the one before (export.downloads), so a big export on
 * a slow link no longer holds every connection the tab has to the server. Each file says its state —
 * waiting, downloading, sent by the server (never "saved": that is the browser's) — and a line for them
 * all is said to screen readers. A file the browser did not fetch stays "asked" (the ones after it wait)
 * with Download again, reached from Export with Tab; one the server could not send says why, with Retry.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { exportPoolP, ignoreFirstDownloadClick } from './download-clicks';
import { useServedSmallPool } from './small-pool';

test.describe.configure({ mode: 'serial' });

const SCREENS = path.resolve(import.meta.dirname, '../../test-results/screens');

const served = useServedSmallPool('export-downloads-order', 220, (pairs) => pairs.map(([q, c], i) => `${q},${c},ann,${i % 2}`));

/** Records every state each download's row takes, in the order they are taken (before Export is pressed). */
async function recordStates(page: Page): Promise<void> {
  await page.evaluate(() => {
    const log: string[] = [];
    (window as unknown as { downloadStates: string[] }).downloadStates = log;
    const seen = new Map<Element, string>();
    new MutationObserver(() => {
      for (const li of document.querySelectorAll('[data-testid="export-download"]')) {
        const state = li.getAttribute('data-state')!;
        if (seen.get(li) !== state) log.push(`${li.getAttribute('data-name')} ${state}`);
        seen.set(li, state);
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
  });
}

const statesSeen = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { downloadStates: string[] }).downloadStates);

/** Exports pool p as trec-run (one file per run, and the datasheet); answers the files offered, in order. `load`: open the screen first. */
async function exportTrecRuns(page: Page, load = true): Promise<string[]> {
  if (load) await page.goto('/#export');
  await recordStates(page);
  return (await exportPoolP(page, 'trec-run')).map((d) => d.name);
}

test('a multi-file export downloads its files one at a time, in order, each said sent once the server sent its last byte', async () => {
  const page = served.page;
  const saved: string[] = [];
  page.on('download', (d) => void saved.push(d.suggestedFilename()));
  const names = await exportTrecRuns(page);
  expect(names.length).toBeGreaterThanOrEqual(3);
  const rows = page.getByTestId('export-download');
  await expect(rows).toHaveCount(names.length);
  for (const [i, name] of names.entries()) await expect(rows.nth(i), name).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });
  expect(saved).toEqual(names);
  // In order, one at a time: a file is asked for only once every file before it was sent.
  const log = await statesSeen(page);
  for (const [i, name] of names.entries()) {
    const offered = log.indexOf(`${name} offered`);
    expect(offered, `${name} was asked for`).toBeGreaterThanOrEqual(0);
    for (const before of names.slice(0, i)) expect(log.indexOf(`${before} sent`), `${before} sent before ${name} was asked for`).toBeLessThan(offered);
  }
  await expect(rows.first()).toContainText('sent: the server sent all');
  await expect(rows.first()).toContainText('downloads list shows whether and where it saved it');
  // One list: the export's files are the downloads' rows, each with its size, under "Exported, to download:" and how many were sent.
  const done = page.getByTestId('export-done');
  await expect(done.locator('strong')).toHaveText(`Exported, to download: ${names.length} of ${names.length} files sent by the server.`);
  await expect(done.getByTestId('export-download')).toHaveCount(names.length);
  await expect(page.getByTestId('export-file')).toHaveCount(0);
  await expect(rows.nth(1)).toContainText(/^p\.\w+\.run \(\d+ bytes\) sent: /);
  await expect(done).toHaveClass(/ok-box/);
  await expect(page.getByTestId('export-downloads-announce')).toHaveText(`Downloads: ${names.length} of ${names.length} files sent by the server.`);
  await page.locator('.export-screen > .card').first().screenshot({ path: path.join(SCREENS, 'export-downloads-sent.png') });
});

test('a file the browser did not fetch waits as asked, the ones after it wait too, and Download again (Tab from Export) fetches it', async () => {
  const page = served.page;
  await page.goto('/#export');
  await ignoreFirstDownloadClick(page);
  const names = await exportTrecRuns(page, false);
  const rows = page.getByTestId('export-download');
  await expect(rows.first()).toHaveAttribute('data-state', 'offered');
  await expect(rows.first()).toContainText('the server has not begun sending it yet');
  await expect(page.getByTestId('export-downloads-announce')).toHaveText(`Downloads: 0 of ${names.length} files sent by the server; now ${names[0]}`);
  // Still asked after the server was asked about it twice more: nothing after it has started.
  await page.waitForResponse((r) => (r.request().postData() ?? '').includes('"export.downloads"'));
  await page.waitForResponse((r) => (r.request().postData() ?? '').includes('"export.downloads"'));
  for (let i = 1; i < names.length; i++) await expect(rows.nth(i)).toHaveAttribute('data-state', 'waiting');
  await expect(rows.nth(1)).toContainText('waiting: it starts once the file before it has ended');
  await page.getByTestId('export-done').screenshot({ path: path.join(SCREENS, 'export-downloads-asked.png') });
  await page.getByTestId('export-write').focus();
  await page.keyboard.press('Tab');
  const again = page.getByTestId('export-download-again');
  await expect(again).toBeFocused();
  await expect(again).toHaveAccessibleName(`Download ${names[0]} again`);
  await page.keyboard.press('Enter');
  for (const [i, name] of names.entries()) await expect(rows.nth(i), name).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });
});

test('a file the server could not send says why, the next ones go on, and Retry (Tab from Export) fetches it again', async () => {
  const page = served.page;
  await page.reload();
  await page.goto('/#export');
  await ignoreFirstDownloadClick(page);
  const names = await exportTrecRuns(page, false);
  const rows = page.getByTestId('export-download');
  await expect(rows.first()).toHaveAttribute('data-state', 'offered');
  // Before it is fetched, the first file in this server's own download folder (named by its pid) is made
  // unreadable: a folder in its place (a read error that fetching again can get past, unlike a file gone).
  const uid = process.getuid?.();
  const base = path.join(tmpdir(), uid === undefined ? 'qpairs-downloads' : `qpairs-downloads.u${uid}`);
  const mine = readdirSync(base).filter((d) => d.startsWith(`${served.server!.pid}-`));
  const found = mine.flatMap((d) => readdirSync(path.join(base, d), { recursive: true, withFileTypes: true })).filter((e) => e.isFile() && e.name === names[0]);
  expect(found).toHaveLength(1);
  const file = path.join(found[0]!.parentPath, found[0]!.name);
  const bytes = readFileSync(file);
  rmSync(file);
  mkdirSync(file);
  await page.getByTestId('export-download-again').click();
  await expect(rows.first()).toHaveAttribute('data-state', 'failed');
  await expect(rows.first()).toContainText('failed: the server could not read the file (EISDIR). Retry fetches it again');
  for (const [i, name] of names.entries()) if (i > 0) await expect(rows.nth(i), name).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });
  await expect(page.getByTestId('export-downloads-announce')).toHaveText(`Downloads: ${names.length - 1} of ${names.length} files sent by the server, 1 failed.`);
  await expect(page.getByTestId('export-done'), 'not green with a file failed').toHaveClass(/note-box/);
  await page.locator('.export-screen > .card').first().screenshot({ path: path.join(SCREENS, 'export-downloads-failed.png') });
  // The list with a failure and its Retry passes axe as the rest of the app does (no serious or critical violation).
  const axe = await new AxeBuilder({ page }).include('[data-testid="export-downloads"]').analyze();
  expect(axe.passes.length, 'the list was checked').toBeGreaterThan(0);
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  rmSync(file, { recursive: true });
  writeFileSync(file, bytes);
  const saved = page.waitForEvent('download');
  await page.getByTestId('export-write').focus();
  await page.keyboard.press('Tab');
  const retry = page.getByTestId('export-download-retry');
  await expect(retry).toBeFocused();
  await expect(retry).toHaveAccessibleName(`Retry ${names[0]}`);
  await page.keyboard.press('Enter');
  // The Retry button goes with the failure: the keyboard stays on the file's row.
  await expect(rows.first()).toBeFocused();
  await expect(rows.first()).toHaveAttribute('data-state', 'sent');
  expect((await saved).suggestedFilename()).toBe(names[0]);
  await expect(page.getByTestId('export-downloads-announce')).toHaveText(`Downloads: ${names.length} of ${names.length} files sent by the server.`);
});
