/**
 * The Export screen's "Replace annotator names with A1, A2, …" (serve mode): off, the preview and
 * the download name the annotators; on, the preview's datasheet says the names were replaced and the
 * downloaded file's votes are A1, A2 (the order the workspace first knew them), with no name left.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { useServedSmallPool } from './small-pool';

test.describe.configure({ mode: 'serial' });

// Two annotators, Zoë first, label every pair of p; they disagree on the first query's candidates.
const served = useServedSmallPool('export-pseudonyms', 91, (pairs) =>
  pairs.flatMap(([q, c], i) => [`${q},${c},Zoë,${i % 2}`, `${q},${c},Ansel,${i < 4 ? 1 - (i % 2) : i % 2}`]),
);

test('the checkbox replaces every annotator name in the preview and the download', async () => {
  test.setTimeout(60_000);
  const page = served.page;
  await page.goto('/#export');
  await page.getByTestId('export-pool').selectOption('p');
  await page.getByTestId('export-format').selectOption('jsonl');
  await page.getByTestId('export-source').selectOption('@aggregate');
  const sheet = page.getByTestId('export-datasheet');
  await expect(sheet).toContainText('2 annotators (Zoë, Ansel)', { timeout: 30_000 });
  const box = page.getByTestId('export-pseudonymize');
  await expect(box).not.toBeChecked();
  await box.check();
  await expect(sheet).toContainText('2 annotators (A1, A2)', { timeout: 30_000 });
  await expect(sheet).toContainText('Names replaced.');
  await expect(sheet).not.toContainText('Zoë');
  await expect(sheet).not.toContainText('Ansel');
  const [download] = await Promise.all([page.waitForEvent('download', { predicate: (d) => d.suggestedFilename().endsWith('.jsonl') }), page.getByTestId('export-write').click()]);
  await expect(page.getByTestId('export-done')).toBeVisible();
  const saved = path.join(served.dir, download.suggestedFilename());
  await download.saveAs(saved);
  const text = readFileSync(saved, 'utf8');
  expect(text).not.toMatch(/Zoë|Ansel/);
  const rows = text.trim().split('\n').map((l) => JSON.parse(l) as { votes: Record<string, string> });
  expect(rows).toHaveLength(12);
  for (const r of rows) expect(Object.keys(r.votes)).toEqual(['A1', 'A2']);
});
