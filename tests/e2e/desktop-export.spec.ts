/**
 * The desktop app's Export (through the fake Electron shell, as desktop-shell.spec.ts): the native save
 * dialog asks whether to replace the file chosen, and only it. The app then wrote with force, so an
 * askubuntu export onto dev.txt replaced dev.txt.datasheet.md and dev.corpus.txt beside it unasked
 * (a datasheet edited by hand, a corpus of another export). They are now refused, named, and replaced
 * only when the user chooses "Replace them"; the chosen file alone is replaced as the dialog agreed.
 * Also the Export screen's preview, the same as in serve mode: Preview lines 0 does not call the files empty.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { useDesktopApp } from './desktop-app';
import type { DesktopShell } from './fake-electron/host';
import { buildSmallPool, qpairs } from './small-pool';

test.describe.configure({ mode: 'serial' });

const app = useDesktopApp('desktop-export', {
  prepare(d) {
    const { workspace } = buildSmallPool(d, (pairs) => pairs.map(([q, c], i) => `${q},${c},gold,${i % 3 === 0 ? 1 : 0}`));
    // A reference system's labels (role system), which the CLI exports with --annotator ref.
    qpairs('annotators', 'add', workspace, 'ref', '--role', 'system');
    const refLabels = path.join(d, 'ref.csv');
    const pool = qpairs('export', workspace, '--pool', 'p', '--format', 'csv', '--no-text', '--json', path.join(d, 'pairs-for-ref.csv'));
    expect(JSON.parse(pool).files.length).toBe(2);
    const rows = readFileSync(path.join(d, 'pairs-for-ref.csv'), 'utf8').trim().split('\n').slice(1);
    writeFileSync(refLabels, ['query_id,candidate_id,annotator,label', ...rows.map((l, i) => `${l.split(',').slice(0, 2).join(',')},ref,${i % 2}`)].join('\n') + '\n');
    qpairs('import', workspace, '--format', 'labels-csv', '--pool', 'p', refLabels);
    mkdirSync(path.join(d, 'out'));
    return workspace;
  },
});
let dir = '';
let shell: DesktopShell;
let page: Page;
test.beforeAll(() => {
  ({ dir, shell, page } = app);
});

test('files beside the chosen one are not replaced unasked; "Replace them" replaces them', async () => {
  const out = path.join(dir, 'out', 'dev.txt');
  const corpus = path.join(dir, 'out', 'dev.corpus.txt');
  const sheet = `${out}.datasheet.md`;
  writeFileSync(out, 'old export\n');
  writeFileSync(corpus, 'another corpus\n');
  writeFileSync(sheet, 'a datasheet edited by hand\n');
  await page.getByTestId('tab-export').click();
  await page.getByTestId('export-pool').selectOption('p');
  await page.getByTestId('export-format').selectOption('askubuntu');
  await expect(page.getByTestId('export-write')).toBeEnabled();
  // The save dialog answers dev.txt (it has asked whether to replace dev.txt).
  shell!.answerDialogs([], [out]);
  await page.getByTestId('export-write').click();
  const error = page.getByTestId('export-error');
  await expect(error).toContainText('refusing to overwrite 2 existing files');
  await expect(error).toContainText(corpus);
  await expect(error).toContainText(sheet);
  // The app's own control, not the CLI's flag.
  await expect(error).toContainText('or choose “Replace them” to replace them)');
  await expect(error).not.toContainText('--force');
  expect([readFileSync(out, 'utf8'), readFileSync(corpus, 'utf8'), readFileSync(sheet, 'utf8')]).toEqual(['old export\n', 'another corpus\n', 'a datasheet edited by hand\n']);

  await page.getByTestId('export-replace').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('export-done')).toBeVisible();
  await expect(page.getByTestId('export-file')).toHaveCount(3);
  expect(readFileSync(out, 'utf8').split('\n')[0]).toMatch(/^\S+\t/);
  expect(readFileSync(corpus, 'utf8')).not.toBe('another corpus\n');
  expect(readFileSync(sheet, 'utf8')).toMatch(/^# Datasheet: pool "p" \(askubuntu export\)/);
  await expect(page.getByTestId('export-error')).toHaveCount(0);
});

test('the chosen file alone is replaced as the save dialog agreed, with nothing more to confirm', async () => {
  const out = path.join(dir, 'out', 'p.qrels');
  writeFileSync(out, 'old qrels\n');
  await page.getByTestId('export-format').selectOption('qrels');
  shell!.answerDialogs([], [out]);
  await page.getByTestId('export-write').click();
  await expect(page.getByTestId('export-done')).toBeVisible();
  await expect(page.getByTestId('export-error')).toHaveCount(0);
  expect(readFileSync(out, 'utf8')).toMatch(/^\S+ 0 \S+ [01]\n/);
  expect(existsSync(`${out}.datasheet.md`)).toBe(true);
});

test('Preview lines 0 shows no lines without calling the files empty', async () => {
  await page.getByTestId('export-format').selectOption('qrels');
  const file = page.getByTestId('export-preview-p.qrels');
  await expect(file.locator('pre')).toBeVisible();
  await page.getByTestId('export-lines').fill('0');
  await page.getByTestId('export-lines').press('Tab');
  await expect(file.locator('pre')).toHaveCount(0);
  await expect(file).toContainText('(no lines shown: Preview lines is 0)');
  await expect(file).not.toContainText('(empty)');
  await expect(file).toContainText(/\d+ lines/);
});

test("a reference system's labels (role system) are offered in Labels of, as the CLI exports them (the list hid them)", async () => {
  await page.getByTestId('export-lines').fill('10');
  await page.getByTestId('export-lines').press('Tab');
  await page.getByTestId('export-format').selectOption('jsonl');
  const source = page.getByTestId('export-source');
  await expect(source.locator('option[value="ref"]')).toHaveText('ref (reference system)');
  await expect(source.locator('option[value="gold"]')).toHaveText('gold (imported gold)');
  await source.selectOption('ref');
  await expect(page.getByTestId('export-datasheet')).toContainText('Labels: the labels of reference system ref (role system).');
  await expect(page.getByTestId('export-preview-p.jsonl')).toContainText('"annotator":"ref"');
});
