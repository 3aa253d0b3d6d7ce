/**
 * Undo and redo where the two screens' histories meet or the engine says no, in serve mode on a
 * workspace of its own (the SemEval-2016 dev questions, a pool alice and bob disagree on):
 * an undo the engine refuses leaves nothing for U to redo; and a person who both labels (Annotate)
 * and judges (Review) one pool — only an owner can, choosing a judge's name in both — has each
 * screen's U redo only that screen's undo.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createDisputedPool, invoke as apiInvoke } from './api';
import { openAnnotate } from './annotate-page';
import { type ServeProcess } from './serve';
import { useServedSemevalDev } from './semeval-team';

const root = path.resolve(import.meta.dirname, '../..');
const POOL = 'disputes';
const OPEN = 'open-disputes';

test.describe.configure({ mode: 'serial' });

let server: ServeProcess;
let page: Page;

const invoke = <T = unknown>(command: string, args: unknown): Promise<T> => apiInvoke<T>(page.request, command, args);

function shot(name: string): string {
  const folder = path.join(root, 'test-results', 'screens');
  mkdirSync(folder, { recursive: true });
  return path.join(folder, name);
}

type Item = { queryId: string; candidateId: string; labels: Array<{ annotator: string; value: string }>; settled: { judge: string; value: string } | null; judgeNote?: string | null };

/** carol's stored ruling and reason on a pair (null, null once it left the queue). */
async function ruling(queryId: string, candidateId: string): Promise<{ value: string | null; note: string | null }> {
  const q = await invoke<{ items: Item[] }>('review.queue', { pool: POOL, judge: 'carol', includeSettled: true });
  const it = q.items.find((i) => i.queryId === queryId && i.candidateId === candidateId);
  return { value: it?.settled?.judge === 'carol' ? it.settled.value : null, note: it?.judgeNote ?? null };
}

/** Review as carol on the pool, the cursor on an unsettled pair; returns it with its votes. */
async function reviewAsCarol(p: Page): Promise<Item> {
  await p.goto('/#review');
  await p.getByTestId('review-pool').selectOption(POOL);
  await p.getByTestId('review-judge').selectOption('carol');
  await expect(p.getByTestId('review-current')).toBeVisible();
  const q = await invoke<{ items: Item[] }>('review.queue', { pool: POOL, judge: 'carol', includeSettled: true });
  const item = q.items.find((i) => !i.settled)!;
  await p.locator(`[data-testid^="review-row-"][data-query="${item.queryId}"][data-candidate="${item.candidateId}"]`).click();
  await expect(p.getByTestId('review-current')).toHaveAttribute('data-candidate', item.candidateId);
  return item;
}

async function writeReason(p: Page, text: string): Promise<void> {
  await p.keyboard.press('c');
  await p.getByTestId('reason-dialog-input').fill(text);
  await p.getByTestId('reason-dialog-input').press('Enter');
  await expect(p.getByTestId('reason-dialog')).toHaveCount(0);
}

const served = useServedSemevalDev('undo-screens', 33, {
  people: [
    ['alice', 'annotator'],
    ['bob', 'annotator'],
    ['carol', 'judge'],
  ],
  prepare: async (p) => {
    await createDisputedPool(p.request, POOL, { n: 4, seed: 5, depth: 4 });
  },
});
test.beforeAll(() => {
  ({ server, page } = served);
});

