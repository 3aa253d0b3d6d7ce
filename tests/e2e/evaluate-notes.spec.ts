/**
 * Evaluate says why its panels count differently from the table: with "include partially labeled
 * queries" on, the ranker comparison still counts fully labeled queries only (as `qpairs eval
 * --compare`, which refuses `--partial`) and says so; the per-query drill-down explains a "—" (no
 * similar candidate) and a partly labeled query the table leaves out. Counts of one take the singular
 * ("1 pair in 1 query", "over the 1 query counted"; they said "1 queries").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { startServe, type ServeProcess } from './serve';
import { buildSmallPool, openPage } from './small-pool';

const PORT = Number(process.env.QPAIRS_E2E_PORT ?? 27613) + 8;

let server: ServeProcess | undefined;
let dir: string;
let context: BrowserContext;
let page: Page;
let pairs: Array<[string, string]> = [];

test.beforeAll(async ({ browser }) => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-e2e-eval-notes-'));
  const built = buildSmallPool(dir, (ps) => {
    // Query 0: its first candidate similar; query 1: none similar; query 2: two of four labeled.
    const values = ['1', '0', '0', '0', '0', '0', '0', '0', '1', '0', null, null];
    const rows = ps.flatMap(([q, c], i) => (values[i] === null ? [] : [`${q},${c},ann,${values[i]}`]));
    // bob labels query 0 only, saying its second candidate is similar too: one disagreement in one query.
    rows.push(...ps.slice(0, 4).map(([q, c], i) => `${q},${c},bob,${i < 2 ? 1 : 0}`));
    // cy labels one candidate: no query is fully labeled by cy.
    rows.push(`${ps[0]![0]},${ps[0]![1]},cy,1`);
    return rows;
  });
  pairs = built.pairs;
  server = await startServe({ workspace: built.workspace, port: PORT, create: false });
  ({ context, page } = await openPage(browser, server));
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('partial on: the comparison says it counts fully labeled queries only; the drill-down explains "—" and a partly labeled query', async () => {
  await page.goto('/#evaluate');
  await page.getByTestId('eval-pool').selectOption('p');
  await page.getByTestId('eval-annotator').selectOption('ann');
  await expect(page.getByTestId('metric-bm25-queries')).toHaveText('2');
  await expect(page.getByTestId('compare-queries')).toHaveText('2');
  await expect(page.getByTestId('compare-partial-note')).toHaveCount(0);

  await page.getByTestId('eval-partial').check();
  await expect(page.getByTestId('metric-bm25-queries')).toHaveText('3');
  await expect(page.getByTestId('compare-queries')).toHaveText('2');
  await expect(page.getByTestId('compare-partial-note')).toHaveText(
    'The comparison counts fully labeled queries only, as qpairs eval --compare (which takes no --partial): the partially labeled query the table above includes is left out here.',
  );

  const drill = async (q: string): Promise<void> => {
    await page.getByTestId('drill-query').fill(q);
    await page.getByTestId('drill-show').click();
    await expect(page.getByTestId('drilldown')).toContainText(q);
  };
  await drill(pairs[4]![0]);
  await expect(page.getByTestId('drill-ranker-bm25').locator('h3')).toContainText('AP —');
  await expect(page.getByTestId('drill-note')).toHaveText('No candidate is similar: AP and RR are undefined (“—”); the table counts them 0 for this query (score 0).');
  await page.getByTestId('convention-skip').check();
  await expect(page.getByTestId('drill-note')).toHaveText('No candidate is similar: AP and RR are undefined (“—”); the table leaves this query out (convention skip).');
  await drill(pairs[8]![0]);
  await expect(page.getByTestId('drill-note')).toContainText('2 of its 4 candidates have no label from this source (counted here as not similar): the table counts it with them as not similar');
  await page.getByTestId('eval-partial').uncheck();
  await expect(page.getByTestId('compare-partial-note')).toHaveCount(0);
  await expect(page.getByTestId('drill-note')).toContainText('the table leaves it out until every candidate is labeled');
  await drill(pairs[0]![0]);
  await expect(page.getByTestId('drill-note')).toHaveCount(0);
});

test('counts of one: the verdict over bob\'s one query, Agreement\'s one disagreement; one annotator chosen: no figures of two', async () => {
  await page.goto('/#evaluate');
  await page.getByTestId('eval-pool').selectOption('p');
  await page.getByTestId('eval-annotator').selectOption('bob');
  await expect(page.getByTestId('metric-bm25-queries')).toHaveText('1');
  await expect(page.getByTestId('label-order')).toContainText('over the 1 query counted');
  await page.goto('/#agreement');
  await page.getByTestId('agreement-pool').selectOption('p');
  await expect(page.getByTestId('agreement-disagreement-count')).toHaveText('1 pair in 1 query');
  await expect(page.getByTestId('agreement-summary')).toContainText('ann, bob, cy · 10 labeled pairs in 3 queries');
  // One annotator left: no figures of the former two under the checkboxes.
  await page.getByTestId('agreement-annotator-bob').uncheck();
  await page.getByTestId('agreement-annotator-cy').uncheck();
  await expect(page.getByText('Choose at least two annotators.')).toBeVisible();
  await expect(page.getByTestId('agreement-summary')).toHaveCount(0);
  await expect(page.getByTestId('agreement-disagreement-count')).toHaveCount(0);
  await page.getByTestId('agreement-annotator-bob').check();
  await page.getByTestId('agreement-annotator-cy').check();
  await expect(page.getByTestId('agreement-summary')).toContainText('ann, bob, cy · 10 labeled pairs in 3 queries');
});

test('no query to compare on: the permutation p is "—" without a method', async () => {
  await page.goto('/#evaluate');
  await page.getByTestId('eval-pool').selectOption('p');
  await page.getByTestId('eval-annotator').selectOption('cy');
  await expect(page.getByTestId('compare-queries')).toHaveText('0');
  const perm = page.getByTestId('compare-table').locator('td').filter({ has: page.getByTestId('compare-p-perm') });
  await expect(perm).toHaveText(/^— \(no pairs\)$/);
});
