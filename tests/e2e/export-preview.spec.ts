/**
 * The Export screen's preview of a large pool (serve mode): the files' first lines come at once, the
 * datasheet's agreement fills in with a bar (its bootstrap's resamples) and Cancel; choosing another
 * format mid-way ends with that format's preview, never the older one's; Cancel (from the keyboard)
 * leaves the files, the Export button and a "Compute the agreement" button that takes the focus. The
 * preview was one request: ~10 s for 40,000 pairs with nothing on screen and no way to stop it.
 */
import { expect, test } from '@playwright/test';
import { buildLabeledPool } from './labeled-pool';
import { useServedWorkspace } from './served-workspace';

test.describe.configure({ mode: 'serial' });

let firstCandidate = '';
const served = useServedWorkspace('export-preview', 83, {
  workspace: 'w.qpairs',
  // Three annotators label every pair: the datasheet's agreement bootstrap runs over 15,000 pairs.
  prepare: ({ dir, workspace }) => void ({ firstCandidate } = buildLabeledPool(dir, workspace!, 1500)),
});
const shots = process.env.QPAIRS_E2E_SHOTS;

/** A label given through the API: the kept datasheet agreement is stale, the next preview computes its own. */
async function giveLabel(value: string): Promise<void> {
  const r = await served.page.request.post('/api/invoke', {
    headers: { 'X-QPairs': '1' },
    data: { command: 'label.set', args: { pool: 'big', queryId: 'g0', candidateId: firstCandidate, annotator: 'ann', value } },
  });
  expect(r.ok()).toBe(true);
}

test("the files' first lines at once, the agreement with a bar; another format mid-way ends with that format's preview", async () => {
  test.setTimeout(120_000);
  const page = served.page;
  await page.goto('/#export');
  await page.getByTestId('export-format').selectOption('csv');
  const progress = page.getByTestId('preview-progress');
  const datasheet = page.getByTestId('export-datasheet');
  // The files before the bootstrap: the datasheet's agreement section says it is being computed.
  await expect(page.getByTestId('export-preview-big.csv')).toContainText('query_id', { timeout: 60_000 });
  await expect(datasheet).toContainText('Not in this preview yet');
  await expect(progress).toBeVisible();
  await expect(page.getByTestId('preview-stage')).toContainText("the datasheet's agreement bootstrap:", { timeout: 60_000 });
  const bar = progress.getByRole('progressbar');
  await expect(bar).toHaveAttribute('aria-valuemax', '9000');
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
  if (shots) await page.screenshot({ path: `${shots}/computing.png`, fullPage: true });
  // Another format mid-way: its files come, and the screen ends with its whole preview, not the csv's.
  await page.getByTestId('export-format').selectOption('qrels');
  await expect(page.getByTestId('export-preview-big.qrels')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('export-preview-big.csv')).toHaveCount(0);
  await expect(datasheet).toContainText('95% CIs', { timeout: 60_000 });
  await expect(progress).toHaveCount(0);
  await expect(datasheet).toContainText('(qrels export)');
  await expect(page.getByTestId('export-preview-big.qrels')).toBeVisible();
  await expect(page.getByTestId('export-preview-big.csv')).toHaveCount(0);
  await expect(page.getByTestId('preview-stopped')).toHaveCount(0);
  if (shots) await page.screenshot({ path: `${shots}/done.png`, fullPage: true });
});

test('Cancel from the keyboard stops the agreement: the files stay, Export works, "Compute the agreement" takes the focus and computes it', async () => {
  test.setTimeout(120_000);
  const page = served.page;
  await giveLabel('1');
  const progress = page.getByTestId('preview-progress');
  await expect(page.getByTestId('preview-stage')).toContainText("the datasheet's agreement bootstrap:", { timeout: 60_000 });
  // From the keyboard: Export → Tab → the preview's Cancel.
  await page.getByTestId('export-write').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('preview-cancel')).toBeFocused();
  await page.keyboard.press('Enter');
  const stopped = page.getByTestId('preview-stopped');
  await expect(stopped).toContainText('Cancelled: the datasheet below lacks its agreement section');
  await expect(progress).toHaveCount(0);
  const again = page.getByTestId('preview-agreement-again');
  await expect(again).toBeFocused();
  await expect(page.getByTestId('export-preview-big.qrels')).toBeVisible();
  await expect(page.getByTestId('export-datasheet')).toContainText('Not in this preview yet');
  await expect(page.getByTestId('export-write')).toBeEnabled();
  await expect(page.getByTestId('export-preview-error')).toHaveCount(0);
  if (shots) await page.screenshot({ path: `${shots}/cancelled.png`, fullPage: true });
  await page.keyboard.press('Enter');
  await expect(progress).toBeVisible();
  await expect(page.getByTestId('export-datasheet')).toContainText('95% CIs', { timeout: 60_000 });
  await expect(stopped).toHaveCount(0);
  await expect(progress).toHaveCount(0);
});
