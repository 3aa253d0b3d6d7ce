/**
 * Data a screen once failed to draw, in the desktop app (through the fake Electron shell, as
 * desktop-shell.spec.ts): each such failure stopped the whole screen (ScreenBoundary, pinned by
 * screen-boundary.spec.ts, keeps it to that screen) and was fixed where it was.
 *
 * Pool big's "learn as we label" setting damaged (its models `{}` where a list of model kinds belongs,
 * as a row written by another program could be): Evaluate stopped ("….models.map is not a function");
 * its Live panel now reads such a list as none and says the setting could not be read.
 *
 * A model row whose report and training record are `{}`: the Models screen stopped the same way until
 * models.list learnt to list such rows; it now draws the row with what it has and "—" for the rest.
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
    const damage =
      `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(workspace)}); d.prepare("UPDATE models SET report = '{}', training = '{}'").run(); ` +
      `d.prepare("INSERT INTO live_training(pool_id, enabled, every_labels, idle_seconds, models) SELECT id, 0, 20, 30, '{}' FROM pools WHERE name = 'big'").run(); d.close();`;
    execFileSync(path.join(root, 'node_modules', '.bin', 'node'), ['-e', damage], { cwd: root });
    return workspace;
  },
  onContext: (context) => context.on('page', (p) => p.on('pageerror', (e) => pageErrors.push(e.message))),
});

test('Evaluate draws a pool whose learn-as-we-label setting is damaged: its Live panel says the setting could not be read', async () => {
  const { page } = app;
  await page.getByTestId('tab-evaluate').click();
  await expect(page.getByTestId('live-unreadable')).toHaveText("This pool's stored setting could not be read (its models): read as none. Choose again to save it.");
  await expect(page.getByTestId('screen-error')).toHaveCount(0);
  for (const m of ['fused', 'ltr', 'tfidf', 'dae']) await expect(page.getByTestId(`live-model-${m}`)).not.toBeChecked();
  // Choosing a model saves the setting whole again.
  await page.getByTestId('live-model-tfidf').check();
  await expect(page.getByTestId('live-model-tfidf')).toBeChecked();
  await expect(page.getByTestId('live-unreadable')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test('the Models screen draws a model row whose report and training record are {}: what it has, "—" for the rest', async () => {
  const { page } = app;
  await page.getByTestId('tab-models').click();
  await expect(page.getByTestId('model-row-tf')).toBeVisible();
  await expect(page.getByTestId('screen-error')).toHaveCount(0);
  await expect(page.getByTestId('model-kind-tf')).toHaveText('tfidf');
  await expect(page.getByTestId('model-epoch-tf')).toHaveText('— / —');
  await expect(page.getByTestId('model-mrr-tf')).toHaveText('—');
  await expect(page.getByTestId('model-trained-on-tf')).toContainText('— (— positive, — negative pairs)');
  await expect(page.getByTestId('model-trained-on-tf')).toContainText('dev: — · seed —');
  await page.getByTestId('model-curves-tf').click();
  await expect(page.getByTestId('model-curves-panel-tf')).toBeVisible();
  await expect(page.getByTestId('screen-error')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});
