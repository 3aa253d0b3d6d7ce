/**
 * A screen that fails while it renders, in the desktop app (through the fake Electron shell, as
 * desktop-shell.spec.ts): the header and tabs stay, the screen says what failed, and the other screens
 * work. Before, React removed the whole app: a blank window, no tabs, nothing to do but restart.
 *
 * The failure used: a stored model row whose report and training record are `{}` (a row damaged, or
 * written by another program), which the Models screen cannot draw ("Cannot read properties of
 * undefined (reading 'length')"). Should that screen learn to draw such a row, this spec needs
 * another failing screen.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { useDesktopApp } from './desktop-app';
import { buildLabeledPool } from './labeled-pool';
import { qpairs } from './small-pool';

const root = path.resolve(import.meta.dirname, '../..');

test.describe.configure({ mode: 'serial' });

const pageErrors: string[] = [];
const app = useDesktopApp('desktop-screen-error', {
  prepare(d) {
    const workspace = path.join(d, 'w.qpairs');
    buildLabeledPool(d, workspace, 30);
    qpairs('train', workspace, '--model', 'tfidf', '--name', 'tf', '--train-pool', 'big');
    const damage = `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(workspace)}); d.prepare("UPDATE models SET report = '{}', training = '{}'").run(); d.close();`;
    execFileSync(path.join(root, 'node_modules', '.bin', 'node'), ['-e', damage], { cwd: root });
    return workspace;
  },
  onContext: (context) => context.on('page', (p) => p.on('pageerror', (e) => pageErrors.push(e.message))),
});

test('a screen that fails to render says so in its place; the tabs and the other screens keep working', async () => {
  const { page } = app;
  await page.getByTestId('tab-models').click();
  const failed = page.getByTestId('screen-error');
  await expect(failed).toBeVisible();
  await expect(failed).toHaveAttribute('role', 'alert');
  await expect(failed).toContainText("This screen stopped: Cannot read properties of undefined (reading 'length').");
  await expect(page.getByTestId('tab-models')).toHaveAttribute('aria-selected', 'true');

  // The other screens work, and coming back tries the screen again (it fails the same way: same data).
  await page.getByTestId('tab-workspace').click();
  await expect(page.getByTestId('stat-questions')).toHaveText('120');
  await expect(failed).toHaveCount(0);
  await page.getByTestId('tab-browse').click();
  await expect(page.getByTestId('tab-browse')).toHaveAttribute('aria-selected', 'true');
  await expect(failed).toHaveCount(0);
  await page.getByTestId('tab-models').click();
  await expect(failed).toBeVisible();
  await page.getByTestId('screen-error-retry').click();
  await expect(failed).toBeVisible();
  await page.getByTestId('tab-annotate').click();
  await expect(page.getByTestId('annotate-pool')).toHaveValue('big');
  // Caught by the screen, not left to take the page down.
  expect(pageErrors).toEqual([]);
});
