/**
 * Undo and redo as an annotator and a judge meet them, in serve mode on a workspace of its own
 * (the SemEval-2016 dev questions): x takes a label's note along and u brings back both; in Review
 * u takes back the judge's last change whatever it was (a ruling or its reason), in order; U
 * (Shift+u) redoes what u took back, and is refused, saying why, once another change came in between.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createDisputedPool, invoke as apiInvoke } from './api';
import { openAnnotate } from './annotate-page';
import { useServedSemevalDev } from './semeval-team';

const root = path.resolve(import.meta.dirname, '../..');
const OPEN_POOL = 'work';
const REVIEW_POOL = 'disputes';

test.describe.configure({ mode: 'serial' });

let dir: string;
let page: Page;

/** A command through the page's HTTP API (api.ts invoke). */
const invoke = <T = unknown>(p: Page, command: string, args: unknown): Promise<T> => apiInvoke<T>(p.request, command, args);

function shot(name: string): string {
  const folder = path.join(root, 'test-results', 'screens');
  mkdirSync(folder, { recursive: true });
  return path.join(folder, name);
}

/** The stored note of `annotator` on a pair of `pool`. */
async function storedNote(pool: string, annotator: string, queryId: string, candidateId: string): Promise<string | null> {
  const v = await invoke<{ candidates: Array<{ id: string; note?: string | null }> }>(page, 'annotate.query', { pool, annotator, queryId });
  return v.candidates.find((c) => c.id === candidateId)?.note ?? null;
}

/** Writes a note on the row under the cursor (c, type, Enter). */
async function writeNote(text: string): Promise<void> {
  await page.keyboard.press('c');
  await page.getByTestId('note-dialog-input').fill(text);
  await page.getByTestId('note-dialog-input').press('Enter');
  await expect(page.getByTestId('note-dialog')).toHaveCount(0);
}

const served = useServedSemevalDev('undo', 28, {
  people: [
    ['alice', 'annotator'],
    ['bob', 'annotator'],
    ['carol', 'judge'],
    ['dave', 'annotator'],
  ],
  prepare: async (p) => {
    // Disputes: alice says 0 everywhere, bob 1 on each query's first candidate.
    await createDisputedPool(p.request, REVIEW_POOL, { n: 4, seed: 5, depth: 4 });
    // An open pool nobody is assigned to, for dave's day in Annotate.
    await invoke(p, 'pool.create', { name: OPEN_POOL, sample: { n: 3, seed: 2 }, depth: 5, blind: false });
  },
});
test.beforeAll(() => {
  ({ dir, page } = served);
});

test('Annotate: x takes the label’s note along; u brings back both; the next label starts without the old note', async () => {
  await openAnnotate(page, 'dave', OPEN_POOL);
  const row0 = page.getByTestId('candidate-row-0');
  const cand = (await row0.getAttribute('data-candidate-id'))!;
  const query = (await page.getByTestId('query-id').textContent())!;
  await page.keyboard.press('?');
  await expect(row0).toHaveAttribute('data-state', 'saved');
  await page.keyboard.press('Home');
  const note = 'one asks about the visa, the other about the permit';
  await writeNote(note);
  await expect(page.getByTestId('note-mark-0')).toHaveAttribute('title', `your note: ${note}`);
  await expect.poll(() => storedNote(OPEN_POOL, 'dave', query, cand)).toBe(note);

  await page.keyboard.press('x');
  await expect(row0).toHaveAttribute('data-label', '');
  await expect(row0).toHaveAttribute('data-state', 'none');
  await expect(page.getByTestId('note-mark-0')).toHaveCount(0);
  await expect.poll(() => storedNote(OPEN_POOL, 'dave', query, cand)).toBeNull();
  await page.screenshot({ path: shot('undo-x-cleared.png') });

  await page.keyboard.press('u');
  await expect(row0).toHaveAttribute('data-label', '?');
  await expect(page.getByTestId('note-mark-0')).toHaveAttribute('title', `your note: ${note}`);
  await expect.poll(() => storedNote(OPEN_POOL, 'dave', query, cand)).toBe(note);
  await page.screenshot({ path: shot('undo-x-undone.png') });

  // Cleared again, then labeled: the old note does not come back with the new label.
  await page.keyboard.press('Home');
  await page.keyboard.press('x');
  await expect(row0).toHaveAttribute('data-state', 'none');
  await page.keyboard.press('1');
  await expect(row0).toHaveAttribute('data-state', 'saved');
  await expect(page.getByTestId('note-mark-0')).toHaveCount(0);
  expect(await storedNote(OPEN_POOL, 'dave', query, cand)).toBeNull();
});

