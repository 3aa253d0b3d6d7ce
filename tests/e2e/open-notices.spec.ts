/**
 * What opening the workspace did reaches its owner in the app, not only the server's log: a
 * workspace written by an older QPairs is upgraded when served, and the app says so above every
 * screen, without the server-side path, until dismissed (a reload keeps it dismissed).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { startServe, type ServeProcess } from './serve';

const PORT = Number(process.env.QPAIRS_E2E_PORT ?? 27613) + 27;
let dir = '';
let server: ServeProcess | null = null;

test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-e2e-notices-'));
});
test.afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('an upgraded workspace: the owner sees the notice on every screen until dismissed', async ({ browser }) => {
  const file = path.join(dir, 'old.qpairs');
  writeFileSync(file, gunzipSync(readFileSync(path.resolve(import.meta.dirname, '../fixtures/workspaces/v10.qpairs.gz'))));
  server = await startServe({ port: PORT, workspace: file, create: false, configDir: path.join(dir, 'config') });
  expect(server.log()).toContain('upgraded workspace');
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  await page.goto('/#workspace');
  const notice = page.getByTestId('open-notice-upgraded');
  await expect(notice).toContainText('Workspace upgraded.');
  await expect(notice).toContainText('from workspace schema 10 to');
  await expect(notice).not.toContainText(dir);
  await expect(notice).toHaveAttribute('role', 'status');
  await page.keyboard.press('Alt+6');
  await expect(page).toHaveURL(/#evaluate$/);
  await expect(notice).toBeVisible();
  await page.screenshot({ path: path.join('test-results', 'screens', 'open-notice.png') });

  // Dismissed by keyboard: gone, and a reload of the tab keeps it gone.
  await page.getByTestId('open-notice-dismiss-upgraded').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('open-notices')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('tab-evaluate')).toBeVisible();
  await expect(page.getByTestId('open-notices')).toHaveCount(0);
  await context.close();
});

test('a page left open while its server is restarted shows what the new open did, without a reload', async ({ browser }) => {
  const file = path.join(dir, 'restarted.qpairs');
  const config = path.join(dir, 'config-restart');
  await server?.stop(); // the first test's, on the same port
  server = await startServe({ port: PORT, workspace: file, configDir: config });
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  await page.goto('/#workspace');
  await expect(page.getByTestId('stats')).toBeVisible();
  await expect(page.getByTestId('open-notices')).toHaveCount(0);
  // The server stops; an older workspace takes the file's place; the next server upgrades it as it opens.
  await server.stop();
  server = null;
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  writeFileSync(file, gunzipSync(readFileSync(path.resolve(import.meta.dirname, '../fixtures/workspaces/v10.qpairs.gz'))));
  server = await startServe({ port: PORT, workspace: file, create: false, configDir: config });
  expect(server.log()).toContain('upgraded workspace');
  // The same page, reconnected: the notice is there (it used to appear only after a reload).
  await expect(page.getByTestId('open-notice-upgraded')).toContainText('from workspace schema 10 to', { timeout: 30_000 });
  await context.close();
  await server.stop();
  server = null;
});
