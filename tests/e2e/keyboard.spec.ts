/**
 * Keyboard-only and screen-reader use off the Annotate screen, on a small open pool (SemEval dev,
 * 3 queries × 4 candidates, two annotators who disagree, a judge): the screen tabs are one tab list
 * (one Tab stop, ←/→); the list of keys (F1) and the Review reason dialog keep Tab inside and give
 * the focus back when they close; the New pool form keeps the focus while a pool is made, says a
 * taken name at the field and announces the pool it made; Team access gives the focus back after
 * Done; Browse Search and Agreement Recompute keep the focus while they work; Review says the pair
 * j/k move to; Evaluate's per-query field has a real label; Annotate's Go to and guidelines keep Tab
 * inside and give the focus back; at 200% zoom (680×450) Pools and Export
 * do not scroll sideways; axe finds no serious violation in these states.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { invoke } from './api';
import { startServe, type ServeProcess } from './serve';
import { buildSmallPool, openPage, qpairs } from './small-pool';

const PORT = Number(process.env.QPAIRS_E2E_PORT ?? 27613) + 13;

test.describe.configure({ mode: 'serial' });

let server: ServeProcess | undefined;
let dir: string;
let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser }) => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-e2e-keyboard-'));
  const built = buildSmallPool(dir, (ps) => ps.flatMap(([q, c], i) => [`${q},${c},ann,${i % 2}`, `${q},${c},bob,${i % 3 === 0 ? 1 : 0}`]));
  qpairs('annotators', 'add', built.workspace, 'judy', '--role', 'judge');
  server = await startServe({ workspace: built.workspace, port: PORT, create: false });
  ({ context, page } = await openPage(browser, server));
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The data-testid (else the tag) of the element with the focus. */
async function focused(p: Page): Promise<string> {
  return p.evaluate(() => {
    const e = document.activeElement;
    return e ? (e.getAttribute('data-testid') ?? e.tagName.toLowerCase()) : 'none';
  });
}

/** Whether the focus is inside the element with this data-testid. */
async function focusInside(p: Page, testId: string): Promise<boolean> {
  return p.evaluate((id) => !!document.querySelector(`[data-testid="${id}"]`)?.contains(document.activeElement), testId);
}

async function serious(p: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page: p }).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

test('the screens are one tab list: one Tab stop, the arrows switch screens; Home on a clicked tab stays the screen\'s key', async () => {
  await page.goto('/#pools');
  const tabs = page.getByRole('tablist', { name: 'Screens' }).getByRole('tab');
  await expect(tabs).toHaveCount(9);
  // One Tab stop: the screen shown.
  await expect(page.locator('[role=tab][tabindex="0"]')).toHaveCount(1);
  await expect(page.getByTestId('tab-pools')).toHaveAttribute('tabindex', '0');
  await page.getByTestId('tab-pools').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tab-annotate')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('tab-annotate')).toBeFocused();
  await expect(page).toHaveURL(/#annotate$/);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft'); // wraps round
  await expect(page.getByTestId('tab-browse')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('tab-browse')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('tab-workspace')).toBeFocused();
  // The screen is the tab's panel, named by it; Tab goes from the tab list on, not through the other tabs.
  await expect(page.getByRole('tabpanel', { name: 'Workspace' })).toBeVisible();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).not.toBe('tab');

  // Review's tab clicked (the focus stays on it): Home and End still move the disagreement cursor.
  await page.getByTestId('tab-review').click();
  await page.getByTestId('review-pool').selectOption('p');
  await expect(page.getByTestId('review-row-1')).toBeVisible();
  await page.getByTestId('tab-review').click();
  await page.keyboard.press('End');
  await expect(page.getByTestId('tab-review')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('review-row-0')).toHaveAttribute('aria-selected', 'false');
  await page.keyboard.press('Home');
  await expect(page.getByTestId('review-row-0')).toHaveAttribute('aria-selected', 'true');
});

