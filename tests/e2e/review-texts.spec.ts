/**
 * Review on a pool whose questions are long (10 KB bodies, 300-character titles): the queue the
 * screen reads carries titles cut short and no body, and the pair under the cursor shows its whole
 * texts, asked for one pair at a time (review.pair) as j/k move; with more pairs than the list
 * window the list shows the window holding the cursor, and PgDn/End reach the others.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { useServedReviewPool } from './review-pool';
import { openAnnotate } from './annotate-page';

const root = path.resolve(import.meta.dirname, '../..');
const QUERIES = 110;
const DEPTH = 3;
/** The list's window (ReviewScreen's LIST_WINDOW). */
const WINDOW = 200;

test.describe.configure({ mode: 'serial' });

/** A question's text: its id first, then words up to `n` characters, then END-<id> (so a cut text lacks it). */
const text = (id: string, n: number): string => `${id} ${'lorem ipsum '.repeat(Math.ceil(n / 12))}`.slice(0, n - `END-${id}`.length - 1) + ` END-${id}`;

const served = useServedReviewPool('review-texts', 39, 'long', () => {
  const questions: string[] = [];
  const labels: string[] = [];
  for (let q = 0; q < QUERIES; q++) {
    const cands = Array.from({ length: DEPTH }, (_, c) => `c${q}x${c}`);
    for (const id of [`q${q}`, ...cands]) questions.push(JSON.stringify({ id, title: text(`T${id}`, 300), body: text(`B${id}`, 10_000) }));
    // alice says 1, bob 0: every pair is a disagreement.
    for (const c of cands) labels.push(`q${q},${c},alice,1`, `q${q},${c},bob,0`);
  }
  return { questions, labels };
});

/** The pair's texts as the detail shows them. */
async function shownTexts(page: Page): Promise<{ query: string; candidate: string; queryTitle: string }> {
  return {
    query: await page.getByTestId('review-query-body').innerText(),
    candidate: await page.getByTestId('review-candidate-body').innerText(),
    queryTitle: await page.getByTestId('review-query-title').innerText(),
  };
}

