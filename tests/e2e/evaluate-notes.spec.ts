/**
 * Evaluate says why its panels count differently from the table: with "include partially labeled
 * queries" on, the ranker comparison still counts fully labeled queries only (as `qpairs eval
 * --compare`, which refuses `--partial`) and says so; the per-query drill-down explains a "—" (no
 * similar candidate) and a partly labeled query the table leaves out. Counts of one take the singular
 * ("1 pair in 1 query", "over the 1 query counted"; they said "1 queries").
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { startServe, type ServeProcess } from './serve';
import { unpackedDataset } from '../datasets';

const root = path.resolve(import.meta.dirname, '../..');
const SEMEVAL_DEV = unpackedDataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');
const PORT = Number(process.env.QPAIRS_E2E_PORT ?? 47613) + 8;

let server: ServeProcess | undefined;
let dir: string;
let context: BrowserContext;
let page: Page;
let pairs: Array<[string, string]> = [];

function qpairs(...args: string[]): string {
  return execFileSync(path.join(root, 'node_modules', '.bin', 'node'), [path.join(root, 'bin', 'qpairs.mjs'), ...args], { encoding: 'utf8' });
}

test.beforeAll(async ({ browser }) => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-e2e-eval-notes-'));
  const w = path.join(dir, 'w.qpairs');
  qpairs('init', w);
  qpairs('import', w, '--format', 'semeval', '--pool', 'dev', SEMEVAL_DEV);
  qpairs('pool', 'create', w, '--name', 'p', '--sample', '3', '--seed', '1', '--depth', '4', '--blind', 'false');
  const csv = path.join(dir, 'pairs.csv');
  qpairs('export', w, '--pool', 'p', '--format', 'csv', '--no-text', csv);
  pairs = readFileSync(csv, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(',').slice(0, 2) as [string, string]);
  expect(pairs).toHaveLength(12);
  // Query 0: its first candidate similar; query 1: none similar; query 2: two of four labeled.
  const values = ['1', '0', '0', '0', '0', '0', '0', '0', '1', '0', null, null];
  const rows = pairs.flatMap(([q, c], i) => (values[i] === null ? [] : [`${q},${c},ann,${values[i]}`]));
  // bob labels query 0 only, saying its second candidate is similar too: one disagreement in one query.
  rows.push(...pairs.slice(0, 4).map(([q, c], i) => `${q},${c},bob,${i < 2 ? 1 : 0}`));
  // cy labels one candidate: no query is fully labeled by cy.
  rows.push(`${pairs[0]![0]},${pairs[0]![1]},cy,1`);
  writeFileSync(path.join(dir, 'labels.csv'), ['query_id,candidate_id,annotator,label', ...rows].join('\n') + '\n');
  qpairs('import', w, '--format', 'labels-csv', '--pool', 'p', path.join(dir, 'labels.csv'));
  const run = path.join(dir, 'rev.txt');
  writeFileSync(run, pairs.map(([q, c], i) => `${q} Q0 ${c} ${4 - (i % 4)} ${(i % 4) + 1} rev`).join('\n') + '\n');
  qpairs('import', w, '--format', 'trec-run', '--pool', 'p', run);
  server = await startServe({ workspace: w, port: PORT, create: false });
  context = await browser.newContext({ baseURL: server.url });
  page = await context.newPage();
  page.on('pageerror', (e) => console.log(`[page error] ${e.message}`));
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
