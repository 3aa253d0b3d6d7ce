/**
 * Evaluate says what its figures rest on, as `qpairs eval` and `eval --compare` do: the comparison
 * flags a run that scores no candidate of some compared queries (ranked in the pool's order there)
 * and names the tie rule and the grade it counts from; and when no counted query has a similar
 * candidate under convention zero, a note says every 0 is the convention’s, not the rankers’; from the
 * scheme’s lowest grade, where every labeled candidate is similar, a note says the figures measure no order.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { qpairs, useServedSmallPool } from './small-pool';

// Pool p: in each query the last candidate (pool order) is the similar one. Run "part" scores the first query only.
const served = useServedSmallPool('eval-flags', 43, (ps) => ps.map(([q, c], i) => `${q},${c},ann,${i % 4 === 3 ? 1 : 0}`), ({ dir, workspace, pairs }) => {
  const part = path.join(dir, 'part.txt');
  writeFileSync(part, pairs.slice(0, 4).map(([q, c], i) => `${q} Q0 ${c} ${i + 1} ${10 - i} part`).join('\n') + '\n');
  qpairs('import', workspace, '--format', 'trec-run', '--pool', 'p', part);
});

test('the comparison flags a run that scores no candidate of some compared queries, as eval --compare does, and names ties and grade', async () => {
  const cli = JSON.parse(qpairs('eval', served.workspace, '--pool', 'p', '--annotator', 'ann', '--compare', 'part,rev', '--json')) as {
    queries: number;
    runs: Array<{ name: string; unscoredQueries?: number }>;
  };
  expect(cli.queries).toBe(3);
  expect(cli.runs.find((r) => r.name === 'part')!.unscoredQueries).toBe(2);
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('p');
  await served.page.getByTestId('eval-annotator').selectOption('ann');
  await expect(served.page.getByTestId('compare-summary')).toContainText('ties pool-order · similar from grade 1');
  await expect(served.page.getByTestId('compare-unscored-part')).toHaveText(
    'part scores no candidate of 2 of the 3 compared queries: there it is ranked in the pool’s own order, which can flatter it.',
  );
  await expect(served.page.getByTestId('compare-unscored-rev')).toHaveCount(0);
  await served.page.getByTestId('eval-ties').selectOption('trec-eval');
  await expect(served.page.getByTestId('compare-summary')).toContainText('ties trec-eval · similar from grade 1');
  // The table above has always flagged it.
  await expect(served.page.getByTestId('eval-no-similar')).toHaveCount(0);
});

test('from a grade no label reaches, convention zero: a note says every 0 is the convention’s (as qpairs eval)', async () => {
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('dev');
  await served.page.getByTestId('eval-annotator').selectOption('gold');
  const field = served.page.getByTestId('eval-threshold');
  await expect(field).toHaveValue('1');
  await expect(served.page.getByTestId('eval-no-similar')).toHaveCount(0);
  // SemEval's grades go up to 2 (PerfectMatch): from 3 nothing is similar.
  expect(qpairs('eval', served.workspace, '--pool', 'dev', '--threshold', '3')).toContain('! none of the 50 queries counted has a similar candidate (grade 3 or above)');
  await field.fill('3');
  await expect(served.page.getByTestId('eval-no-similar')).toHaveText(
    'None of the 50 counted queries have a similar candidate (grade 3 or above) in the labels of gold: every figure is 0 whatever the rankers’ order (score 0).',
  );
  await field.fill('2');
  await expect(served.page.getByTestId('eval-no-similar')).toHaveCount(0);
});

test('from the scheme’s lowest grade every labeled candidate is similar: a note says the figures measure no order (as qpairs eval)', async () => {
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('dev');
  await served.page.getByTestId('eval-annotator').selectOption('gold');
  const field = served.page.getByTestId('eval-threshold');
  // The field keeps the previous test's grade (the same page): from 1, nothing to say.
  await field.fill('1');
  await expect(served.page.getByTestId('eval-every-similar')).toHaveCount(0);
  // SemEval's grades start at 0 (Irrelevant): from 0 every label is similar, and every run scores 100.00.
  const note = `similar from grade 0 takes every grade of the semeval3 scheme (0 to 2): every labeled candidate counts as similar, so the figures do not measure the runs' order (only "?" and unlabeled candidates are not similar)`;
  expect(qpairs('eval', served.workspace, '--pool', 'dev', '--threshold', '0')).toContain(`! ${note}`);
  await field.fill('0');
  await expect(served.page.getByTestId('eval-every-similar')).toHaveText(`S${note.slice(1)}.`);
  await field.fill('1');
  await expect(served.page.getByTestId('eval-every-similar')).toHaveCount(0);
});
