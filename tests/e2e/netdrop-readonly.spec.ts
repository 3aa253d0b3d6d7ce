/**
 * The server started again on the same workspace, now read-only (its file no longer writable), while
 * an annotator's page is open: once the page reconnects its label keys give nothing and say why once,
 * as on a page opened read-only — not each label sent, refused and listed as not saved. Started again
 * writable, the keys label again, without a reload.
 *
 * Read-only as a user meets it: the file not writable (read-only-file.ts; skipped, saying why, where it cannot be made so).
 */
import { expect, test } from '@playwright/test';
import { openAnnotate } from './annotate-page';
import { useReadOnlyFile } from './read-only-file';
import { startServe } from './serve';
import { useServedSmallPool } from './small-pool';

// Registered before the workspace's teardown, so the file is writable again when its folder is removed.
const readOnlyFile = useReadOnlyFile();
const served = useServedSmallPool('netdrop-readonly', 127, (ps) => ps.map(([q, c]) => `${q},${c},other,0`));

const NOTHING_GIVEN = 'Nothing given: this workspace opened read-only. Once it can be written, open it again.';

test('restarted read-only: the keys say so at once; restarted writable: they label again, no reload', async () => {
  test.setTimeout(120_000);
  const { page } = served;
  const restart = async (): Promise<void> => {
    await served.server!.stop();
    served.server = undefined;
    await expect(page.getByTestId('connection')).not.toHaveAttribute('data-state', 'open', { timeout: 15_000 });
  };
  await openAnnotate(page, 'ann', 'p');
  await restart();
  readOnlyFile.make(served.workspace);
  served.server = await startServe({ workspace: served.workspace, port: served.port, create: false });
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'open', { timeout: 30_000 });
  await expect(page.getByTestId('header-readonly')).toBeVisible({ timeout: 15_000 });
  await page.keyboard.press('1');
  await page.keyboard.press('0');
  await expect(page.getByTestId('annotate-notice')).toHaveText(NOTHING_GIVEN);
  await expect(page.getByTestId('failed-labels')).toHaveCount(0);
  await expect(page.getByTestId('row-state-0')).toHaveAttribute('data-state', 'none');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

  await restart();
  readOnlyFile.writableAgain();
  served.server = await startServe({ workspace: served.workspace, port: served.port, create: false });
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'open', { timeout: 30_000 });
  await expect(page.getByTestId('header-readonly')).toHaveCount(0, { timeout: 15_000 });
  await page.keyboard.press('Home');
  await page.keyboard.press('1');
  await expect(page.getByTestId('row-state-0')).toHaveAttribute('data-state', 'saved');
});