test('Review: an undo of a reason the engine refuses leaves nothing for U to redo', async ({ browser }) => {
  // A tab that misses the server's events (a dropped connection it has not noticed): it still
  // shows the pair in dispute after the votes came to agree, so its undo reaches the engine and is refused.
  const ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 1360, height: 900 } });
  await ctx.routeWebSocket('**/api/events', (ws) => {
    ws.connectToServer().onMessage(() => {});
  });
  const tab = await ctx.newPage();
  try {
    const item = await reviewAsCarol(tab);
    const { queryId, candidateId } = item;
    await writeReason(tab, 'both ask about the same visa');
    await tab.keyboard.press('1');
    await expect.poll(() => ruling(queryId, candidateId)).toEqual({ value: '1', note: 'both ask about the same visa' });
    await tab.locator(`[data-testid^="review-row-"][data-query="${queryId}"][data-candidate="${candidateId}"]`).click();
    await writeReason(tab, 'both ask about the same visa office');
    await expect.poll(() => ruling(queryId, candidateId)).toEqual({ value: '1', note: 'both ask about the same visa office' });

    // The votes come to agree (alice takes bob's): the pair is no longer in dispute.
    const bob = item.labels.find((l) => l.annotator === 'bob')!.value;
    await invoke('label.set', { pool: POOL, queryId, candidateId, annotator: 'alice', value: bob });
    await expect(tab.getByTestId('review-current')).toHaveAttribute('data-candidate', candidateId);

    await tab.keyboard.press('u');
    await expect(tab.getByTestId('failed-labels')).toContainText('not a disagreement');
    // The notice agrees with what happened: the reason was not put back.
    await expect(tab.getByTestId('review-notice')).toHaveText(`Not undone: your reason on ${candidateId} for query ${queryId} was refused, so it stays as it was (see what was not saved).`);
    await tab.keyboard.press('Shift+U');
    await expect(tab.getByTestId('review-notice')).toContainText('Nothing to redo');
    await tab.screenshot({ path: shot('review-undo-refused.png') });
    // Nothing was taken back, nothing given again: the reason is the last one written.
    const v = await invoke<{ candidates: Array<{ id: string; label: string | null; note?: string | null }> }>('annotate.query', { pool: POOL, annotator: 'carol', queryId });
    expect(v.candidates.find((c) => c.id === candidateId)).toMatchObject({ label: '1', note: 'both ask about the same visa office' });

    // The refused undo discarded, the reason it was to put back is not kept as a draft: when the
    // pair is in dispute again (carol's ruling outdated), the stored reason shows, not one to send with her next ruling.
    await tab.getByTestId('failed-labels').getByRole('button', { name: 'Discard' }).press('Enter');
    await expect(tab.getByTestId('failed-labels')).toHaveCount(0);
    await invoke('label.set', { pool: POOL, queryId, candidateId, annotator: 'alice', value: bob === '1' ? '0' : '1' });
    await tab.reload();
    const row = tab.locator(`[data-testid^="review-row-"][data-query="${queryId}"][data-candidate="${candidateId}"]`);
    await row.click();
    await expect(tab.getByTestId('review-outdated-ruling')).toBeVisible();
    await expect(tab.getByTestId('review-reason')).toContainText('both ask about the same visa office');
    await expect(tab.getByTestId('review-reason')).not.toContainText('sent with your ruling');
  } finally {
    await ctx.close();
  }
});

test('Review: U of a reason is refused when the reason changed since the undo, even in a tab that missed the change', async ({ browser }) => {
  const ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 1360, height: 900 } });
  await ctx.routeWebSocket('**/api/events', (ws) => {
    ws.connectToServer().onMessage(() => {});
  });
  const tab = await ctx.newPage();
  try {
    const { queryId, candidateId } = await reviewAsCarol(tab);
    await writeReason(tab, 'same office');
    await tab.keyboard.press('1');
    await expect.poll(() => ruling(queryId, candidateId)).toEqual({ value: '1', note: 'same office' });
    await tab.locator(`[data-testid^="review-row-"][data-query="${queryId}"][data-candidate="${candidateId}"]`).click();
    await writeReason(tab, 'same office, same form');
    await expect.poll(() => ruling(queryId, candidateId)).toEqual({ value: '1', note: 'same office, same form' });
    await tab.keyboard.press('u');
    await expect.poll(() => ruling(queryId, candidateId)).toEqual({ value: '1', note: 'same office' });

    // Another window rewrites the reason; this tab does not hear of it.
    await invoke('review.settle', { pool: POOL, judge: 'carol', queryId, candidateId, value: '1', note: 'written in another window' });
    await tab.keyboard.press('Shift+U');
    await expect(tab.getByTestId('failed-labels')).toContainText('its note changed since the undo');
    await expect(tab.getByTestId('review-notice')).toHaveText(`Not redone: your reason on ${candidateId} for query ${queryId} was refused, so it stays as the undo left it (see what was not saved).`);
    await tab.screenshot({ path: shot('review-redo-reason-refused.png') });
    expect(await ruling(queryId, candidateId)).toEqual({ value: '1', note: 'written in another window' });

    // The keys the judge used, in the F1 list as the README gives them (Home/End among them).
    for (const key of ['End', 'Home']) {
      await tab.keyboard.press(key);
      await expect(tab.getByTestId('review-index')).toHaveText(key === 'Home' ? '1' : String(await tab.locator('[data-testid^="review-row-"]').count()));
    }
    await tab.keyboard.press('F1');
    const listed = tab.getByTestId('shortcut-screen-keys');
    for (const [key, what] of [
      ['Home / End', 'first / last pair shown'],
      ['u / Backspace', 'undo'],
      ['U', 'redo (Shift+u)'],
      ['c', 'reason for the ruling'],
    ])
      await expect(listed.getByRole('row').filter({ has: tab.getByRole('rowheader', { name: key, exact: true }) })).toContainText(what);
    await tab.keyboard.press('Escape');
  } finally {
    await ctx.close();
  }
});

