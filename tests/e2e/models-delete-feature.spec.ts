/**
 * Deleting a model whose run a fusing model (ltr, fused) takes as a feature. Before, the Models
 * screen's confirmation said only "Delete “tf”? (its runs in the pools go too)" and, once done,
 * "Model “tf” deleted, with the runs it had scored.": nothing said that the ltr model built on that
 * run would, scored again, rank every pool with the feature 0. The confirmation now names the
 * fusing model before anything is deleted, and the message after it says what to do.
 * The workspace is built with the CLI (SemEval dev, tfidf, then ltr for one epoch over its runs).
 */
import { expect, test, type Page } from '@playwright/test';
import { dataset } from '../datasets';
import { useServedWorkspace } from './served-workspace';
import { qpairs } from './small-pool';
import { askKeepThenReachConfirm, focusedTestId } from './focus';

test.describe.configure({ mode: 'serial' });

const served = useServedWorkspace('models-delete', 35, {
  workspace: 'w.qpairs',
  prepare: ({ workspace: w }) => {
    qpairs('init', w!);
    qpairs('import', w!, '--format', 'semeval', '--pool', 'dev', dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml'));
    qpairs('train', w!, '--model', 'tfidf', '--name', 'tf', '--train-pool', 'dev');
    qpairs('train', w!, '--model', 'tfidf', '--name', 'tf-late', '--train-pool', 'dev');
    qpairs('train', w!, '--model', 'ltr', '--name', 'l1', '--train-pool', 'dev', '--epochs', '1', '--config', '{"embedding":false}');
  },
});
let page: Page;
test.beforeAll(() => {
  page = served.page;
});

test('the delete confirmation names the fusing model that takes the run; the message after says what to do', async () => {
  await page.goto('/#models');
  await expect(page.getByTestId('model-row-tf')).toBeVisible();
  // The fusing model itself: nothing takes its run.
  await page.getByTestId('model-delete-l1').click();
  await expect(page.getByRole('alertdialog', { name: 'Delete l1?' })).toBeVisible();
  await expect(page.getByTestId('model-delete-feature-of-l1')).toHaveCount(0);
  await page.getByTestId('model-delete-keep-l1').click();

  await page.getByTestId('model-delete-tf').click();
  await expect(page.getByTestId('model-delete-feature-of-tf')).toHaveText('l1 takes its run as a feature: scored again, it ranks without it.');
  // By keyboard: the confirm button takes Enter.
  await page.getByTestId('model-delete-confirm-tf').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('model-delete-message')).toHaveText(
    'Model “tf” deleted, with the runs it had scored. Note: l1 takes run "tf" as a feature: scored again, it ranks without it (the feature is 0); a new model named "tf" gives it that run again, or train l1 again.',
  );
  await expect(page.getByTestId('model-row-tf')).toHaveCount(0);
  // tf-late is a feature of l1 too, and says so.
  await page.getByTestId('model-delete-tf-late').click();
  await expect(page.getByTestId('model-delete-feature-of-tf-late')).toContainText('l1 takes its run as a feature');
  await page.getByTestId('model-delete-keep-tf-late').click();
});

test('from the keyboard: Delete… puts the focus on Keep, Esc and Keep give it back to Delete…, and deleting leaves it on the message', async () => {
  // The question replaced the focused Delete… and the focus fell to <body>; so it did when the question went, and with the deleted row.
  const focused = (): Promise<string> => focusedTestId(page);
  await page.goto('/#models');
  await expect(page.getByTestId('model-row-tf-late')).toBeVisible();
  await page.getByTestId('model-delete-tf-late').focus();
  await askKeepThenReachConfirm(page, {
    start: 'model-delete-tf-late',
    keep: 'model-delete-keep-tf-late',
    confirm: 'model-delete-confirm-tf-late',
    question: page.getByRole('alertdialog', { name: 'Delete tf-late?' }),
  });
  // Delete it.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('model-row-tf-late')).toHaveCount(0);
  await expect(page.getByTestId('model-delete-message')).toContainText('Model “tf-late” deleted');
  await expect.poll(focused).toBe('model-delete-message');
});
