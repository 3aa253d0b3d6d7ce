/**
 * The Evaluate screen flags a model's figures on the pool that chose it (its dev pool: the kept epoch is
 * the one with the best MRR there), in the metrics table and the comparison, as `qpairs eval` does: dae
 * "kept epoch 6 (dev MAP 72.65)", then Evaluate on that dev pool showed 72.65 as if held out.
 */
import { expect, test } from '@playwright/test';
import { qpairs, useServedSmallPool } from './small-pool';

// Pool p, labeled by gold (the first candidate of each query similar); model dae trained on pool dev with p as its dev pool.
const served = useServedSmallPool('eval-selected-on', 47, (ps) => ps.map(([q, c], i) => `${q},${c},gold,${i % 4 === 0 ? 1 : 0}`), ({ workspace }) => {
  qpairs('train', workspace, '--model', 'dae', '--name', 'dae', '--train-pool', 'dev', '--dev-pool', 'p', '--epochs', '2');
});

test('the metrics table and the comparison say which run’s model was chosen on these queries, as eval does', async () => {
  const cli = qpairs('eval', served.workspace, '--pool', 'p', '--compare', 'rev,dae');
  expect(cli).toContain('! dae: chosen on these queries (its dev pool: the version kept scored best here) — optimistic, not held out');
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('p');
  await expect(served.page.getByTestId('run-selected-on-dae')).toHaveText('chosen on these queries (its dev pool: the version kept scored best here)');
  await expect(served.page.getByTestId('run-selected-on-rev')).toHaveCount(0);
  await expect(served.page.getByTestId('compare-selected-on-dae')).toHaveText(
    'dae: chosen on these queries (its dev pool: the version kept scored best here): its figures here are optimistic, not held out, and neither is a difference with it.',
  );
  await expect(served.page.getByTestId('compare-selected-on-rev')).toHaveCount(0);
});

test('the Models screen says it under the model, per pool that chose it', async () => {
  await served.page.goto('/#models');
  await expect(served.page.getByTestId('model-chosen-dae-p')).toHaveText('on p: chosen on these queries (its dev pool: the version kept scored best here) — optimistic, not held out');
  await expect(served.page.getByTestId('model-chosen-dae-dev')).toHaveCount(0);
});
