/**
 * A labeling day by keyboard, as an expert annotator meets it in serve mode on a workspace of its
 * own (the SemEval-2016 dev questions, small pools per label scheme and labeling order): a note
 * goes on the pair the keys name; every saved label (and a judge's ruling in Review) is said to
 * screen readers; a label stays on screen once saved on a slow network; Enter keeps to the drawn
 * queries of a pool with a labeling order, waits for the labels just given, and puts the cursor on
 * the pair decide-rankers-mtc asks for; at 200% zoom the row under the cursor is in full view;
 * Alt+digit in a text field stays there; long guidelines scroll from the keyboard; Enter in the
 * filter box gives the keys back.
 * The tests share the server and run in order.
 */
import { expect, test, type Page } from '@playwright/test';
import { openAnnotate } from './annotate-page';
import { useServedWorkspace } from './served-workspace';
import { importSemEvalDev, invoke } from './api';


test.describe.configure({ mode: 'serial' });

const served = useServedWorkspace('labeling', 4, { workspace: 'day.qpairs', context: { viewport: { width: 1360, height: 900 } } });
let page: Page;

test.beforeAll(async () => {
  page = served.page;
  await importSemEvalDev(page.request);
  await invoke(page.request, 'pool.create', { name: 'likert', sample: { n: 2, seed: 3 }, depth: 5, scheme: 'likert5' });
  await invoke(page.request, 'pool.create', { name: 'graded', sample: { n: 2, seed: 4 }, depth: 5, scheme: 'graded' });
});

test('after a "?", another label ends the note offer: c then notes the row under the cursor, not the unsure pair', async () => {
  await openAnnotate(page, 'ann', 'likert');
  const id = async (row: number): Promise<string> => (await page.getByTestId(`candidate-row-${row}`).getAttribute('data-candidate-id'))!;
  // "?" on row 4: the cursor moves to row 5 and the screen offers a note on row 4.
  await page.keyboard.press('End');
  await page.keyboard.press('k');
  await page.keyboard.press('?');
  await expect(page.getByTestId('note-offer')).toBeVisible();
  await expect(page.getByTestId('candidate-row-4')).toHaveAttribute('aria-selected', 'true');
  // +2 on row 5, the last: the cursor stays on it, and c is about row 5 now.
  await page.keyboard.press('5');
  await expect(page.getByTestId('label-4')).toHaveAttribute('data-value', '2');
  await expect(page.getByTestId('note-offer')).toHaveCount(0);
  await page.keyboard.press('c');
  await expect(page.getByTestId('note-dialog')).toHaveAttribute('aria-label', `Note on candidate ${await id(4)}`);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('note-dialog')).toHaveCount(0);

  // "?" on row 1, then j and k back to row 2: the cursor moved on, so c is about row 2 (unlabeled).
  await page.keyboard.press('Home');
  await page.keyboard.press('?');
  await expect(page.getByTestId('note-offer')).toBeVisible();
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  await expect(page.getByTestId('candidate-row-1')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('c');
  await expect(page.getByTestId('note-dialog')).toHaveCount(0);
  await expect(page.getByTestId('annotate-notice')).toContainText('Label this candidate first');
});

test('each saved label, cleared label and note is said in a polite live region', async () => {
  await openAnnotate(page, 'ann', 'graded');
  const region = page.getByTestId('label-announce');
  await expect(region).toHaveAttribute('aria-live', 'polite');
  const title = async (row: number): Promise<string> => (await page.getByTestId(`candidate-row-${row}`).locator('.cand-title').first().innerText()).trim();
  await page.keyboard.press('7');
  await expect(page.getByTestId('row-state-0')).toHaveAttribute('data-state', 'saved');
  await expect(region).toHaveText(`grade 7: saved for “${await title(0)}”, candidate 1 of 5.`);
  await page.keyboard.press('k');
  await page.keyboard.press('x');
  await expect(region).toHaveText(`Label cleared on “${await title(0)}”, candidate 1 of 5, saved.`);
  await page.keyboard.press('?');
  await page.keyboard.press('c');
  await page.getByTestId('note-dialog-input').fill('two readings of the title');
  await page.getByTestId('note-dialog-input').press('Enter');
  await expect(region).toHaveText(`Note saved on “${await title(0)}”, candidate 1 of 5.`);
});

