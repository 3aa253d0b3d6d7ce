/**
 * A long export on the Export screen (serve mode): a bar says its stage — the datasheet's agreement
 * bootstrap with its resamples done — and Cancel (from the keyboard) stops it with nothing
 * downloaded, focus back on Export. The screen said "Exporting…" with neither for the whole export
 * (~23 s for 40,000 pairs), and only leaving the page stopped it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { qpairs } from './small-pool';
import { useServedWorkspace } from './served-workspace';

test.describe.configure({ mode: 'serial' });

const QUERIES = 1500;
const served = useServedWorkspace('export-cancel', 77, {
  workspace: 'w.qpairs',
  prepare: ({ dir, workspace }) => {
    const w = workspace!;
    qpairs('init', w);
    const words = Array.from({ length: 1500 }, (_, i) => `term${i.toString(36)}`);
    let s = 17;
    const rnd = (): number => (s = (s * 48271) % 2147483647) / 2147483647;
    const pick = (): string => words[Math.floor(rnd() * words.length)]!;
    const questions = Array.from({ length: QUERIES * 4 }, (_, i) => JSON.stringify({ id: `g${i}`, title: Array.from({ length: 6 }, pick).join(' '), body: Array.from({ length: 30 }, pick).join(' '), source: 'gen' }));
    writeFileSync(path.join(dir, 'q.jsonl'), questions.join('\n') + '\n');
    qpairs('import', w, '--format', 'questions-jsonl', path.join(dir, 'q.jsonl'));
    writeFileSync(path.join(dir, 'queries.txt'), Array.from({ length: QUERIES }, (_, i) => `g${i}`).join('\n') + '\n');
    qpairs('pool', 'create', w, '--name', 'big', '--queries', path.join(dir, 'queries.txt'), '--depth', '10');
    const pairsFile = path.join(dir, 'pairs.csv');
    qpairs('export', w, '--pool', 'big', '--format', 'csv', '--no-text', pairsFile);
    const pairs = readFileSync(pairsFile, 'utf8').trim().split('\n').slice(1).map((l) => l.split(',').slice(0, 2));
    // Three annotators label every pair: the datasheet's agreement bootstrap runs over 15,000 pairs.
    const rows = pairs.flatMap(([q, c]) => ['ann', 'bea', 'cid'].map((a) => `${q},${c},${a},${rnd() < 0.4 ? 1 : 0}`));
    writeFileSync(path.join(dir, 'labels.csv'), ['query_id,candidate_id,annotator,label', ...rows].join('\n') + '\n');
    qpairs('import', w, '--format', 'labels-csv', '--pool', 'big', path.join(dir, 'labels.csv'));
    firstCandidate = pairs.find(([q]) => q === 'g0')![1]!;
  },
});
let firstCandidate = '';

test('a long export shows its stage and progress, and Cancel stops it: nothing downloaded, focus back on Export', async () => {
  test.setTimeout(120_000);
  const page = served.page;
  let downloads = 0;
  page.on('download', () => downloads++);
  await page.goto('/#export');
  await page.getByTestId('export-format').selectOption('csv');
  await expect(page.getByTestId('export-datasheet')).toContainText('Agreement', { timeout: 60_000 });
  // The preview's agreement is kept until the workspace changes (an export after it took under a second):
  // a label given since makes the export compute its own, the long part of a large pool's export.
  await page.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'label.set', args: { pool: 'big', queryId: 'g0', candidateId: firstCandidate, annotator: 'ann', value: '1' } } });
  const write = page.getByTestId('export-write');
  await write.focus();
  await page.keyboard.press('Enter');
  const progress = page.getByTestId('export-progress');
  await expect(progress).toBeVisible();
  await expect(write).toHaveText('Exporting…');
  await expect(page.getByTestId('export-stage')).toContainText("the datasheet's agreement bootstrap:", { timeout: 60_000 });
  await expect(page.getByTestId('export-stage')).toHaveText(/resamples$/);
  const bar = progress.getByRole('progressbar');
  // 3 annotator pairs' kappa CIs and the 6 pool-level statistics, 1000 resamples each.
  await expect(bar).toHaveAttribute('aria-valuemax', '9000');
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
  // From the keyboard: Export (still focused, aria-disabled) → Tab → Cancel.
  await expect(write).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('export-cancel')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('export-error')).toContainText('export cancelled: nothing was written');
  await expect(progress).toHaveCount(0);
  await expect(page.getByTestId('export-cancel')).toHaveCount(0);
  await expect(write).toHaveText('Export (download)');
  await expect(write).toBeFocused();
  expect(downloads).toBe(0);
});
