/**
 * A keyboard-first labeling session on the Annotate screen, on a small open pool (SemEval dev,
 * 3 queries × 4 candidates): Enter and Space on a focused control (the Close of the list of keys,
 * a candidate's title reached with Tab) work that control instead of moving to the next query.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { startServe, type ServeProcess } from './serve';
import { buildSmallPool, openPage } from './small-pool';

const PORT = Number(process.env.QPAIRS_E2E_PORT ?? 27613) + 23;

test.describe.configure({ mode: 'serial' });

let server: ServeProcess | undefined;
let dir: string;
let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser }) => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-e2e-annotate-keys-'));
  const built = buildSmallPool(dir, () => []);
  server = await startServe({ workspace: built.workspace, port: PORT, create: false });
  ({ context, page } = await openPage(browser, server));
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function openAnnotate(p: Page): Promise<string> {
  await p.goto('/#annotate');
  await p.getByLabel('Pool').selectOption('p');
  await expect(p.getByTestId('query-id')).toBeVisible();
  return (await p.getByTestId('query-id').textContent()) ?? '';
}

test('Enter on the Close of the list of keys closes it and stays on the query; Enter on a candidate title reached with Tab opens its body', async () => {
  const query = await openAnnotate(page);
  await page.keyboard.press('F1');
  await expect(page.getByTestId('shortcut-close')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shortcut-overlay')).toHaveCount(0);
  await page.waitForTimeout(500); // a next-query read would land by now
  await expect(page.getByTestId('query-id')).toHaveText(query);

  await page.keyboard.press('F1');
  await page.keyboard.press(' ');
  await expect(page.getByTestId('shortcut-overlay')).toHaveCount(0);
  await expect(page.getByTestId('row-toggle-0')).toHaveAttribute('aria-expanded', 'false');

  // A keyboard user reaches the first candidate's title with Tab and opens it with Enter.
  await page.getByTestId('row-toggle-0').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('row-toggle-0')).toHaveAttribute('aria-expanded', 'true');
  await page.waitForTimeout(500);
  await expect(page.getByTestId('query-id')).toHaveText(query);
  // The keys still label afterwards (the title gives the focus back).
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('query-id')).not.toHaveText(query);
});
