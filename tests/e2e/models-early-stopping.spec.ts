/**
 * The Models screen's early-stopping note names the form's fields, not the CLI's flags: it said "no dev
 * pool and no --cv: 10 of the 50 training clusters … held out" to a browser user, who has no --cv to give.
 */
import { expect, test } from '@playwright/test';
import { qpairs, useServedSmallPool } from './small-pool';

// Model ltr-es: ltr trained on SemEval dev's 50 labeled queries (pool dev) with neither a dev pool nor --cv.
const served = useServedSmallPool('models-early-stopping', 48, () => [], ({ workspace }) => {
  qpairs('train', workspace, '--model', 'ltr', '--name', 'ltr-es', '--train-pool', 'dev', '--epochs', '1');
});

test('the early-stopping note of a model trained with neither a dev pool nor cross-validation names the form’s fields', async () => {
  await served.page.goto('/#models');
  const note = served.page.getByTestId('model-early-stopping-ltr-es');
  await expect(note).toHaveText(/^no “Dev pool” and no “Cross-validation folds”: \d+ of the \d+ training clusters \(\d+ queries, seed 1\) held out for early stopping and not trained on$/);
});
