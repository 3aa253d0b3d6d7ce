/**
 * First run opens ready to label (the README's promise): with no workspace given and nothing
 * remembered, serve mode creates the demo workspace and a fresh browser lands on Annotate on the
 * demo pool, under the machine user's name, so the first key press labels. Later runs reopen the
 * last workspace and the last screen.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServe, type ServeProcess } from './serve';

const PORT = Number(process.env.QPAIRS_E2E_PORT ?? 27613) + 20;
let dir = '';
let server: ServeProcess | null = null;

test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-e2e-first-'));
});
test.afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('a first run lands on Annotate on the demo pool and labels with the first key', async ({ browser }) => {
  const config = path.join(dir, 'config');
  server = await startServe({ port: PORT, configDir: config });
  expect(server.log()).toContain('demo.qpairs');
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page).toHaveURL(/#annotate$/);
  await expect(page.getByTestId('annotate-pool')).toHaveValue('demo');
  await expect(page.getByTestId('annotator-input')).not.toHaveValue('');
  await expect(page.getByTestId('query-title')).toBeVisible();
  const first = page.getByTestId('candidate-row-0');
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('1');
  await expect(first).toHaveAttribute('data-state', 'saved');
  await page.screenshot({ path: path.join('test-results', 'screens', 'first-run.png') });

  // The screen is remembered: a later visit opens where the user left.
  await page.keyboard.press('Alt+6');
  await expect(page).toHaveURL(/#evaluate$/);
  const later = await context.newPage();
  await later.goto('/');
  await expect(later).toHaveURL(/#evaluate$/);
  await context.close();
  await server.stop();
  server = null;

  // Serving another workspace, then starting with none: that one is reopened, not the demo.
  const other = path.join(dir, 'other.qpairs');
  server = await startServe({ port: PORT, configDir: config, workspace: other });
  await server.stop();
  expect(JSON.parse(readFileSync(path.join(config, 'recent.json'), 'utf8'))).toEqual({ lastWorkspace: other, recent: [other] });
  server = await startServe({ port: PORT, configDir: config });
  expect(server.log()).toContain(`reopening the last workspace, ${other}`);
  await server.stop();
  server = null;

  // A file serve mode refuses (here not a workspace; a newer QPairs' workspace alike) is not remembered:
  // the next start without a path still reopens the last one that opened, not the refusal.
  const notes = path.join(dir, 'notes.qpairs');
  writeFileSync(notes, 'not a workspace\n');
  await expect(startServe({ port: PORT, configDir: config, workspace: notes, create: false })).rejects.toThrow(/exited \(1\) before listening/);
  expect(readFileSync(notes, 'utf8')).toBe('not a workspace\n');
  expect(JSON.parse(readFileSync(path.join(config, 'recent.json'), 'utf8'))).toEqual({ lastWorkspace: other, recent: [other] });
  server = await startServe({ port: PORT, configDir: config });
  expect(server.log()).toContain(`reopening the last workspace, ${other}`);
  await server.stop();
  server = null;

  // The last workspace moved away: the demo is served, and the log says which workspace is gone.
  rmSync(other);
  server = await startServe({ port: PORT, configDir: config });
  expect(server.log()).toContain(`the last workspace, ${other}, is no longer there (moved, renamed or deleted): opening the demo workspace instead`);
  expect(server.log()).toContain('demo.qpairs');
  await server.stop();
  server = null;
});

test('an empty workspace opens on Workspace for its owner (nothing to label yet); the pool screens say to create a pool', async ({ browser }) => {
  server = await startServe({ port: PORT, configDir: path.join(dir, 'config2'), workspace: path.join(dir, 'empty.qpairs') });
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page).toHaveURL(/#workspace$/);
  // Where the demo is: made by a first run of serve mode too (this one's went to its QPAIRS_CONFIG_DIR), not only the desktop app's.
  await expect(page.getByTestId('workspace-empty')).toContainText('npm run serve');
  await expect(page.getByTestId('workspace-empty')).toContainText('QPAIRS_CONFIG_DIR');
  // No empty Pool select and no button that silently does nothing: each screen says what to do.
  const empty = 'No pools yet: create one on the Pools screen.';
  for (const [tab, id] of [
    ['agreement', 'agreement-no-pools'],
    ['evaluate', 'eval-no-pools'],
    ['export', 'export-no-pools'],
    ['review', 'review-no-pools'],
  ] as const) {
    await page.getByTestId(`tab-${tab}`).click();
    await expect(page.getByTestId(`${id}-text`)).toHaveText(empty);
    await expect(page.locator('select')).toHaveCount(0);
    await page.screenshot({ path: path.join('test-results', 'screens', `empty-${tab}.png`) });
  }
  await page.getByTestId('tab-annotate').click();
  await expect(page.getByTestId('annotate-empty')).toHaveText(empty);
  await page.getByTestId('tab-export').click();
  await page.getByTestId('export-no-pools-open-pools').click();
  await expect(page).toHaveURL(/#pools$/);
  await context.close();
  await server.stop();
  server = null;
});