test('the list of keys keeps Tab inside and gives the focus back to its button', async () => {
  await page.goto('/#pools');
  await page.getByTestId('keys-button').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shortcut-overlay')).toBeVisible();
  expect(await focused(page)).toBe('shortcut-close');
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Tab');
    expect(await focusInside(page, 'shortcut-overlay'), `Tab ${i + 1}`).toBe(true);
  }
  await page.keyboard.press('Shift+Tab');
  expect(await focusInside(page, 'shortcut-overlay')).toBe(true);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('shortcut-overlay')).toHaveCount(0);
  await expect.poll(() => focused(page)).toBe('keys-button');

  // Opened with its button and closed with its own Close button (Enter): back on the button too.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shortcut-close')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shortcut-overlay')).toHaveCount(0);
  await expect.poll(() => focused(page)).toBe('keys-button');
});

test('New pool: a taken name is said at the field; Enter keeps the focus in the form and the new pool is announced', async () => {
  await page.goto('/#pools');
  const name = page.getByTestId('pool-name');
  await name.focus();
  await page.keyboard.type('p');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAttribute('aria-describedby', 'pool-name-error');
  await expect(page.locator('#pool-name-error')).toHaveText('A pool named “p” exists already: choose another name.');
  // The error describes the field; it is not part of its name (it sat inside the label).
  await expect(name).toHaveAccessibleName('Name');
  await expect(name).toHaveAccessibleDescription('A pool named “p” exists already: choose another name.');
  await expect(page.getByTestId('pool-create')).toBeDisabled();
  expect(await serious(page)).toEqual([]);

  await page.keyboard.type('2');
  await expect(name).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#pool-name-error')).toHaveText('');
  await page.getByTestId('pool-sample-n').fill('2');
  await page.getByTestId('pool-depth').fill('3');
  await name.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ has: page.getByTestId('pool-created') })).toContainText('Pool "p2" created');
  // Focus stayed in the field it was pressed in (a disabled field would have dropped it to the page).
  await expect(name).toBeFocused();

  // The same by the button (Space): the focus stays in the form, on the emptied name for the next pool.
  await page.keyboard.type('p3');
  await page.getByTestId('pool-create').focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('pool-created')).toContainText('Pool "p3" created');
  await expect(name).toHaveValue('');
  await expect(name).toBeFocused();
});

test('Team access by keyboard: Invite puts the focus on the new link, Done gives it back to the Name field', async () => {
  await page.goto('/#pools');
  const name = page.getByTestId('access-name');
  await name.focus();
  await page.keyboard.type('olga');
  // By the button (Tab, Space): it turns disabled while inviting and once the name is emptied.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('access-invite')).toBeFocused();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('access-fresh')).toBeVisible();
  await expect(page.getByTestId('access-link')).toBeFocused();
  await page.getByTestId('access-done').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('access-fresh')).toHaveCount(0);
  await expect(name).toBeFocused();
});

test('Review: the reason dialog keeps Tab inside and gives the focus back on Esc', async () => {
  await page.goto('/#review');
  await page.getByTestId('review-pool').selectOption('p');
  await expect(page.getByTestId('review-row-0')).toBeVisible();
  // c with the focus on a control of the screen (a column's sort button, reached by Tab).
  await page.getByTestId('review-sort-judge').focus();
  const before = await focused(page);
  expect(before).toBe('review-sort-judge');
  await page.keyboard.press('c');
  await expect(page.getByTestId('reason-dialog')).toBeVisible();
  await expect(page.getByTestId('reason-dialog-input')).toBeFocused();
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    expect(await focusInside(page, 'reason-dialog'), `Tab ${i + 1}`).toBe(true);
  }
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  expect(await focusInside(page, 'reason-dialog')).toBe(true);
  await page.getByTestId('reason-dialog-input').focus();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('reason-dialog')).toHaveCount(0);
  await expect.poll(() => focused(page)).toBe(before);
});

test('Review: the pair j and k move to is said to screen readers (the keys move no focus)', async () => {
  await page.goto('/#review');
  await page.getByTestId('review-pool').selectOption('p');
  await expect(page.getByTestId('review-row-1')).toBeVisible();
  const say = page.getByTestId('review-cursor-announce');
  await expect(say).toHaveAttribute('aria-live', 'polite');
  await expect(say).toHaveText('');
  const total = await page.locator('[data-testid^="review-row-"]').count();
  await page.keyboard.press('j');
  await expect(page.getByTestId('review-row-1')).toHaveAttribute('aria-selected', 'true');
  await expect(say).toHaveText(new RegExp(`^Pair 2 of ${total}: “.+” for query “.+”\\. Votes ann: .+ · bob: .+; not settled\\.$`));
  await page.keyboard.press('k');
  await expect(say).toHaveText(new RegExp(`^Pair 1 of ${total}: `));
});

