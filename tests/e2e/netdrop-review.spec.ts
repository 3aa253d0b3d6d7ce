/**
 * A judge's ruling in Review whose answer was lost after the server saved it (the connection broke on
 * the way back): it is sent again and saved once, and u takes back that ruling — not the one before it.
 */
import { expect, test } from '@playwright/test';
import { loseOneAnswer } from './lost-answer';
import { useServedReviewPool } from './review-pool';

// Two queries of two candidates; alice says 1 and bob 0 on every pair: four disagreements.
const served = useServedReviewPool('netdrop-review', 128, 'p', () => {
  const questions: string[] = [];
  const labels: string[] = [];
  for (let q = 0; q < 2; q++) {
    const cands = [`c${q}x0`, `c${q}x1`];
    for (const id of [`q${q}`, ...cands]) questions.push(JSON.stringify({ id, title: `Title of ${id}`, body: `Body of ${id}` }));
    for (const c of cands) labels.push(`q${q},${c},alice,1`, `q${q},${c},bob,0`);
  }
  return { questions, labels };
});

test('a ruling whose answer was lost is saved once, and u takes it back, not the ruling before it', async () => {
  const { page } = served;
  await page.goto('/#review');
  await page.getByTestId('review-pool').selectOption('p');
  await page.getByTestId('review-judge').selectOption('judy');
  await expect(page.getByTestId('review-row-3')).toBeVisible();
  const second = (await page.getByTestId('review-row-1').getAttribute('data-candidate'))!;
  await page.keyboard.press('1');
  await expect(page.getByTestId('review-row-0')).toHaveAttribute('data-state', 'saved');
  await expect(page.getByTestId('review-row-1')).toHaveAttribute('aria-selected', 'true');
  const drop = await loseOneAnswer(page, (b) => b.command === 'review.settle' && b.args?.candidateId === second);
  try {
    await page.keyboard.press('0');
    await expect(page.getByTestId('review-row-1')).toHaveAttribute('data-state', 'saved', { timeout: 10_000 });
    expect(drop.lost()).toBe(1);
  } finally {
    await drop.restore();
  }
  await page.keyboard.press('u');
  await expect(page.getByTestId('review-notice')).toContainText(`Undone: your label of ${second} `);
  await expect(page.getByTestId('review-row-1')).toHaveAttribute('data-value', '');
  await expect(page.getByTestId('review-row-0')).toHaveAttribute('data-value', '1');
});
