/** The Annotate screen opened by hand, as the specs that label through the keyboard use it. */
import { expect, type Page } from '@playwright/test';

/** Annotate as `annotator` on `pool`: the keyboard on the candidates, the cursor on the first row. */
export async function openAnnotate(page: Page, annotator: string, pool: string): Promise<void> {
  await page.goto('/#annotate');
  await page.getByTestId('annotator-input').fill(annotator);
  await page.getByTestId('annotator-input').press('Enter');
  await page.getByTestId('annotate-pool').selectOption(pool);
  await expect(page.getByTestId('candidates')).toHaveAttribute('data-pool', pool);
  await page.keyboard.press('Home');
  await expect(page.getByTestId('candidate-row-0')).toHaveAttribute('aria-selected', 'true');
}
