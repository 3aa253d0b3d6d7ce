/**
 * The gold workflow end to end, through the real UI, in serve mode on a workspace of its own:
 * the researcher builds a small pool with two rankers, marks a judge and assigns the pool to
 * alice and bob; alice and bob label it blind at the same time, each in their own browser
 * context, with the keyboard only; carol (judge) opens a disagreement from the Agreement screen
 * and settles them all on the Review screen (with an undo); the researcher reads kappa, alpha and
 * AC1 with their CIs and the ranker comparison's p-values; the team exports the gold set as qrels
 * and checks the downloaded files.
 * The tests share state and run in order.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Download, type Page } from '@playwright/test';
import { seriousViolationsOnTabs } from './a11y';
import { invoke } from './api';
import { startServe, type ServeProcess } from './serve';
import { unpackedDataset } from '../datasets';

const root = path.resolve(import.meta.dirname, '../..');
const SEMEVAL_DEV = unpackedDataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');
const PORT = Number(process.env.QPAIRS_E2E_PORT ?? 27613) + 1;
const POOL = 'gold-team';
const QUERIES = 4;
const DEPTH = 5;

test.describe.configure({ mode: 'serial' });

let server: ServeProcess;
let dir: string;
let base: string;
const contexts: BrowserContext[] = [];
let lead: Page; // the researcher
let alice: Page;
let bob: Page;
let carol: Page;

/** Each annotator's labels, by "query|candidate", as given through the UI. */
const given: Record<'alice' | 'bob' | 'carol', Map<string, string>> = { alice: new Map(), bob: new Map(), carol: new Map() };

/** pool.assignment requests each page made, as "who status body" (a refused one shows in the console as an error). */
const assignmentRequests: string[] = [];

async function newPage(browser: Browser, who: string): Promise<Page> {
  const ctx = await browser.newContext({ baseURL: base, acceptDownloads: true });
  contexts.push(ctx);
  const p = await ctx.newPage();
  p.on('pageerror', (e) => console.log(`[${who} page error] ${e.message}`));
  p.on('response', (r) => {
    const body = r.request().postData() ?? '';
    if (body.includes('"pool.assignment"')) assignmentRequests.push(`${who} ${r.status()} ${body}`);
  });
  await p.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __csp: string[] }).__csp ??= [];
      (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return p;
}

/** A stable, well-mixed hash of a candidate id (FNV-1a, then murmur3's finalizer). */
function hash(s: string, salt: number): number {
  let h = 0x811c9dc5 ^ salt;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  // murmur3's finalizer: similar ids ("Q268_R4", "Q268_R5") must not give similar hashes.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
/** alice: "similar" for about half the candidates; bob agrees except on about a third. */
function intended(who: 'alice' | 'bob', candidateId: string): '1' | '0' {
  const a = hash(candidateId, 7) % 2 === 0 ? '1' : '0';
  if (who === 'alice') return a;
  return hash(candidateId, 13) % 3 === 0 ? (a === '1' ? '0' : '1') : a;
}

test.beforeAll(async ({ browser }) => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-e2e-gold-'));
  // The global setup built the renderer; this server only opens another workspace.
  server = await startServe({ workspace: path.join(dir, 'gold.qpairs'), port: PORT });
  base = server.url;
  lead = await newPage(browser, 'lead');
  alice = await newPage(browser, 'alice');
  bob = await newPage(browser, 'bob');
  carol = await newPage(browser, 'carol');
});

test.afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * Imports a run into POOL through the Workspace screen: the pool's BM25 run as the engine exports
 * it (setup through the API), each line's rank and score remade by `remake`, named `name`.
 */
async function importRunFromBm25(name: string, remake: (rank: number, score: number) => [number, number]): Promise<void> {
  const r = await lead.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'export.write', args: { pool: POOL, format: 'trec-run', run: 'bm25' } } });
  expect(r.ok(), await r.text()).toBe(true);
  const bm25 = ((await r.json()) as { files: Array<{ content: string }> }).files[0]!.content.trim().split('\n');
  expect(bm25).toHaveLength(QUERIES * DEPTH);
  const lines = bm25.map((line) => {
    const [q, q0, doc, rank, score] = line.split(/\s+/);
    const [newRank, newScore] = remake(Number(rank), Number(score));
    return `${q} ${q0} ${doc} ${newRank} ${newScore} ${name}`;
  });
  const runFile = path.join(dir, `${name}.run`);
  writeFileSync(runFile, lines.join('\n') + '\n');
  await lead.getByTestId('tab-workspace').click();
  await lead.getByTestId('import-format').selectOption('trec-run');
  await lead.getByTestId('import-files').setInputFiles(runFile);
  await lead.getByTestId('import-pool').fill(POOL);
  await lead.getByTestId('import-start').click();
  await expect(lead.getByTestId('import-report')).toBeVisible();
}

