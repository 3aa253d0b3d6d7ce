/**
 * Evaluate after a reconnect: the server stops, a label changes meanwhile (the CLI, which may write
 * once the server is gone), the server comes back on the same port. The metrics table, the ranker
 * comparison and the per-query drill-down all show the new label's figures — the same as
 * `qpairs eval --compare` — not the comparison and the query's AP from before the break.
 */
import { expect, test } from '@playwright/test';
import { startServe } from './serve';
import { qpairs, useServedSmallPool } from './small-pool';

// ann: the first candidate of each query similar, the rest not (bm25 ranks it first).
const served = useServedSmallPool('eval-reconnect', 9, (ps) => ps.map(([q, c], i) => `${q},${c},ann,${i % 4 === 0 ? 1 : 0}`));

const cliDiff = (): string => {
  const out = JSON.parse(qpairs('eval', served.workspace, '--pool', 'p', '--annotator', 'ann', '--compare', 'bm25,rev', '--json')) as { pairs: Array<{ meanDiff: number }> };
  return (100 * out.pairs[0]!.meanDiff).toFixed(2);
};

test('a label changed while the server was away: table, comparison and drill-down all show it after the reconnect', async () => {
  test.setTimeout(120_000);
  const [q0] = served.pairs[0]!;
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('p');
  await served.page.getByTestId('eval-annotator').selectOption('ann');
  await expect(served.page.getByTestId('metric-bm25-MAP')).toBeVisible();
  await served.page.getByTestId('drill-query').fill(q0);
  await served.page.getByTestId('drill-show').click();
  const drillRev = served.page.getByTestId('drill-ranker-rev').locator('h3');
  await expect(drillRev).toContainText('AP 25.00');
  const before = cliDiff();
  await expect(served.page.getByTestId('compare-diff')).toHaveText(before);
  const mapBefore = await served.page.getByTestId('metric-rev-MAP').innerText();

  // The server goes away; the label of q0's last candidate (rev's first) becomes similar.
  await served.server!.stop();
  served.server = undefined;
  await expect(served.page.getByTestId('connection')).not.toHaveAttribute('data-state', 'open', { timeout: 15_000 });
  qpairs('label', served.workspace, '--pool', 'p', '--annotator', 'ann', '--query', q0, '--candidate', served.pairs[3]![1], '--value', '1');
  const after = cliDiff();
  expect(after).not.toBe(before);
  served.server = await startServe({ workspace: served.workspace, port: served.port, create: false });

  await expect(served.page.getByTestId('connection')).toHaveAttribute('data-state', 'open', { timeout: 30_000 });
  await expect(served.page.getByTestId('metric-rev-MAP')).not.toHaveText(mapBefore, { timeout: 15_000 });
  await expect(served.page.getByTestId('compare-diff')).toHaveText(after, { timeout: 15_000 });
  // rev ranks q0's candidates 4, 3, 2, 1: similar at ranks 1 and 4 → AP (1 + 2/4) / 2.
  await expect(drillRev).toContainText('AP 75.00', { timeout: 15_000 });
});
