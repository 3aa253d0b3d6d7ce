/**
 * Opening a read-only workspace from inside the desktop app (Open workspace…, through the fake
 * Electron shell): it opens read-only, as it would at start — the read-only chip and notice, no lock
 * taken (nothing can write it) — and the workspace left releases its lock; opening a writable one
 * again takes its lock and the chip goes.
 *
 * Read-only as a user meets it: the file not writable (read-only-file.ts; skipped, saying why, where it cannot be made so).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { useDesktopApp } from './desktop-app';
import { useReadOnlyFile } from './read-only-file';
import { qpairs } from './small-pool';

test.describe.configure({ mode: 'serial' });

// Registered before the workspace's teardown, so the file is writable again when its folder is removed.
const readOnlyFile = useReadOnlyFile();

let a = '';
let r = '';
const app = useDesktopApp('desktop-open-readonly', {
  prepare(d) {
    a = path.join(d, 'a.qpairs');
    qpairs('init', a);
    r = path.join(d, 'r.qpairs');
    qpairs('init', r);
    readOnlyFile.make(r);
    return a;
  },
});

test('a read-only workspace opens read-only with no lock; the one left releases its lock; a writable one takes its lock again', async () => {
  const { page, shell } = app;
  await expect(page.getByTestId('workspace-name')).toHaveText('a.qpairs');
  await expect(page.getByTestId('header-readonly')).toHaveCount(0);
  expect(existsSync(`${a}.lock`)).toBe(true);

  shell.answerDialogs([[r]]);
  await page.getByTestId('workspace-menu').click();
  await page.getByTestId('workspace-open').click();
  await expect(page.getByTestId('workspace-name')).toHaveText('r.qpairs');
  await expect(page.getByTestId('header-readonly')).toBeVisible();
  await expect(page.getByTestId('open-notice-read-only')).toBeVisible();
  expect(existsSync(`${r}.lock`)).toBe(false);
  expect(existsSync(`${a}.lock`)).toBe(false);

  await page.getByTestId('workspace-menu').click();
  await page.getByTestId('workspace-recent-item').filter({ hasText: 'a.qpairs' }).click();
  await expect(page.getByTestId('workspace-name')).toHaveText('a.qpairs');
  await expect(page.getByTestId('header-readonly')).toHaveCount(0);
  expect(JSON.parse(readFileSync(`${a}.lock`, 'utf8')).command).toBe(`QPairs desktop app (${a})`);
});