test('the researcher builds a pool with two rankers, marks a judge and assigns the pool to two annotators', async () => {
  await lead.goto('/#workspace');
  await expect(lead.getByTestId('stat-questions')).toHaveText('0');
  await lead.getByTestId('import-format').selectOption('semeval');
  await lead.getByTestId('import-files').setInputFiles(SEMEVAL_DEV);
  await lead.getByTestId('import-start').click();
  await expect(lead.getByTestId('import-report')).toBeVisible({ timeout: 60_000 });
  await expect(lead.getByTestId('stat-questions')).toHaveText('550');

  await lead.getByTestId('tab-pools').click();
  await lead.getByTestId('pool-name').fill(POOL);
  await lead.getByTestId('pool-mode-sample').check();
  await lead.getByTestId('pool-sample-n').fill(String(QUERIES));
  await lead.getByTestId('pool-sample-seed').fill('11');
  await lead.getByTestId('pool-depth').fill(String(DEPTH));
  await lead.getByTestId('pool-scheme').selectOption('binary');
  await expect(lead.getByTestId('pool-blind')).toBeChecked();
  await lead.getByTestId('pool-create').click();
  await expect(lead.getByTestId('pool-created')).toContainText(`${QUERIES} queries, ${QUERIES * DEPTH} pairs`);

  // A second ranker for the comparison: BM25 reversed, imported as a TREC run into the pool.
  await importRunFromBm25('reversed', (rank, score) => [DEPTH + 1 - rank, -score]);
  await expect(lead.getByTestId('stat-runs')).toHaveText('3'); // SemEval's search engine, bm25, reversed

  // Team: carol is a judge; the pool goes to alice and bob, full overlap.
  await lead.getByTestId('tab-pools').click();
  await lead.getByTestId('team-pool').selectOption(POOL);
  await lead.getByTestId('person-name').fill('carol');
  await lead.getByTestId('person-role').selectOption('judge');
  await lead.getByTestId('person-add').click();
  await expect(lead.getByTestId('role-carol')).toHaveValue('judge');
  await lead.getByTestId('assign-annotators').fill('alice, bob');
  await lead.getByTestId('assign-mode-full').check();
  await lead.getByTestId('assign-submit').click();
  await expect(lead.getByTestId('assign-message')).toContainText('Assigned to alice, bob (full overlap)');
  await expect(lead.getByTestId('assignment-mode')).toHaveAttribute('data-mode', 'full');
  await expect(lead.getByTestId('assignment-judges')).toHaveText('carol');
  for (const who of ['alice', 'bob']) {
    await expect(lead.getByTestId(`assignment-row-${who}`)).toHaveAttribute('data-assigned', String(QUERIES));
    await expect(lead.getByTestId(`assignment-row-${who}`)).toHaveAttribute('data-done', '0');
  }
  await expect(lead.getByTestId('aggregation-rule')).toHaveValue('adjudicated');
});

/** One annotator labels every assigned query with the keyboard only. */
async function labelPool(page: Page, who: 'alice' | 'bob'): Promise<void> {
  const rows = page.locator('[data-testid^="candidate-row-"]');
  for (let q = 0; q < QUERIES; q++) {
    await expect(rows).toHaveCount(DEPTH);
    const queryId = (await page.getByTestId('query-id').textContent())!;
    await page.keyboard.press('Home');
    for (let i = 0; i < DEPTH; i++) {
      const row = page.getByTestId(`candidate-row-${i}`);
      await expect(row).toHaveAttribute('aria-selected', 'true');
      const cand = (await row.getAttribute('data-candidate-id'))!;
      const v = intended(who, cand);
      given[who].set(`${queryId}|${cand}`, v);
      await page.keyboard.press(v);
      await expect(row).toHaveAttribute('data-label', v);
    }
    await expect(page.locator('[data-testid^="candidate-row-"][data-state="saved"]')).toHaveCount(DEPTH);
    await expect(page.getByTestId('progress-queries')).toHaveText(String(q + 1));
    await page.keyboard.press('n');
    if (q < QUERIES - 1) await expect(page.getByTestId('query-id')).not.toHaveText(queryId);
    else await expect(page.getByTestId('annotate-notice')).toContainText('Every query in this pool is labeled');
  }
}

