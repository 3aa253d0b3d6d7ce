/**
 * A keyboard-first labeling session on the Annotate screen, on a small open pool (SemEval dev,
 * 3 queries × 4 candidates): Enter and Space on a focused control (the Close of the list of keys,
 * a candidate's title reached with Tab) work that control instead of moving to the next query;
 * undo takes back a note change before the label under it; a reload resumes on the query shown;
 * very long titles and code lines wrap instead of pushing the label buttons out of the window;
 * right-to-left titles and bodies read right to left; what the screen said about one pool is gone
 * once another is chosen; a query completed in another tab is not timed in this one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { invoke } from './api';
import { startServe, type ServeProcess } from './serve';
import { buildSmallPool, openPage, qpairs } from './small-pool';

const PORT = Number(process.env.QPAIRS_E2E_PORT ?? 27613) + 23;

test.describe.configure({ mode: 'serial' });

let server: ServeProcess | undefined;
let dir: string;
let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser }) => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-e2e-annotate-keys-'));
  const built = buildSmallPool(dir, () => []);
  // Pool "long": a query whose title is one long path, its candidates with a long title, a code line and an Arabic title.
  const path40 = '/usr/lib/x86_64-linux-gnu/' + 'zqlong_path_segment_'.repeat(14) + 'printer.conf';
  const questions = [
    { id: 'zq1', title: `zqprinter zqdriver: ${path40}`, body: 'zqprinter zqdriver fails' },
    { id: 'zq2', title: `zqprinter ${'x'.repeat(300)}`, body: `zqdriver\n\`\`\`\n${'$ sudo lpadmin -p zqprinter -E -v usb://HP/OfficeJet%20Pro?serial=CN12345&model=hp-officejet_pro_8600_with_a_long_name '.repeat(3)}\n\`\`\`` },
    { id: 'zq3', title: 'كيف أثبت تعريف الطابعة zqprinter zqdriver على أوبونتو؟', body: 'عندي طابعة HP والتعريف لا يعمل (zqdriver) ما الحل؟' },
  ];
  const jsonl = path.join(dir, 'long.jsonl');
  writeFileSync(jsonl, questions.map((q) => JSON.stringify(q)).join('\n') + '\n');
  qpairs('import', built.workspace, '--format', 'questions-jsonl', jsonl);
  const queries = path.join(dir, 'long-queries.txt');
  writeFileSync(queries, 'zq1\n');
  qpairs('pool', 'create', built.workspace, '--name', 'long', '--queries', queries, '--depth', '2', '--blind', 'false');
  server = await startServe({ workspace: built.workspace, port: PORT, create: false });
  ({ context, page } = await openPage(browser, server));
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function openAnnotate(p: Page): Promise<string> {
  await p.goto('/#annotate');
  await p.getByTestId('annotate-pool').selectOption('p');
  await expect(p.getByTestId('query-id')).toBeVisible();
  return (await p.getByTestId('query-id').textContent()) ?? '';
}

test('Enter on the Close of the list of keys closes it and stays on the query; Enter on a candidate title reached with Tab opens its body', async () => {
  const query = await openAnnotate(page);
  await page.keyboard.press('F1');
  await expect(page.getByTestId('shortcut-close')).toBeFocused();
  await expect(page.getByTestId('shortcut-screen-keys')).toContainText('Home / End');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shortcut-overlay')).toHaveCount(0);
  await page.waitForTimeout(500); // a next-query read would land by now
  await expect(page.getByTestId('query-id')).toHaveText(query);

  await page.keyboard.press('F1');
  await page.keyboard.press(' ');
  await expect(page.getByTestId('shortcut-overlay')).toHaveCount(0);
  await expect(page.getByTestId('row-toggle-0')).toHaveAttribute('aria-expanded', 'false');

  // A keyboard user reaches the first candidate's title with Tab and opens it with Enter.
  await page.getByTestId('row-toggle-0').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('row-toggle-0')).toHaveAttribute('aria-expanded', 'true');
  await page.waitForTimeout(500);
  await expect(page.getByTestId('query-id')).toHaveText(query);
  // The keys still label afterwards (the title gives the focus back).
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('query-id')).not.toHaveText(query);
});

test('u after writing a note takes back the note (its label stays), then the label; a reload shows the same', async () => {
  await page.reload(); // a fresh page: the engine's first unfinished query, shown again after the reload below
  const query = await openAnnotate(page);
  const row = Number((await page.locator('tr.cand-row.current .label-pill').getAttribute('data-testid'))!.slice('label-'.length));
  await page.keyboard.press('1');
  await expect(page.getByTestId(`row-state-${row}`)).toHaveAttribute('data-state', 'saved');
  await page.keyboard.press('k');
  for (const text of ['first thought', 'second thought']) {
    await page.keyboard.press('c');
    await page.getByTestId('note-dialog-input').fill(text);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId(`note-mark-${row}`)).toHaveAttribute('title', `your note: ${text}`);
    await expect(page.getByTestId(`row-state-${row}`)).toHaveAttribute('data-state', 'saved');
  }
  await page.keyboard.press('u');
  await expect(page.getByTestId('annotate-notice')).toContainText('the note on');
  await expect(page.getByTestId(`note-mark-${row}`)).toHaveAttribute('title', 'your note: first thought');
  await expect(page.getByTestId(`label-${row}`)).toHaveAttribute('data-value', '1');
  await expect(page.getByTestId(`row-state-${row}`)).toHaveAttribute('data-state', 'saved');
  await page.keyboard.press('u');
  await expect(page.getByTestId(`note-mark-${row}`)).toHaveCount(0);
  await expect(page.getByTestId(`label-${row}`)).toHaveAttribute('data-value', '1');
  await expect(page.getByTestId(`row-state-${row}`)).toHaveAttribute('data-state', 'saved');
  await page.reload();
  await expect(page.getByTestId('query-id')).toHaveText(query);
  await expect(page.getByTestId(`label-${row}`)).toHaveAttribute('data-value', '1');
  await expect(page.getByTestId(`note-mark-${row}`)).toHaveCount(0);
  // The undo history survives the reload: the label given before the notes is next.
  await page.keyboard.press('u');
  await expect(page.getByTestId('annotate-notice')).toContainText('Undone: the label of');
  await expect(page.getByTestId(`label-${row}`)).toHaveAttribute('data-value', '');
  await expect(page.getByTestId(`note-mark-${row}`)).toHaveCount(0);
});

test('a reload resumes on the query shown, not on an earlier one skipped with n; a new tab starts at the first unfinished', async () => {
  await page.reload();
  await openAnnotate(page);
  const annotator = await page.getByTestId('annotator-input').inputValue();
  // The engine's choice for a new page: the first query this annotator has not finished.
  const first = (await invoke<{ queryId: string }>(page.request, 'annotate.query', { pool: 'p', annotator })).queryId;
  if ((await page.getByTestId('query-id').textContent()) !== first) {
    await page.keyboard.press('g');
    await page.getByTestId('goto-input').fill(first);
    await page.getByTestId('goto-input').press('Enter');
    await expect(page.getByTestId('query-id')).toHaveText(first);
  }
  await page.keyboard.press('n'); // skip this query for now
  await expect(page.getByTestId('query-id')).not.toHaveText(first);
  const second = (await page.getByTestId('query-id').textContent())!;
  await page.keyboard.press('1');
  await expect(page.getByTestId('row-state-0')).toHaveAttribute('data-state', 'saved');
  await page.reload();
  await expect(page.getByTestId('query-id')).toHaveText(second);
  await expect(page.getByTestId('candidate-row-1')).toHaveAttribute('aria-selected', 'true');
  const other = await context.newPage();
  try {
    await other.goto('/#annotate');
    await other.getByTestId('annotate-pool').selectOption('p');
    await expect(other.getByTestId('query-id')).toHaveText(first);
  } finally {
    await other.close();
  }
});

test('a title that is one long path, a 300-letter word or a long code line wraps: at 1024×700 nothing scrolls sideways and every label button is in view', async () => {
  await page.setViewportSize({ width: 1024, height: 700 });
  try {
    await page.goto('/#annotate');
    await page.getByTestId('annotate-pool').selectOption('long');
    await expect(page.getByTestId('query-id')).toHaveText('zq1');
    await expect(page.getByTestId('candidates')).toHaveAttribute('data-pool', 'long');
    const rows = page.locator('[data-testid^="candidate-row-"]');
    await expect(rows).toHaveCount(2);
    for (let i = 0; i < 2; i++) {
      await page.keyboard.press('o');
      await page.keyboard.press('j');
    }
    await expect(page.locator('[data-testid^="candidate-body-"]')).toHaveCount(2);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'the page scrolls sideways by this many pixels').toBeLessThanOrEqual(0);
    for (let i = 0; i < 2; i++) {
      const box = (await page.getByTestId(`label-btn-${i}-1`).boundingBox())!;
      expect(box.x + box.width, `row ${i + 1}'s label button`).toBeLessThanOrEqual(1024);
    }
    const title = (await page.getByTestId('query-title').boundingBox())!;
    expect(title.x + title.width).toBeLessThanOrEqual(1024);
  } finally {
    await page.setViewportSize({ width: 1280, height: 720 });
  }
});

test('an Arabic title and body read right to left (their own direction), the English ones left to right', async () => {
  await page.goto('/#annotate');
  await page.reload(); // no candidate opened
  await page.getByTestId('annotate-pool').selectOption('long');
  await expect(page.getByTestId('query-id')).toHaveText('zq1');
  const direction = (l: ReturnType<Page['getByTestId']>): Promise<string> => l.evaluate((e) => getComputedStyle(e).direction);
  const arabic = page.locator('[data-candidate-id="zq3"]');
  const row = Number((await arabic.getAttribute('data-testid'))!.slice('candidate-row-'.length));
  expect(await direction(page.getByTestId(`row-toggle-${row}`))).toBe('rtl');
  expect(await arabic.locator('.cand-snippet').evaluate((e) => getComputedStyle(e).direction)).toBe('rtl');
  expect(await direction(page.getByTestId('query-title'))).toBe('ltr');
  expect(await direction(page.getByTestId(`row-toggle-${1 - row}`))).toBe('ltr');
  // Its body, opened, too; and a note typed in Arabic.
  await page.getByTestId(`row-toggle-${row}`).click();
  expect(await direction(page.getByTestId(`candidate-body-${row}`).locator('.cand-body'))).toBe('rtl');
  await page.getByTestId(`candidate-row-${row}`).click();
  await page.keyboard.press('1');
  await page.getByTestId(`candidate-row-${row}`).click();
  await page.keyboard.press('c');
  await page.getByTestId('note-dialog-input').fill('العنوان غامض');
  expect(await direction(page.getByTestId('note-dialog-input'))).toBe('rtl');
  await page.keyboard.press('Escape');
  // Browse shows it in its own direction too: the hit and the question opened.
  await page.goto('/#browse');
  await page.getByTestId('browse-text').fill('الطابعة');
  await page.getByTestId('browse-search').click();
  await expect(page.getByTestId('browse-open-zq3')).toBeVisible();
  expect(await direction(page.getByTestId('browse-open-zq3'))).toBe('rtl');
  await page.getByTestId('browse-open-zq3').click();
  await expect(page.getByTestId('browse-question-title')).toContainText('أوبونتو');
  expect(await direction(page.getByTestId('browse-question-title'))).toBe('rtl');
  expect(await direction(page.getByTestId('browse-question').locator('.query-body'))).toBe('rtl');
});

test('a notice about the pool just left ("this is the first query of the pool") is gone once another pool is chosen', async () => {
  await page.goto('/#annotate');
  await page.getByTestId('annotate-pool').selectOption('p');
  await expect(page.getByTestId('candidates')).toHaveAttribute('data-pool', 'p');
  const notice = page.getByTestId('annotate-notice');
  for (let i = 0; i < 4 && !(await notice.isVisible()); i++) {
    await page.keyboard.press('p');
    await page.waitForTimeout(400);
  }
  await expect(notice).toHaveText('This is the first query of the pool.');
  await page.getByTestId('annotate-pool').selectOption('long');
  await expect(page.getByTestId('candidates')).toHaveAttribute('data-pool', 'long');
  await expect(notice).toHaveCount(0);
});

test('time per query counts the queries this tab completed, not one completed in another tab of the same annotator', async () => {
  const other = await context.newPage();
  try {
    for (const p of [other, page]) {
      await p.goto('/#annotate');
      await p.getByTestId('annotate-pool').selectOption('long');
      await expect(p.getByTestId('query-id')).toHaveText('zq1');
    }
    await expect(page.getByTestId('query-complete')).toHaveCount(0);
    // Label whatever is left of the query in this tab.
    for (let i = 0; i < 2; i++) {
      if ((await page.getByTestId(`candidate-row-${i}`).getAttribute('data-label')) === '') await page.getByTestId(`label-btn-${i}-0`).click();
    }
    await expect(page.getByTestId('query-complete')).toBeVisible();
    await expect(page.getByTestId('progress-time')).toContainText('(1 of this pool this session)');
    await expect(other.getByTestId('query-complete')).toBeVisible();
    await other.waitForTimeout(500);
    await expect(other.getByTestId('progress-time')).toHaveText('time per query: —');
  } finally {
    await other.close();
  }
});
