/**
 * Evaluate counts as `qpairs eval --ties/--threshold` does: the "Equal scores" choice and, for a
 * graded pool, "Similar from grade" change the table, and the drill-down ranks and marks the
 * candidates by the same rules (it always used pool order and grade 1, whatever the table said).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { qpairs, useServedSmallPool } from './small-pool';

// Pool p: in each query the last candidate (pool order) is the similar one.
const served = useServedSmallPool('eval-counting', 12, (ps) => ps.map(([q, c], i) => `${q},${c},ann,${i % 4 === 3 ? 1 : 0}`), ({ dir, workspace, pairs }) => {
  // Run "flat" scores every candidate alike: its order is the tie rule's alone.
  const flat = path.join(dir, 'flat.txt');
  writeFileSync(flat, pairs.map(([q, c], i) => `${q} Q0 ${c} ${(i % 4) + 1} 1 flat`).join('\n') + '\n');
  qpairs('import', workspace, '--format', 'trec-run', '--pool', 'p', flat);
});

/** What `qpairs eval --json` says run `run`'s MAP is, as the screen shows it. */
function cliMap(pool: string, run: string, ...flags: string[]): string {
  const j = JSON.parse(qpairs('eval', served.workspace, '--pool', pool, '--annotator', pool === 'p' ? 'ann' : 'gold', ...flags, '--json')) as { runs: Record<string, { MAP: number }> };
  return (100 * j.runs[run]!.MAP).toFixed(2);
}

test('"Equal scores" ranks ties as the CLI\'s --ties does, in the table and in the drill-down', async () => {
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('p');
  await served.page.getByTestId('eval-annotator').selectOption('ann');
  // A binary pool has no grades to choose from.
  await expect(served.page.getByTestId('eval-threshold')).toHaveCount(0);
  const poolOrder = cliMap('p', 'flat');
  const trecEval = cliMap('p', 'flat', '--ties', 'trec-eval');
  expect(poolOrder).not.toBe(trecEval);
  await expect(served.page.getByTestId('metric-flat-MAP')).toHaveText(poolOrder);
  await served.page.getByTestId('drill-query').fill(served.pairs[0]![0]);
  await served.page.getByTestId('drill-show').click();
  const flatOrder = served.page.getByTestId('drill-ranker-flat').locator('li');
  await expect(flatOrder).toHaveCount(4);
  // Pool order: the similar candidate (the last) is ranked last.
  await expect(flatOrder.nth(3)).toHaveClass('relevant');
  // Its mark is read as what it means, not "check mark"; the others' not as "ballot x".
  expect(await flatOrder.nth(3).ariaSnapshot()).toMatch(/^- listitem: similar \(grade 1\) /);
  expect(await flatOrder.nth(0).ariaSnapshot()).toMatch(/^- listitem: not similar \(grade 0\) /);

  await served.page.getByTestId('eval-ties').selectOption('trec-eval');
  await expect(served.page.getByTestId('metric-flat-MAP')).toHaveText(trecEval);
  await expect(served.page.getByTestId('eval-summary')).toContainText('ties trec-eval');
  // trec_eval's rule ranks equal scores by document id, descending: the drill-down follows it.
  const ids = served.pairs.slice(0, 4).map(([, c]) => c);
  const byIdDescending = [...ids].sort().reverse();
  const similarAt = byIdDescending.indexOf(ids[3]!);
  await expect(flatOrder.nth(similarAt)).toHaveClass('relevant');
  await expect(served.page.getByTestId('drill-ranker-flat').locator('h3')).toContainText(`AP ${(100 / (similarAt + 1)).toFixed(2)}`);
  await served.page.getByTestId('eval-ties').selectOption('pool-order');
  await expect(served.page.getByTestId('metric-flat-MAP')).toHaveText(poolOrder);
});

test('"Similar from grade" on a graded pool counts as --threshold; a field that is no number changes nothing and says so', async () => {
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('dev');
  await served.page.getByTestId('eval-annotator').selectOption('gold');
  // The SemEval import's run (the organisers' IR ranking) of pool dev, graded PerfectMatch 2, Relevant 1.
  const run = Object.keys((JSON.parse(qpairs('eval', served.workspace, '--pool', 'dev', '--json')) as { runs: Record<string, unknown> }).runs)[0]!;
  const fromOne = cliMap('dev', run);
  const fromTwo = cliMap('dev', run, '--threshold', '2');
  expect(fromOne).not.toBe(fromTwo);
  await expect(served.page.getByTestId(`metric-${run}-MAP`)).toHaveText(fromOne);
  const field = served.page.getByTestId('eval-threshold');
  await expect(field).toHaveValue('1');
  await field.fill('2');
  await expect(served.page.getByTestId(`metric-${run}-MAP`)).toHaveText(fromTwo);
  await expect(served.page.getByTestId('eval-threshold-shown')).toHaveText('2');
  await field.fill('');
  await expect(served.page.getByTestId('eval-threshold-error')).toHaveText('a grade (a number); still counting from 2');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(served.page.getByTestId(`metric-${run}-MAP`)).toHaveText(fromTwo);
  // Another pool starts from the default again.
  await served.page.getByTestId('eval-pool').selectOption('p');
  await served.page.getByTestId('eval-pool').selectOption('dev');
  await expect(served.page.getByTestId('eval-threshold')).toHaveValue('1');
  await expect(served.page.getByTestId(`metric-${run}-MAP`)).toHaveText(fromOne);
});