test('on a slow network a label keeps showing once saved: a re-read answered while it was on its way does not put the old label back', async () => {
  await invoke(page.request, 'pool.create', { name: 'slow', sample: { n: 1, seed: 5 }, depth: 5 });
  await openAnnotate(page, 'ann', 'slow');
  const second = (await page.getByTestId('candidate-row-1').getAttribute('data-candidate-id'))!;
  // The second label's save takes a second; from its end on, every read of the query takes five.
  let slowReads = false;
  await page.route('**/api/invoke', async (route) => {
    const body = route.request().postDataJSON() as { command?: string; args?: { candidateId?: string } } | null;
    if (body?.command === 'label.set' && body.args?.candidateId === second) {
      await new Promise((r) => setTimeout(r, 1_000));
      slowReads = true;
    } else if (body?.command === 'annotate.query' && slowReads) await new Promise((r) => setTimeout(r, 5_000));
    await route.continue().catch(() => {});
  });
  try {
    // The first label's event re-reads the query (fast) while the second label is still on its way.
    await page.keyboard.press('1');
    await page.keyboard.press('0');
    await expect(page.getByTestId('row-state-1')).toHaveAttribute('data-state', 'saved', { timeout: 5_000 });
    await expect(page.getByTestId('label-1')).toHaveAttribute('data-value', '0', { timeout: 1_000 });
    await expect(page.getByTestId('progress-pairs')).toHaveText('2');
  } finally {
    await page.unroute('**/api/invoke');
  }
});

test('Enter on a half-labeled drawn query of a random-order pool stays on it and says why, instead of opening an undrawn query', async () => {
  await invoke(page.request, 'pool.create', { name: 'drawn', sample: { n: 4, seed: 6 }, depth: 3, order: 'random', orderSeed: 2 });
  await openAnnotate(page, 'ann', 'drawn');
  const first = (await page.getByTestId('candidates').getAttribute('data-query'))!;
  await page.keyboard.press('1');
  await expect(page.getByTestId('row-state-0')).toHaveAttribute('data-state', 'saved');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('annotate-notice')).toContainText('No other query is waiting for you');
  await expect(page.getByTestId('candidates')).toHaveAttribute('data-query', first);
  // Done, Enter draws the next query.
  await page.keyboard.press('0');
  await page.keyboard.press('0');
  await expect(page.getByTestId('progress-queries')).toHaveText('1');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('candidates')).not.toHaveAttribute('data-query', first);
  await expect(page.getByTestId('progress-index')).toHaveText('2');
});

test('a judge hears each ruling saved in Review, as an annotator hears each label', async () => {
  await invoke(page.request, 'pool.create', { name: 'split', sample: { n: 1, seed: 7 }, depth: 3 });
  await invoke(page.request, 'pool.assign', { pool: 'split', annotators: ['ann1', 'ann2'] });
  await invoke(page.request, 'annotator.add', { name: 'jude', role: 'judge' });
  const q = await invoke<{ queryId: string; candidates: Array<{ id: string; question: { title: string } | null }> }>(page.request, 'annotate.query', { pool: 'split', annotator: 'ann1' });
  for (const c of q.candidates) {
    await invoke(page.request, 'label.set', { pool: 'split', queryId: q.queryId, candidateId: c.id, annotator: 'ann1', value: '1' });
    await invoke(page.request, 'label.set', { pool: 'split', queryId: q.queryId, candidateId: c.id, annotator: 'ann2', value: '0' });
  }
  await page.goto('/#review');
  await page.getByTestId('review-pool').selectOption('split');
  await page.getByTestId('review-judge').selectOption('jude');
  const current = page.getByTestId('review-current');
  await expect(current).toBeVisible();
  const cand = (await current.getAttribute('data-candidate'))!;
  const title = q.candidates.find((c) => c.id === cand)!.question!.title;
  await page.keyboard.press('1');
  await expect(page.getByTestId('label-announce')).toHaveText(new RegExp(`^Ruling similar: saved for “${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}” for query “`));
});

