/**
 * The desktop app started without a path (through the fake Electron shell, as desktop-shell.spec.ts)
 * when the workspace it opened last time has since been moved or deleted: it opens the demo workspace,
 * and says so above every screen, naming the workspace it could not find. Before, it opened the demo
 * without a word, and a user could label in it believing it was their own workspace.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { useDesktopApp } from './desktop-app';

test.describe.configure({ mode: 'serial' });

let moved = '';
const app = useDesktopApp('desktop-last-workspace', {
  prepare(d) {
    moved = path.join(d, 'moved away.qpairs');
    const config = path.join(d, 'home', '.qpairs');
    mkdirSync(config, { recursive: true });
    writeFileSync(path.join(config, 'recent.json'), JSON.stringify({ lastWorkspace: moved }) + '\n');
    return null;
  },
});

test('the last workspace is gone: the demo opens, and the app says which workspace it could not find', async () => {
  const { page, shell } = app;
  await expect(page.getByTestId('workspace-name')).toHaveText('demo.qpairs');
  const notice = page.getByTestId('open-notice-last-missing');
  await expect(notice).toContainText('Last workspace not found.');
  await expect(notice).toContainText(`The workspace opened last time, ${moved}, is no longer there (moved, renamed or deleted): the demo workspace`);
  await expect(notice).toContainText('npm start -- PATH');
  // It stays above every screen until dismissed.
  await page.getByTestId('tab-pools').click();
  await expect(notice).toBeVisible();
  await page.getByTestId('open-notice-dismiss-last-missing').click();
  await expect(notice).toHaveCount(0);
  expect(shell.errorBoxes).toEqual([]);
});
