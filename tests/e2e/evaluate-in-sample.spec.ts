/**
 * The Evaluate screen's comparison flags a model's run on queries the model was trained on, as the
 * metrics table above it and `qpairs eval --compare` do: it showed the means and the paired test with
 * no word that one side was in-sample.
 */
import { expect, test } from '@playwright/test';
import { qpairs, useServedSmallPool } from './small-pool';

// Pool p, labeled by gold (the first candidate of each query similar); model tf (tfidf) trained on p.
const served = useServedSmallPool('eval-in-sample', 41, (ps) => ps.map(([q, c], i) => `${q},${c},gold,${i % 4 === 0 ? 1 : 0}`), ({ workspace }) => {
  qpairs('train', workspace, '--model', 'tfidf', '--name', 'tf', '--train-pool', 'p');
});

test('the comparison says which run’s model was trained on the compared queries, as eval --compare does', async () => {
  const cli = qpairs('eval', served.workspace, '--pool', 'p', '--compare', 'rev,tf');
  expect(cli).toContain('! tf: trained on 3 of these 3 queries (3 same id) — not held out');
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('p');
  await expect(served.page.getByTestId('run-overlap-tf')).toHaveText('trained on 3 of these 3 queries');
  await expect(served.page.getByTestId('compare-overlap-tf')).toHaveText(
    "tf's model was trained on 3 of the 3 compared queries (same id, same text or near-duplicate): its figures here are not held out, and neither is a difference with it.",
  );
  await expect(served.page.getByTestId('compare-overlap-rev')).toHaveCount(0);
});