/** carol's stored ruling and reason on a pair of the disputes pool. */
async function ruling(queryId: string, candidateId: string): Promise<{ value: string | null; note: string | null }> {
  const q = await invoke<{ items: Array<{ queryId: string; candidateId: string; settled: { judge: string; value: string; note?: string | null } | null; judgeNote?: string | null }> }>(page, 'review.queue', {
    pool: REVIEW_POOL,
    judge: 'carol',
    includeSettled: true,
  });
  const it = q.items.find((i) => i.queryId === queryId && i.candidateId === candidateId);
  return { value: it?.settled?.judge === 'carol' ? it.settled.value : null, note: it?.judgeNote ?? null };
}

/** Review as carol on the disputes pool, the cursor on its first pair; returns that pair. */
async function reviewAsCarol(): Promise<{ query: string; cand: string }> {
  await page.goto('/#review');
  await page.getByTestId('review-pool').selectOption(REVIEW_POOL);
  await page.getByTestId('review-judge').selectOption('carol');
  await expect(page.getByTestId('review-current')).toBeVisible();
  await page.keyboard.press('Home');
  const cur = page.getByTestId('review-current');
  return { query: (await cur.getAttribute('data-query'))!, cand: (await cur.getAttribute('data-candidate'))! };
}

/** Writes the ruling's reason on the pair under the cursor (c, type, Enter). */
async function writeReason(text: string): Promise<void> {
  await page.keyboard.press('c');
  await page.getByTestId('reason-dialog-input').fill(text);
  await page.getByTestId('reason-dialog-input').press('Enter');
  await expect(page.getByTestId('reason-dialog')).toHaveCount(0);
}

test('Review: u takes back the judge’s last change, a reason as well as a ruling, in order', async () => {
  const { query, cand } = await reviewAsCarol();
  const row = page.locator(`[data-testid^="review-row-"][data-query="${query}"][data-candidate="${cand}"]`);
  await page.keyboard.press('1');
  await expect(row).toHaveAttribute('data-state', 'saved');
  await expect.poll(() => ruling(query, cand)).toEqual({ value: '1', note: null });
  await row.click();
  await expect(page.getByTestId('review-current')).toHaveAttribute('data-candidate', cand);
  await writeReason('the accepted answers are the same');
  await expect.poll(() => ruling(query, cand)).toEqual({ value: '1', note: 'the accepted answers are the same' });
  await writeReason('both ask how to renew the visa');
  await expect.poll(() => ruling(query, cand)).toEqual({ value: '1', note: 'both ask how to renew the visa' });
  await page.screenshot({ path: shot('review-two-reasons.png') });

  await page.keyboard.press('u');
  await expect(page.getByTestId('review-notice')).toContainText('reason');
  await expect(page.getByTestId('review-reason')).toContainText('the accepted answers are the same');
  await expect.poll(() => ruling(query, cand)).toEqual({ value: '1', note: 'the accepted answers are the same' });
  await page.keyboard.press('u');
  await expect(page.getByTestId('review-reason')).toHaveCount(0);
  await expect.poll(() => ruling(query, cand)).toEqual({ value: '1', note: null });
  await page.keyboard.press('u');
  await expect(page.getByTestId('review-notice')).toContainText(`Undone: your label of ${cand}`);
  await expect.poll(() => ruling(query, cand)).toEqual({ value: null, note: null });
  await page.screenshot({ path: shot('review-undone.png') });

  // A reason given before the ruling goes with it; x takes both, u brings both back.
  await row.click();
  await writeReason('different countries');
  await page.keyboard.press('0');
  await expect.poll(() => ruling(query, cand)).toEqual({ value: '0', note: 'different countries' });
  await row.click();
  await page.keyboard.press('x');
  await expect.poll(() => ruling(query, cand)).toEqual({ value: null, note: null });
  await page.keyboard.press('u');
  await expect.poll(() => ruling(query, cand)).toEqual({ value: '0', note: 'different countries' });
  await expect(row).toHaveAttribute('data-state', 'saved');
  await expect(page.getByTestId('review-reason')).toContainText('different countries');
  // The ruling given with its reason: one undo takes back both.
  await page.keyboard.press('u');
  await expect.poll(() => ruling(query, cand)).toEqual({ value: null, note: null });
});

