/**
 * A long export on the Export screen (serve mode): a bar says its stage — the datasheet's agreement
 * bootstrap with its resamples done — and Cancel (from the keyboard) stops it with nothing
 * downloaded, focus back on Export. The screen said "Exporting…" with neither for the whole export
 * (~23 s for 40,000 pairs), and only leaving the page stopped it.
 */
import { expect, test } from '@playwright/test';
import { buildLabeledPool } from './labeled-pool';
import { useServedWorkspace } from './served-workspace';

test.describe.configure({ mode: 'serial' });

let firstCandidate = '';
const served = useServedWorkspace('export-cancel', 77, {
  workspace: 'w.qpairs',
  // Three annotators label every pair: the datasheet's agreement bootstrap runs over 15,000 pairs.
  prepare: ({ dir, workspace }) => void ({ firstCandidate } = buildLabeledPool(dir, workspace!, 1500)),
});

test('a long export shows its stage and progress, and Cancel stops it: nothing downloaded, focus back on Export', async () => {
  test.setTimeout(120_000);
  const page = served.page;
  let downloads = 0;
  page.on('download', () => downloads++);
  await page.goto('/#export');
  await page.getByTestId('export-format').selectOption('csv');
  await expect(page.getByTestId('export-datasheet')).toContainText('Agreement', { timeout: 60_000 });
  // The preview's agreement is kept until the workspace changes (an export after it took under a second):
  // a label given since makes the export compute its own, the long part of a large pool's export.
  await page.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'label.set', args: { pool: 'big', queryId: 'g0', candidateId: firstCandidate, annotator: 'ann', value: '1' } } });
  const write = page.getByTestId('export-write');
  await write.focus();
  await page.keyboard.press('Enter');
  const progress = page.getByTestId('export-progress');
  await expect(progress).toBeVisible();
  await expect(write).toHaveText('Exporting…');
  await expect(page.getByTestId('export-stage')).toContainText("the datasheet's agreement bootstrap:", { timeout: 60_000 });
  await expect(page.getByTestId('export-stage')).toHaveText(/resamples$/);
  const bar = progress.getByRole('progressbar');
  // 3 annotator pairs' kappa CIs and the 6 pool-level statistics, 1000 resamples each.
  await expect(bar).toHaveAttribute('aria-valuemax', '9000');
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
  // From the keyboard: Export (still focused, aria-disabled) → Tab → Cancel.
  await expect(write).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('export-cancel')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('export-error')).toContainText('export cancelled: nothing was written');
  await expect(progress).toHaveCount(0);
  await expect(page.getByTestId('export-cancel')).toHaveCount(0);
  await expect(write).toHaveText('Export (download)');
  await expect(write).toBeFocused();
  expect(downloads).toBe(0);
});