test('Browse and Agreement: the focus stays on Search and Recompute while they work, and Browse says what it found', async () => {
  await page.goto('/#browse');
  await page.getByTestId('browse-text').fill('visa');
  await page.getByTestId('browse-search').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('browse-status')).toHaveText(/^\d+ questions? found$/);
  await expect(page.getByRole('status').filter({ hasText: / found$/ })).toHaveCount(1);
  await expect(page.getByTestId('browse-search')).toBeFocused();
  await page.getByTestId('browse-text').fill('zzqqxx');
  await page.getByTestId('browse-search').focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('browse-status')).toHaveText('No question matches.');
  await expect(page.getByTestId('browse-search')).toBeFocused();

  await page.goto('/#agreement');
  await page.getByTestId('agreement-pool').selectOption('p');
  const recompute = page.getByTestId('agreement-refresh');
  await expect(recompute).toHaveText('Recompute');
  await recompute.focus();
  await page.keyboard.press('Enter');
  await expect(recompute).toHaveText('Recompute');
  await expect(recompute).toBeFocused();
});

test('Evaluate: the per-query field has a real label', async () => {
  await page.goto('/#evaluate');
  await page.getByTestId('eval-pool').selectOption('p');
  const field = page.getByLabel('Query id', { exact: true });
  await expect(field).toHaveAttribute('data-testid', 'drill-query');
  await field.fill('x');
  await expect(field).toHaveAccessibleName('Query id');
});

test('at 200% zoom (680×450) the Pools screen does not scroll sideways', async () => {
  await page.setViewportSize({ width: 680, height: 450 });
  await page.goto('/#pools');
  await expect(page.getByTestId('pool-row-p')).toBeVisible();
  await expectNoSidewaysScroll(page, 'Pools');
  expect(await serious(page)).toEqual([]);
});

test('at 200% zoom (680×450) the Export datasheet preview does not scroll the page sideways', async () => {
  await page.setViewportSize({ width: 680, height: 450 });
  await page.goto('/#export');
  await page.getByTestId('export-pool').selectOption('p');
  await expect(page.locator('table.md-table').first()).toBeVisible();
  await expectNoSidewaysScroll(page, 'Export');
});

async function expectNoSidewaysScroll(p: Page, what: string): Promise<void> {
  const widths = await p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll, `${what}: page ${widths.scroll} px wide in a ${widths.client} px window`).toBeLessThanOrEqual(widths.client);
}

test('Annotate: Go to (g) and the guidelines (h) keep Tab inside and give the focus back when they close', async () => {
  await invoke(page.request, 'pool.setGuidelines', { pool: 'p', markdown: 'Similar: the same need. See [the task](https://example.org/task) and [the FAQ](https://example.org/faq).' });
  await page.goto('/#annotate');
  await page.getByTestId('annotate-pool').selectOption('p');
  await expect(page.getByTestId('query-title')).toBeVisible();
  // g and h with the focus on a control of the screen (the screen's tab).
  await page.getByTestId('tab-annotate').focus();
  await page.keyboard.press('g');
  await expect(page.getByTestId('goto-input')).toBeFocused();
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    expect(await focusInside(page, 'goto-dialog'), `Go to: Tab ${i + 1}`).toBe(true);
  }
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Shift+Tab');
    expect(await focusInside(page, 'goto-dialog'), `Go to: Shift+Tab ${i + 1}`).toBe(true);
  }
  await page.getByTestId('goto-input').focus();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('goto-dialog')).toHaveCount(0);
  await expect.poll(() => focused(page)).toBe('tab-annotate');

  await page.keyboard.press('h');
  await expect(page.getByTestId('guidelines-card')).toBeFocused();
  // From the card itself (it takes the focus to scroll), Shift+Tab too stays inside, then both ways round its links.
  await page.keyboard.press('Shift+Tab');
  expect(await focusInside(page, 'guidelines-overlay'), 'guidelines: Shift+Tab from the card').toBe(true);
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Tab');
    expect(await focusInside(page, 'guidelines-overlay'), `guidelines: Tab ${i + 1}`).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('guidelines-overlay')).toHaveCount(0);
  await expect.poll(() => focused(page)).toBe('tab-annotate');
});