test('the queue carries no texts; the selected pair shows its whole texts, and j/k, PgDn and End reach every pair', async () => {
  const page = served.page;
  test.setTimeout(120_000);
  const pairs = QUERIES * DEPTH;
  const queueSizes: number[] = [];
  page.on('response', async (r) => {
    if (!r.url().endsWith('/api/invoke') || !(r.request().postData() ?? '').includes('"review.queue"')) return;
    queueSizes.push((await r.body().catch(() => Buffer.alloc(0))).length);
  });
  await page.setViewportSize({ width: 1360, height: 900 });
  await page.goto(`${served.server!.url}/#review`);
  await page.getByTestId('review-pool').selectOption('long');
  await page.getByTestId('review-judge').selectOption('judy');
  await page.getByTestId('review-judge').blur();
  await expect(page.getByTestId('review-total')).toHaveText(String(pairs));

  // The queue: 330 pairs of 10 KB texts (6.6 MB of text) in well under 400 bytes a pair.
  await expect.poll(() => queueSizes.length).toBeGreaterThan(0);
  expect(Math.max(...queueSizes), `review.queue answers: ${queueSizes.join(', ')} bytes`).toBeLessThan(pairs * 600);

  // The first pair's whole texts, end included.
  const current = page.getByTestId('review-current');
  await expect(current).toHaveAttribute('data-texts', 'loaded');
  const q0 = (await current.getAttribute('data-query'))!;
  const c0 = (await current.getAttribute('data-candidate'))!;
  let t = await shownTexts(page);
  expect(t.query.length).toBeGreaterThan(9_000);
  expect(t.query.trim().endsWith(`END-B${q0}`)).toBe(true);
  expect(t.candidate.trim().endsWith(`END-B${c0}`)).toBe(true);
  expect(t.queryTitle.trim().endsWith(`END-T${q0}`)).toBe(true);
  // The list shows the titles cut short.
  const row0 = page.getByTestId('review-row-0');
  await expect(row0).toContainText(`T${q0}`);
  await expect(row0).not.toContainText(`END-T${q0}`);
  await page.screenshot({ path: path.join(mkdirP(path.join(root, 'test-results', 'screens')), 'review-long-texts.png') });

  // j: the next pair's texts follow the cursor; k brings the first back.
  await page.keyboard.press('j');
  await expect(page.getByTestId('review-index')).toHaveText('2');
  const c1 = (await current.getAttribute('data-candidate'))!;
  expect(c1).not.toBe(c0);
  await expect(page.getByTestId('review-candidate-body')).toContainText(`END-B${c1}`);
  await page.keyboard.press('k');
  await expect(page.getByTestId('review-candidate-body')).toContainText(`END-B${c0}`);

  // The list shows WINDOW rows at a time: the window holding the cursor.
  await expect(page.locator('[data-testid^="review-row-"]')).toHaveCount(WINDOW);
  await expect(page.getByTestId('review-window-range')).toHaveText(`pairs 1–${WINDOW} of ${pairs}`);
  await page.keyboard.press('PageDown');
  await expect(page.getByTestId('review-index')).toHaveText(String(WINDOW + 1));
  await expect(page.getByTestId('review-window-range')).toHaveText(`pairs ${WINDOW + 1}–${pairs} of ${pairs}`);
  await expect(page.getByTestId(`review-row-${WINDOW}`)).toHaveAttribute('aria-selected', 'true');
  // The buttons' arrows are decoration: screen readers say "previous 200 PgUp", not "‹ previous…".
  await expect(page.getByTestId('review-window-prev')).toHaveAccessibleName(`previous ${WINDOW} PgUp`);
  // Back to the first window by the button.
  await page.getByTestId('review-window-prev').click();
  await expect(page.getByTestId('review-index')).toHaveText('1');
  await expect(page.getByTestId('review-window-range')).toHaveText(`pairs 1–${WINDOW} of ${pairs}`);
  await expect(page.getByTestId('review-window-next')).toHaveAccessibleName(`next ${WINDOW} PgDn`);
  await page.keyboard.press('End');
  await expect(page.getByTestId('review-index')).toHaveText(String(pairs));
  const last = (await current.getAttribute('data-candidate'))!;
  await expect(page.getByTestId('review-candidate-body')).toContainText(`END-B${last}`);
  // Settling by keyboard works in the last window: 1 rules, and the cursor goes on to the next unsettled pair (the first).
  await page.keyboard.press('1');
  await expect(page.getByTestId('review-remaining')).toHaveText(String(pairs - 1));
  await expect(page.getByTestId('review-index')).toHaveText('1');
  await page.keyboard.press('End');
  await expect(page.locator(`[data-testid="review-row-${pairs - 1}"]`)).toHaveAttribute('data-state', 'saved', { timeout: 15_000 });
  await page.keyboard.press('Home');
  t = await shownTexts(page);
  expect(t.query.trim().endsWith(`END-B${q0}`)).toBe(true);
  await page.screenshot({ path: path.join(mkdirP(path.join(root, 'test-results', 'screens')), 'review-long-texts-end.png') });
});

test('a long body reached with Tab scrolls with the arrows, Page Down and End, in Review and in Annotate; the cursor stays, j still moves it', async () => {
  // The arrows, Home/End (and in Review PgDn) moved the cursor of the list instead: the text the reader had focused never scrolled.
  const page = served.page;
  await page.setViewportSize({ width: 1024, height: 700 });
  try {
    await page.goto(`${served.server!.url}/#review`);
    await page.getByTestId('review-pool').selectOption('long');
    await expect(page.getByTestId('review-current')).toHaveAttribute('data-texts', 'loaded');
    const body = page.getByTestId('review-candidate-body');
    await body.focus();
    const at = (await page.getByTestId('review-index').textContent())!;
    for (const key of ['ArrowDown', 'PageDown']) await page.keyboard.press(key);
    await expect.poll(() => body.evaluate((e) => e.scrollTop)).toBeGreaterThan(0);
    await page.keyboard.press('End');
    await expect.poll(() => body.evaluate((e) => Math.round(e.scrollTop + e.clientHeight) >= e.scrollHeight - 1)).toBe(true);
    await expect(page.getByTestId('review-index')).toHaveText(at);
    await page.keyboard.press('j');
    await expect(page.getByTestId('review-index')).toHaveText(String(Number(at) + 1));

    await openAnnotate(page, 'reader', 'long');
    const query = page.getByTestId('query-body');
    await query.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => query.evaluate((e) => e.scrollTop)).toBeGreaterThan(0);
    await page.keyboard.press('End');
    await expect.poll(() => query.evaluate((e) => Math.round(e.scrollTop + e.clientHeight) >= e.scrollHeight - 1)).toBe(true);
    await expect(page.getByTestId('candidate-row-0')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('j');
    await expect(page.getByTestId('candidate-row-1')).toHaveAttribute('aria-selected', 'true');
  } finally {
    await page.setViewportSize({ width: 1360, height: 900 });
  }
});

function mkdirP(p: string): string {
  mkdirSync(p, { recursive: true });
  return p;
}