test('alice and bob label the same pool blind, at the same time, with the keyboard', async () => {
  for (const [page, who] of [
    [alice, 'alice'],
    [bob, 'bob'],
  ] as const) {
    await page.goto('/#annotate');
    await page.getByTestId('annotate-pool').selectOption(POOL);
    await page.getByTestId('annotator-input').fill(who);
    await page.getByTestId('annotator-input').press('Enter');
    await expect(page.getByTestId('query-title')).toBeVisible();
    await expect(page.getByTestId('blind-badge')).toBeVisible();
    await expect(page.getByTestId('candidates')).toHaveAttribute('data-blind', 'true');
    await expect(page.getByTestId('candidates').locator('[data-testid^="run-col-"]')).toHaveCount(0);
    await expect(page.getByTestId('annotate-assigned')).toContainText(`${QUERIES} assigned to you (full overlap)`);
    await page.getByTestId('annotator-input').blur();
  }
  // A judge is not an annotator of the pool: the Annotate screen says so.
  await carol.goto('/#annotate');
  await carol.getByTestId('annotate-pool').selectOption(POOL);
  await carol.getByTestId('annotator-input').fill('carol');
  await carol.getByTestId('annotator-input').press('Enter');
  await expect(carol.getByTestId('annotate-not-assigned')).toContainText('settle its disagreements');
  // One request says it: carol's assignment, answered with the plan marked not assigned (it was
  // refused with a 422, so Annotate asked for the plan first: two requests, and an error in the console).
  const carols = assignmentRequests.filter((r) => r.startsWith('carol '));
  expect(carols.filter((r) => r.includes(`"pool":"${POOL}","annotator":"carol"`))).toHaveLength(1);
  expect(carols.filter((r) => !r.includes('"annotator":'))).toEqual([]); // no request for the plan alone
  expect(assignmentRequests.filter((r) => !/^\w+ 200 /.test(r))).toEqual([]);

  await Promise.all([labelPool(alice, 'alice'), labelPool(bob, 'bob')]);

  // Blind: neither saw the other's labels (no "Others" column ever appears in blind mode).
  await expect(alice.getByTestId('candidates').locator('th', { hasText: 'Others' })).toHaveCount(0);
  expect(given.alice.size).toBe(QUERIES * DEPTH);
  expect(given.bob.size).toBe(QUERIES * DEPTH);
  const disagreements = [...given.alice].filter(([k, v]) => given.bob.get(k) !== v).length;
  console.log(`[gold.spec] alice and bob disagree on ${disagreements} of ${QUERIES * DEPTH} pairs`);
  expect(disagreements).toBeGreaterThanOrEqual(3);
  expect(disagreements).toBeLessThan(QUERIES * DEPTH / 2);

  await lead.getByTestId('tab-pools').click();
  for (const who of ['alice', 'bob']) await expect(lead.getByTestId(`assignment-row-${who}`)).toHaveAttribute('data-done', String(QUERIES));
  await expect(lead.getByTestId('agg-disagreements')).toHaveText(String(disagreements));
  await expect(lead.getByTestId('agg-settled')).toHaveText('0');
  await expect(lead.getByTestId('agg-unresolved')).toHaveText(String(disagreements));
  mkdirSync(path.join(root, 'test-results', 'screens'), { recursive: true });
  await lead.getByTestId('team-panel').screenshot({ path: path.join(root, 'test-results', 'screens', 'team.png') });
});

