/**
 * Issue 13, the annotator's screen as a labeling team would ship it, at 1024×700 (the small
 * laptop size): label 20 pairs by keyboard with the query title in the viewport at every row
 * and after next / previous / reload; the progress count moves with each label; the live
 * rankers' panel moves as labels land (open pool); go-to errors stay in the dialog; no screen
 * scrolls sideways; axe-core finds no serious or critical violation on any screen; and the
 * README screenshots at both sizes.
 * Its own serve process and workspace (the global setup built the renderer).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { seriousViolationsOnTabs } from './a11y';
import { expect, test, type Page } from '@playwright/test';
import { useServedWorkspace } from './served-workspace';
import { unpackedDataset } from '../datasets';

const root = path.resolve(import.meta.dirname, '../..');
const SEMEVAL_DEV = unpackedDataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');
const POOL = 'e2e-small';
const SMALL = { width: 1024, height: 700 };
const TABS = ['workspace', 'pools', 'annotate', 'review', 'agreement', 'evaluate', 'export', 'models', 'browse'];

test.describe.configure({ mode: 'serial' });

const served = useServedWorkspace('annotator', 7, { context: { viewport: SMALL } });
let page: Page;
let firstQuery = '';
let firstTitle = '';

test.beforeAll(() => {
  page = served.page;
});

const row = (p: Page, i: number) => p.getByTestId(`candidate-row-${i}`);

/** The query title's box lies inside the viewport (not under the top bar, not below the fold). */
async function expectTitleInViewport(p: Page, where: string): Promise<void> {
  const title = p.getByTestId('query-title');
  await expect(title).toBeVisible();
  const box = await title.boundingBox();
  const vp = p.viewportSize()!;
  const bar = await p.locator('header.topbar').boundingBox();
  expect(box, where).not.toBeNull();
  expect(box!.y, `${where}: title top ${box!.y} under the top bar (${bar!.height})`).toBeGreaterThanOrEqual(bar!.y + bar!.height - 1);
  expect(box!.y + box!.height, `${where}: title bottom below the viewport`).toBeLessThanOrEqual(vp.height);
}

/** The selected row is inside the viewport, below the sticky query. */
async function expectRowVisible(p: Page, i: number, where: string): Promise<void> {
  const r = await row(p, i).boundingBox();
  const head = await p.getByTestId('annotate-head').boundingBox();
  const vp = p.viewportSize()!;
  expect(r!.y + 4, `${where}: row ${i} hidden under the query`).toBeGreaterThanOrEqual(head!.y + head!.height);
  expect(r!.y + Math.min(r!.height, 30), `${where}: row ${i} below the viewport`).toBeLessThanOrEqual(vp.height);
}

async function invoke(p: Page, command: string, args: unknown): Promise<unknown> {
  const r = await p.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command, args } });
  expect(r.ok(), await r.text()).toBe(true);
  return r.json();
}

test('imports the SemEval dev XML and creates a 20-deep BM25 pool', async () => {
  await page.goto('/#workspace');
  await page.getByTestId('import-format').selectOption('semeval');
  await page.getByTestId('import-files').setInputFiles(SEMEVAL_DEV);
  await page.getByTestId('import-start').click();
  await expect(page.getByTestId('import-report')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('stat-questions')).toHaveText('550');
  // A human report: file names, words, units; no server temp path, no camelCase keys.
  const report = await page.getByTestId('import-report').innerText();
  expect(report).toContain('SemEval2016-Task3-CQA-QL-dev.xml');
  expect(report).not.toMatch(/qpairs-uploads|\/tmp\/|\b[a-z]+[A-Z][a-z]+/);
  await page.screenshot({ path: path.join(root, 'test-results', 'screens', 'workspace-1024.png') });
  await page.getByTestId('tab-pools').click();
  await page.getByTestId('pool-name').fill(POOL);
  await page.getByTestId('pool-mode-sample').check();
  await page.getByTestId('pool-sample-n').fill('3');
  await page.getByTestId('pool-sample-seed').fill('7');
  await page.getByTestId('pool-create').click();
  await expect(page.getByTestId('pool-created')).toContainText('3 queries, 60 pairs');
  // Open the pool (its owner's choice) so the live rankers' panel shows.
  await invoke(page, 'pool.set', { pool: POOL, blind: false });
});

