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
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { invoke } from './api';
import { qpairs, useServedSmallPool } from './small-pool';

test.describe.configure({ mode: 'serial' });

const served = useServedSmallPool('keyboard', 13, (ps) => ps.flatMap(([q, c], i) => [`${q},${c},ann,${i % 2}`, `${q},${c},bob,${i % 3 === 0 ? 1 : 0}`]), ({ workspace }) => {
  qpairs('annotators', 'add', workspace, 'judy', '--role', 'judge');
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

/** Presses `key` `times` times, the focus staying inside the element with this data-testid each time (`what` prefixes the message). */
async function tabStaysInside(testId: string, key: 'Tab' | 'Shift+Tab', times: number, what = ''): Promise<void> {
  for (let i = 0; i < times; i++) {
    await served.page.keyboard.press(key);
    expect(await focusInside(served.page, testId), `${what}${key} ${i + 1}`).toBe(true);
  }
}

/** Escape closes the element with this data-testid and gives the focus back to `backTo` (a data-testid). */
async function escapeGivesFocusBack(testId: string, backTo: string): Promise<void> {
  await served.page.keyboard.press('Escape');
  await expect(served.page.getByTestId(testId)).toHaveCount(0);
  await expect.poll(() => focused(served.page)).toBe(backTo);
}

async function serious(p: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page: p }).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

test('the screens are one tab list: one Tab stop, the arrows switch screens; Home on a clicked tab stays the screen\'s key', async () => {
  await served.page.goto('/#pools');
  const tabs = served.page.getByRole('tablist', { name: 'Screens' }).getByRole('tab');
  await expect(tabs).toHaveCount(9);
  // One Tab stop: the screen shown.
  await expect(served.page.locator('[role=tab][tabindex="0"]')).toHaveCount(1);
  await expect(served.page.getByTestId('tab-pools')).toHaveAttribute('tabindex', '0');
  await served.page.getByTestId('tab-pools').focus();
  await served.page.keyboard.press('ArrowRight');
  await expect(served.page.getByTestId('tab-annotate')).toHaveAttribute('aria-selected', 'true');
  await expect(served.page.getByTestId('tab-annotate')).toBeFocused();
  await expect(served.page).toHaveURL(/#annotate$/);
  await served.page.keyboard.press('ArrowLeft');
  await served.page.keyboard.press('ArrowLeft');
  await expect(served.page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true');
  await served.page.keyboard.press('ArrowLeft'); // wraps round
  await expect(served.page.getByTestId('tab-browse')).toHaveAttribute('aria-selected', 'true');
  await expect(served.page.getByTestId('tab-browse')).toBeFocused();
  await served.page.keyboard.press('ArrowRight');
  await expect(served.page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true');
  await expect(served.page.getByTestId('tab-workspace')).toBeFocused();
  // The screen is the tab's panel, named by it; Tab goes from the tab list on, not through the other tabs.
  await expect(served.page.getByRole('tabpanel', { name: 'Workspace' })).toBeVisible();
  await served.page.keyboard.press('Tab');
  expect(await served.page.evaluate(() => document.activeElement?.getAttribute('role'))).not.toBe('tab');

  // Review's tab clicked (the focus stays on it): Home and End still move the disagreement cursor.
  await served.page.getByTestId('tab-review').click();
  await served.page.getByTestId('review-pool').selectOption('p');
  await expect(served.page.getByTestId('review-row-1')).toBeVisible();
  await served.page.getByTestId('tab-review').click();
  await served.page.keyboard.press('End');
  await expect(served.page.getByTestId('tab-review')).toHaveAttribute('aria-selected', 'true');
  await expect(served.page.getByTestId('review-row-0')).toHaveAttribute('aria-selected', 'false');
  await served.page.keyboard.press('Home');
  await expect(served.page.getByTestId('review-row-0')).toHaveAttribute('aria-selected', 'true');
});

test('the list of keys keeps Tab inside and gives the focus back to its button', async () => {
  await served.page.goto('/#pools');
  await served.page.getByTestId('keys-button').focus();
  await served.page.keyboard.press('Enter');
  await expect(served.page.getByTestId('shortcut-overlay')).toBeVisible();
  expect(await focused(served.page)).toBe('shortcut-close');
  await tabStaysInside('shortcut-overlay', 'Tab', 3);
  await served.page.keyboard.press('Shift+Tab');
  expect(await focusInside(served.page, 'shortcut-overlay')).toBe(true);
  await escapeGivesFocusBack('shortcut-overlay', 'keys-button');

  // Opened with its button and closed with its own Close button (Enter): back on the button too.
  await served.page.keyboard.press('Enter');
  await expect(served.page.getByTestId('shortcut-close')).toBeFocused();
  await served.page.keyboard.press('Enter');
  await expect(served.page.getByTestId('shortcut-overlay')).toHaveCount(0);
  await expect.poll(() => focused(served.page)).toBe('keys-button');
});

test('New pool: a taken name is said at the field; Enter keeps the focus in the form and the new pool is announced', async () => {
  await served.page.goto('/#pools');
  const name = served.page.getByTestId('pool-name');
  await name.focus();
  await served.page.keyboard.type('p');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAttribute('aria-describedby', 'pool-name-error');
  await expect(served.page.locator('#pool-name-error')).toHaveText('A pool named “p” exists already: choose another name.');
  // The error describes the field; it is not part of its name (it sat inside the label).
  await expect(name).toHaveAccessibleName('Name');
  await expect(name).toHaveAccessibleDescription('A pool named “p” exists already: choose another name.');
  await expect(served.page.getByTestId('pool-create')).toBeDisabled();
  expect(await serious(served.page)).toEqual([]);

  await served.page.keyboard.type('2');
  await expect(name).not.toHaveAttribute('aria-invalid', 'true');
  await expect(served.page.locator('#pool-name-error')).toHaveText('');
  await served.page.getByTestId('pool-sample-n').fill('2');
  await served.page.getByTestId('pool-depth').fill('3');
  await name.focus();
  await served.page.keyboard.press('Enter');
  await expect(served.page.getByRole('status').filter({ has: served.page.getByTestId('pool-created') })).toContainText('Pool "p2" created');
  // Focus stayed in the field it was pressed in (a disabled field would have dropped it to the page).
  await expect(name).toBeFocused();

  // The same by the button (Space): the focus stays in the form, on the emptied name for the next pool.
  await served.page.keyboard.type('p3');
  await served.page.getByTestId('pool-create').focus();
  await served.page.keyboard.press(' ');
  await expect(served.page.getByTestId('pool-created')).toContainText('Pool "p3" created');
  await expect(name).toHaveValue('');
  await expect(name).toBeFocused();
});

test('Team access by keyboard: Invite puts the focus on the new link, Done gives it back to the Name field', async () => {
  await served.page.goto('/#pools');
  const name = served.page.getByTestId('access-name');
  await name.focus();
  await served.page.keyboard.type('olga');
  // By the button (Tab, Space): it turns disabled while inviting and once the name is emptied.
  await served.page.keyboard.press('Tab');
  await served.page.keyboard.press('Tab');
  await expect(served.page.getByTestId('access-invite')).toBeFocused();
  await served.page.keyboard.press(' ');
  await expect(served.page.getByTestId('access-fresh')).toBeVisible();
  await expect(served.page.getByTestId('access-link')).toBeFocused();
  await served.page.getByTestId('access-done').focus();
  await served.page.keyboard.press('Enter');
  await expect(served.page.getByTestId('access-fresh')).toHaveCount(0);
  await expect(name).toBeFocused();
});

test('Review: the reason dialog keeps Tab inside and gives the focus back on Esc', async () => {
  await served.page.goto('/#review');
  await served.page.getByTestId('review-pool').selectOption('p');
  await expect(served.page.getByTestId('review-row-0')).toBeVisible();
  // c with the focus on a control of the screen (a column's sort button, reached by Tab).
  await served.page.getByTestId('review-sort-judge').focus();
  const before = await focused(served.page);
  expect(before).toBe('review-sort-judge');
  await served.page.keyboard.press('c');
  await expect(served.page.getByTestId('reason-dialog')).toBeVisible();
  await expect(served.page.getByTestId('reason-dialog-input')).toBeFocused();
  await tabStaysInside('reason-dialog', 'Tab', 4);
  await served.page.keyboard.press('Shift+Tab');
  await served.page.keyboard.press('Shift+Tab');
  await served.page.keyboard.press('Shift+Tab');
  expect(await focusInside(served.page, 'reason-dialog')).toBe(true);
  await served.page.getByTestId('reason-dialog-input').focus();
  await escapeGivesFocusBack('reason-dialog', before);
});

test('Review: the pair j and k move to is said to screen readers (the keys move no focus)', async () => {
  await served.page.goto('/#review');
  await served.page.getByTestId('review-pool').selectOption('p');
  await expect(served.page.getByTestId('review-row-1')).toBeVisible();
  const say = served.page.getByTestId('review-cursor-announce');
  await expect(say).toHaveAttribute('aria-live', 'polite');
  await expect(say).toHaveText('');
  const total = await served.page.locator('[data-testid^="review-row-"]').count();
  await served.page.keyboard.press('j');
  await expect(served.page.getByTestId('review-row-1')).toHaveAttribute('aria-selected', 'true');
  await expect(say).toHaveText(new RegExp(`^Pair 2 of ${total}: “.+” for query “.+”\\. Votes ann: .+, bob: .+; not settled\\.$`));
  await served.page.keyboard.press('k');
  await expect(say).toHaveText(new RegExp(`^Pair 1 of ${total}: `));
});

test('Browse and Agreement: the focus stays on Search and Recompute while they work, and Browse says what it found', async () => {
  await served.page.goto('/#browse');
  await served.page.getByTestId('browse-text').fill('visa');
  await served.page.getByTestId('browse-search').focus();
  await served.page.keyboard.press('Enter');
  await expect(served.page.getByTestId('browse-status')).toHaveText(/^\d+ questions? found$/);
  await expect(served.page.getByRole('status').filter({ hasText: / found$/ })).toHaveCount(1);
  await expect(served.page.getByTestId('browse-search')).toBeFocused();
  await served.page.getByTestId('browse-text').fill('zzqqxx');
  await served.page.getByTestId('browse-search').focus();
  await served.page.keyboard.press(' ');
  await expect(served.page.getByTestId('browse-status')).toHaveText('No question matches.');
  await expect(served.page.getByTestId('browse-search')).toBeFocused();

  await served.page.goto('/#agreement');
  await served.page.getByTestId('agreement-pool').selectOption('p');
  const recompute = served.page.getByTestId('agreement-refresh');
  await expect(recompute).toHaveText('Recompute');
  await recompute.focus();
  await served.page.keyboard.press('Enter');
  await expect(recompute).toHaveText('Recompute');
  await expect(recompute).toBeFocused();
});

test('Evaluate: the per-query field has a real label', async () => {
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('p');
  const field = served.page.getByLabel('Query id', { exact: true });
  await expect(field).toHaveAttribute('data-testid', 'drill-query');
  await field.fill('x');
  await expect(field).toHaveAccessibleName('Query id');
});

test('at 200% zoom (680×450) the Pools screen does not scroll sideways', async () => {
  await served.page.setViewportSize({ width: 680, height: 450 });
  await served.page.goto('/#pools');
  await expect(served.page.getByTestId('pool-row-p')).toBeVisible();
  await expectNoSidewaysScroll(served.page, 'Pools');
  expect(await serious(served.page)).toEqual([]);
});

test('at 200% zoom (680×450) the Export datasheet preview does not scroll the page sideways', async () => {
  await served.page.setViewportSize({ width: 680, height: 450 });
  await served.page.goto('/#export');
  await served.page.getByTestId('export-pool').selectOption('p');
  await expect(served.page.locator('table.md-table').first()).toBeVisible();
  await expectNoSidewaysScroll(served.page, 'Export');
});

async function expectNoSidewaysScroll(p: Page, what: string): Promise<void> {
  const widths = await p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll, `${what}: page ${widths.scroll} px wide in a ${widths.client} px window`).toBeLessThanOrEqual(widths.client);
}

test('Annotate: Go to (g) and the guidelines (h) keep Tab inside and give the focus back when they close', async () => {
  await invoke(served.page.request, 'pool.setGuidelines', { pool: 'p', markdown: 'Similar: the same need. See [the task](https://example.org/task) and [the FAQ](https://example.org/faq).' });
  await served.page.goto('/#annotate');
  await served.page.getByTestId('annotate-pool').selectOption('p');
  await expect(served.page.getByTestId('query-title')).toBeVisible();
  // g and h with the focus on a control of the screen (the screen's tab).
  await served.page.getByTestId('tab-annotate').focus();
  await served.page.keyboard.press('g');
  await expect(served.page.getByTestId('goto-input')).toBeFocused();
  await tabStaysInside('goto-dialog', 'Tab', 4, 'Go to: ');
  await tabStaysInside('goto-dialog', 'Shift+Tab', 4, 'Go to: ');
  await served.page.getByTestId('goto-input').focus();
  await escapeGivesFocusBack('goto-dialog', 'tab-annotate');

  await served.page.keyboard.press('h');
  await expect(served.page.getByTestId('guidelines-card')).toBeFocused();
  // From the card itself (it takes the focus to scroll), Shift+Tab too stays inside, then both ways round its links.
  await served.page.keyboard.press('Shift+Tab');
  expect(await focusInside(served.page, 'guidelines-overlay'), 'guidelines: Shift+Tab from the card').toBe(true);
  await tabStaysInside('guidelines-overlay', 'Tab', 3, 'guidelines: ');
  await escapeGivesFocusBack('guidelines-overlay', 'tab-annotate');
});
