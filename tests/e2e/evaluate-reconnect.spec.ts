/**
 * Evaluate after a reconnect: the server stops, a label changes meanwhile (the CLI, which may write
 * once the server is gone), the server comes back on the same port. The metrics table, the ranker
 * comparison and the per-query drill-down all show the new label's figures — the same as
 * `qpairs eval --compare` — not the comparison and the query's AP from before the break.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { startServe, type ServeProcess } from './serve';
import { buildSmallPool, openPage, qpairs } from './small-pool';

const PORT = Number(process.env.QPAIRS_E2E_PORT ?? 27613) + 9;

let server: ServeProcess | undefined;
let dir: string;
let workspace: string;
let context: BrowserContext;
let page: Page;

/** Pairs of pool p as [query, candidate], in pool order. */
let pairs: Array<[string, string]> = [];

test.beforeAll(async ({ browser }) => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-e2e-eval-reconnect-'));
  // ann: the first candidate of each query similar, the rest not (bm25 ranks it first).
  ({ workspace, pairs } = buildSmallPool(dir, (ps) => ps.map(([q, c], i) => `${q},${c},ann,${i % 4 === 0 ? 1 : 0}`)));
  server = await startServe({ workspace, port: PORT, create: false });
  ({ context, page } = await openPage(browser, server));
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cliDiff = (): string => {
  const out = JSON.parse(qpairs('eval', workspace, '--pool', 'p', '--annotator', 'ann', '--compare', 'bm25,rev', '--json')) as { pairs: Array<{ meanDiff: number }> };
  return (100 * out.pairs[0]!.meanDiff).toFixed(2);
};

test('a label changed while the server was away: table, comparison and drill-down all show it after the reconnect', async () => {
  test.setTimeout(120_000);
  const [q0] = pairs[0]!;
  await page.goto('/#evaluate');
  await page.getByTestId('eval-pool').selectOption('p');
  await page.getByTestId('eval-annotator').selectOption('ann');
  await expect(page.getByTestId('metric-bm25-MAP')).toBeVisible();
  await page.getByTestId('drill-query').fill(q0);
  await page.getByTestId('drill-show').click();
  const drillRev = page.getByTestId('drill-ranker-rev').locator('h3');
  await expect(drillRev).toContainText('AP 25.00');
  const before = cliDiff();
  await expect(page.getByTestId('compare-diff')).toHaveText(before);
  const mapBefore = await page.getByTestId('metric-rev-MAP').innerText();

  // The server goes away; the label of q0's last candidate (rev's first) becomes similar.
  await server!.stop();
  server = undefined;
  await expect(page.getByTestId('connection')).not.toHaveAttribute('data-state', 'open', { timeout: 15_000 });
  qpairs('label', workspace, '--pool', 'p', '--annotator', 'ann', '--query', q0, '--candidate', pairs[3]![1], '--value', '1');
  const after = cliDiff();
  expect(after).not.toBe(before);
  server = await startServe({ workspace, port: PORT, create: false });

  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'open', { timeout: 30_000 });
  await expect(page.getByTestId('metric-rev-MAP')).not.toHaveText(mapBefore, { timeout: 15_000 });
  await expect(page.getByTestId('compare-diff')).toHaveText(after, { timeout: 15_000 });
  // rev ranks q0's candidates 4, 3, 2, 1: similar at ranks 1 and 4 → AP (1 + 2/4) / 2.
  await expect(drillRev).toContainText('AP 75.00', { timeout: 15_000 });
});
