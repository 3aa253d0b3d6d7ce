/**
 * Two judges racing on one pair, in the browser: judy's Review shows the pair unsettled and she
 * rules while jack's ruling, given meanwhile in another page, has not reached hers. Her ruling
 * silently overruled his (Review asks before overruling only a ruling it shows). review.settle now
 * carries the ruling her row showed (ifRuling) and the engine refuses it, naming jack's ruling:
 * Review shows his ruling and asks as it does before overruling one — the same key again overrules.
 */
import { expect, test, type Page } from '@playwright/test';
import { qpairs, useServedSmallPool } from './small-pool';

test.describe.configure({ mode: 'serial' });

const served = useServedSmallPool(
  'judge-race',
  150,
  (pairs) => [`${pairs[0]![0]},${pairs[0]![1]},alice,1`, `${pairs[0]![0]},${pairs[0]![1]},bob,0`],
  ({ workspace }) => {
    qpairs('annotators', 'add', workspace, 'judy', 'jack', '--role', 'judge');
  },
);

async function openReview(page: Page, judge: string): Promise<void> {
  await page.goto('/#review');
  await page.getByTestId('review-pool').selectOption('p');
  await page.getByTestId('review-judge').selectOption(judge);
  await page.getByTestId('review-judge').blur();
  await expect(page.getByTestId('review-total')).toHaveText('1');
}

test("judy's ruling sent while jack's, unseen, settled the pair is refused; Review shows jack's and asks; the same key again overrules", async () => {
  const judy = served.page;
  const jackPage = await served.context.newPage();
  try {
    await openReview(judy, 'judy');
    await openReview(jackPage, 'jack');
    const label = judy.getByTestId('review-judge-label');
    await expect(label).toHaveAttribute('data-value', '');
    // judy's ruling leaves her page while her row shows the pair unsettled, and reaches the server only once jack has ruled.
    let jackRuled!: () => void;
    const ruled = new Promise<void>((resolve) => (jackRuled = resolve));
    let held = false;
    await judy.route('**/api/invoke', async (route) => {
      const body = route.request().postDataJSON() as { command?: string };
      if (body?.command === 'review.settle' && !held) {
        held = true;
        await ruled;
      }
      await route.continue();
    });
    await judy.keyboard.press('1');
    await expect.poll(() => held).toBe(true);
    await jackPage.keyboard.press('0');
    await expect(jackPage.getByTestId('review-state')).toHaveAttribute('data-state', 'saved');
    jackRuled();
    // Was: saved, overruling jack's ruling without a word.
    await expect(judy.getByTestId('review-notice')).toHaveText(
      'jack ruled not similar meanwhile, so your ruling was not saved — press 1 again to overrule jack with similar, or Esc to keep that ruling.',
    );
    await expect(label).toHaveAttribute('data-value', '0');
    await expect(judy.getByTestId('review-current')).toContainText('judge (jack)');
    await expect(judy.getByTestId('failed-labels')).toHaveCount(0);
    await judy.unroute('**/api/invoke');
    // The same key again overrules jack, knowingly.
    await judy.keyboard.press('1');
    await expect(label).toHaveAttribute('data-value', '1');
    await expect(judy.getByTestId('review-state')).toHaveAttribute('data-state', 'saved');
    await expect(judy.getByTestId('review-overrules')).toHaveText(' overrules jack (not similar)');
  } finally {
    await jackPage.close();
  }
});