test('Review: u and U on a pair the filter hides show that pair (the filter is cleared), not another one', async () => {
  const item = await reviewAsCarol(page);
  const { queryId, candidateId } = item;
  const rowOf = (q: string, c: string) => page.locator(`[data-testid^="review-row-"][data-query="${q}"][data-candidate="${c}"]`);
  await page.keyboard.press('1');
  await expect(rowOf(queryId, candidateId)).toHaveAttribute('data-state', 'saved');
  // The judge narrows the list to another query's pairs (Enter gives the keys back to the list).
  const other = (await invoke<{ items: Item[] }>('review.queue', { pool: POOL, judge: 'carol', includeSettled: true })).items.find((i) => i.queryId !== queryId)!;
  const title = (await rowOf(other.queryId, other.candidateId).locator('td').nth(1).textContent())!;
  await page.getByTestId('review-filter').fill(title);
  await page.getByTestId('review-filter').press('Enter');
  await expect(rowOf(queryId, candidateId)).toHaveCount(0);

  await page.keyboard.press('u');
  await expect(page.getByTestId('review-notice')).toContainText(`Undone: your label of ${candidateId}`);
  await expect(page.getByTestId('review-filter')).toHaveValue('');
  await expect(page.getByTestId('review-current')).toHaveAttribute('data-candidate', candidateId);
  await expect(page.getByTestId('review-current')).toHaveAttribute('data-query', queryId);

  await page.getByTestId('review-filter').fill(title);
  await page.getByTestId('review-filter').press('Enter');
  await expect(rowOf(queryId, candidateId)).toHaveCount(0);
  await page.keyboard.press('Shift+U');
  await expect(page.getByTestId('review-notice')).toContainText(`Redone: your label of ${candidateId}`);
  await expect(page.getByTestId('review-filter')).toHaveValue('');
  await expect(page.getByTestId('review-current')).toHaveAttribute('data-candidate', candidateId);
  await expect(page.getByTestId('review-current')).toHaveAttribute('data-query', queryId);
  await expect.poll(() => ruling(queryId, candidateId)).toEqual({ value: '1', note: null });
});

test('Review: a reason on a pair that is no longer in dispute cannot be undone, and does not stop u from going further back', async () => {
  const q = (await invoke<{ items: Item[] }>('review.queue', { pool: POOL, judge: 'carol', includeSettled: true })).items.filter((i) => !i.settled);
  expect(q.length, 'two pairs to settle').toBeGreaterThanOrEqual(2);
  const [a, b] = [q[0]!, q[1]!];
  await reviewAsCarol(page);
  const rowOf = (i: Item) => page.locator(`[data-testid^="review-row-"][data-query="${i.queryId}"][data-candidate="${i.candidateId}"]`);
  await rowOf(a).click();
  await page.keyboard.press('1');
  await expect(rowOf(a)).toHaveAttribute('data-state', 'saved');
  await rowOf(b).click();
  await page.keyboard.press('1');
  await expect(rowOf(b)).toHaveAttribute('data-state', 'saved');
  await rowOf(b).click();
  await writeReason(page, 'same question, other words');
  await expect.poll(() => ruling(b.queryId, b.candidateId)).toEqual({ value: '1', note: 'same question, other words' });

  // alice comes round to bob's vote: the pair leaves the list.
  const bob = b.labels.find((l) => l.annotator === 'bob')!.value;
  await invoke('label.set', { pool: POOL, queryId: b.queryId, candidateId: b.candidateId, annotator: 'alice', value: bob });
  await expect(rowOf(b)).toHaveCount(0);
  await page.keyboard.press('u');
  await expect(page.getByTestId('review-notice')).toContainText(`Cannot undo your reason on ${b.candidateId} of query ${b.queryId}: that pair is no longer in dispute`);
  await page.keyboard.press('u');
  await expect(page.getByTestId('review-notice')).toContainText(`Undone: your label of ${b.candidateId}`);
  await page.keyboard.press('u');
  await expect(page.getByTestId('review-notice')).toContainText(`Undone: your label of ${a.candidateId}`);
  await expect.poll(() => ruling(a.queryId, a.candidateId)).toEqual({ value: null, note: null });
});

