/**
 * A screen that fails while it draws keeps its failure to itself: the renderer's ScreenBoundary
 * (src/renderer/components/ScreenBoundary.tsx), which App puts around each screen keyed by its tab,
 * shows what failed in the screen's place, the tabs beside it keep working, and "Show the screen
 * again" draws it again. Without the boundary React removes the whole page: a blank window.
 *
 * Every screen failure met in QPairs was a bug and was fixed where it was (a model row whose report
 * is `{}`, a damaged learn-as-we-label setting), so no workspace can make a real screen fail; the
 * page here (screen-boundary/page.tsx, bundled by esbuild for this spec alone, never part of the
 * app) puts the real boundary around a screen of its own that throws.
 */
import path from 'node:path';
import { build } from 'esbuild';
import { expect, test } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '../..');
let bundle = '';

test.beforeAll(async () => {
  const out = await build({
    entryPoints: [path.join(import.meta.dirname, 'screen-boundary', 'page.tsx')],
    bundle: true,
    write: false,
    format: 'iife',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    absWorkingDir: root,
    logLevel: 'silent',
  });
  bundle = out.outputFiles[0]!.text;
});

test('a screen that throws while drawing says so in its place; the other tabs keep working; the retry draws it again', async ({ page }) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.setContent('<!doctype html><html><body><div id="root"></div></body></html>');
  await page.addScriptTag({ content: bundle });
  await expect(page.getByTestId('working-screen')).toHaveText('drawn');

  await page.getByTestId('tab-failing').click();
  const failed = page.getByTestId('screen-error');
  await expect(failed).toBeVisible();
  await expect(failed).toHaveAttribute('role', 'alert');
  await expect(failed).toContainText('This screen stopped: status.models.map is not a function.');
  await expect(page.getByTestId('tab-working')).toBeVisible();

  // Another tab draws its screen; coming back tries the failing one again.
  await page.getByTestId('tab-working').click();
  await expect(page.getByTestId('working-screen')).toHaveText('drawn');
  await expect(failed).toHaveCount(0);
  await page.getByTestId('tab-failing').click();
  await expect(failed).toBeVisible();
  const draws = await page.evaluate(() => window.failingDraws);
  await page.getByTestId('screen-error-retry').click();
  await expect(failed).toBeVisible();
  expect(await page.evaluate(() => window.failingDraws)).toBeGreaterThan(draws);
  // Caught by the boundary, not left to take the page down.
  expect(pageErrors).toEqual([]);
});