test('Annotate: U (Shift+u) redoes what u took back, labels and notes, in order; a new label ends it, a change from another tab is refused', async () => {
  await openAnnotate(page, 'dave', OPEN_POOL);
  const query = (await page.getByTestId('query-id').textContent())!;
  const row = (i: number) => page.getByTestId(`candidate-row-${i}`);
  const cand2 = (await row(2).getAttribute('data-candidate-id'))!;
  await page.keyboard.press('j');
  await page.keyboard.press('1');
  await page.keyboard.press('0');
  await expect(row(2)).toHaveAttribute('data-state', 'saved');
  await page.keyboard.press('u');
  await expect(row(2)).toHaveAttribute('data-label', '');
  await page.keyboard.press('u');
  await expect(row(1)).toHaveAttribute('data-label', '');
  await page.keyboard.press('Shift+U');
  await expect(row(1)).toHaveAttribute('data-label', '1');
  await expect(page.getByTestId('annotate-notice')).toContainText('Redone: the label of');
  await page.keyboard.press('Shift+U');
  await expect(row(2)).toHaveAttribute('data-label', '0');
  await page.keyboard.press('Shift+U');
  await expect(page.getByTestId('annotate-notice')).toContainText('Nothing to redo');

  // A note: u takes it back, U gives it again.
  await page.getByTestId('candidate-row-2').click();
  await writeNote('a duplicate, asked a year later');
  await expect.poll(() => storedNote(OPEN_POOL, 'dave', query, cand2)).toBe('a duplicate, asked a year later');
  await page.keyboard.press('u');
  await expect(page.getByTestId('note-mark-2')).toHaveCount(0);
  await expect.poll(() => storedNote(OPEN_POOL, 'dave', query, cand2)).toBeNull();
  await page.keyboard.press('Shift+U');
  await expect(page.getByTestId('note-mark-2')).toHaveAttribute('title', 'your note: a duplicate, asked a year later');
  await expect.poll(() => storedNote(OPEN_POOL, 'dave', query, cand2)).toBe('a duplicate, asked a year later');

  // x then u then U: cleared again, note and all.
  await page.getByTestId('candidate-row-2').click();
  await page.keyboard.press('x');
  await expect(row(2)).toHaveAttribute('data-label', '');
  await page.keyboard.press('u');
  await expect(page.getByTestId('note-mark-2')).toBeVisible();
  await page.keyboard.press('Shift+U');
  await expect(row(2)).toHaveAttribute('data-label', '');
  await expect(page.getByTestId('note-mark-2')).toHaveCount(0);
  await expect.poll(() => storedNote(OPEN_POOL, 'dave', query, cand2)).toBeNull();
  await page.keyboard.press('u');
  await expect(row(2)).toHaveAttribute('data-label', '0');
  await expect(page.getByTestId('note-mark-2')).toBeVisible();

  // Undo, then a new label elsewhere: redo is refused, saying why.
  await page.keyboard.press('u');
  await expect(page.getByTestId('note-mark-2')).toHaveCount(0);
  await page.getByTestId('candidate-row-3').click();
  await page.keyboard.press('1');
  await expect(row(3)).toHaveAttribute('data-state', 'saved');
  await page.keyboard.press('Shift+U');
  await expect(page.getByTestId('annotate-notice')).toContainText('Cannot redo: a label or note was given after the undo');
  await expect.poll(() => storedNote(OPEN_POOL, 'dave', query, cand2)).toBeNull();

  // Undo, then the pair changes in another tab: redo is refused, and the other tab's label stays.
  const cand3 = (await row(3).getAttribute('data-candidate-id'))!;
  await page.keyboard.press('u');
  await expect(row(3)).toHaveAttribute('data-label', '');
  await invoke(page, 'label.set', { pool: OPEN_POOL, queryId: query, candidateId: cand3, annotator: 'dave', value: '0' });
  await page.keyboard.press('Shift+U');
  await expect(page.getByTestId('annotate-error')).toContainText(`Redo refused: cannot redo on ${query} → ${cand3}: its label changed since the undo`);
  await page.screenshot({ path: shot('redo-refused.png') });
  const v = await invoke<{ candidates: Array<{ id: string; label: string | null }> }>(page, 'annotate.query', { pool: OPEN_POOL, annotator: 'dave', queryId: query });
  expect(v.candidates.find((c) => c.id === cand3)?.label).toBe('0');

  // F1 lists the key.
  await page.keyboard.press('F1');
  await expect(page.getByTestId('shortcut-overlay')).toContainText('redo (Shift+u)');
  await page.keyboard.press('Escape');
});

