/**
 * A first day on the demo workspace at 1024×700, by keyboard: what the keys just did stays in view
 * however far down the candidates the cursor is — the note offered after a "?", an undo's notice,
 * and what to do once the query is done (all three used to sit above or below the table, out of view).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { useServedWorkspace } from './served-workspace';

const root = path.resolve(import.meta.dirname, '../..');

test.describe.configure({ mode: 'serial' });

// The demo workspace (no workspace named), its config folder the spec's own.
const served = useServedWorkspace('first-day', 36, { workspace: null, context: { viewport: { width: 1024, height: 700 }, colorScheme: 'light' } });
let page: Page;
test.beforeAll(() => {
  page = served.page;
});

function shot(name: string): string {
  const folder = path.join(root, 'test-results', 'screens');
  mkdirSync(folder, { recursive: true });
  return path.join(folder, name);
}

test('far down the candidates, the note offered after "?", an undo’s notice and the query’s end are in view', async () => {
  await page.goto('/');
  await expect(page).toHaveURL(/#annotate$/);
  await expect(page.getByTestId('annotate-pool')).toHaveValue('demo');
  await expect(page.getByTestId('candidate-row-0')).toHaveAttribute('aria-selected', 'true');
  const rows = page.locator('[data-testid^="candidate-row-"]');
  const n = await rows.count();
  expect(n, 'a demo query has many candidates').toBeGreaterThan(8);

  // The seventh candidate, well below the fold at 1024×700: unsure.
  for (let i = 0; i < 6; i++) await page.keyboard.press('j');
  await expect(page.getByTestId('candidate-row-6')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('?');
  await expect(page.getByTestId('candidate-row-6')).toHaveAttribute('data-state', 'saved');
  await expect(page.getByTestId('note-offer')).toBeInViewport();
  await page.screenshot({ path: shot('first-day-note-offer-1024.png') });
  await page.keyboard.press('c');
  await expect(page.getByTestId('note-dialog')).toBeVisible();
  await page.keyboard.press('Escape');

  // u takes the "?" back: the notice says so where the user looks.
  await page.keyboard.press('u');
  await expect(page.getByTestId('annotate-notice')).toContainText('Undone: the label of');
  await expect(page.getByTestId('annotate-notice')).toBeInViewport();
  await expect(page.getByTestId('candidate-row-6')).toHaveAttribute('data-label', '');

  // Every candidate labeled, from the last one: the way on is in view.
  await page.keyboard.press('Home');
  for (let i = 0; i < n; i++) await page.keyboard.press('0');
  await expect(page.getByTestId(`candidate-row-${n - 1}`)).toHaveAttribute('data-state', 'saved');
  await expect(page.getByTestId('query-complete')).toBeInViewport();
  await expect(page.getByTestId(`candidate-row-${n - 1}`)).toBeInViewport();
  await page.screenshot({ path: shot('first-day-query-complete-1024.png') });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('query-complete')).toHaveCount(0);
});

test('F1 lists the label keys of the pool on screen', async () => {
  await page.goto('/#annotate');
  await expect(page.getByTestId('annotate-pool')).toHaveValue('demo');
  await page.keyboard.press('F1');
  const listed = page.getByTestId('shortcut-screen-keys');
  await expect(page.getByTestId('shortcut-overlay')).toContainText('Annotate screen (pool “demo”, binary)');
  await expect(listed.getByRole('row').filter({ has: page.getByRole('rowheader', { name: '1', exact: true }) })).toHaveText(/^1\s*similar$/);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('shortcut-overlay')).toHaveCount(0);
});
