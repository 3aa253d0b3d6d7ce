/**
 * Creating a pool on a large workspace: the Pools screen's bar follows the creation's progress
 * and Cancel stops it, leaving no pool. pool.create used to run as a plain request with no job, so
 * the bar stayed at 0 of 0 for the whole creation (tens of seconds at 100,000 questions) and there
 * was no way to stop it.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { qpairs, useServedSmallPool } from './small-pool';

test.describe.configure({ mode: 'serial' });

const QUESTIONS = 30_000;
const served = useServedSmallPool(
  'pool-create-cancel',
  38,
  () => [],
  ({ dir, workspace }) => {
    // Enough questions that retrieving 20,000 queries' top-20 takes far longer than the test needs.
    const words = Array.from({ length: 2000 }, (_, i) => `term${i.toString(36)}`);
    let s = 11;
    const pick = (): string => words[(s = (s * 48271) % 2147483647) % words.length]!;
    const lines: string[] = [];
    for (let i = 0; i < QUESTIONS; i++) {
      const title = Array.from({ length: 8 }, pick).join(' ');
      const body = Array.from({ length: 60 }, pick).join(' ');
      lines.push(JSON.stringify({ id: `g${i}`, title, body, source: 'gen' }));
    }
    // Stop words only and no body: BM25 finds no candidate for it (the last test).
    lines.push(JSON.stringify({ id: 'stopq', title: 'the of and', body: '', source: 'gen' }));
    const file = path.join(dir, 'gen.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    qpairs('import', workspace, '--format', 'questions-jsonl', file);
  },
);

test('pool creation shows its progress and Cancel stops it without creating the pool', async () => {
  const page = served.page;
  await page.goto('/#pools');
  await page.getByTestId('pool-name').fill('huge');
  await page.getByTestId('pool-mode-sample').check();
  await page.getByTestId('pool-sample-n').fill('20000');
  await page.getByTestId('pool-create').click();
  const bar = page.getByTestId('pool-create-progress');
  await expect(bar).toBeVisible();
  await expect(page.getByText("retrieving each query's BM25 top-20")).toBeVisible({ timeout: 30_000 });
  // The bar counts the queries retrieved so far, of the 20,000.
  await expect(bar.getByRole('progressbar')).toHaveAttribute('aria-valuemax', '20000');
  await expect.poll(async () => Number(await bar.getByRole('progressbar').getAttribute('aria-valuenow'))).toBeGreaterThan(0);
  const cancel = page.getByTestId('pool-create-cancel');
  await cancel.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('pool-error')).toContainText('pool creation cancelled: pool "huge" was not created');
  await expect(bar).toHaveCount(0);
  await expect(page.getByTestId('pool-create-cancel')).toHaveCount(0);
  await expect(page.getByTestId('pool-create')).toHaveText('Create pool');
  expect(qpairs('pool', 'list', served.workspace)).not.toMatch(/^huge /m);
});

test('the Corpus hint follows the choice, and the created line names a query BM25 finds no candidate for', async () => {
  const page = served.page;
  await page.goto('/#pools');
  await page.getByTestId('pool-name').fill('withstop');
  await page.getByTestId('pool-source').selectOption('gen');
  await expect(page.getByTestId('pool-source-hint')).toHaveText('queries and their candidates from this corpus only');
  // "every corpus" kept saying "from this corpus only".
  await page.getByTestId('pool-source').selectOption('@all');
  await expect(page.getByTestId('pool-source-hint')).toContainText('from every corpus');
  await page.getByTestId('pool-mode-queries').check();
  await page.getByTestId('pool-queries').fill('stopq g1');
  await page.getByTestId('pool-create').click();
  await expect(page.getByTestId('pool-created')).toContainText(
    'Pool "withstop" created: 2 queries, 20 pairs. Note: 1 of the 2 queries has no candidate (BM25 finds no other question for it: stopq): nothing to label there, and no metric counts it.',
  );
});
