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
/** The preview jobs' events the page received on its event stream, in order. */
const previewEvents: Array<{ event: string; jobId: string; ok?: boolean; cancelled?: boolean; message?: string }> = [];

/** A label given through the API: the kept datasheet agreement is stale, the next preview computes its own. */
async function giveLabel(value: string): Promise<void> {
  const r = await served.page.request.post('/api/invoke', {
    headers: { 'X-QPairs': '1' },
    data: { command: 'label.set', args: { pool: 'big', queryId: 'g0', candidateId: firstCandidate, annotator: 'ann', value } },
  });
  expect(r.ok()).toBe(true);
}

/** A label given, then the preview's agreement step under way again: the id of its job. */
async function labelThenBootstrap(value: string): Promise<string> {
  await giveLabel(value);
  await expect(served.page.getByTestId('preview-stage')).toContainText("the datasheet's agreement bootstrap:", { timeout: 60_000 });
  return previewEvents.filter((e) => e.event === 'job.progress' && e.message?.startsWith("the datasheet's agreement bootstrap")).at(-1)!.jobId;
}

/** The job.done event of preview job `id`, if it came. */
const doneOf = (id: string): (typeof previewEvents)[number] | undefined => previewEvents.find((e) => e.event === 'job.done' && e.jobId === id);

test("the files' first lines at once, the agreement with a bar; another format mid-way ends with that format's preview", async () => {
  test.setTimeout(120_000);
  const page = served.page;
  page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      const m = JSON.parse(String(payload)) as { event?: string; payload?: { kind?: string; jobId: string; ok?: boolean; cancelled?: boolean; message?: string } };
      if ((m.event === 'job.progress' || m.event === 'job.done') && m.payload?.kind === 'preview') previewEvents.push({ event: m.event, ...m.payload });
    }),
  );
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
  await labelThenBootstrap('1');
  const progress = page.getByTestId('preview-progress');
  // From the keyboard: Export → Tab → the preview's Cancel.
  await page.getByTestId('export-write').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('preview-cancel')).toBeFocused();
  const cancels: string[] = [];
  const countCancel = (r: import('@playwright/test').Request): void => void (r.postData()?.includes('"job.cancel"') && cancels.push(r.postData()!));
  page.on('request', countCancel);
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
  page.off('request', countCancel);
  // Asked once, though the job's events kept coming until it stopped.
  expect(cancels).toHaveLength(1);
  await page.keyboard.press('Enter');
  await expect(progress).toBeVisible();
  await expect(page.getByTestId('export-datasheet')).toContainText('95% CIs', { timeout: 60_000 });
  await expect(stopped).toHaveCount(0);
  await expect(progress).toHaveCount(0);
});

test('labels given while the agreement is computed do not restart it: it ends, then the preview is computed once more, the datasheet whole', async () => {
  test.setTimeout(120_000);
  const page = served.page;
  // A label: the whole preview again (the one shown stays meanwhile); more labels while its bootstrap runs.
  const running = await labelThenBootstrap('0');
  await giveLabel('1');
  await giveLabel('0');
  await expect(page.getByTestId('export-datasheet')).toContainText('95% CIs', { timeout: 60_000 });
  await expect(page.getByTestId('preview-progress')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId('export-datasheet')).toContainText('(qrels export)');
  // The job running when the labels came ended with its result, not cancelled; at most one more ran after it, to the end.
  expect(doneOf(running)).toMatchObject({ ok: true });
  const after = [...new Set(previewEvents.slice(previewEvents.findIndex((e) => e.jobId === running)).map((e) => e.jobId))].filter((id) => id !== running);
  expect(after.length).toBeLessThanOrEqual(1);
  for (const id of after) expect(doneOf(id)).toMatchObject({ ok: true });
});

test("Export while the agreement is computed: the preview's bootstrap stops for it, the export runs at once, and the agreement comes back after it", async () => {
  test.setTimeout(120_000);
  const page = served.page;
  const running = await labelThenBootstrap('1');
  const download = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByTestId('export-write').click();
  // The export's own bar and stage, beside a preview that says where its agreement went (it waited behind
  // the preview's bootstrap, with "Exporting…" and no bar, until that was over).
  await expect(page.getByTestId('export-progress')).toBeVisible();
  await expect(page.getByTestId('preview-paused')).toContainText('left to the export under way');
  await expect.poll(() => doneOf(running)).toMatchObject({ cancelled: true });
  await download;
  await expect(page.getByTestId('export-done')).toBeVisible({ timeout: 60_000 });
  // Then the preview's agreement again, from the export's: whole, with no bootstrap of its own to wait for.
  await expect(page.getByTestId('export-datasheet')).toContainText('95% CIs', { timeout: 60_000 });
  await expect(page.getByTestId('preview-paused')).toHaveCount(0);
  await expect(page.getByTestId('preview-progress')).toHaveCount(0);
  await expect(page.getByTestId('preview-stopped')).toHaveCount(0);
});
