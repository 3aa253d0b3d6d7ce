/**
 * The import form's errors name the form's own fields, not the CLI's flags. Before, a file whose
 * ids another source holds said "give --source first … Import with --update", and a strict import
 * "(--strict)", in a form that has a Source name field and "Replace existing questions" and
 * "Strict" checkboxes. The form's format hints say what each format reads (semeval-relevancy was
 * called "a ranker run", but it is the scorer's gold: true/false labels).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { useServedWorkspace } from './served-workspace';

test.describe.configure({ mode: 'serial' });

const served = useServedWorkspace('import-form', 37, { workspace: 'w.qpairs' });
let page: Page;
test.beforeAll(() => {
  page = served.page;
});

const file = (name: string, text: string): string => {
  const f = path.join(served.dir, name);
  writeFileSync(f, text);
  return f;
};

async function importFile(format: string, f: string, fill: { pool?: string; strict?: boolean } = {}): Promise<void> {
  await page.getByTestId('import-format').selectOption(format);
  await page.getByTestId('import-files').setInputFiles(f);
  if (fill.pool !== undefined) await page.getByTestId('import-pool').fill(fill.pool);
  await page.getByTestId('import-strict').setChecked(fill.strict ?? false);
  await page.getByTestId('import-start').click();
  await expect(page.getByTestId('import-report').or(page.getByTestId('import-error'))).toBeVisible({ timeout: 60_000 });
}

test('a source clash and a strict import name the form’s Source name, “Replace existing questions” and “Strict”', async () => {
  await page.goto('/#workspace');
  await importFile('questions-jsonl', file('first.jsonl', '{"id":"1","title":"a","body":"b"}\n{"id":"2","title":"c","body":"d"}\n'));
  await expect(page.getByTestId('stat-questions')).toHaveText('2');

  await importFile('questions-jsonl', file('second.jsonl', '{"id":"1","title":"other","body":"text"}\n'));
  const err = page.getByTestId('import-error');
  await expect(err).toContainText('second.jsonl, line 1:');
  await expect(err).toContainText('give Source name “first” if it is the same corpus');
  await expect(err).toContainText('Import with the “Replace existing questions” option');
  await expect(err).not.toContainText('--');
  // The fields the message names are the form's.
  await expect(page.getByText('Source name', { exact: false }).first()).toBeVisible();
  await expect(page.getByTestId('import-update').locator('..')).toContainText('Replace existing questions');
  await expect(page.getByTestId('stat-questions')).toHaveText('2');

  await importFile('labels-csv', file('unknown.csv', 'query_id,candidate_id,label\n1,2,1\nzz,2,0\n'), { pool: 'p', strict: true });
  await expect(err).toContainText('unknown.csv, line 3: query "zz" is unknown');
  await expect(err).toContainText('(the “Strict” option)');
  await expect(err).not.toContainText('--');
  await expect(page.getByTestId('import-strict').locator('..')).toContainText('Strict');
  await expect(page.getByTestId('stat-pools')).toHaveText('0');
});

test('a format that imports questions only leaves Pool, Annotator and Scheme out, and says so', async () => {
  await page.getByTestId('import-format').selectOption('labels-csv');
  await page.getByTestId('import-pool').fill('dev');
  await expect(page.getByTestId('import-pool-unused')).toHaveCount(0);
  await page.getByTestId('import-format').selectOption('questions-csv');
  for (const f of ['import-pool', 'import-annotator', 'import-scheme']) await expect(page.getByTestId(f)).toBeDisabled();
  await expect(page.getByTestId('import-pool-unused')).toHaveText('Pool, Annotator and Scheme are not used by questions-csv: it imports questions only');
  // The Pool typed for labels is not sent with the questions: they import, and no pool is made.
  await page.getByTestId('import-files').setInputFiles(file('q.csv', 'id,title,body\n50,t,b\n'));
  await page.getByTestId('import-start').click();
  await expect(page.getByTestId('import-report')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('stat-pools')).toHaveText('0');
  await page.getByTestId('import-format').selectOption('labels-csv');
  await expect(page.getByTestId('import-pool')).toBeEnabled();
  await expect(page.getByTestId('import-pool')).toHaveValue('dev');
  await page.getByTestId('import-pool').fill('');
});

test('the semeval-relevancy hint says it is the scorer’s gold labels, not a run', async () => {
  await page.getByTestId('import-format').selectOption('semeval-relevancy');
  const hint = page.getByTestId('import-format').locator('..').locator('.hint');
  await expect(hint).toContainText('SemEval scorer gold (.relevancy): true/false labels into a pool');
  await expect(hint).not.toContainText('a ranker run');
});

/** Texts and titles in `scope` that show a CLI flag (`--update`, `(as --no-text)`). */
async function flagsShown(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => {
    const flag = /(^|[\s(])--[a-z]/;
    const shown: string[] = [];
    if (flag.test((root as HTMLElement).innerText)) shown.push(`text: ${(root as HTMLElement).innerText.match(/.{0,30}--[a-z-]+.{0,10}/)?.[0]}`);
    for (const el of root.querySelectorAll('[title]')) if (flag.test(el.getAttribute('title') ?? '')) shown.push(`title: ${el.getAttribute('title')}`);
    return shown;
  });
}

test('the import and export forms name their own controls, never a CLI flag', async () => {
  await page.goto('/#workspace');
  await expect(page.getByTestId('import-update').locator('..')).toHaveText('Replace existing questions');
  expect(await flagsShown(page.getByTestId('import-card'))).toEqual([]);
  // A pool to export (the labels of the questions imported above).
  await importFile('labels-csv', file('labels.csv', 'query_id,candidate_id,label\n1,2,1\n'), { pool: 'p' });
  await expect(page.getByTestId('import-report')).toBeVisible();
  await page.goto('/#export');
  const form = page.locator('.export-screen > section.card').first();
  for (const format of ['jsonl', 'csv', 'askubuntu', 'hf-dataset', 'qrels']) {
    await page.getByTestId('export-format').selectOption(format);
    expect(await flagsShown(form), format).toEqual([]);
  }
});

test('a file imported again as the workspace holds it: the report says first that nothing changed (it ended with “unchanged: true”)', async () => {
  await page.goto('/#workspace');
  const corpus = file('again.jsonl', '{"id":"70","title":"t70","body":"b70"}\n{"id":"71","title":"t71","body":"b71"}\n');
  await importFile('questions-jsonl', corpus);
  await expect(page.getByTestId('import-report-counts')).toContainText('2 questions added');
  await expect(page.getByTestId('import-report-unchanged')).toHaveCount(0);
  await importFile('questions-jsonl', corpus);
  const row = page.getByTestId('import-report-unchanged');
  await expect(row).toHaveText('nothing changedthe workspace already holds this file as it is');
  await expect(page.getByTestId('import-report').locator('.report-row').first()).toHaveAttribute('data-testid', 'import-report-unchanged');
  await expect(page.getByTestId('import-report-counts')).toContainText('2 questions already there, unchanged');
  await expect(page.getByTestId('import-report')).not.toContainText('true');
});