test('Review: U redoes the judge’s undone ruling with its reason, and a reason undone alone', async () => {
  const { query, cand } = await reviewAsCarol();
  const row = page.locator(`[data-testid^="review-row-"][data-query="${query}"][data-candidate="${cand}"]`);
  await writeReason('same visa office');
  await page.keyboard.press('1');
  await expect.poll(() => ruling(query, cand)).toEqual({ value: '1', note: 'same visa office' });
  await row.click();
  await writeReason('same visa office, same year');
  await expect.poll(() => ruling(query, cand)).toEqual({ value: '1', note: 'same visa office, same year' });
  await page.keyboard.press('u');
  await expect.poll(() => ruling(query, cand)).toEqual({ value: '1', note: 'same visa office' });
  await page.keyboard.press('u');
  await expect.poll(() => ruling(query, cand)).toEqual({ value: null, note: null });
  await page.keyboard.press('Shift+U');
  await expect.poll(() => ruling(query, cand)).toEqual({ value: '1', note: 'same visa office' });
  await expect(page.getByTestId('review-reason')).toContainText('same visa office');
  await page.keyboard.press('Shift+U');
  await expect.poll(() => ruling(query, cand)).toEqual({ value: '1', note: 'same visa office, same year' });
  await expect(page.getByTestId('review-reason')).toContainText('same visa office, same year');
  await page.keyboard.press('Shift+U');
  await expect(page.getByTestId('review-notice')).toContainText('Nothing to redo');
  await page.keyboard.press('F1');
  await expect(page.getByTestId('shortcut-overlay')).toContainText('redo (Shift+u)');
  await page.keyboard.press('Escape');
});

test('Review: x on a pair another judge settled says it clears only your own ruling, and changes and announces nothing', async () => {
  await invoke(page, 'annotator.add', { name: 'zoe', role: 'judge' });
  const q = await invoke<{ items: Array<{ queryId: string; candidateId: string; settled: unknown }> }>(page, 'review.queue', { pool: REVIEW_POOL, judge: 'zoe', includeSettled: true });
  const other = q.items.find((i) => !i.settled)!;
  await invoke(page, 'review.settle', { pool: REVIEW_POOL, judge: 'zoe', queryId: other.queryId, candidateId: other.candidateId, value: '0', note: 'zoe’s reason' });
  await reviewAsCarol();
  const row = page.locator(`[data-testid^="review-row-"][data-query="${other.queryId}"][data-candidate="${other.candidateId}"]`);
  // zoe's ruling (given through the API) must be on screen before x: the screen acts on what it shows.
  await expect(row).toHaveAttribute('data-value', '0');
  await row.click();
  await expect(page.getByTestId('review-current')).toHaveAttribute('data-candidate', other.candidateId);
  await page.keyboard.press('x');
  await expect(page.getByTestId('review-notice')).toContainText('This pair is settled by zoe: x clears only your own ruling');
  await expect(page.locator('body')).not.toContainText('Ruling cleared');
  await expect(row).toHaveAttribute('data-value', '0');
  await expect(row).toHaveAttribute('data-state', 'saved');
  await page.screenshot({ path: shot('review-x-other-judge.png') });
});

