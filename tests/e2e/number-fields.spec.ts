/**
 * Number fields can be typed over: emptying one to type a new value leaves it empty (marked
 * invalid) instead of snapping back to a default under the caret, a value out of range is marked
 * and not used, and leaving a field that holds no valid number puts the last good value back.
 * Before, the Pools screen's depth turned '' into 20 at once, so selecting it, deleting and typing
 * 50 gave 2050, and the agreement resamples turned 0 into 1 while typing 0 of 1000.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { useServedSmallPool } from './small-pool';

test.describe.configure({ mode: 'serial' });

const root = path.resolve(import.meta.dirname, '../..');
// Pool p fully labeled (gold): its comparison of bm25 and rev has queries to count.
const served = useServedSmallPool('number-fields', 32, (pairs) => pairs.map(([q, c], i) => `${q},${c},gold,${i % 4 === 0 ? 1 : 0}`));

test('the depth of a new pool can be deleted and typed over, and the pool gets what was typed', async () => {
  const page = served.page;
  await page.goto('/#pools');
  const depth = page.getByTestId('pool-depth');
  await expect(depth).toHaveValue('20');
  await depth.click();
  await depth.press('End');
  await depth.press('Backspace');
  await depth.press('Backspace');
  await expect(depth).toHaveValue('');
  await expect(depth).toHaveAttribute('aria-invalid', 'true');
  await depth.pressSequentially('5');
  await expect(depth).toHaveValue('5');
  await expect(depth).not.toHaveAttribute('aria-invalid', /.*/);
  await depth.pressSequentially('0');
  await expect(depth).toHaveValue('50');
  // Out of range (5000): marked, and leaving the field restores the last good value (500, on the way).
  await depth.pressSequentially('00');
  await expect(depth).toHaveValue('5000');
  await expect(depth).toHaveAttribute('aria-invalid', 'true');
  await expect(depth).toHaveAttribute('title', /a whole number from 1 to 1000; leaving the field keeps 500$/);
  await page.screenshot({ path: path.join(root, 'test-results', 'screens', 'number-field-invalid.png') });
  await depth.press('Tab');
  await expect(depth).toHaveValue('500');
  await expect(depth).not.toHaveAttribute('aria-invalid', /.*/);
  await depth.selectText();
  await depth.pressSequentially('50');
  await expect(depth).toHaveValue('50');
  await page.getByTestId('pool-name').fill('deep');
  await page.getByTestId('pool-mode-sample').check();
  const n = page.getByTestId('pool-sample-n');
  await n.fill('');
  await n.pressSequentially('2');
  await page.getByTestId('pool-create').click();
  await expect(page.getByTestId('pool-created')).toContainText('2 queries, 100 pairs');
});

test("the agreement's resamples: typing 1000 after emptying the field gives 1000", async () => {
  const page = served.page;
  await page.goto('/#agreement');
  const resamples = page.getByTestId('agreement-bootstrap');
  await expect(resamples).toHaveValue('1000');
  await resamples.selectText();
  await resamples.press('Backspace');
  await expect(resamples).toHaveValue('');
  await resamples.pressSequentially('0');
  // 0 resamples is no CI: marked, not used.
  await expect(resamples).toHaveValue('0');
  await expect(resamples).toHaveAttribute('aria-invalid', 'true');
  await resamples.press('Backspace');
  await resamples.pressSequentially('2000');
  await expect(resamples).toHaveValue('2000');
  await expect(resamples).not.toHaveAttribute('aria-invalid', /.*/);
});

test("the comparison's α: typing 0.01 over 0.05 gives 0.01 (its first 0 no longer snaps back to 0.05)", async () => {
  const page = served.page;
  await page.goto('/#evaluate');
  await page.getByTestId('eval-pool').selectOption('p');
  const alpha = page.getByTestId('compare-alpha');
  await expect(alpha).toHaveValue('0.05');
  await alpha.selectText();
  await alpha.press('Backspace');
  await alpha.pressSequentially('0');
  await expect(alpha).toHaveValue('0');
  await expect(alpha).toHaveAttribute('aria-invalid', 'true');
  await alpha.pressSequentially('.01');
  await expect(alpha).toHaveValue('0.01');
  await expect(alpha).not.toHaveAttribute('aria-invalid', /.*/);
  await expect(page.getByTestId('compare-summary')).toContainText('α = 0.01');
});

