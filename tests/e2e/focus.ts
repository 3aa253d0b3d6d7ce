/**
 * Where the keyboard focus is, for the keyboard-only tests: the focused element's data-testid (its
 * tag name without one; BODY when the focus fell to the page), and the walk through a button that
 * asks first.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** The focused element's data-testid, its tag name without one, or BODY. */
export function focusedTestId(page: Page): Promise<string> {
  return page.evaluate(() => (document.activeElement === document.body ? 'BODY' : (document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? 'none')));
}

/**
 * A focused button `start` that asks first, from the keyboard: Enter asks with `keep` focused, Esc
 * gives the focus back to `start`, Enter asks again and Enter on `keep` gives it back too; then
 * Enter asks once more and Shift+Tab reaches `confirm`, focused (the caller presses Enter).
 * `question`: the question asked, shown after the first Enter and gone after Esc.
 */
export async function askKeepThenReachConfirm(page: Page, ids: { start: string; keep: string; confirm: string; question?: Locator }): Promise<void> {
  const focused = (): Promise<string> => focusedTestId(page);
  await page.keyboard.press('Enter');
  if (ids.question) await expect(ids.question).toBeVisible();
  await expect.poll(focused).toBe(ids.keep);
  await page.keyboard.press('Escape');
  if (ids.question) await expect(ids.question).toHaveCount(0);
  await expect.poll(focused).toBe(ids.start);
  await page.keyboard.press('Enter');
  await expect.poll(focused).toBe(ids.keep);
  await page.keyboard.press('Enter');
  await expect.poll(focused).toBe(ids.start);
  await page.keyboard.press('Enter');
  await expect.poll(focused).toBe(ids.keep);
  await page.keyboard.press('Shift+Tab');
  expect(await focused()).toBe(ids.confirm);
}
