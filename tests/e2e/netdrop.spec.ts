/**
 * An annotator's labeling day when the connection or the server goes away (serve mode): a reply
 * lost after the server saved the label, the server stopped and started again while her page is
 * open, the network gone for a while. No label is saved twice, none is left showing unsaved, her
 * place is kept, and undo takes back the label she gave last.
 * The tests share the server and run in order.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openAnnotate } from './annotate-page';
import { invoke } from './api';
import { loseOneAnswer } from './lost-answer';
import { startServe } from './serve';
import { buildSmallPool, useServedSmallPool } from './small-pool';

test.describe.configure({ mode: 'serial' });

// Another annotator's labels only: ann starts with every pair unlabeled.
const served = useServedSmallPool('netdrop', 125, (ps) => ps.map(([q, c]) => `${q},${c},other,0`));
let page: Page;

test.beforeAll(() => {
  page = served.page;
});

test('a label whose reply was lost after the server saved it is saved once, and undo takes it back (not the label before it)', async () => {
  await openAnnotate(page, 'ann', 'p');
  await page.keyboard.press('1');
  await expect(page.getByTestId('row-state-0')).toHaveAttribute('data-state', 'saved');
  const second = (await page.getByTestId('candidate-row-1').getAttribute('data-candidate-id'))!;
  // The second label reaches the server, which saves it; its answer never reaches the page.
  const drop = await loseOneAnswer(page, (b) => b.command === 'label.set' && b.args?.candidateId === second);
  try {
    await page.keyboard.press('0');
    await expect(page.getByTestId('row-state-1')).toHaveAttribute('data-state', 'saved', { timeout: 10_000 });
    expect(drop.lost()).toBe(1);
  } finally {
    await drop.restore();
  }
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  // u takes back the second label (the one just given), not the first.
  await page.keyboard.press('u');
  await expect(page.getByTestId('annotate-notice')).toContainText(`Undone: the label of ${second}`);
  await expect(page.getByTestId('row-state-1')).toHaveAttribute('data-state', 'none');
  await expect(page.getByTestId('label-0')).toHaveAttribute('data-value', '1');
});

test('an undo whose answer was lost after the server saved it: u again confirms it, nothing undone twice, and U redoes it', async () => {
  await openAnnotate(page, 'ann', 'p');
  await page.keyboard.press('End');
  const last = (await page.getByTestId('candidate-row-3').getAttribute('data-candidate-id'))!;
  await page.keyboard.press('1');
  await expect(page.getByTestId('row-state-3')).toHaveAttribute('data-state', 'saved');
  const drop = await loseOneAnswer(page, (b) => b.command === 'label.undo');
  try {
    await page.keyboard.press('u');
    await expect(page.getByTestId('annotate-error')).toContainText('Undo not confirmed: cannot reach the QPairs server');
    expect(drop.lost()).toBe(1);
    await page.keyboard.press('u');
    await expect(page.getByTestId('annotate-notice')).toContainText(`Undone: the label of ${last}`);
    await expect(page.getByTestId('row-state-3')).toHaveAttribute('data-state', 'none');
    await page.keyboard.press('Shift+U');
    await expect(page.getByTestId('annotate-notice')).toContainText(`Redone: the label of ${last}`);
    await expect(page.getByTestId('label-3')).toHaveAttribute('data-value', '1');
  } finally {
    await drop.restore();
  }
});

test('a redo whose answer was lost after the server saved it: U again confirms it, and u then undoes it', async () => {
  await openAnnotate(page, 'ann', 'p');
  await page.keyboard.press('End');
  const last = (await page.getByTestId('candidate-row-3').getAttribute('data-candidate-id'))!;
  await page.keyboard.press('0');
  await expect(page.getByTestId('row-state-3')).toHaveAttribute('data-state', 'saved');
  await page.keyboard.press('u');
  await expect(page.getByTestId('annotate-notice')).toContainText(`Undone: the label of ${last}`);
  const drop = await loseOneAnswer(page, (b) => b.command === 'label.set' && b.args?.ifLatest !== undefined);
  try {
    await page.keyboard.press('Shift+U');
    await expect(page.getByTestId('annotate-error')).toContainText('Redo not confirmed: cannot reach the QPairs server');
    expect(drop.lost()).toBe(1);
    await page.keyboard.press('Shift+U');
    await expect(page.getByTestId('annotate-notice')).toContainText(`Redone: the label of ${last}`);
    await expect(page.getByTestId('label-3')).toHaveAttribute('data-value', '0');
    // The redo is in the history: u takes it back (the label before it, 1, comes back).
    await page.keyboard.press('u');
    await expect(page.getByTestId('annotate-notice')).toContainText(`Undone: the label of ${last}`);
    await expect(page.getByTestId('label-3')).toHaveAttribute('data-value', '1');
  } finally {
    await drop.restore();
  }
});

test('the server stopped and started again: labels given meanwhile wait, are saved once it is back, her place is kept and undo takes back the last', async () => {
  test.setTimeout(120_000);
  await openAnnotate(page, 'ann', 'p');
  const started = (await page.getByTestId('candidates').getAttribute('data-query'))!;
  await page.keyboard.press('n');
  await expect(page.getByTestId('candidates')).not.toHaveAttribute('data-query', started);
  const query = (await page.getByTestId('candidates').getAttribute('data-query'))!;
  await page.keyboard.press('1');
  await expect(page.getByTestId('row-state-0')).toHaveAttribute('data-state', 'saved');
  await served.server!.stop();
  served.server = undefined;
  await expect(page.getByTestId('connection')).not.toHaveAttribute('data-state', 'open', { timeout: 15_000 });
  await page.keyboard.press('0');
  await page.keyboard.press('1');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'retrying', { timeout: 10_000 });
  await expect(page.getByTestId('save-status')).toContainText('2 labels waiting to be saved');
  await expect(page.getByTestId('candidate-row-3')).toHaveAttribute('aria-selected', 'true');
  served.server = await startServe({ workspace: served.workspace, port: served.port, create: false });
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'open', { timeout: 30_000 });
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved', { timeout: 15_000 });
  await expect(page.getByTestId('candidates')).toHaveAttribute('data-query', query);
  await expect(page.getByTestId('candidate-row-3')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('progress-pairs')).toHaveText(/^[0-9]+$/);
  const second = (await page.getByTestId('candidate-row-2').getAttribute('data-candidate-id'))!;
  await page.keyboard.press('u');
  await expect(page.getByTestId('annotate-notice')).toContainText(`Undone: the label of ${second}`);
  await expect(page.getByTestId('row-state-2')).toHaveAttribute('data-state', 'none');
  await expect(page.getByTestId('label-1')).toHaveAttribute('data-value', '0');
});

test('the server started again on another workspace at the same address: a label given for the first is not saved into the other', async () => {
  test.setTimeout(120_000);
  // Workspace B: built as A was, so its pool p holds the same pairs.
  const otherDir = path.join(served.dir, 'b');
  mkdirSync(otherDir);
  const other = buildSmallPool(otherDir, (ps) => ps.map(([q, c]) => `${q},${c},other,0`));
  await openAnnotate(page, 'ann', 'p');
  const query = (await page.getByTestId('candidates').getAttribute('data-query'))!;
  await served.server!.stop();
  served.server = undefined;
  await expect(page.getByTestId('connection')).not.toHaveAttribute('data-state', 'open', { timeout: 15_000 });
  await page.keyboard.press('End');
  await page.keyboard.press('1');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'retrying', { timeout: 10_000 });
  served.server = await startServe({ workspace: other.workspace, port: served.port, create: false });
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'open', { timeout: 30_000 });
  await expect(page.getByTestId('failed-labels')).toContainText('another workspace', { timeout: 20_000 });
  // Keys pressed from then on give nothing and say why once, instead of each being sent, refused and listed.
  await page.keyboard.press('Home');
  await page.keyboard.press('0');
  await expect(page.getByTestId('annotate-notice')).toHaveText(/^Nothing given: the server now serves another workspace \(w\.qpairs\) than the one this page was opened on\. Reload the page/);
  await expect(page.getByTestId('failed-labels').locator('li')).toHaveCount(1);
  await expect(page.getByTestId('row-state-0')).toHaveAttribute('data-state', 'none');
  const inB = await invoke<{ candidates: Array<{ label: string | null }> }>(page.request, 'annotate.query', { pool: 'p', annotator: 'ann', queryId: query });
  expect(inB.candidates.map((c) => c.label)).toEqual([null, null, null, null]);
});