test('Review: a reason written before the ruling survives a reload, and stays with its pool (not shown nor sent with the same pair in another pool)', async () => {
  // A second pool with the same pairs, the same votes (a labels import of the first pool's).
  const rows: string[] = [];
  for (const q of await invoke<Array<{ id: string }>>(page, 'annotate.queries', { pool: REVIEW_POOL, annotator: 'bob' })) {
    const v = await invoke<{ candidates: Array<{ id: string; position: number }> }>(page, 'annotate.query', { pool: REVIEW_POOL, annotator: 'bob', queryId: q.id });
    for (const c of v.candidates) {
      rows.push(JSON.stringify({ query_id: q.id, candidate_id: c.id, annotator: 'alice', label: '0' }));
      rows.push(JSON.stringify({ query_id: q.id, candidate_id: c.id, annotator: 'bob', label: c.position === 0 ? '1' : '0' }));
    }
  }
  const file = path.join(dir, 'disputes2.jsonl');
  writeFileSync(file, rows.join('\n') + '\n');
  await invoke(page, 'import.start', { format: 'labels-jsonl', sources: [{ path: file }], pool: 'disputes2', scheme: 'binary' });
  await expect.poll(async () => (await invoke<Array<{ name: string }>>(page, 'pool.list', {})).map((x) => x.name), { timeout: 30_000 }).toContain('disputes2');
  await reviewAsCarol();
  type Items = { items: Array<{ queryId: string; candidateId: string; settled: unknown }> };
  const inOther = new Set((await invoke<Items>(page, 'review.queue', { pool: 'disputes2', judge: 'carol', includeSettled: true })).items.map((i) => `${i.queryId} ${i.candidateId}`));
  const open = (await invoke<Items>(page, 'review.queue', { pool: REVIEW_POOL, judge: 'carol', includeSettled: true })).items.find((i) => !i.settled && inOther.has(`${i.queryId} ${i.candidateId}`))!;
  expect(open, 'a pair in dispute in both pools').toBeTruthy();
  const [query, cand] = [open.queryId, open.candidateId];
  await page.locator(`[data-testid^="review-row-"][data-query="${query}"][data-candidate="${cand}"]`).click();
  await expect(page.getByTestId('review-current')).toHaveAttribute('data-candidate', cand);
  await writeReason('written before ruling');
  await expect(page.getByTestId('review-reason')).toContainText('written before ruling');
  await page.reload();
  await expect(page.getByTestId('review-current')).toBeVisible();
  await page.locator(`[data-testid^="review-row-"][data-query="${query}"][data-candidate="${cand}"]`).click();
  await expect(page.getByTestId('review-reason')).toContainText('written before ruling');
  await expect(page.getByTestId('review-reason')).toContainText('sent with your ruling');

  // The same pair in the other pool: no reason shown, and a ruling there goes without it.
  await page.getByTestId('review-pool').selectOption('disputes2');
  const row2 = page.locator(`[data-testid^="review-row-"][data-query="${query}"][data-candidate="${cand}"]`);
  await row2.click();
  await expect(page.getByTestId('review-current')).toHaveAttribute('data-candidate', cand);
  await expect(page.getByTestId('review-reason')).toHaveCount(0);
  await page.keyboard.press('1');
  await expect(row2).toHaveAttribute('data-state', 'saved');
  const q2 = await invoke<{ items: Array<{ queryId: string; candidateId: string; judgeNote?: string | null }> }>(page, 'review.queue', { pool: 'disputes2', judge: 'carol', includeSettled: true });
  expect(q2.items.find((i) => i.queryId === query && i.candidateId === cand)?.judgeNote ?? null).toBeNull();

  // Back in the first pool, the ruling takes the draft along.
  await page.getByTestId('review-pool').selectOption(REVIEW_POOL);
  const row = page.locator(`[data-testid^="review-row-"][data-query="${query}"][data-candidate="${cand}"]`);
  await row.click();
  await page.keyboard.press('1');
  await expect.poll(() => ruling(query, cand)).toEqual({ value: '1', note: 'written before ruling' });
  await page.screenshot({ path: shot('review-draft-reason.png') });
});