test('labels 20 pairs by keyboard: the query title stays in view and the count moves with every label', async () => {
  await page.getByTestId(`pool-annotate-${POOL}`).click();
  await page.getByTestId('annotator-input').fill('tester');
  await page.getByTestId('annotator-input').press('Enter');
  await expect(row(page, 19)).toBeVisible();
  await expect(page.getByTestId('candidates')).toHaveAttribute('data-blind', 'false');
  await expect(page.getByTestId('live-metrics')).toBeVisible();
  await expect(page.getByTestId('live-labeled')).toHaveText('0');
  const first = (await page.getByTestId('query-id').textContent())!;
  firstQuery = first;
  firstTitle = (await page.getByTestId('query-title').textContent())!;
  await expect(page.getByTestId('progress-pairs')).toHaveText('0');

  for (let i = 0; i < 20; i++) {
    await expect(row(page, i)).toHaveAttribute('aria-selected', 'true');
    await expectTitleInViewport(page, `row ${i + 1}`);
    await expectRowVisible(page, i, `row ${i + 1}`);
    await page.keyboard.press(i % 7 === 0 ? '1' : '0');
    // The count moves with each label, not once per query.
    await expect(page.getByTestId('progress-pairs')).toHaveText(String(i + 1));
  }
  await expect(page.locator('[data-testid^="candidate-row-"][data-state="saved"]')).toHaveCount(20);
  await expect(page.getByTestId('progress-queries')).toHaveText('1');
  await expect(page.getByTestId('progress-pace')).toContainText('pairs/min');
  // The live panel counts the query now fully labeled, with a MAP for the BM25 run.
  await expect(page.getByTestId('live-labeled')).toHaveText('1');
  await expect(page.getByTestId('live-bm25-MAP')).toHaveText(/^\d{1,3}\.\d{2}$/);
  await expectTitleInViewport(page, 'after the 20th label');

  // next: the new query's top, row 1 selected, title in view.
  await page.keyboard.press('n');
  await expect(page.getByTestId('query-id')).not.toHaveText(first);
  await expect(row(page, 0)).toHaveAttribute('aria-selected', 'true');
  await expectTitleInViewport(page, 'after next');
  await expectRowVisible(page, 0, 'after next');
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const second = (await page.getByTestId('query-id').textContent())!;

  // previous: back to the labeled query, at its top.
  await page.keyboard.press('p');
  await expect(page.getByTestId('query-id')).toHaveText(first);
  await expect(row(page, 0)).toHaveAttribute('aria-selected', 'true');
  await expectTitleInViewport(page, 'after previous');
  await expectRowVisible(page, 0, 'after previous');

  // Ordered by the ranker (open pool only): the header says so.
  await page.getByTestId('annotate-order').selectOption('bm25');
  await expect(page.getByTestId('candidates').locator('th[aria-sort="ascending"]')).toHaveCount(1);
  await page.getByTestId('annotate-order').selectOption('');

  // Every data column sorts from its header, aria-sort saying how; a third click gives the pool order back.
  const cands = page.getByTestId('candidates');
  const th = (id: string) => cands.locator('th', { has: page.getByTestId(id) });
  const shownRows = cands.locator('[data-testid^="candidate-row-"]');
  await expect(th('cand-sort-position')).toHaveAttribute('aria-sort', 'ascending');
  await page.getByTestId('cand-sort-title').click();
  await expect(th('cand-sort-title')).toHaveAttribute('aria-sort', 'ascending');
  await expect(th('cand-sort-position')).toHaveAttribute('aria-sort', 'none');
  const inOrder = (titles: string[], desc: boolean): Promise<boolean> =>
    page.evaluate(
      ([t, d]) => {
        const c = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
        return (t as string[]).every((x, i) => i === 0 || (d ? -1 : 1) * c.compare((t as string[])[i - 1]!, x) <= 0);
      },
      [titles, desc] as const,
    );
  expect(await inOrder(await cands.locator('.cand-title').allTextContents(), false)).toBe(true);
  await page.getByTestId('cand-sort-title').click();
  await expect(th('cand-sort-title')).toHaveAttribute('aria-sort', 'descending');
  expect(await inOrder(await cands.locator('.cand-title').allTextContents(), true)).toBe(true);
  await page.getByTestId('cand-sort-title').click();
  await expect(th('cand-sort-title')).toHaveAttribute('aria-sort', 'none');
  await expect(th('cand-sort-position')).toHaveAttribute('aria-sort', 'ascending');
  // By label (this query is fully labeled 1/0): the 0s first, then the 1s; descending the other way.
  await page.getByTestId('cand-sort-label').click();
  await expect(th('cand-sort-label')).toHaveAttribute('aria-sort', 'ascending');
  const labelsShown = async (): Promise<string> => (await shownRows.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-label')))).join('');
  expect(await labelsShown()).toMatch(/^0+1+$/);
  // The keyboard follows the displayed order: j selects the row shown under the current one.
  await page.keyboard.press('Home');
  await expect(row(page, 0)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('j');
  await expect(row(page, 1)).toHaveAttribute('aria-selected', 'true');
  await expect(shownRows.nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('cand-sort-label').click();
  await expect(th('cand-sort-label')).toHaveAttribute('aria-sort', 'descending');
  expect(await labelsShown()).toMatch(/^1+0+$/);
  await page.getByTestId('run-col-bm25').click();
  await expect(th('run-col-bm25')).toHaveAttribute('aria-sort', 'ascending');
  await expect(th('cand-sort-label')).toHaveAttribute('aria-sort', 'none');
  await expect(page.getByTestId('annotate-order')).toHaveValue('bm25');
  await page.getByTestId('annotate-order').selectOption('');
  await expect(th('cand-sort-position')).toHaveAttribute('aria-sort', 'ascending');

  // The filter box hides rows; j/k and the label keys act on the rows it shows.
  const title3 = (await row(page, 3).locator('.cand-title').textContent())!;
  const word = title3.split(/\W+/).sort((a, b) => b.length - a.length)[0]!;
  await page.getByTestId('candidates-filter').fill(word);
  const n = await shownRows.count();
  expect(n).toBeGreaterThanOrEqual(1);
  expect(n).toBeLessThanOrEqual(20);
  await expect(cands.getByTestId('candidate-row-3')).toBeVisible();
  await page.getByTestId('candidates-filter').blur();
  await page.keyboard.press('Home');
  await expect(shownRows.first()).toHaveAttribute('aria-selected', 'true');
  if (n >= 2) {
    await page.keyboard.press('j');
    await expect(shownRows.nth(1)).toHaveAttribute('aria-selected', 'true');
  }
  console.log(`[annotator.spec] filter "${word}": ${n} of 20 candidates shown`);
  await page.getByTestId('candidates-filter').fill('');
  await expect(shownRows).toHaveCount(20);
  await page.getByTestId('candidates-filter').blur();

  // reload: the page comes back on a query with its title in view.
  await page.keyboard.press('n');
  await expect(page.getByTestId('query-id')).toHaveText(second);
  await page.keyboard.press('End');
  await expect(row(page, 19)).toHaveAttribute('aria-selected', 'true');
  await page.reload();
  await expect(page.getByTestId('query-title')).toBeVisible();
  await expect(row(page, 0)).toHaveAttribute('aria-selected', 'true');
  await expectTitleInViewport(page, 'after reload');
  await expect(page.getByTestId('progress-pairs')).toHaveText('20');
});

test('go to query: a list of every query of the pool, errors inside the dialog', async () => {
  await page.keyboard.press('g');
  const dialog = page.getByTestId('goto-dialog');
  await expect(dialog).toBeVisible();
  // The empty box lists all 3 queries of the pool (annotate.queries), not only those seen so far.
  await expect(dialog.locator('[data-testid^="goto-option-"]')).toHaveCount(3);
  await page.getByTestId('goto-input').fill('no-such-query');
  await page.getByTestId('goto-input').press('Enter');
  await expect(dialog.getByTestId('goto-error')).toContainText('no-such-query');
  // Words of a title: the list offers the query (id, position, title); Enter goes there.
  await page.getByTestId('goto-input').fill(`${firstTitle} `);
  await expect(dialog.getByTestId(`goto-option-${firstQuery}`)).toContainText('#1');
  const axe = await new AxeBuilder({ page }).include('[data-testid="goto-dialog"]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await page.getByTestId('goto-input').press('ArrowDown');
  await page.getByTestId('goto-input').press('ArrowUp');
  await page.getByTestId('goto-input').press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('query-id')).toHaveText(firstQuery);
  await expectTitleInViewport(page, 'after go to');
  await page.keyboard.press('g');
  await page.getByTestId('goto-input').press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('Browse finds a question, shows its pools and labels, and opens it in Annotate', async () => {
  await page.getByTestId('tab-browse').click();
  await page.getByTestId('browse-text').fill(firstTitle);
  await page.getByTestId('browse-search').click();
  await expect(page.getByTestId(`browse-hit-${firstQuery}`)).toBeVisible();
  await expect(page.getByTestId('browse-results').locator('th[aria-sort]').first()).toHaveAttribute('aria-sort', 'none');
  await page.getByTestId(`browse-open-${firstQuery}`).click();
  await expect(page.getByTestId('browse-question-id')).toHaveText(firstQuery);
  const asQuery = page.getByTestId(`browse-pool-${POOL}-${firstQuery}`).first();
  await expect(asQuery).toContainText('20 labels (tester)');
  // A label given elsewhere (another person, the CLI's server) shows up on the question without a new search.
  const api = async (command: string, args: Record<string, unknown>): Promise<unknown> => {
    const r = await page.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command, args } });
    expect(r.ok(), await r.text()).toBe(true);
    return r.json();
  };
  const view = (await api('annotate.query', { pool: POOL, annotator: 'second', queryId: firstQuery })) as { candidates: Array<{ id: string }> };
  await api('label.set', { pool: POOL, queryId: firstQuery, candidateId: view.candidates[0]!.id, annotator: 'second', value: '1' });
  await expect(asQuery).toContainText('21 labels (tester, second)');
  await api('label.set', { pool: POOL, queryId: firstQuery, candidateId: view.candidates[0]!.id, annotator: 'second', value: null });
  await expect(asQuery).toContainText('20 labels (tester)');
  await page.screenshot({ path: path.join(root, 'test-results', 'screens', 'browse-1024-question.png') });
  await page.getByTestId(`browse-annotate-${POOL}-${firstQuery}`).first().click();
  await expect(page.getByTestId('tab-annotate')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('query-id')).toHaveText(firstQuery);
  await expectTitleInViewport(page, 'opened from Browse');
});

test('serve mode serves the favicon', async () => {
  for (const [file, type] of [
    ['/favicon.ico', 'image/x-icon'],
    ['/favicon.svg', 'image/svg+xml'],
  ]) {
    const r = await page.request.get(file!);
    expect(r.status(), file).toBe(200);
    expect(r.headers()['content-type'], file).toContain(type!);
  }
  await expect(page.locator('link[rel="icon"]').first()).toHaveAttribute('href', './favicon.svg');
});

test('at 1024×700 no screen scrolls sideways', async () => {
  const wide: string[] = [];
  for (const t of TABS) {
    await page.getByTestId(`tab-${t}`).click();
    await expect(page.getByTestId(`tab-${t}`)).toHaveAttribute('aria-selected', 'true');
    await page.waitForTimeout(250);
    const [sw, cw] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    if (sw > cw) wide.push(`${t}: scrollWidth ${sw} > clientWidth ${cw}`);
    await page.screenshot({ path: path.join(root, 'test-results', 'screens', `${t}-1024.png`) });
  }
  expect(wide).toEqual([]);
});

test('every table has a filter box, however few its rows', async () => {
  for (const [tab, filter] of [
    ['pools', 'pools-table-filter'],
    ['annotate', 'candidates-filter'],
    ['agreement', 'agreement-stats-filter'],
    ['evaluate', 'metrics-table-filter'],
  ] as const) {
    await page.getByTestId(`tab-${tab}`).click();
    await expect(page.getByTestId(filter), `${tab}: ${filter}`).toBeVisible();
  }
  // The pool table has one row: the filter is there and counts what it shows.
  await page.getByTestId('tab-pools').click();
  await page.getByTestId('pools-table-filter').fill('no such pool');
  await expect(page.getByTestId('pools-table').locator('tbody tr', { hasText: POOL })).toHaveCount(0);
  await page.getByTestId('pools-table-filter').fill(POOL);
  await expect(page.getByTestId('pools-table').locator('tbody tr', { hasText: POOL })).toHaveCount(1);
  await page.getByTestId('pools-table-filter').fill('');
});

test('axe-core finds no serious or critical violation on any screen', async () => {
  expect(await seriousViolationsOnTabs(page, TABS, 250)).toEqual([]);
});

test('README screenshots of the Annotate screen at 1024×700 and 1440×900', async () => {
  await page.getByTestId('tab-annotate').click();
  await expect(page.getByTestId('query-title')).toBeVisible();
  await page.keyboard.press('Home');
  for (const k of ['1', '0', '0', '?']) await page.keyboard.press(k);
  await expect(page.locator('[data-testid^="candidate-row-"][data-state="saved"]')).toHaveCount(4);
  await page.evaluate(() => window.scrollTo(0, 0));
  // README screenshots are rewritten in docs/ only when asked (QPAIRS_README_SHOTS=1); else test-results/screens/.
  const shots = process.env.QPAIRS_README_SHOTS === '1' ? path.join(root, 'docs') : path.join(root, 'test-results', 'screens');
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, 'screenshot-annotate-1024.png') });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForTimeout(200);
  await page.screenshot({ path: path.join(root, 'test-results', 'screens', 'annotate-1440.png') });
  await page.setViewportSize(SMALL);
});
