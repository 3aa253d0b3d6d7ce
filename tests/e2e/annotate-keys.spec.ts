/**
 * A keyboard-first labeling session on the Annotate screen, on a small open pool (SemEval dev,
 * 3 queries × 4 candidates): Enter and Space on a focused control (the Close of the list of keys,
 * a candidate's title reached with Tab) work that control instead of moving to the next query;
 * undo takes back a note change before the label under it; a reload resumes on the query shown;
 * very long titles and code lines wrap instead of pushing the label buttons out of the window;
 * right-to-left titles and bodies read right to left; what the screen said about one pool is gone
 * once another is chosen; a query completed in another tab is not timed in this one.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { invoke } from './api';
import { qpairs, useServedSmallPool } from './small-pool';

test.describe.configure({ mode: 'serial' });

const served = useServedSmallPool('annotate-keys', 23, () => [], ({ dir, workspace }) => {
  // Pool "long": a query whose title is one long path, its candidates with a long title, a code line and an Arabic title.
  const path40 = '/usr/lib/x86_64-linux-gnu/' + 'zqlong_path_segment_'.repeat(14) + 'printer.conf';
  const questions = [
    { id: 'zq1', title: `zqprinter zqdriver: ${path40}`, body: 'zqprinter zqdriver fails' },
    { id: 'zq2', title: `zqprinter ${'x'.repeat(300)}`, body: `zqdriver\n\`\`\`\n${'$ sudo lpadmin -p zqprinter -E -v usb://HP/OfficeJet%20Pro?serial=CN12345&model=hp-officejet_pro_8600_with_a_long_name '.repeat(3)}\n\`\`\`` },
    { id: 'zq3', title: 'كيف أثبت تعريف الطابعة zqprinter zqdriver على أوبونتو؟', body: 'عندي طابعة HP والتعريف لا يعمل (zqdriver) ما الحل؟' },
  ];
  const jsonl = path.join(dir, 'long.jsonl');
  writeFileSync(jsonl, questions.map((q) => JSON.stringify(q)).join('\n') + '\n');
  qpairs('import', workspace, '--format', 'questions-jsonl', jsonl);
  const queries = path.join(dir, 'long-queries.txt');
  writeFileSync(queries, 'zq1\n');
  qpairs('pool', 'create', workspace, '--name', 'long', '--queries', queries, '--depth', '2', '--blind', 'false');
});

async function openAnnotate(p: Page): Promise<string> {
  await p.goto('/#annotate');
  await p.getByTestId('annotate-pool').selectOption('p');
  await expect(p.getByTestId('query-id')).toBeVisible();
  return (await p.getByTestId('query-id').textContent()) ?? '';
}

test('Enter on the Close of the list of keys closes it and stays on the query; Enter on a candidate title reached with Tab opens its body', async () => {
  const query = await openAnnotate(served.page);
  await served.page.keyboard.press('F1');
  await expect(served.page.getByTestId('shortcut-close')).toBeFocused();
  await expect(served.page.getByTestId('shortcut-screen-keys')).toContainText('Home / End');
  await served.page.keyboard.press('Enter');
  await expect(served.page.getByTestId('shortcut-overlay')).toHaveCount(0);
  await served.page.waitForTimeout(500); // a next-query read would land by now
  await expect(served.page.getByTestId('query-id')).toHaveText(query);

  await served.page.keyboard.press('F1');
  await served.page.keyboard.press(' ');
  await expect(served.page.getByTestId('shortcut-overlay')).toHaveCount(0);
  await expect(served.page.getByTestId('row-toggle-0')).toHaveAttribute('aria-expanded', 'false');

  // A keyboard user reaches the first candidate's title with Tab and opens it with Enter.
  await served.page.getByTestId('row-toggle-0').focus();
  await served.page.keyboard.press('Enter');
  await expect(served.page.getByTestId('row-toggle-0')).toHaveAttribute('aria-expanded', 'true');
  await served.page.waitForTimeout(500);
  await expect(served.page.getByTestId('query-id')).toHaveText(query);
  // The keys still label afterwards (the title gives the focus back).
  await served.page.keyboard.press('Enter');
  await expect(served.page.getByTestId('query-id')).not.toHaveText(query);
});

test('u after writing a note takes back the note (its label stays), then the label; a reload shows the same', async () => {
  await served.page.reload(); // a fresh page: the engine's first unfinished query, shown again after the reload below
  const query = await openAnnotate(served.page);
  const row = Number((await served.page.locator('tr.cand-row.current .label-pill').getAttribute('data-testid'))!.slice('label-'.length));
  await served.page.keyboard.press('1');
  await expect(served.page.getByTestId(`row-state-${row}`)).toHaveAttribute('data-state', 'saved');
  await served.page.keyboard.press('k');
  for (const text of ['first thought', 'second thought']) {
    await served.page.keyboard.press('c');
    await served.page.getByTestId('note-dialog-input').fill(text);
    await served.page.keyboard.press('Enter');
    await expect(served.page.getByTestId(`note-mark-${row}`)).toHaveAttribute('title', `your note: ${text}`);
    await expect(served.page.getByTestId(`row-state-${row}`)).toHaveAttribute('data-state', 'saved');
  }
  await served.page.keyboard.press('u');
  await expect(served.page.getByTestId('annotate-notice')).toContainText('the note on');
  await expect(served.page.getByTestId(`note-mark-${row}`)).toHaveAttribute('title', 'your note: first thought');
  await expect(served.page.getByTestId(`label-${row}`)).toHaveAttribute('data-value', '1');
  await expect(served.page.getByTestId(`row-state-${row}`)).toHaveAttribute('data-state', 'saved');
  await served.page.keyboard.press('u');
  await expect(served.page.getByTestId(`note-mark-${row}`)).toHaveCount(0);
  await expect(served.page.getByTestId(`label-${row}`)).toHaveAttribute('data-value', '1');
  await expect(served.page.getByTestId(`row-state-${row}`)).toHaveAttribute('data-state', 'saved');
  await served.page.reload();
  await expect(served.page.getByTestId('query-id')).toHaveText(query);
  await expect(served.page.getByTestId(`label-${row}`)).toHaveAttribute('data-value', '1');
  await expect(served.page.getByTestId(`note-mark-${row}`)).toHaveCount(0);
  // The undo history survives the reload: the label given before the notes is next.
  await served.page.keyboard.press('u');
  await expect(served.page.getByTestId('annotate-notice')).toContainText('Undone: the label of');
  await expect(served.page.getByTestId(`label-${row}`)).toHaveAttribute('data-value', '');
  await expect(served.page.getByTestId(`note-mark-${row}`)).toHaveCount(0);
});

test('a reload resumes on the query shown, not on an earlier one skipped with n; a new tab starts at the first unfinished', async () => {
  await served.page.reload();
  await openAnnotate(served.page);
  const annotator = await served.page.getByTestId('annotator-input').inputValue();
  // The engine's choice for a new page: the first query this annotator has not finished.
  const first = (await invoke<{ queryId: string }>(served.page.request, 'annotate.query', { pool: 'p', annotator })).queryId;
  if ((await served.page.getByTestId('query-id').textContent()) !== first) {
    await served.page.keyboard.press('g');
    await served.page.getByTestId('goto-input').fill(first);
    await served.page.getByTestId('goto-input').press('Enter');
    await expect(served.page.getByTestId('query-id')).toHaveText(first);
  }
  await served.page.keyboard.press('n'); // skip this query for now
  await expect(served.page.getByTestId('query-id')).not.toHaveText(first);
  const second = (await served.page.getByTestId('query-id').textContent())!;
  await served.page.keyboard.press('1');
  await expect(served.page.getByTestId('row-state-0')).toHaveAttribute('data-state', 'saved');
  await served.page.reload();
  await expect(served.page.getByTestId('query-id')).toHaveText(second);
  await expect(served.page.getByTestId('candidate-row-1')).toHaveAttribute('aria-selected', 'true');
  const other = await served.context.newPage();
  try {
    await other.goto('/#annotate');
    await other.getByTestId('annotate-pool').selectOption('p');
    await expect(other.getByTestId('query-id')).toHaveText(first);
  } finally {
    await other.close();
  }
});

test('a title that is one long path, a 300-letter word or a long code line wraps: at 1024×700 nothing scrolls sideways and every label button is in view', async () => {
  await served.page.setViewportSize({ width: 1024, height: 700 });
  try {
    await served.page.goto('/#annotate');
    await served.page.getByTestId('annotate-pool').selectOption('long');
    await expect(served.page.getByTestId('query-id')).toHaveText('zq1');
    await expect(served.page.getByTestId('candidates')).toHaveAttribute('data-pool', 'long');
    const rows = served.page.locator('[data-testid^="candidate-row-"]');
    await expect(rows).toHaveCount(2);
    for (let i = 0; i < 2; i++) {
      await served.page.keyboard.press('o');
      await served.page.keyboard.press('j');
    }
    await expect(served.page.locator('[data-testid^="candidate-body-"]')).toHaveCount(2);
    const overflow = await served.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'the page scrolls sideways by this many pixels').toBeLessThanOrEqual(0);
    for (let i = 0; i < 2; i++) {
      const box = (await served.page.getByTestId(`label-btn-${i}-1`).boundingBox())!;
      expect(box.x + box.width, `row ${i + 1}'s label button`).toBeLessThanOrEqual(1024);
    }
    const title = (await served.page.getByTestId('query-title').boundingBox())!;
    expect(title.x + title.width).toBeLessThanOrEqual(1024);
  } finally {
    await served.page.setViewportSize({ width: 1280, height: 720 });
  }
});

test('an Arabic title and body read right to left (their own direction), the English ones left to right', async () => {
  await served.page.goto('/#annotate');
  await served.page.reload(); // no candidate opened
  await served.page.getByTestId('annotate-pool').selectOption('long');
  await expect(served.page.getByTestId('query-id')).toHaveText('zq1');
  const direction = (l: ReturnType<Page['getByTestId']>): Promise<string> => l.evaluate((e) => getComputedStyle(e).direction);
  const arabic = served.page.locator('[data-candidate-id="zq3"]');
  const row = Number((await arabic.getAttribute('data-testid'))!.slice('candidate-row-'.length));
  expect(await direction(served.page.getByTestId(`row-toggle-${row}`))).toBe('rtl');
  expect(await arabic.locator('.cand-snippet').evaluate((e) => getComputedStyle(e).direction)).toBe('rtl');
  expect(await direction(served.page.getByTestId('query-title'))).toBe('ltr');
  expect(await direction(served.page.getByTestId(`row-toggle-${1 - row}`))).toBe('ltr');
  // Its body, opened, too; and a note typed in Arabic.
  await served.page.getByTestId(`row-toggle-${row}`).click();
  expect(await direction(served.page.getByTestId(`candidate-body-${row}`).locator('.cand-body'))).toBe('rtl');
  await served.page.getByTestId(`candidate-row-${row}`).click();
  await served.page.keyboard.press('1');
  await served.page.getByTestId(`candidate-row-${row}`).click();
  await served.page.keyboard.press('c');
  await served.page.getByTestId('note-dialog-input').fill('العنوان غامض');
  expect(await direction(served.page.getByTestId('note-dialog-input'))).toBe('rtl');
  await served.page.keyboard.press('Escape');
  // Browse shows it in its own direction too: the hit and the question opened.
  await served.page.goto('/#browse');
  await served.page.getByTestId('browse-text').fill('الطابعة');
  await served.page.getByTestId('browse-search').click();
  await expect(served.page.getByTestId('browse-open-zq3')).toBeVisible();
  expect(await direction(served.page.getByTestId('browse-open-zq3'))).toBe('rtl');
  await served.page.getByTestId('browse-open-zq3').click();
  await expect(served.page.getByTestId('browse-question-title')).toContainText('أوبونتو');
  expect(await direction(served.page.getByTestId('browse-question-title'))).toBe('rtl');
  expect(await direction(served.page.getByTestId('browse-question').locator('.query-body'))).toBe('rtl');
});

test('a notice about the pool just left ("this is the first query of the pool") is gone once another pool is chosen', async () => {
  await served.page.goto('/#annotate');
  await served.page.getByTestId('annotate-pool').selectOption('p');
  await expect(served.page.getByTestId('candidates')).toHaveAttribute('data-pool', 'p');
  const notice = served.page.getByTestId('annotate-notice');
  for (let i = 0; i < 4 && !(await notice.isVisible()); i++) {
    await served.page.keyboard.press('p');
    await served.page.waitForTimeout(400);
  }
  await expect(notice).toHaveText('This is the first query of the pool.');
  await served.page.getByTestId('annotate-pool').selectOption('long');
  await expect(served.page.getByTestId('candidates')).toHaveAttribute('data-pool', 'long');
  await expect(notice).toHaveCount(0);
});

test('a pool chosen with the arrow keys in the pool list gives the focus to its candidates (it was left on the page)', async () => {
  const p = served.page;
  await p.goto('/#annotate');
  const select = p.getByTestId('annotate-pool');
  await select.selectOption('p');
  const candidates = p.getByTestId('candidates');
  await expect(candidates).toHaveAttribute('data-pool', 'p');
  const options = await select.locator('option').allTextContents();
  const at = options.indexOf('p');
  const [key, next] = at + 1 < options.length ? ['ArrowDown', options[at + 1]!] : ['ArrowUp', options[at - 1]!];
  await select.focus();
  await p.keyboard.press(key);
  await expect(candidates).toHaveAttribute('data-pool', next);
  await expect(candidates).toBeFocused();
  // The keys act on the new pool's candidates from there (Home, j move the cursor), not on the select.
  await p.keyboard.press('Home');
  await expect(p.locator('[data-testid^=candidate-row-][aria-selected=true]')).toHaveAttribute('data-testid', 'candidate-row-0');
  await p.keyboard.press('j');
  await expect(p.locator('[data-testid^=candidate-row-][aria-selected=true]')).toHaveAttribute('data-testid', 'candidate-row-1');
});

test('at 1024×700 and 800×600 the list of keys (F1) opens at its top, the label keys in view, Close focused; Page Down reaches its end', async () => {
  const p = served.page;
  try {
    for (const [width, height] of [[1024, 700], [800, 600]] as const) {
      await p.setViewportSize({ width, height });
      await openAnnotate(p);
      await p.keyboard.press('F1');
      await expect(p.getByTestId('shortcut-close')).toBeFocused();
      const card = p.locator('.shortcut-card');
      // It opened scrolled to Close at its end: the heading and the label keys above the window's top.
      await expect.poll(() => card.evaluate((e) => e.scrollTop)).toBe(0);
      await expect(p.getByTestId('shortcut-screen-keys').locator('tr').first()).toBeInViewport();
      await p.keyboard.press('PageDown');
      await p.keyboard.press('PageDown');
      await p.keyboard.press('PageDown');
      await expect(p.getByTestId('shortcut-close')).toBeInViewport();
      await p.keyboard.press('Escape');
      await expect(p.getByTestId('shortcut-overlay')).toHaveCount(0);
    }
  } finally {
    await p.setViewportSize({ width: 1360, height: 900 });
  }
});

test('time per query counts the queries this tab completed, not one completed in another tab of the same annotator', async () => {
  const other = await served.context.newPage();
  try {
    for (const p of [other, served.page]) {
      await p.goto('/#annotate');
      await p.getByTestId('annotate-pool').selectOption('long');
      await expect(p.getByTestId('query-id')).toHaveText('zq1');
    }
    await expect(served.page.getByTestId('query-complete')).toHaveCount(0);
    // Label whatever is left of the query in this tab.
    for (let i = 0; i < 2; i++) {
      if ((await served.page.getByTestId(`candidate-row-${i}`).getAttribute('data-label')) === '') await served.page.getByTestId(`label-btn-${i}-0`).click();
    }
    await expect(served.page.getByTestId('query-complete')).toBeVisible();
    await expect(served.page.getByTestId('progress-time')).toContainText('(1 of this pool this session)');
    await expect(other.getByTestId('query-complete')).toBeVisible();
    await other.waitForTimeout(500);
    await expect(other.getByTestId('progress-time')).toHaveText('time per query: —');
  } finally {
    await other.close();
  }
});
