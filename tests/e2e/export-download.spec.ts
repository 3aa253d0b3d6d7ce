/**
 * Serve mode's Export (download) streams the files to the server's own folder and the browser fetches
 * each once (GET /api/download/ID), never through the page's memory: the files the browser saves are
 * those `qpairs export` writes of the same pool, byte for byte (the datasheet but the time it was exported),
 * the hf-dataset folder as one .zip of them; an id fetched once is gone.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Download } from '@playwright/test';
import { qpairs, useServedSmallPool } from './small-pool';

test.describe.configure({ mode: 'serial' });

const served = useServedSmallPool(
  'export-download',
  190,
  (pairs) => pairs.flatMap(([q, c], i) => [`${q},${c},ann,${i % 2}`, `${q},${c},ben,${i % 3 === 0 ? 1 : i % 2}`]),
  ({ workspace, dir }) => {
    mkdirSync(path.join(dir, 'cli'));
    qpairs('export', workspace, '--pool', 'p', '--format', 'jsonl', path.join(dir, 'cli', 'p.jsonl'));
    qpairs('export', workspace, '--pool', 'p', '--format', 'hf-dataset', path.join(dir, 'cli', 'p'));
  },
);

/** A datasheet without the time it was exported (said twice: "Exported <time> by …", "exported <time>."): what two exports differ in. */
const undated = (s: string): string => s.replace(/\b([Ee]xported) \d{4}-\d\d-\d\dT[\d:.]+Z/g, '$1 …');

test('jsonl: the browser saves the file and its datasheet as the CLI writes them, and an id is fetched once', async () => {
  const page = served.page;
  await page.goto('/#export');
  await page.getByTestId('export-pool').selectOption('p');
  await page.getByTestId('export-format').selectOption('jsonl');
  const downloads: Download[] = [];
  const onDownload = (d: Download): void => void downloads.push(d);
  page.on('download', onDownload);
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/invoke') && (r.request().postData() ?? '').includes('"export.write"'));
  await page.getByTestId('export-write').click();
  const written = (await (await answer).json()) as { files: Array<{ name: string; content?: string }>; downloads: Array<{ id: string; name: string }> };
  await expect.poll(() => downloads.length).toBe(2);
  page.off('download', onDownload);
  await expect(page.getByTestId('export-done')).toContainText('Exported, to download:');
  // The answer carried ids, not the files' content.
  expect(written.files.every((f) => f.content === undefined)).toBe(true);
  const byName = new Map(downloads.map((d) => [d.suggestedFilename(), d]));
  expect([...byName.keys()].sort()).toEqual(['p.jsonl', 'p.jsonl.datasheet.md']);
  const saved = path.join(served.dir, 'saved.jsonl');
  await byName.get('p.jsonl')!.saveAs(saved);
  expect(readFileSync(saved).equals(readFileSync(path.join(served.dir, 'cli', 'p.jsonl'))), 'the jsonl as the CLI wrote it').toBe(true);
  const sheet = path.join(served.dir, 'saved.datasheet.md');
  await byName.get('p.jsonl.datasheet.md')!.saveAs(sheet);
  expect(undated(readFileSync(sheet, 'utf8'))).toBe(undated(readFileSync(path.join(served.dir, 'cli', 'p.jsonl.datasheet.md'), 'utf8')));
  // Fetched once: the same id again is gone.
  const again = await page.request.get(`/api/download/${written.downloads[0]!.id}`);
  expect(again.status()).toBe(404);
});

test('hf-dataset: one p.zip whose files are the CLI folder export', async () => {
  const page = served.page;
  await page.goto('/#export');
  await page.getByTestId('export-pool').selectOption('p');
  await page.getByTestId('export-format').selectOption('hf-dataset');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-write').click()]);
  expect(download.suggestedFilename()).toBe('p.zip');
  await expect(page.getByTestId('export-done')).toContainText('Exported as p.zip, holding:');
  const zip = path.join(served.dir, 'saved.zip');
  await download.saveAs(zip);
  const read = (name: string): string =>
    execFileSync('python3', ['-c', 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; sys.stdout.buffer.write(z.read(sys.argv[2]))', zip, name], { encoding: 'utf8' });
  expect(read('p/data/pairs.jsonl')).toBe(readFileSync(path.join(served.dir, 'cli', 'p', 'data', 'pairs.jsonl'), 'utf8'));
  expect(undated(read('p/README.md'))).toBe(undated(readFileSync(path.join(served.dir, 'cli', 'p', 'README.md'), 'utf8')));
});
