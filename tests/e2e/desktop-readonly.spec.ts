/**
 * A workspace that opens read-only in the desktop app (through the fake Electron shell): the forms
 * that would change it — import, new pool, train a model — are replaced by one line saying why, and
 * Annotate says labels cannot be given, while what can be read stays (statistics, the pools table,
 * the models, the pool's queries). Before, the forms were offered and
 * their action was then refused as read-only; and each label key (each ruling in Review) was sent,
 * refused, and listed as not saved: now nothing is sent, and a notice says why once.
 *
 * Read-only as a user meets it: the file not writable (read-only-file.ts; skipped, saying why, where it cannot be made so).
 */
import path from 'node:path';
import { useReadOnlyFile } from './read-only-file';
import { expect, test } from '@playwright/test';
import { useDesktopApp } from './desktop-app';
import { buildLabeledPool } from './labeled-pool';
import { qpairs } from './small-pool';

test.describe.configure({ mode: 'serial' });

// Registered before the workspace's teardown, so the file is writable again when its folder is removed.
const readOnlyFile = useReadOnlyFile();

const app = useDesktopApp('desktop-readonly', {
  prepare(d) {
    const workspace = path.join(d, 'w.qpairs');
    buildLabeledPool(d, workspace, 10);
    qpairs('annotators', 'add', workspace, 'judy', '--role', 'judge');
    readOnlyFile.make(workspace);
    return workspace;
  },
});

test('a read-only workspace offers no import, new pool or training form: one line says why; reading still works', async () => {
  const { page } = app;
  try {
    await expect(page.getByTestId('header-readonly')).toBeVisible();

    await page.getByTestId('tab-workspace').click();
    await expect(page.getByTestId('stat-questions')).toHaveText('40');
    await expect(page.getByTestId('import-readonly')).toHaveText(
      'This workspace opened read-only, so importing (or undoing an import) cannot be done here. Once it can be written, open it again.',
    );
    await expect(page.getByTestId('import-start')).toHaveCount(0);
    await expect(page.getByTestId('import-format')).toHaveCount(0);

    await page.getByTestId('tab-pools').click();
    await expect(page.getByTestId('pool-row-big')).toBeVisible();
    await expect(page.getByTestId('new-pool-readonly')).toContainText('so making a pool cannot be done here');

    await page.getByTestId('tab-models').click();
    await expect(page.getByTestId('train-readonly')).toContainText('so training a model cannot be done here');
    await expect(page.getByTestId('model-train')).toHaveCount(0);

    // Annotate still shows the pool's queries; the note says labels cannot be given.
    await page.getByTestId('tab-annotate').click();
    await expect(page.getByTestId('annotate-readonly')).toContainText('so labeling cannot be done here');
    await expect(page.getByTestId('annotate-pool')).toHaveValue('big');
    // A label key gives nothing and says why once: no "not saved" row per key (each was sent and refused).
    await page.getByTestId('annotator-input').fill('ann');
    await page.getByTestId('annotator-input').press('Enter');
    await expect(page.getByTestId('query-title')).toBeVisible();
    await page.keyboard.press('1');
    await page.keyboard.press('0');
    await expect(page.getByTestId('annotate-notice')).toHaveText('Nothing given: this workspace opened read-only. Once it can be written, open it again.');
    await expect(page.getByTestId('failed-labels')).toHaveCount(0);

    // So does a judge's ruling in Review.
    await page.getByTestId('tab-review').click();
    await page.getByTestId('review-pool').selectOption('big');
    await page.getByTestId('review-judge').selectOption('judy');
    await expect(page.getByTestId('review-current')).toBeVisible();
    await page.keyboard.press('1');
    await expect(page.getByTestId('review-notice')).toHaveText('Nothing given: this workspace opened read-only. Once it can be written, open it again.');
    await expect(page.getByTestId('failed-labels')).toHaveCount(0);
  } finally {
    readOnlyFile.writableAgain();
  }
});
