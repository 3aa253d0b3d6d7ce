/**
 * A long export in the desktop app (through the fake Electron shell, over IPC, as desktop-export.spec.ts):
 * the Export screen's bar says the stage — the datasheet's agreement bootstrap with its resamples done
 * — and Cancel stops it with nothing written beside the chosen path. The app said "Exporting…" with
 * neither for the whole export, and nothing stopped it.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { useDesktopApp } from './desktop-app';
import { buildLabeledPool } from './labeled-pool';

test.describe.configure({ mode: 'serial' });

let firstCandidate = '';
const app = useDesktopApp('desktop-export-cancel', {
  prepare(d) {
    const workspace = path.join(d, 'w.qpairs');
    ({ firstCandidate } = buildLabeledPool(d, workspace, 1500));
    mkdirSync(path.join(d, 'out'));
    return workspace;
  },
});

test('the bar follows a long export to a chosen file, and Cancel writes nothing there', async () => {
  test.setTimeout(120_000);
  const { page, shell, dir } = app;
  await page.getByTestId('tab-export').click();
  await page.getByTestId('export-pool').selectOption('big');
  await page.getByTestId('export-format').selectOption('csv');
  await expect(page.getByTestId('export-datasheet')).toContainText('Agreement', { timeout: 60_000 });
  // The preview's agreement is kept until the workspace changes: a label given since makes the export compute its own.
  await page.evaluate(
    (c) => (window as unknown as { qpairs: { invoke: (cmd: string, a: unknown) => Promise<unknown> } }).qpairs.invoke('label.set', { pool: 'big', queryId: 'g0', candidateId: c, annotator: 'ann', value: '1' }),
    firstCandidate,
  );
  const out = path.join(dir, 'out', 'big.csv');
  shell.answerDialogs([], [out]);
  const write = page.getByTestId('export-write');
  await write.click();
  const progress = page.getByTestId('export-progress');
  await expect(page.getByTestId('export-stage')).toContainText("the datasheet's agreement bootstrap:", { timeout: 60_000 });
  await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuemax', '9000');
  await page.getByTestId('export-cancel').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('export-error')).toContainText('export cancelled: nothing was written');
  await expect(progress).toHaveCount(0);
  await expect(write).toHaveText('Export to…');
  await expect(write).toBeFocused();
  expect(readdirSync(path.join(dir, 'out'))).toEqual([]);
});
