/**
 * A pool chosen as the page loads stays chosen. On a fresh page no pool is remembered, and the app
 * puts the first pool in the selector once the pools are read. That effect ran after a pool chosen
 * meanwhile (React applies pending effects before the choice's update) and replaced it with the
 * first: CI's Review then showed pool dev while the test had chosen another (undo-redo-screens.spec).
 */
import { expect, test } from '@playwright/test';
import { useServedSmallPool } from './small-pool';

// Pools: dev (first) and p.
const served = useServedSmallPool('pool-choice', 97, () => []);

test('a pool chosen the moment the pool list appears is kept, not replaced by the first pool', async ({ browser }) => {
  const ctx = await browser.newContext({ baseURL: served.server!.url });
  // As soon as the selector lists p (the first render with the pools, before that render's effects
  // run), choose p as a user would.
  await ctx.addInitScript(() => {
    new MutationObserver((_, observer) => {
      const select = document.querySelector<HTMLSelectElement>('[data-testid="eval-pool"]');
      if (!select || ![...select.options].some((o) => o.value === 'p')) return;
      observer.disconnect();
      select.value = 'p';
      select.dispatchEvent(new Event('change', { bubbles: true }));
      (window as unknown as { choseP: boolean }).choseP = true;
    }).observe(document, { childList: true, subtree: true });
  });
  const page = await ctx.newPage();
  try {
    await page.goto('/#evaluate');
    await page.waitForFunction(() => (window as unknown as { choseP?: boolean }).choseP === true);
    // The pools' first read and its effects are over once the pool's figures show.
    await expect(page.getByTestId('eval-pool')).toHaveValue('p');
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    await expect(page.getByTestId('eval-pool')).toHaveValue('p');
    expect(await page.evaluate(() => localStorage.getItem('qpairs.pool'))).toBe('p');
  } finally {
    await ctx.close();
  }
});