test('Annotate: u and U on a candidate the filter hides show that candidate (the filter is cleared)', async () => {
  await invoke('pool.create', { name: 'filtered', sample: { n: 2, seed: 3 }, depth: 5, blind: false });
  await openAnnotate(page, 'alice', 'filtered');
  const row = (i: number) => page.getByTestId(`candidate-row-${i}`);
  await page.keyboard.press('1');
  await expect(row(0)).toHaveAttribute('data-state', 'saved');
  const hide = async (): Promise<void> => {
    await page.getByTestId('candidates-filter').fill((await row(2).getAttribute('data-candidate-id'))!);
    await page.getByTestId('candidates-filter').press('Enter');
    await expect(row(0)).toBeHidden();
  };
  await hide();
  await page.keyboard.press('u');
  await expect(page.getByTestId('annotate-notice')).toContainText('Undone: the label of');
  await expect(page.getByTestId('candidates-filter')).toHaveValue('');
  await expect(row(0)).toHaveAttribute('aria-selected', 'true');
  await expect(row(0)).toHaveAttribute('data-label', '');
  await hide();
  await page.keyboard.press('Shift+U');
  await expect(page.getByTestId('annotate-notice')).toContainText('Redone: the label of');
  await expect(page.getByTestId('candidates-filter')).toHaveValue('');
  await expect(row(0)).toHaveAttribute('aria-selected', 'true');
  await expect(row(0)).toHaveAttribute('data-label', '1');
});

test('Annotate’s U redoes only Annotate’s undo: a ruling and reason carol undid in Review are not given back as her vote, and once the owner has her label the pool U says they cannot be redone', async () => {
  // A pool alice and bob disagree on: carol, its judge, settles a pair in Review.
  await invoke('pool.create', { name: OPEN, sample: { n: 2, seed: 9 }, depth: 3, blind: false });
  const [q] = await invoke<Array<{ id: string }>>('annotate.queries', { pool: OPEN, annotator: 'bob' });
  const v = await invoke<{ candidates: Array<{ id: string }> }>('annotate.query', { pool: OPEN, annotator: 'bob', queryId: q!.id });
  const queryId = q!.id;
  const candidateId = v.candidates[0]!.id;
  await invoke('label.set', { pool: OPEN, queryId, candidateId, annotator: 'alice', value: '0' });
  await invoke('label.set', { pool: OPEN, queryId, candidateId, annotator: 'bob', value: '1' });
  const rulingOf = async (): Promise<string | null> =>
    (await invoke<{ candidates: Array<{ id: string; label: string | null }> }>('annotate.query', { pool: OPEN, annotator: 'carol', queryId })).candidates.find((c) => c.id === candidateId)!.label;

  await page.goto('/#review');
  await page.getByTestId('review-pool').selectOption(OPEN);
  await page.getByTestId('review-judge').selectOption('carol');
  const row = page.locator(`[data-testid^="review-row-"][data-query="${queryId}"][data-candidate="${candidateId}"]`);
  await row.click();
  await expect(page.getByTestId('review-current')).toHaveAttribute('data-candidate', candidateId);
  await page.keyboard.press('1');
  await expect(row).toHaveAttribute('data-state', 'saved');
  // Her reason, then u twice: the reason, then the ruling, are taken back.
  await row.click();
  await writeReason(page, 'one asks about fees, the other about forms');
  await expect(row).toHaveAttribute('data-state', 'saved');
  await page.keyboard.press('u');
  await expect(page.getByTestId('review-notice')).toContainText(`Undone: your reason on ${candidateId} for query ${queryId} (removed).`);
  await page.keyboard.press('u');
  await expect(page.getByTestId('review-notice')).toContainText(`Undone: your label of ${candidateId}`);
  await expect.poll(rulingOf).toBeNull();

  // The owner has carol label the pool: she no longer judges it, so Review cannot redo them
  // either. U in Annotate does not give her undone ruling back as a vote, does not send her to
  // Review, and does not stop there: each U drops one and says why.
  await invoke('pool.assign', { pool: OPEN, annotators: ['alice', 'bob', 'carol'] });
  await openAnnotate(page, 'carol', OPEN);
  await page.keyboard.press('Shift+U');
  await expect(page.getByTestId('annotate-notice')).toHaveText(
    `Cannot redo your ruling on ${candidateId} of query ${queryId}: you undid it in Review as this pool's judge, and you no longer judge it, so it stays undone. U again redoes the undo before it.`,
  );
  await page.screenshot({ path: shot('annotate-redo-review-entry.png') });
  await page.keyboard.press('Shift+U');
  await expect(page.getByTestId('annotate-notice')).toContainText(`Cannot redo your reason on ${candidateId} of query ${queryId}: you undid it in Review`);
  await page.keyboard.press('Shift+U');
  await expect(page.getByTestId('annotate-notice')).toContainText('Nothing to redo');
  expect(await rulingOf()).toBeNull();

  // Her own labels there undo and redo as ever.
  const row0 = page.getByTestId('candidate-row-0');
  await page.keyboard.press('0');
  await expect(row0).toHaveAttribute('data-state', 'saved');
  await page.keyboard.press('u');
  await expect(row0).toHaveAttribute('data-label', '');
  await page.keyboard.press('Shift+U');
  await expect(page.getByTestId('annotate-notice')).toContainText(`Redone: the label of ${await row0.getAttribute('data-candidate-id')}`);
  await expect(row0).toHaveAttribute('data-label', '0');
});