test('decide-rankers-mtc: after a label and Enter, the cursor is on the pair asked next, also when it is in the same query', async () => {
  await invoke(page.request, 'pool.create', { name: 'mtc', sample: { n: 3, seed: 8 }, depth: 5, order: 'decide-rankers-mtc', orderSeed: 1 });
  await openAnnotate(page, 'ann', 'mtc');
  const asked = page.locator('tr[aria-selected="true"]').getByTestId('candidate-focus');
  await expect(asked).toHaveCount(1);
  const cursorRow = page.locator('tr[aria-selected="true"]');
  for (let k = 0; k < 3; k++) {
    const query = await page.getByTestId('candidates').getAttribute('data-query');
    // The pair under the cursor, by its id (the asked pair need not be the query's first candidate).
    const labeled = (await cursorRow.getAttribute('data-candidate-id'))!;
    await page.keyboard.press('1');
    await expect(page.locator(`tr[data-candidate-id="${labeled}"]`)).toHaveAttribute('data-state', 'saved');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('candidate-focus')).toHaveCount(1);
    await expect(cursorRow).toHaveAttribute('data-state', 'none');
    // The asked pair is under the cursor: the next label key labels it.
    await expect(asked, `step ${k} (query ${query} → ${await page.getByTestId('candidates').getAttribute('data-query')})`).toHaveCount(1);
  }
});

test('Enter right after the last label of a drawn query, on a slow network, goes to the next drawn query', async () => {
  await invoke(page.request, 'pool.create', { name: 'drawn2', sample: { n: 4, seed: 9 }, depth: 2, order: 'random', orderSeed: 3 });
  await openAnnotate(page, 'ann', 'drawn2');
  const first = (await page.getByTestId('candidates').getAttribute('data-query'))!;
  const last = (await page.getByTestId('candidate-row-1').getAttribute('data-candidate-id'))!;
  await page.keyboard.press('1');
  await expect(page.getByTestId('row-state-0')).toHaveAttribute('data-state', 'saved');
  // The last label takes a second and a half to be saved; Enter is pressed at once.
  await page.route('**/api/invoke', async (route) => {
    const body = route.request().postDataJSON() as { command?: string; args?: { candidateId?: string } } | null;
    if (body?.command === 'label.set' && body.args?.candidateId === last) await new Promise((r) => setTimeout(r, 1_500));
    await route.continue().catch(() => {});
  });
  try {
    await page.keyboard.press('0');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('candidates')).not.toHaveAttribute('data-query', first, { timeout: 6_000 });
    await expect(page.getByTestId('progress-index')).toHaveText('2');
    await expect(page.getByTestId('annotate-notice')).toHaveCount(0);
  } finally {
    await page.unroute('**/api/invoke');
  }
});

test('at 200% zoom (680×450 CSS px) the candidate under the cursor is in full view, not under the sticky query', async () => {
  await page.setViewportSize({ width: 680, height: 450 });
  try {
    await openAnnotate(page, 'zoomer', 'likert');
    for (let k = 1; k < 5; k++) {
      await page.keyboard.press('j');
      const row = page.getByTestId(`candidate-row-${k}`);
      await expect(row).toHaveAttribute('aria-selected', 'true');
      await expect
        .poll(async () =>
          row.evaluate((el) => {
            const r = el.getBoundingClientRect();
            const bar = document.querySelector('header')!.getBoundingClientRect().bottom;
            const head = document.querySelector('[data-testid="annotate-head"]')!.getBoundingClientRect();
            const covered = getComputedStyle(document.querySelector('[data-testid="annotate-head"]')!).position === 'sticky' ? head.bottom : bar;
            return r.top >= Math.max(bar, covered) - 1 && r.bottom <= innerHeight + 1 ? 'in view' : `row ${Math.round(r.top)}–${Math.round(r.bottom)}, clear from ${Math.round(Math.max(bar, covered))} to ${innerHeight}`;
          }),
        )
        .toBe('in view');
    }
  } finally {
    await page.setViewportSize({ width: 1360, height: 900 });
  }
});

