/**
 * Evaluate says why its panels count differently from the table: with "include partially labeled
 * queries" on, the ranker comparison still counts fully labeled queries only (as `qpairs eval
 * --compare`, which refuses `--partial`) and says so; the per-query drill-down explains a "—" (no
 * similar candidate) and a partly labeled query the table leaves out. Counts of one take the singular
 * ("1 pair in 1 query", "over the 1 query counted"; they said "1 queries").
 */
import { expect, test } from '@playwright/test';
import { useServedSmallPool } from './small-pool';

const served = useServedSmallPool('eval-notes', 8, (ps) => {
  // Query 0: its first candidate similar; query 1: none similar; query 2: two of four labeled.
  const values = ['1', '0', '0', '0', '0', '0', '0', '0', '1', '0', null, null];
  const rows = ps.flatMap(([q, c], i) => (values[i] === null ? [] : [`${q},${c},ann,${values[i]}`]));
  // bob labels query 0 only, saying its second candidate is similar too: one disagreement in one query.
  rows.push(...ps.slice(0, 4).map(([q, c], i) => `${q},${c},bob,${i < 2 ? 1 : 0}`));
  // cy labels one candidate: no query is fully labeled by cy.
  rows.push(`${ps[0]![0]},${ps[0]![1]},cy,1`);
  return rows;
});

test('partial on: the comparison says it counts fully labeled queries only; the drill-down explains "—" and a partly labeled query', async () => {
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('p');
  await served.page.getByTestId('eval-annotator').selectOption('ann');
  await expect(served.page.getByTestId('metric-bm25-queries')).toHaveText('2');
  await expect(served.page.getByTestId('compare-queries')).toHaveText('2');
  await expect(served.page.getByTestId('compare-partial-note')).toHaveCount(0);

  await served.page.getByTestId('eval-partial').check();
  await expect(served.page.getByTestId('metric-bm25-queries')).toHaveText('3');
  await expect(served.page.getByTestId('compare-queries')).toHaveText('2');
  await expect(served.page.getByTestId('compare-partial-note')).toHaveText(
    'The comparison counts fully labeled queries only, as qpairs eval --compare (which takes no --partial): the partially labeled query the table above includes is left out here.',
  );

  const drill = async (q: string): Promise<void> => {
    await served.page.getByTestId('drill-query').fill(q);
    await served.page.getByTestId('drill-show').click();
    await expect(served.page.getByTestId('drilldown')).toContainText(q);
  };
  await drill(served.pairs[4]![0]);
  await expect(served.page.getByTestId('drill-ranker-bm25').locator('h3')).toContainText('AP —');
  await expect(served.page.getByTestId('drill-note')).toHaveText('No candidate is similar: AP and RR are undefined (“—”); the table counts them 0 for this query (score 0).');
  await served.page.getByTestId('convention-skip').check();
  await expect(served.page.getByTestId('drill-note')).toHaveText('No candidate is similar: AP and RR are undefined (“—”); the table leaves this query out (convention skip).');
  await drill(served.pairs[8]![0]);
  await expect(served.page.getByTestId('drill-note')).toContainText('2 of its 4 candidates have no label from this source (counted here as not similar): the table counts it with them as not similar');
  await served.page.getByTestId('eval-partial').uncheck();
  await expect(served.page.getByTestId('compare-partial-note')).toHaveCount(0);
  await expect(served.page.getByTestId('drill-note')).toContainText('the table leaves it out until every candidate is labeled');
  await drill(served.pairs[0]![0]);
  await expect(served.page.getByTestId('drill-note')).toHaveCount(0);
});

test('counts of one: the verdict over bob\'s one query, Agreement\'s one disagreement; one annotator chosen: no figures of two', async () => {
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('p');
  await served.page.getByTestId('eval-annotator').selectOption('bob');
  await expect(served.page.getByTestId('metric-bm25-queries')).toHaveText('1');
  await expect(served.page.getByTestId('label-order')).toContainText('over the 1 query counted');
  await served.page.goto('/#agreement');
  await served.page.getByTestId('agreement-pool').selectOption('p');
  await expect(served.page.getByTestId('agreement-disagreement-count')).toHaveText('1 pair in 1 query');
  await expect(served.page.getByTestId('agreement-summary')).toContainText('ann, bob, cy · 10 labeled pairs in 3 queries');
  // One annotator left: no figures of the former two under the checkboxes.
  await served.page.getByTestId('agreement-annotator-bob').uncheck();
  await served.page.getByTestId('agreement-annotator-cy').uncheck();
  await expect(served.page.getByText('Choose at least two annotators.')).toBeVisible();
  await expect(served.page.getByTestId('agreement-summary')).toHaveCount(0);
  await expect(served.page.getByTestId('agreement-disagreement-count')).toHaveCount(0);
  await served.page.getByTestId('agreement-annotator-bob').check();
  await served.page.getByTestId('agreement-annotator-cy').check();
  await expect(served.page.getByTestId('agreement-summary')).toContainText('ann, bob, cy · 10 labeled pairs in 3 queries');
});

test('no query to compare on: the permutation p is "—" without a method', async () => {
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('p');
  await served.page.getByTestId('eval-annotator').selectOption('cy');
  await expect(served.page.getByTestId('compare-queries')).toHaveText('0');
  const perm = served.page.getByTestId('compare-table').locator('td').filter({ has: served.page.getByTestId('compare-p-perm') });
  await expect(perm).toHaveText(/^— \(no pairs\)$/);
});