test('Review: a redo of a reason on a pair no longer in dispute is dropped, and U goes on to the undo before it', async () => {
  const pool = 'disputes-redo';
  await createDisputedPool(page.request, pool, { n: 2, seed: 11, depth: 4 });
  const items = (await invoke<{ items: Item[] }>('review.queue', { pool, judge: 'carol', includeSettled: true })).items;
  expect(items.length, 'two pairs in dispute').toBe(2);
  const [a, b] = [items[0]!, items[1]!];
  const settledBy = async (i: Item): Promise<{ value: string | null; note: string | null }> => {
    const q = await invoke<{ items: Item[] }>('review.queue', { pool, judge: 'carol', includeSettled: true });
    const it = q.items.find((x) => x.queryId === i.queryId && x.candidateId === i.candidateId);
    return { value: it?.settled?.judge === 'carol' ? it.settled.value : null, note: it?.judgeNote ?? null };
  };
  await page.goto('/#review');
  await page.getByTestId('review-pool').selectOption(pool);
  await page.getByTestId('review-judge').selectOption('carol');
  const rowOf = (i: Item) => page.locator(`[data-testid^="review-row-"][data-query="${i.queryId}"][data-candidate="${i.candidateId}"]`);
  // carol rules on b and gives her reason, then rules on a; u takes back a's ruling, then b's reason.
  await rowOf(b).click();
  await page.keyboard.press('1');
  await expect(rowOf(b)).toHaveAttribute('data-state', 'saved');
  await rowOf(b).click();
  await writeReason(page, 'the same visa question');
  await expect.poll(() => settledBy(b)).toEqual({ value: '1', note: 'the same visa question' });
  await rowOf(a).click();
  await page.keyboard.press('1');
  await expect(rowOf(a)).toHaveAttribute('data-state', 'saved');
  await page.keyboard.press('u');
  await expect(page.getByTestId('review-notice')).toContainText(`Undone: your label of ${a.candidateId}`);
  await page.keyboard.press('u');
  await expect(page.getByTestId('review-notice')).toContainText(`Undone: your reason on ${b.candidateId} for query ${b.queryId} (removed).`);
  await expect.poll(() => settledBy(b)).toEqual({ value: '1', note: null });

  // alice comes round to bob's vote: b leaves the list, and its reason cannot be given again.
  const bob = b.labels.find((l) => l.annotator === 'bob')!.value;
  await invoke('label.set', { pool, queryId: b.queryId, candidateId: b.candidateId, annotator: 'alice', value: bob });
  await expect(rowOf(b)).toHaveCount(0);
  await page.keyboard.press('Shift+U');
  await expect(page.getByTestId('review-notice')).toContainText(`Cannot redo your reason on ${b.candidateId} for query ${b.queryId}: that pair is no longer in dispute.`);
  // The next U is not stopped there: it gives back a's ruling.
  await page.keyboard.press('Shift+U');
  await expect(page.getByTestId('review-notice')).toContainText(`Redone: your label of ${a.candidateId}`);
  await expect.poll(() => settledBy(a)).toEqual({ value: '1', note: null });
});