test('Alt+digit typed in a note (Option+5 is "[" on a German Mac) stays in the note: no screen switch, the note kept', async () => {
  await openAnnotate(page, 'ann', 'likert');
  await page.keyboard.press('3');
  await page.keyboard.press('k');
  await page.keyboard.press('c');
  const input = page.getByTestId('note-dialog-input');
  await input.fill('see ');
  await input.press('Alt+5');
  await input.press('Alt+4');
  await expect(page.getByTestId('note-dialog')).toBeVisible();
  expect(await page.evaluate(() => location.hash)).toBe('#annotate');
  await input.press('Escape');
  // Outside a text field Alt+digit still switches screens.
  await page.keyboard.press('Alt+5');
  await expect(page.getByTestId('tab-agreement')).toHaveAttribute('aria-selected', 'true');
});

test('guidelines longer than the window scroll from the keyboard (h, then Page Down, arrows, Space); Esc gives the keys back', async () => {
  const markdown = ['# Guidelines', ...Array.from({ length: 80 }, (_, i) => `${i + 1}. Rule ${i + 1}: when two questions are duplicates and when they are merely related.`)].join('\n\n');
  await invoke(page.request, 'pool.setGuidelines', { pool: 'graded', markdown });
  await openAnnotate(page, 'ann', 'graded');
  await page.keyboard.press('h');
  const card = page.getByTestId('guidelines-card');
  await expect(card).toBeFocused();
  const top = (): Promise<number> => card.evaluate((el) => el.scrollTop);
  /** Where the card rests once a keyboard scroll (animated in Chromium) has ended, and who has the focus. */
  const settled = async (): Promise<{ top: number; focus: string }> => {
    let last = -1;
    for (;;) {
      const now = await top();
      if (now === last) break;
      last = now;
      await page.waitForTimeout(150);
    }
    const focus = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset?.testid ?? document.activeElement?.tagName ?? 'none');
    return { top: last, focus };
  };
  await page.keyboard.press('PageDown');
  await expect.poll(top).toBeGreaterThan(100);
  const afterPage = await settled();
  expect(afterPage.focus).toBe('guidelines-card');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press(' ');
  await expect
    .poll(async () => {
      const now = await settled();
      return now.top > afterPage.top ? 'further down' : `${now.top}, focus on ${now.focus}`;
    })
    .toBe('further down');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('guidelines-overlay')).toHaveCount(0);
  await page.keyboard.press('End');
  await page.keyboard.press('4');
  await expect(page.getByTestId('label-4')).toHaveAttribute('data-value', '4');
});

test('Enter in the candidate filter keeps the filter and gives the keys back: the next key labels the first row shown', async () => {
  await openAnnotate(page, 'filterer', 'likert');
  const third = page.getByTestId('candidate-row-2');
  const word = (await third.locator('.cand-title').first().innerText()).trim().split(/\s+/).find((w) => w.length > 4)!;
  const filter = page.getByTestId('candidates-filter');
  await filter.click();
  await filter.pressSequentially(word);
  await filter.press('Enter');
  await expect(filter).not.toBeFocused();
  await expect(filter).toHaveValue(word);
  await page.keyboard.press('Home');
  await page.keyboard.press('4');
  await expect(filter).toHaveValue(word);
  const first = page.locator('tr.cand-row').first();
  await expect(first.locator('[data-testid^="label-"]').first()).toHaveAttribute('data-value', '1');
});

test('Review lists a Likert pool’s votes as scale points (+1, −2), as its ruling and the pair’s votes read, not the stored 1 that reads as key 1 (−2)', async () => {
  const q = await invoke<{ queryId: string; candidates: Array<{ id: string }> }>(page.request, 'annotate.query', { pool: 'likert', annotator: 'lv1' });
  const pair = { pool: 'likert', queryId: q.queryId, candidateId: q.candidates[0]!.id };
  await invoke(page.request, 'label.set', { ...pair, annotator: 'lv1', value: '1' });
  await invoke(page.request, 'label.set', { ...pair, annotator: 'lv2', value: '-2' });
  await page.goto('/#review');
  await page.getByTestId('review-pool').selectOption('likert');
  const row = page.locator('[data-testid^=review-row-]').filter({ hasText: 'lv1' });
  await expect(row).toContainText('lv1 +1 · lv2 −2');
  await row.click();
  await expect(page.getByTestId('review-votes')).toContainText('+1');
});