test('assign K can be typed above the people named so far: the form says how many are named', async () => {
  const page = served.page;
  await page.goto('/#pools');
  await page.getByTestId('team-pool').selectOption('p');
  await page.getByTestId('assign-annotators').fill('ann1, ann2');
  await page.getByTestId('assign-mode-k').check();
  const k = page.getByTestId('assign-k');
  await k.selectText();
  await k.pressSequentially('3');
  await expect(k).toHaveValue('3');
  await expect(k).not.toHaveAttribute('aria-invalid', /.*/);
  await expect(page.getByText('only 2 annotators named')).toBeVisible();
  await expect(page.getByTestId('assign-submit')).toBeDisabled();
  await page.getByTestId('assign-annotators').fill('ann1, ann2, ann3');
  await expect(page.getByText('only 2 annotators named')).toHaveCount(0);
  await expect(k).toHaveValue('3');
});

test('what is typed in the assign form before the pool\'s plan is read stays: a late read fills nothing', async () => {
  // On a loaded CI machine the plan's read came back after the names were typed, emptied them
  // (pool p is open) and set the overlap back to everyone.
  const page = served.page;
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  let heldReads = 0;
  await page.route('**/api/invoke', async (route) => {
    const body = route.request().postDataJSON() as { command?: string } | null;
    if (body?.command === 'pool.assignment') {
      heldReads++;
      await held;
    }
    await route.continue().catch(() => {});
  });
  try {
    await page.goto('/#pools');
    await page.reload();
    await page.getByTestId('team-pool').selectOption('p');
    await expect.poll(() => heldReads).toBeGreaterThan(0);
    await page.getByTestId('assign-annotators').fill('ann1, ann2');
    await page.getByTestId('assign-mode-k').check();
    const k = page.getByTestId('assign-k');
    await k.selectText();
    await k.pressSequentially('3');
    release();
    // The plan shown is the late read's; the form's effects have run two frames after it.
    await expect(page.getByTestId('assignment-mode')).toHaveAttribute('data-mode', 'open');
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    await expect(page.getByTestId('assign-annotators')).toHaveValue('ann1, ann2');
    await expect(page.getByTestId('assign-mode-k')).toBeChecked();
    await expect(k).toHaveValue('3');
  } finally {
    release();
    await page.unroute('**/api/invoke');
  }
});

test('a pool chosen while its plan is still being read does not keep the previous pool\'s overlap', async () => {
  // team.spec once assigned a new open pool "per query": the form still held the pool before's plan.
  const page = served.page;
  const assigned = await page.request.post('/api/invoke', {
    headers: { 'X-QPairs': '1' },
    data: { command: 'pool.assign', args: { pool: 'dev', annotators: ['ann1', 'ann2', 'ann3'], perQuery: 2, seed: 5 } },
  });
  expect(assigned.status()).toBe(200);
  await page.goto('/#pools');
  await page.reload();
  await page.getByTestId('team-pool').selectOption('dev');
  await expect(page.getByTestId('assign-mode-k')).toBeChecked();
  await expect(page.getByTestId('assign-annotators')).toHaveValue('ann1, ann2, ann3');
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  let heldReads = 0;
  await page.route('**/api/invoke', async (route) => {
    const body = route.request().postDataJSON() as { command?: string; args?: { pool?: string } } | null;
    if (body?.command === 'pool.assignment' && body.args?.pool === 'p') {
      heldReads++;
      await held;
    }
    await route.continue().catch(() => {});
  });
  try {
    await page.getByTestId('team-pool').selectOption('p');
    await expect.poll(() => heldReads).toBeGreaterThan(0);
    await expect(page.getByTestId('assign-mode-full'), 'p is open: everyone on every query until its plan says otherwise').toBeChecked();
    await page.getByTestId('assign-annotators').fill('ann9');
    release();
    await expect(page.getByTestId('assignment-mode')).toHaveAttribute('data-mode', 'open');
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    await expect(page.getByTestId('assign-annotators')).toHaveValue('ann9');
    await expect(page.getByTestId('assign-mode-full')).toBeChecked();
  } finally {
    release();
    await page.unroute('**/api/invoke');
  }
});
