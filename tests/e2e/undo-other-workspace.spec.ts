/**
 * A page reloaded after the server was started again on another workspace at the same address: its
 * undo history (kept in the tab's sessionStorage) held the labels given in the first. Each u then
 * refused one of them ("Undo failed: … not undone"); now they are dropped in one go as the page
 * loads, and u says so once.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { openAnnotate } from './annotate-page';
import { startServe } from './serve';
import { buildSmallPool, useServedSmallPool } from './small-pool';

// Another annotator's labels only: ann starts with every pair unlabeled.
const served = useServedSmallPool('undo-other-ws', 175, (ps) => ps.map(([q, c]) => `${q},${c},other,0`));

test('reloaded onto another workspace: u says once that the earlier workspace’s labels left its history, and refuses none of them', async () => {
  test.setTimeout(120_000);
  const page = served.page;
  await openAnnotate(page, 'ann', 'p');
  await page.keyboard.press('1');
  await expect(page.getByTestId('row-state-0')).toHaveAttribute('data-state', 'saved');
  await page.keyboard.press('1');
  await expect(page.getByTestId('row-state-1')).toHaveAttribute('data-state', 'saved');
  // Workspace B, built as A was, served at the same address.
  const otherDir = path.join(served.dir, 'b');
  mkdirSync(otherDir);
  const other = buildSmallPool(otherDir, (ps) => ps.map(([q, c]) => `${q},${c},other,0`));
  await served.server!.stop();
  served.server = await startServe({ workspace: other.workspace, port: served.port, create: false });
  await page.reload();
  await openAnnotate(page, 'ann', 'p');
  await page.keyboard.press('u');
  await expect(page.getByTestId('annotate-notice')).toHaveText(
    "Nothing to undo here: this tab's 2 earlier changes were given in another workspace than the one the server now serves (w.qpairs), so they were dropped from u's history when the page loaded; u acts on changes made here.",
  );
  await page.keyboard.press('u');
  await expect(page.getByTestId('annotate-notice')).toHaveText('Nothing to undo: no labels given in this session.');
  // A label given in B is undone as ever.
  await page.keyboard.press('Home');
  await page.keyboard.press('1');
  await expect(page.getByTestId('row-state-0')).toHaveAttribute('data-state', 'saved');
  await page.keyboard.press('u');
  await expect(page.getByTestId('annotate-notice')).toContainText('Undone: the label of');
  await expect(page.getByTestId('row-state-0')).toHaveAttribute('data-state', 'none');
});
