/**
 * Serve mode's Export downloads on a page whose clock is 7 minutes ahead of the server's: the ids' expiry is the
 * server's (`expiresAt` on its clock), and the screen said "until HH:MM" 7 minutes early and turned a file not yet
 * fetched expired 7 minutes before the server let it go. Each answer now carries the server's time: the screen shows
 * the expiry on the page's own clock and turns the file expired when the server does.
 */
import { expect, test, type Page } from '@playwright/test';
import { exportPoolP, ignoreFirstDownloadClick } from './download-clicks';
import { useServedSmallPool } from './small-pool';

test.describe.configure({ mode: 'serial' });

const served = useServedSmallPool('export-downloads-skew', 281, (pairs) => pairs.map(([q, c], i) => `${q},${c},ann,${i % 2}`));

const AHEAD = 7 * 60_000;

/** A time as the page's clock shows it (HH:MM, local), as the screen writes it. */
const clockTime = (page: Page, at: number): Promise<string> =>
  page.evaluate((t) => {
    const d = new Date(t);
    return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  }, at);

test('a page whose clock is 7 minutes ahead shows and lapses a download by the server’s expiry, on its own clock', async () => {
  const page = served.page;
  await page.clock.install({ time: Date.now() + AHEAD });
  await page.reload();
  await page.goto('/#export');
  // The browser ignores the first download link clicked (it blocked the site's downloads): the file stays asked for.
  await ignoreFirstDownloadClick(page);
  const downloads = await exportPoolP(page, 'jsonl');
  const expiresAt = downloads[0]!.expiresAt;
  const row = page.getByTestId('export-download').first();
  await page.clock.fastForward(11_000);
  await expect(row).toContainText('Choose Download again, until');
  // The expiry on the page's clock: the server's plus the 7 minutes (and the 11 s the page's clock was moved on).
  const shown = (await row.textContent())!.match(/until (\d\d:\d\d), when the server stops keeping it/)![1]!;
  const onPageClock = await Promise.all([0, 11_000, 30_000].map((extra) => clockTime(page, expiresAt + AHEAD + extra)));
  expect(onPageClock).toContain(shown);
  expect(shown, 'not the server-clock time').not.toBe(await clockTime(page, expiresAt));

  // The server cannot be asked from now on: the page's clock alone decides.
  await page.route('**/api/invoke', (route) => route.abort());
  // Past the server's expiry as the page's clock reads it, 6 minutes before the server lets the id go: still asked for.
  await page.clock.fastForward(expiresAt + 60_000 - (await page.evaluate(() => Date.now())));
  await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
  await expect(row).toHaveAttribute('data-state', 'offered');
  // Once the server has let it go (on the page's clock, 7 minutes later): expired.
  await page.clock.fastForward(AHEAD + 60_000);
  await expect(row).toHaveAttribute('data-state', 'expired');
  await page.unroute('**/api/invoke');
});
