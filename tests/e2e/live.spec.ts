/**
 * "Learn as we label" end to end: the owner switches live retraining on in Evaluate; an annotator
 * labels 40 pairs with the keyboard while the fused ranker retrains in the background (no label
 * waits for it); its run and its out-of-fold learning curve appear and grow. Then the server is
 * killed in the middle of a retrain and started again: no label is lost and the retrain catches up.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServe } from './serve';
import { useServedWorkspace } from './served-workspace';
import { qpairs } from './small-pool';
import { unpackedDataset } from '../datasets';

const root = path.resolve(import.meta.dirname, '../..');
const SEMEVAL_DEV = unpackedDataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');

test.describe.configure({ mode: 'serial' });

// SemEval dev with its gold labels (a training pool), and a fresh 10-deep BM25 pool to label.
const served = useServedWorkspace('live', 11, {
  prepare: ({ workspace }) => {
    qpairs('init', workspace!);
    qpairs('import', workspace!, '--format', 'semeval', '--pool', 'dev', SEMEVAL_DEV);
    qpairs('pool', 'create', workspace!, '--name', 'p', '--sample', '8', '--seed', '3', '--depth', '10', '--blind', 'false');
  },
});
let annotate: Page;
let evaluate: Page;

async function invoke(p: Page, command: string, args: unknown): Promise<unknown> {
  const r = await p.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command, args } });
  expect(r.ok(), await r.text()).toBe(true);
  return r.json();
}

test.beforeAll(async () => {
  annotate = served.page;
  evaluate = await served.context.newPage();
  evaluate.on('pageerror', (e) => console.log(`[page error] ${e.message}`));
});

const saved = (p: Page) => p.locator('[data-testid^="candidate-row-"][data-state="saved"]');

/** Labels the shown query with the keyboard (first candidate similar, the rest not), checks every label is saved, and moves on. */
async function labelQuery(p: Page): Promise<void> {
  await expect(p.locator('[data-testid^="candidate-row-"]')).toHaveCount(10);
  await expect(saved(p)).toHaveCount(0); // a fresh query is on screen
  const id = (await p.getByTestId('query-id').textContent())!;
  await p.keyboard.press('Home');
  await p.keyboard.press('1');
  for (let i = 1; i < 10; i++) await p.keyboard.press('0');
  await expect(saved(p)).toHaveCount(10, { timeout: 10_000 });
  await p.keyboard.press('n');
  // Wait for the next query before the next keypress (else keys could land on this one).
  await expect(p.getByTestId('query-id')).not.toHaveText(id);
}

const livePoints = (p: Page) => p.getByTestId('live-panel').getByTestId('curve-live-fused');

test('labels 40 pairs with live retraining on: the run and its learning curve follow, no label waits', async () => {
  test.setTimeout(300_000);
  await evaluate.goto('/#evaluate');
  await invoke(evaluate, 'live.set', { pool: 'p', enabled: false, everyLabels: 20, idleSeconds: 0, trainPools: ['dev'] });
  await evaluate.getByTestId('eval-pool').selectOption('p');
  await expect(evaluate.getByTestId('live-panel')).toBeVisible();
  await expect(evaluate.getByTestId('live-status')).toContainText('Off');
  await evaluate.getByTestId('live-enabled').check();
  await expect(evaluate.getByTestId('live-status')).toContainText('0 labels since the last retrain; the next starts at 20');

  await annotate.goto('/#annotate');
  await annotate.getByTestId('annotate-pool').selectOption('p');
  await annotate.getByTestId('annotator-input').fill('ann');
  await annotate.getByTestId('annotator-input').press('Enter');
  await expect(annotate.getByTestId('query-title')).toBeVisible();
  await labelQuery(annotate);
  await labelQuery(annotate);
  // 20 labels: a retrain starts in the background; labeling goes on meanwhile.
  await expect(evaluate.getByTestId('live-status')).toContainText('Retraining in the background');
  await labelQuery(annotate);
  await labelQuery(annotate);
  // Those 20 labels were saved while the first retrain still ran: no curve point has landed yet, and it runs on.
  const during = (await invoke(evaluate, 'live.status', { pool: 'p' })) as { running: boolean; curve: unknown[] };
  expect(during, 'two queries labeled while the retrain ran').toMatchObject({ running: true, curve: [] });
  // The first retrain lands (curve point 1), then the one the next 20 labels started (point 2). A
  // retrain trains on what it reads when it runs: on a loaded machine it may read all 40 labels (the
  // two queries labeled meanwhile too), which then count toward no next one; label on until it starts.
  await expect(livePoints(evaluate)).toHaveAttribute('data-points', /^[12]$/, { timeout: 150_000 });
  for (let i = 0; i < 3 && (await livePoints(evaluate).getAttribute('data-points')) === '1'; i++) {
    if (((await invoke(evaluate, 'live.status', { pool: 'p' })) as { running: boolean }).running) break;
    await labelQuery(annotate);
  }
  await expect(livePoints(evaluate)).toHaveAttribute('data-points', '2', { timeout: 150_000 });
  await expect(evaluate.getByTestId('metric-live-fused-MAP')).toBeVisible();
  await expect(evaluate.getByTestId('live-status')).toContainText('MAP over');
  await evaluate.screenshot({ path: path.join(root, 'test-results', 'screens', 'evaluate-live.png'), fullPage: true });
  // Annotate shows the live run as a ranker of the open pool.
  await expect(annotate.getByTestId('query-title')).toBeVisible();
});

test('the server killed mid-retrain: no label lost, the retrain catches up after the restart', async () => {
  test.setTimeout(300_000);
  // The first test labels 40 pairs, or up to 30 more where it had to label on until its second retrain.
  const labeled = async (): Promise<number | undefined> =>
    ((await invoke(evaluate, 'pool.progress', { pool: 'p' })) as { annotators: Array<{ annotator: string; labeledPairs: number }> }).annotators.find((a) => a.annotator === 'ann')
      ?.labeledPairs;
  const before = (await labeled())!;
  expect(before, 'labels from the first test').toBeGreaterThanOrEqual(40);
  await labelQuery(annotate);
  await labelQuery(annotate);
  await expect(evaluate.getByTestId('live-status')).toContainText('Retraining in the background', { timeout: 30_000 });
  const server = served.server!;
  server.child.kill('SIGKILL');
  await new Promise((r) => server.child.once('exit', r));
  served.server = await startServe({ workspace: served.workspace, port: served.port, create: false });
  expect(await labeled(), 'every acknowledged label survived the kill').toBe(before + 20);
  await evaluate.reload();
  await evaluate.getByTestId('eval-pool').selectOption('p');
  // The killed retrain wrote nothing; the restarted server retrains from all the labels.
  await expect(livePoints(evaluate)).toHaveAttribute('data-points', '3', { timeout: 150_000 });
  const status = (await invoke(evaluate, 'live.status', { pool: 'p' })) as { curve: Array<{ labels: number }>; lastError: string | null };
  expect(status.curve.at(-1)!.labels).toBe(before + 20);
  expect(status.lastError).toBeNull();
});