test('carol opens a disagreement from the Agreement screen and settles them all on the Review screen', async () => {
  const total = [...given.alice].filter(([k, v]) => given.bob.get(k) !== v).length;
  // From Agreement's per-query list to Review.
  await carol.getByTestId('tab-agreement').click();
  await carol.getByTestId('agreement-pool').selectOption(POOL);
  await expect(carol.getByTestId('agreement-disagreement-count')).toContainText(`${total} pairs`);
  // The per-query table sorts (it froze the page before its rows were memoised).
  const ids = async (): Promise<string[]> =>
    (await carol.locator('[data-testid^="disagreement-review-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!)));
  const queryTh = carol.locator('th', { has: carol.getByTestId('disagreement-sort-query') });
  await carol.getByTestId('disagreement-sort-query').click();
  await expect(queryTh).toHaveAttribute('aria-sort', 'ascending');
  const byQuery = await ids();
  await carol.getByTestId('disagreement-sort-query').click();
  await expect(queryTh).toHaveAttribute('aria-sort', 'descending');
  expect(await ids()).toEqual([...byQuery].reverse());
  await carol.getByTestId('disagreement-sort-query').click();
  const firstQuery = carol.locator('[data-testid^="disagreement-review-"]').first();
  const focusQuery = (await firstQuery.getAttribute('data-testid'))!.replace('disagreement-review-', '');
  await firstQuery.click();
  await expect(carol.getByTestId('tab-review')).toHaveAttribute('aria-selected', 'true');
  await carol.getByTestId('review-judge').selectOption('carol');
  await carol.getByTestId('review-judge').blur();
  await expect(carol.getByTestId('review-current')).toHaveAttribute('data-query', focusQuery);
  await expect(carol.getByTestId('review-remaining')).toHaveText(String(total));
  await expect(carol.getByTestId('review-total')).toHaveText(String(total));

  // Each item shows the query, the candidate and both annotators' labels.
  const current = carol.getByTestId('review-current');
  await expect(carol.getByTestId('review-query-title')).not.toBeEmpty();
  await expect(carol.getByTestId('review-candidate-title')).not.toBeEmpty();
  await expect(carol.getByTestId('review-votes').locator('[data-annotator]')).toHaveCount(2);

  // The list is ordered by impact (highest first).
  const impacts = await carol.locator('[data-testid^="review-row-"] td:nth-child(5)').allTextContents();
  const nums = impacts.map(Number);
  expect(nums).toEqual([...nums].sort((a, b) => b - a));

  await carol.screenshot({ path: path.join(root, 'test-results', 'screens', 'review.png'), fullPage: true });

  // The list sorts by a column header (aria-sort says how) and filters; unsorted, it is the
  // impact order again.
  const reviewRows = carol.locator('[data-testid^="review-row-"]');
  const reviewOrder = (): Promise<string[]> => reviewRows.evaluateAll((rs) => rs.map((r) => `${r.getAttribute('data-query')}|${r.getAttribute('data-candidate')}`));
  const byImpact = await reviewOrder();
  const candHeader = carol.getByTestId('review-sort-candidate');
  const candTh = carol.getByTestId('review-list').locator('th', { has: candHeader });
  await expect(candTh).toHaveAttribute('aria-sort', 'none');
  const cmp = (a: string, b: string): number => a.localeCompare(b, undefined, { numeric: true });
  await candHeader.click();
  await expect(candTh).toHaveAttribute('aria-sort', 'ascending');
  const ascTitles = await carol.locator('[data-testid^="review-row-"] td:nth-child(3)').allTextContents();
  expect(ascTitles).toEqual([...ascTitles].sort(cmp));
  const asc = await reviewOrder();
  await candHeader.click();
  await expect(candTh).toHaveAttribute('aria-sort', 'descending');
  const descTitles = await carol.locator('[data-testid^="review-row-"] td:nth-child(3)').allTextContents();
  expect(descTitles).toEqual([...descTitles].sort((a, b) => cmp(b, a)));
  const desc = await reviewOrder();
  expect(desc).not.toEqual(asc);
  expect(asc.join() !== byImpact.join() || desc.join() !== byImpact.join()).toBe(true);
  await candHeader.click();
  await expect(candTh).toHaveAttribute('aria-sort', 'none');
  expect(await reviewOrder()).toEqual(byImpact);
  // The filter narrows the list (to one candidate here), and clears.
  const oneCandidate = (await reviewRows.nth(0).getAttribute('data-candidate'))!;
  await carol.getByTestId('review-filter').fill(oneCandidate);
  await expect(reviewRows).toHaveCount(byImpact.filter((k) => k.split('|')[1]!.includes(oneCandidate)).length);
  await carol.getByTestId('review-filter').fill('');
  await expect(reviewRows).toHaveCount(total);
  await carol.getByTestId('review-filter').blur();

  // j / k move; Home goes to the top.
  await carol.keyboard.press('Home');
  await expect(carol.getByTestId('review-row-0')).toHaveAttribute('aria-selected', 'true');
  await carol.keyboard.press('j');
  await expect(carol.getByTestId('review-row-1')).toHaveAttribute('aria-selected', 'true');
  await carol.keyboard.press('k');
  await expect(carol.getByTestId('review-row-0')).toHaveAttribute('aria-selected', 'true');

  // "?" is not a ruling (it would settle nothing): the legend does not offer it, and the key only says so.
  await expect(carol.getByTestId('review-legend')).not.toContainText('unsure');
  await carol.keyboard.press('?');
  await expect(carol.getByTestId('review-notice')).toContainText('settles nothing');
  await expect(carol.getByTestId('review-row-0')).toHaveAttribute('data-state', 'none');
  await expect(carol.getByTestId('review-remaining')).toHaveText(String(total));

  // Settle one, see it saved, undo it.
  await carol.keyboard.press('1');
  await expect(carol.getByTestId('review-row-0')).toHaveAttribute('data-state', 'saved');
  await expect(carol.getByTestId('review-row-0')).toHaveAttribute('data-value', '1');
  await expect(carol.getByTestId('review-remaining')).toHaveText(String(total - 1));
  await expect(carol.getByTestId('review-row-1')).toHaveAttribute('aria-selected', 'true'); // moved on to the next unsettled
  await carol.keyboard.press('u');
  await expect(carol.getByTestId('review-notice')).toContainText('Undone');
  await expect(carol.getByTestId('review-row-0')).toHaveAttribute('data-value', '');
  await expect(carol.getByTestId('review-row-0')).toHaveAttribute('aria-selected', 'true');
  await expect(carol.getByTestId('review-remaining')).toHaveText(String(total));

  // n goes to the next unsettled one; settle everything with the keyboard.
  for (let i = 0; i < total; i++) {
    const q = (await current.getAttribute('data-query'))!;
    const c = (await current.getAttribute('data-candidate'))!;
    const v = i % 3 === 2 ? '0' : '1';
    given.carol.set(`${q}|${c}`, v);
    await carol.keyboard.press(v);
    await expect(carol.getByTestId('review-remaining')).toHaveText(String(total - i - 1));
    if (i < total - 1) await expect(current).not.toHaveAttribute('data-candidate', c);
  }
  await expect(carol.getByTestId('review-notice')).toContainText('Every disagreement of this pool is settled');
  await expect(carol.locator('[data-testid^="review-row-"][data-state="saved"]')).toHaveCount(total);
  await expect(carol.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  // Durable: a reload shows them settled by the engine.
  await carol.reload();
  await expect(carol.getByTestId('review-remaining')).toHaveText('0');
  await expect(carol.locator('[data-testid^="review-row-"][data-state="saved"]')).toHaveCount(total);

  await lead.getByTestId('tab-pools').click();
  await expect(lead.getByTestId('agg-settled')).toHaveText(String(total));
  await expect(lead.getByTestId('agg-unresolved')).toHaveText('0');
  await expect(lead.getByTestId('agg-resolved')).toHaveText(String(QUERIES * DEPTH));
});

const NUM = /^-?\d\.\d{3}$/;
const CI = /^\[-?\d\.\d{3}, -?\d\.\d{3}\]$/;

test('the researcher reads kappa, alpha and AC1 with 95% CIs', async () => {
  await lead.getByTestId('tab-agreement').click();
  await lead.getByTestId('agreement-pool').selectOption(POOL);
  await expect(lead.getByTestId('agreement-summary')).toContainText(`${QUERIES * DEPTH} labeled pairs in ${QUERIES} queries`);
  const kappa = lead.getByTestId('pair-alice-bob-kappa');
  await expect(kappa).toHaveAttribute('data-value', NUM);
  await expect(lead.getByTestId('pair-alice-bob-kappa-ci')).toHaveAttribute('data-value', CI);
  for (const id of ['fleiss', 'alpha-nominal', 'ac1']) {
    await expect(lead.getByTestId(`agreement-${id}`)).toHaveAttribute('data-value', NUM);
    await expect(lead.getByTestId(`agreement-${id}-ci`)).toHaveAttribute('data-value', CI);
  }
  for (const id of ['percent', 'alpha-ordinal', 'alpha-interval']) await expect(lead.getByTestId(`agreement-${id}`)).toHaveAttribute('data-value', NUM);
  for (const id of ['kappa-linear', 'kappa-quadratic', 'psa', 'nsa']) await expect(lead.getByTestId(`pair-alice-bob-${id}`)).toHaveAttribute('data-value', NUM);
  // The confusion matrix adds up to the pairs both labeled, its off-diagonal to the disagreements.
  const total = [...given.alice].filter(([k, v]) => given.bob.get(k) !== v).length;
  const cell = async (i: number, j: number): Promise<number> => Number(await lead.getByTestId(`confusion-alice-bob-${i}-${j}`).textContent());
  expect((await cell(0, 1)) + (await cell(1, 0))).toBe(total);
  expect((await cell(0, 0)) + (await cell(1, 1))).toBe(QUERIES * DEPTH - total);
  await expect(lead.getByTestId('agreement-chart')).toBeVisible();
  await expect(lead.getByTestId('agreement-chart').locator('[data-testid^="curve-"]')).toHaveCount(3);

  // The pool statistics and each annotator pair's table sort by their headers (aria-sort) and filter.
  const values = (table: string): Promise<number[]> =>
    lead
      .getByTestId(table)
      .locator('tbody tr td:nth-child(2) [data-value]')
      .evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-value'))).filter((x) => Number.isFinite(x)));
  const ascending = (xs: number[]): boolean => xs.every((x, i) => i === 0 || xs[i - 1]! <= x);
  for (const table of ['agreement-stats', 'pair-alice-bob-stats']) {
    const valueTh = lead.getByTestId(table).locator('th', { has: lead.getByTestId(`${table}-sort-value`) });
    await expect(valueTh).toHaveAttribute('aria-sort', 'none');
    // Numbers sort high-to-low on the first click (as in every table), the other way on the next.
    await lead.getByTestId(`${table}-sort-value`).click();
    await expect(valueTh).toHaveAttribute('aria-sort', 'descending');
    const down = await values(table);
    expect(down.length, table).toBeGreaterThanOrEqual(4);
    expect(ascending([...down].reverse()), `${table} descending: ${down.join(' ')}`).toBe(true);
    await lead.getByTestId(`${table}-sort-value`).click();
    await expect(valueTh).toHaveAttribute('aria-sort', 'ascending');
    const up = await values(table);
    expect(ascending(up), `${table} ascending: ${up.join(' ')}`).toBe(true);
    expect(up).toEqual([...down].reverse());
    await lead.getByTestId(`${table}-sort-statistic`).click();
    await expect(lead.getByTestId(table).locator('th', { has: lead.getByTestId(`${table}-sort-statistic`) })).toHaveAttribute('aria-sort', 'ascending');
    await expect(valueTh).toHaveAttribute('aria-sort', 'none');
    await lead.getByTestId(`${table}-filter`).fill(table === 'agreement-stats' ? 'krippendorff' : 'cohen');
    await expect(lead.getByTestId(table).locator('tbody tr')).toHaveCount(3);
    await lead.getByTestId(`${table}-filter`).fill('');
  }
  await expect(lead.getByTestId('agreement-stats').locator('tbody tr')).toHaveCount(6);
  console.log(
    `[gold.spec] Cohen's kappa ${await kappa.getAttribute('data-value')} ${await lead.getByTestId('pair-alice-bob-kappa-ci').getAttribute('data-value')}, ` +
      `alpha ${await lead.getByTestId('agreement-alpha-nominal').getAttribute('data-value')}, AC1 ${await lead.getByTestId('agreement-ac1').getAttribute('data-value')}`,
  );
  await lead.screenshot({ path: path.join(root, 'test-results', 'screens', 'agreement.png'), fullPage: true });
});

test('the ranker comparison shows the difference with its CI and p-values', async () => {
  await lead.getByTestId('tab-evaluate').click();
  await lead.getByTestId('eval-pool').selectOption(POOL);
  await lead.getByTestId('eval-annotator').selectOption('@aggregate');
  await expect(lead.getByTestId('eval-labeled-queries')).toHaveText(String(QUERIES));
  await expect(lead.getByTestId('compare-run-bm25')).toBeChecked();
  await expect(lead.getByTestId('compare-run-reversed')).toBeChecked();
  await lead.getByTestId('compare-metric').selectOption('AP');
  const row = lead.getByTestId('compare-row-bm25-reversed');
  await expect(row).toBeVisible();
  await expect(lead.getByTestId('compare-summary')).toContainText('labeled by @aggregate');
  // AP differences in percentage points, as the papers and the CLI print metrics.
  await expect(row.getByTestId('compare-diff')).toHaveAttribute('data-value', /^-?\d{1,3}\.\d{2}$/);
  await expect(row.getByTestId('compare-ci')).toHaveAttribute('data-value', /^\[-?\d{1,3}\.\d{2}, -?\d{1,3}\.\d{2}\]$/);
  await expect(lead.getByTestId('compare-table').locator('th[aria-sort]')).not.toHaveCount(0);
  // A filter box even for one pair of rankers.
  await expect(lead.getByTestId('compare-table-filter')).toBeVisible();
  const P = /^(<0\.001|[01]\.\d{3})$/;
  for (const id of ['compare-p-t', 'compare-p-perm', 'compare-holm-t', 'compare-holm-perm']) await expect(row.getByTestId(id)).toHaveAttribute('data-value', P);
  await expect(row.getByTestId('compare-reject')).toHaveText(/^(yes|no) \/ (yes|no)$/);
  console.log(`[gold.spec] comparison: ${(await row.textContent())?.replace(/\s+/g, ' ')}`);
  await lead.screenshot({ path: path.join(root, 'test-results', 'screens', 'compare.png'), fullPage: true });
});

test('a run that gives every candidate the same score is flagged in the run table and in the comparison', async () => {
  // A constant run (a model that learned nothing, or ids without text): its AP is the pool order's.
  await importRunFromBm25('flat', (rank) => [rank, 0]);
  await expect(lead.getByTestId('stat-runs')).toHaveText('4');

  await lead.getByTestId('tab-evaluate').click();
  await lead.getByTestId('eval-pool').selectOption(POOL);
  await lead.getByTestId('eval-annotator').selectOption('@aggregate');
  await expect(lead.getByTestId('run-uniform-flat')).toContainText(`same score for every candidate in ${QUERIES} of its ${QUERIES} queries`);
  await expect(lead.getByTestId('run-uniform-bm25')).toHaveCount(0);
  const tick = lead.getByTestId('compare-run-flat');
  if (!(await tick.isChecked())) await tick.check();
  await expect(lead.getByTestId('compare-uniform-flat')).toContainText(`flat gives every candidate the same score in ${QUERIES} of the ${QUERIES} compared queries`);
  await expect(lead.getByTestId('compare-uniform-bm25')).toHaveCount(0);
  await expect(lead.getByTestId('compare-uniform-reversed')).toHaveCount(0);
  await lead.getByTestId('compare-uniform-flat').screenshot({ path: path.join(root, 'test-results', 'screens', 'compare-uniform.png') });
  await tick.uncheck();
  await expect(lead.getByTestId('compare-uniform-flat')).toHaveCount(0);
});

test('the team exports the gold set: a qrels file and its datasheet are downloaded', async () => {
  await lead.getByTestId('tab-export').click();
  await lead.getByTestId('export-pool').selectOption(POOL);
  await lead.getByTestId('export-format').selectOption('qrels');
  await lead.getByTestId('export-source').selectOption('@aggregate');
  const preview = lead.getByTestId(`export-preview-${POOL}.qrels`);
  await expect(preview).toContainText(`${QUERIES * DEPTH} lines`);
  await expect(lead.getByTestId('export-datasheet').locator('h2').first()).toBeVisible();
  await expect(lead.getByTestId('export-datasheet').locator('table').first()).toBeVisible();

  // askubuntu needs a run: the run selector appears with the pool's first run.
  await lead.getByTestId('export-format').selectOption('askubuntu');
  await expect(lead.getByTestId('export-run')).not.toHaveValue('');
  await lead.getByTestId('export-format').selectOption('qrels');
  await expect(preview).toBeVisible();

  const downloads: Download[] = [];
  lead.on('download', (d) => downloads.push(d));
  await lead.getByTestId('export-write').click();
  await expect(lead.getByTestId('export-done')).toBeVisible();
  await expect.poll(() => downloads.length).toBe(2);
  const byName = new Map(downloads.map((d) => [d.suggestedFilename(), d]));
  expect([...byName.keys()].sort()).toEqual([`${POOL}.qrels`, `${POOL}.qrels.datasheet.md`]);

  const qrels = readFileSync((await byName.get(`${POOL}.qrels`)!.path())!, 'utf8').trim().split('\n');
  expect(qrels).toHaveLength(QUERIES * DEPTH);
  const gold = new Map<string, string>();
  for (const line of qrels) {
    const m = /^(\S+) 0 (\S+) ([01])$/.exec(line);
    expect(m, line).not.toBeNull();
    gold.set(`${m![1]}|${m![2]}`, m![3]!);
  }
  // The gold set: agreed labels, and carol's where alice and bob disagreed.
  for (const [k, a] of given.alice) {
    const want = given.bob.get(k) === a ? a : given.carol.get(k);
    expect(gold.get(k), k).toBe(want);
  }
  const sheet = readFileSync((await byName.get(`${POOL}.qrels.datasheet.md`)!.path())!, 'utf8');
  expect(sheet).toContain(POOL);
  expect(sheet).toMatch(/alice/);
  expect(sheet).toMatch(/adjudicated/);
  expect(sheet).toMatch(/kappa|κ/i);
  // Nothing the gold screens did (downloads through blob: links included) broke the CSP.
  for (const p of [lead, alice, bob, carol]) expect(await p.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])).toEqual([]);
  await lead.screenshot({ path: path.join(root, 'test-results', 'screens', 'export.png'), fullPage: true });
});

test('an export with nothing to export is not announced as a success: the empty file is named, its warning shown once', async () => {
  // A pool nobody has labeled yet: its @aggregate has no labels, so its qrels file is empty.
  await invoke(lead.request, 'pool.create', { name: 'unlabeled', sample: { n: 2, seed: 3 }, depth: 3 });
  await lead.getByTestId('tab-export').click();
  await lead.getByTestId('export-pool').selectOption('unlabeled');
  await lead.getByTestId('export-format').selectOption('qrels');
  await lead.getByTestId('export-source').selectOption('@aggregate');
  await expect(lead.getByTestId('export-warnings')).toBeVisible();
  const warning = (await lead.getByTestId('export-warnings').innerText()).trim();
  await lead.getByTestId('export-write').click();
  const done = lead.getByTestId('export-done');
  await expect(done).toBeVisible();
  await expect(done).toHaveClass(/note-box/);
  await expect(done).not.toHaveClass(/ok-box/);
  await expect(lead.getByTestId('export-empty')).toHaveText('unlabeled.qrels is empty (0 bytes): this label source has nothing to export in this format (see the warning).');
  // The warning stays in its own box below, not repeated in the result.
  await expect(done).not.toContainText(warning.split('\n')[0]!);
  await lead.screenshot({ path: path.join(root, 'test-results', 'screens', 'export-empty.png') });
});

test('axe-core finds no serious or critical violation on the gold screens with a team’s data', async () => {
  expect(await seriousViolationsOnTabs(lead, ['pools', 'annotate', 'review', 'agreement', 'evaluate', 'export', 'browse'], 300)).toEqual([]);
});

test('a vote changed after a ruling outdates it: Review shows the pair again with the earlier ruling, and ruling again settles it', async () => {
  // A pair carol settled: bob turns his vote into "?" (still in dispute, but not the dispute carol saw).
  const [key, ruling] = [...given.carol.entries()][0]!;
  const [queryId, candidateId] = key.split('|') as [string, string];
  const r = await lead.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'label.set', args: { pool: POOL, queryId, candidateId, annotator: 'bob', value: '?' } } });
  expect(r.ok(), await r.text()).toBe(true);
  await carol.getByTestId('tab-review').click();
  await carol.reload();
  await expect(carol.getByTestId('review-remaining')).toHaveText('1');
  await expect(carol.getByTestId('review-current')).toHaveAttribute('data-candidate', candidateId);
  const notice = carol.getByTestId('review-outdated-ruling');
  await expect(notice).toContainText('An earlier ruling (carol:');
  await expect(notice).toContainText('no longer counts');
  await carol.screenshot({ path: test.info().outputPath('review-outdated-ruling.png') });
  // The same value again is a ruling on the votes as they stand.
  await carol.keyboard.press(ruling);
  await expect(carol.getByTestId('review-remaining')).toHaveText('0');
  await expect(notice).toHaveCount(0);
  await carol.reload();
  await expect(carol.getByTestId('review-remaining')).toHaveText('0');
});
