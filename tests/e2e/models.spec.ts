/**
 * The Models screen end to end, through the real UI, in serve mode on a workspace of its own:
 * import the SemEval dev XML, train a tfidf model on its pool (train and dev pool) from the Models
 * screen and watch it finish, find it in the table with its dev MRR, then as a ranker column in
 * Annotate (once the pool's owner opens the pool; absent while it is blind) and as a row in Evaluate
 * and its comparison panel;
 * train ltr for 2 epochs (one dev point per epoch), cancel an lstm training (no model is left
 * behind), score a pool again and delete a model. Import, Cancel and Score, pressed by keyboard, keep
 * the focus while they work.
 * The tests share state and run in order.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { seriousViolationsOnTabs } from './a11y';
import { useServedWorkspace } from './served-workspace';
import { unpackedDataset } from '../datasets';

const root = path.resolve(import.meta.dirname, '../..');
const SEMEVAL_DEV = unpackedDataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');
const POOL = 'SemEval2016-Task3-CQA-QL-dev';
const TFIDF = 'tfidf-dev';
const LTR = 'ltr-dev';
const CANCELLED = 'lstm-cancelled';
/** Metrics as the papers and the CLI print them: percent with two decimals. */
const METRIC = /^\d{1,2}\.\d{2}$|^100\.00$/;

test.describe.configure({ mode: 'serial' });

// The global setup built the renderer; this server only opens another workspace.
const served = useServedWorkspace('models', 2);
let page: Page;
test.beforeAll(() => {
  page = served.page;
});

async function modelNames(p: Page): Promise<string[]> {
  const r = await p.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'models.list', args: {} } });
  expect(r.ok(), await r.text()).toBe(true);
  return ((await r.json()) as { models: Array<{ name: string }> }).models.map((m) => m.name);
}

/** Fills the training form and starts training. */
async function train(p: Page, o: { kind: string; name: string; epochs?: number; settings?: string }): Promise<void> {
  await p.getByTestId('model-kind').selectOption(o.kind);
  await p.getByTestId('model-name').fill(o.name);
  await expect(p.getByTestId('model-name-error')).toHaveCount(0);
  const box = p.getByTestId(`train-pool-${POOL}`);
  if (!(await box.isChecked())) await box.check();
  await p.getByTestId('model-dev-pool').selectOption(POOL);
  // The dev pool is the training pool here: keep its queries (else the overlap check drops them all and refuses).
  await p.getByTestId('model-keep-overlap').check();
  await p.getByTestId('model-epochs').fill(o.epochs === undefined ? '' : String(o.epochs));
  await p.getByTestId('model-seed').fill('1');
  await p.getByTestId('model-config').fill(o.settings ?? '');
  await p.getByTestId('model-train').click();
  await expect(p.getByTestId('train-panel')).toHaveAttribute('data-model', o.name);
}

test('imports the SemEval dev XML', async () => {
  await page.goto('/#workspace');
  await expect(page.getByTestId('stat-questions')).toHaveText('0');
  await page.getByTestId('import-format').selectOption('semeval');
  await page.getByTestId('import-files').setInputFiles(SEMEVAL_DEV);
  // By keyboard: Import keeps the focus while it works (it turned disabled, which dropped the focus to the page).
  const start = page.getByTestId('import-start');
  await start.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('import-report')).toBeVisible({ timeout: 60_000 });
  await expect(start).toBeFocused();
  await expect(page.getByTestId('stat-questions')).toHaveText('550');
  await expect(page.getByTestId('stat-pools')).toHaveText('1');
});

test('Alt+8 opens the Models screen, which shows the tfjs backend and validates names', async () => {
  // Outside any text field (Alt+digit leaves fields alone: on a Mac it types characters there).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Alt+Digit8');
  await expect(page.getByTestId('tab-models')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('tab-models')).toHaveAttribute('title', 'Models (Alt+8)');
  const badge = page.getByTestId('models-backend');
  await expect(badge).toHaveAttribute('data-backend', /^(tensorflow|wasm|cpu)$/);
  const backend = (await badge.getAttribute('data-backend'))!;
  await expect(page.getByTestId('header-backend')).toHaveText(`tfjs ${backend}`);
  await expect(page.getByTestId('models-empty')).toBeVisible();

  // Every kind has its one-line description.
  await page.getByTestId('model-kind').selectOption('ltr');
  await expect(page.getByTestId('model-kind-help')).toContainText('learning-to-rank');
  await page.getByTestId('model-kind').selectOption('tfidf');
  await expect(page.getByTestId('model-kind-help')).toContainText('TF-IDF');
  await expect(page.getByTestId('model-name')).toHaveValue('tfidf-1');

  // Names are validated like the contract does.
  await page.getByTestId('model-name').fill('my model');
  await expect(page.getByTestId('model-name-error')).toHaveText('only letters, digits, . _ + - (not space)');
  await expect(page.getByTestId('model-train')).toBeDisabled();
  // The error describes the field (it was part of the field's label, so read as its name).
  const nameField = page.getByTestId('model-name');
  await expect(nameField).toHaveAccessibleName('Name');
  await expect(nameField).toHaveAttribute('aria-invalid', 'true');
  await expect(nameField).toHaveAccessibleDescription('only letters, digits, . _ + - (not space)');
  await page.getByTestId('model-name').fill('-x');
  await expect(page.getByTestId('model-name-error')).toHaveText('must start with a letter or digit');
  await page.getByTestId('model-name').fill(TFIDF);
  await expect(page.getByTestId('model-name-error')).toHaveCount(0);
  await expect(page.getByTestId('model-train')).toBeEnabled();
  await expect(page.getByTestId('train-on')).toContainText('user-marked duplicates');

  // Settings (what `qpairs train --config` takes) are checked as they are typed, against the kind's own.
  await page.getByTestId('model-settings-defaults').locator('summary').click();
  await expect(page.getByTestId('model-settings-defaults')).toContainText('tfidf’s settings and their defaults');
  await expect(page.getByTestId('model-settings-defaults')).toContainText('maxN');
  await page.getByTestId('model-config').fill('{maxN: 2}');
  await expect(page.getByTestId('model-config-error')).toContainText('not JSON');
  await expect(page.getByTestId('model-train')).toBeDisabled();
  await page.getByTestId('model-config').fill('{"maxn": 2}');
  await expect(page.getByTestId('model-config-error')).toHaveText('no setting “maxn” for this model (see its settings below)');
  await expect(page.getByTestId('model-train')).toBeDisabled();
  await page.getByTestId('model-config').fill('{"maxN": 2}');
  await expect(page.getByTestId('model-config-error')).toHaveCount(0);
  await expect(page.getByTestId('model-train')).toBeEnabled();
  // Cross-validation folds: 2 or more, said as the field's description, not its name; epochs likewise.
  const cv = page.getByTestId('model-cv');
  await cv.fill('1');
  await expect(page.getByTestId('model-train')).toBeDisabled();
  await expect(cv).toHaveAccessibleName('Cross-validation folds optional');
  await expect(cv).toHaveAttribute('aria-invalid', 'true');
  await expect(cv).toHaveAccessibleDescription('a whole number from 2 to 100, or empty for no cross-validation');
  await cv.fill('');
  await expect(page.getByTestId('model-train')).toBeEnabled();
  await expect(cv).not.toHaveAttribute('aria-invalid', 'true');
  await expect(cv).toHaveAccessibleDescription(/^grouped K-fold CV MAP/);
  const epochs = page.getByTestId('model-epochs');
  await epochs.fill('0');
  await expect(epochs).toHaveAccessibleName('Epochs optional');
  await expect(epochs).toHaveAccessibleDescription('a whole number from 1 to 1000, or empty for the model’s default');
  await epochs.fill('');
  await expect(page.getByTestId('model-train')).toBeEnabled();
  // A wrong type gets past the form and is refused by the engine before a job starts, naming it.
  await page.getByTestId('model-config').fill('{"maxN": "two"}');
  await page.getByTestId('model-train').click();
  await expect(page.getByTestId('train-start-error')).toContainText('"maxN" must be a number');
  await expect(page.getByTestId('train-panel')).toHaveCount(0);
  await page.getByTestId('model-config').fill('');
});

test('the dev pool choice "none" says what training then does: a fifth of the training queries held out for early stopping', async () => {
  // It said "(none: keep the last epoch)", while an ltr trained so held out 14 of SemEval part 2's 67 queries (not trained on).
  await page.getByTestId('tab-models').click();
  await page.getByTestId('model-kind').selectOption('ltr');
  const box = page.getByTestId(`train-pool-${POOL}`);
  if (!(await box.isChecked())) await box.check();
  await page.getByTestId('model-dev-pool').selectOption('');
  const none = page.getByTestId('model-dev-pool').locator('option[value=""]');
  await expect(none).toHaveText('(none: hold out a fifth of the training queries)');
  await expect(page.getByTestId('model-dev-pool-hint')).toContainText('a seeded fifth of the training pools’ distinct questions is held out (not trained on)');
  // Figures on them are flagged as the dev pool's are (selectedOn by 'holdout'): the hint said nothing of it.
  await expect(page.getByTestId('model-dev-pool-hint')).toContainText('figures on those queries, in any pool, are flagged as chosen on them (optimistic, not held out)');
  // With cross-validation nothing is held out, nor for tfidf (no epochs).
  await page.getByTestId('model-cv').fill('5');
  await expect(none).toHaveText('(none: keep the last epoch)');
  await page.getByTestId('model-cv').fill('');
  await page.getByTestId('model-kind').selectOption('tfidf');
  await expect(none).toHaveText('(none: keep the last epoch)');
  await expect(page.getByTestId('model-dev-pool-hint')).toHaveText('dev MRR/MAP after every epoch; the best epoch by dev MRR is kept');
});

test('trains tfidf on the dev pool with a setting, and lists it with its dev MRR and the setting', async () => {
  await train(page, { kind: 'tfidf', name: TFIDF, settings: '{"maxN": 2}' });
  const panel = page.getByTestId('train-panel');
  await expect(panel).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('train-progress').getByRole('progressbar')).toHaveAttribute('aria-valuenow', '1000');
  await expect(page.getByTestId('train-status')).toHaveText('done');
  const done = page.getByTestId('train-done');
  await expect(done).toContainText(`Model “${TFIDF}” trained`);
  await expect(done).toContainText(`Scored 1 pool as the run “${TFIDF}” (${POOL}: 500 pairs)`);
  const mrr = (await page.getByTestId('train-done-mrr').textContent())!;
  expect(mrr).toMatch(METRIC);
  await expect(page.getByTestId('train-loss-chart')).toBeVisible();
  await expect(page.getByTestId('train-dev-chart').getByTestId('curve-dev MRR')).toHaveAttribute('data-points', '1');

  const row = page.getByTestId(`model-row-${TFIDF}`);
  await expect(row).toBeVisible();
  await expect(page.getByTestId(`model-kind-${TFIDF}`)).toHaveText('tfidf');
  await expect(page.getByTestId(`model-epoch-${TFIDF}`)).toHaveText('1 / 1');
  await expect(page.getByTestId(`model-mrr-${TFIDF}`)).toHaveText(mrr);
  await expect(page.getByTestId(`model-map-${TFIDF}`)).toHaveText(METRIC);
  await expect(page.getByTestId(`model-trained-on-${TFIDF}`)).toContainText(POOL);
  await expect(page.getByTestId(`model-settings-${TFIDF}`)).toHaveText('maxN 2');
  // The form suggests a free name again.
  await expect(page.getByTestId('model-name')).toHaveValue('tfidf-1');
  expect(await modelNames(page)).toEqual([TFIDF]);
});

/** The owner switches the pool blind or open on the Pools screen (opening asks first). */
async function setBlind(p: Page, blind: boolean): Promise<void> {
  await p.getByTestId('tab-pools').click();
  const cell = p.getByTestId(`pool-blind-${POOL}`);
  if ((await cell.getAttribute('data-blind')) !== String(blind)) {
    await p.getByTestId(`pool-blind-toggle-${POOL}`).click();
    if (!blind) await p.getByTestId(`pool-open-confirm-${POOL}`).click();
  }
  await expect(cell).toHaveAttribute('data-blind', String(blind));
}

test('the model is a ranker column in Annotate once the pool is open, and absent while it is blind', async () => {
  await page.getByTestId('tab-annotate').click();
  await page.getByTestId('annotate-pool').selectOption(POOL);
  await page.getByTestId('annotator-input').fill('eve');
  await page.getByTestId('annotator-input').press('Enter');
  const table = page.getByTestId('candidates');
  await expect(table).toBeVisible();
  await expect(page.getByTestId('blind-badge')).toBeVisible();
  await expect(table).toHaveAttribute('data-blind', 'true');
  await expect(table.getByTestId(`run-col-${TFIDF}`)).toHaveCount(0);
  await setBlind(page, false);
  await page.getByTestId('tab-annotate').click();
  await expect(table).toHaveAttribute('data-blind', 'false');
  await expect(page.getByTestId('blind-badge')).toHaveCount(0);
  await expect(table.getByTestId(`run-col-${TFIDF}`)).toBeVisible();
  await expect(table.getByTestId('run-col-search-engine')).toBeVisible();
  await setBlind(page, true);
  await page.getByTestId('tab-annotate').click();
  await expect(table).toHaveAttribute('data-blind', 'true');
  await expect(table.getByTestId(`run-col-${TFIDF}`)).toHaveCount(0);
});

test('the model has its row in Evaluate and in the comparison panel', async () => {
  await page.getByTestId('tab-evaluate').click();
  await page.getByTestId('eval-pool').selectOption(POOL);
  await page.getByTestId('eval-annotator').selectOption('gold');
  await expect(page.getByTestId(`metrics-row-${TFIDF}`)).toBeVisible();
  await expect(page.getByTestId(`metric-${TFIDF}-MRR`)).toHaveText(METRIC);
  await expect(page.getByTestId('metrics-row-search-engine')).toBeVisible();
  await expect(page.getByTestId(`compare-run-${TFIDF}`)).toBeVisible();
});

test('trains ltr for 2 epochs: one dev point per epoch, best epoch of 2', async () => {
  await page.getByTestId('tab-models').click();
  await train(page, { kind: 'ltr', name: LTR, epochs: 2 });
  await expect(page.getByTestId('train-panel')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('train-dev-chart').getByTestId('curve-dev MRR')).toHaveAttribute('data-points', '2');
  await expect(page.getByTestId('train-dev-chart').getByTestId('curve-dev MAP')).toHaveAttribute('data-points', '2');
  await expect(page.getByTestId('train-loss-chart').getByTestId('curve-loss')).toHaveAttribute('data-points', '2');
  await expect(page.getByTestId(`model-epoch-${LTR}`)).toHaveText(/^[12] \/ 2$/);
  await expect(page.getByTestId(`model-mrr-${LTR}`)).toHaveText(METRIC);
  // Its stored curves.
  await page.getByTestId(`model-curves-${LTR}`).click();
  await expect(page.getByTestId(`model-${LTR}-dev-chart`).getByTestId('curve-dev MRR')).toHaveAttribute('data-points', '2');
  expect(await modelNames(page)).toEqual([TFIDF, LTR]);
  mkdirSync(path.join(root, 'test-results', 'screens'), { recursive: true });
  await page.screenshot({ path: path.join(root, 'test-results', 'screens', 'models.png'), fullPage: true });
});

test('live progress of an lstm; cancelled, it shows a clear message and leaves no model behind', async () => {
  test.setTimeout(180_000);
  await train(page, { kind: 'lstm', name: CANCELLED, epochs: 20 });
  const panel = page.getByTestId('train-panel');
  await expect(panel).toHaveAttribute('data-state', 'running');
  await expect(page.getByTestId('model-train')).toBeDisabled();
  // Train keeps the focus while the training runs (it turned disabled, which dropped the focus to the page).
  await expect(page.getByTestId('model-train')).toBeFocused();
  // Skip-gram pre-training first (its own plot), then the lstm's loss appears live.
  await expect(page.getByTestId('train-status')).toContainText('epoch', { timeout: 60_000 });
  await expect(page.getByTestId('train-pretrain-chart').getByTestId('curve-skip-gram pre-training')).not.toHaveAttribute('data-points', '0', { timeout: 60_000 });
  await expect(page.getByTestId('train-loss-chart').getByTestId('curve-loss')).not.toHaveAttribute('data-points', '0', { timeout: 120_000 });
  await expect(page.getByTestId('train-status')).toHaveText(/^epoch \d+\/20 · step \d+\/\d+ · loss \d+\.\d{4}/);
  const bar = page.getByTestId('train-progress').getByRole('progressbar');
  expect(Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
  expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(1000);
  await panel.screenshot({ path: path.join(root, 'test-results', 'screens', 'models-training.png') });
  // By keyboard: while it cancels, Cancel keeps the focus (it turned disabled, which dropped the focus to the page).
  await page.evaluate(() => {
    const w = window as unknown as { __cancelFocus: string[]; __cancelWatch: number };
    w.__cancelFocus = [];
    w.__cancelWatch = window.setInterval(() => {
      const b = document.querySelector('[data-testid="train-cancel"]');
      if (b && b.textContent?.includes('Cancelling')) w.__cancelFocus.push(document.activeElement === b ? 'kept' : `lost to ${document.activeElement?.tagName}`);
    }, 5);
  });
  await page.getByTestId('train-cancel').focus();
  await page.keyboard.press('Enter');
  await expect(panel).toHaveAttribute('data-state', 'cancelled', { timeout: 30_000 });
  const whileCancelling = await page.evaluate(() => {
    const w = window as unknown as { __cancelFocus: string[]; __cancelWatch: number };
    clearInterval(w.__cancelWatch);
    return [...new Set(w.__cancelFocus)];
  });
  expect(whileCancelling.filter((f) => f !== 'kept')).toEqual([]);
  await expect(page.getByTestId('train-cancelled')).toContainText(`Training cancelled. No model “${CANCELLED}” was stored.`);
  await expect(page.getByTestId('train-cancel')).toHaveCount(0);
  // Cancel went away with the training: the focus it held comes back to Train, not to the top of the page.
  await expect(page.getByTestId('model-train')).toBeFocused();
  await expect(page.getByTestId(`model-row-${CANCELLED}`)).toHaveCount(0);
  expect(await modelNames(page)).toEqual([TFIDF, LTR]);
  await expect(page.getByTestId('model-train')).toBeEnabled();
});

test('a model scores a pool again, and is deleted after confirmation', async () => {
  await page.getByTestId(`model-score-pool-${TFIDF}`).selectOption(POOL);
  // By keyboard: Score keeps the focus while it scores (it turned disabled, which dropped the focus to the page).
  const scoreButton = page.getByTestId(`model-score-${TFIDF}`);
  await scoreButton.focus();
  await page.keyboard.press('Enter');
  const status = page.getByTestId(`model-score-status-${TFIDF}`);
  await expect(status).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(scoreButton).toBeFocused();
  await expect(status).toContainText(`Scored ${POOL}: 50 queries, 500 pairs stored as the run “${TFIDF}”`);

  await page.getByTestId(`model-delete-${LTR}`).click();
  await page.getByTestId(`model-delete-keep-${LTR}`).click();
  await expect(page.getByTestId(`model-row-${LTR}`)).toBeVisible();
  await page.getByTestId(`model-delete-${LTR}`).click();
  await page.getByTestId(`model-delete-confirm-${LTR}`).click();
  await expect(page.getByTestId(`model-row-${LTR}`)).toHaveCount(0);
  await expect(page.getByTestId('model-delete-message')).toHaveText(`Model “${LTR}” deleted, with the runs it had scored.`);
  expect(await modelNames(page)).toEqual([TFIDF]);
});

test('axe-core finds no serious or critical violation on the Models screen with trained models', async () => {
  expect(await seriousViolationsOnTabs(page, ['models', 'evaluate', 'annotate'], 300)).toEqual([]);
});

test('at 1024×700 the Models screen with trained models does not scroll sideways', async () => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.getByTestId('tab-models').click();
  await expect(page.getByTestId('models-table')).toBeVisible();
  await page.waitForTimeout(300);
  const [sw, cw] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  await page.screenshot({ path: path.join(root, 'test-results', 'screens', 'models-1024-trained.png'), fullPage: true });
  expect(sw, `scrollWidth ${sw} > clientWidth ${cw}`).toBeLessThanOrEqual(cw);
  await page.setViewportSize({ width: 1360, height: 900 });
});

test('a fused model shows its features by permutation importance', async () => {
  // Its training may take the 120 s waited for below on a loaded machine: more than the default test time.
  test.setTimeout(240_000);
  await page.getByTestId('tab-models').click();
  await train(page, { kind: 'fused', name: 'fused-dev' });
  await expect(page.getByTestId('train-panel')).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await page.getByTestId('model-curves-fused-dev').click();
  const table = page.getByTestId('model-importance-fused-dev');
  await expect(table).toBeVisible();
  // Every feature has a row (runs, lexical, overlap, lengths, PPMI, metadata), sorted by MAP drop.
  await expect(table.locator('[data-testid^="model-importance-row-"]')).toHaveCount(await table.locator('tbody tr').count());
  expect(await table.locator('tbody tr').count()).toBeGreaterThan(10);
  await expect(table.getByTestId('model-importance-row-tfidf:cos')).toBeVisible();
  const drops = (await table.locator('tbody tr td.num').allTextContents()).map(Number);
  expect(drops).toEqual([...drops].sort((a, b) => b - a));
  await page.getByTestId('model-importance-fused-dev').screenshot({ path: path.join(root, 'test-results', 'screens', 'models-importance.png') });
});

test('a cross-validated model shows its CV MAP and MRR with their 95% CIs and how many distinct questions were scored', async () => {
  // The table said only "grouped CV MAP 69.08 (5 folds × 1)": no interval, no MRR, no count, while
  // `qpairs train` and `qpairs models list` give them.
  await page.getByTestId('tab-models').click();
  await page.getByTestId('model-kind').selectOption('tfidf');
  await page.getByTestId('model-name').fill('tfidf-cv');
  const box = page.getByTestId(`train-pool-${POOL}`);
  if (!(await box.isChecked())) await box.check();
  await page.getByTestId('model-dev-pool').selectOption('');
  await page.getByTestId('model-epochs').fill('');
  await page.getByTestId('model-config').fill('');
  await page.getByTestId('model-cv').fill('5');
  await page.getByTestId('model-train').click();
  await expect(page.getByTestId('train-panel')).toHaveAttribute('data-model', 'tfidf-cv');
  await expect(page.getByTestId('train-panel')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await page.getByTestId('model-cv').fill('');
  const pct = String.raw`\d{1,3}\.\d{2}`;
  const figure = new RegExp(
    `^grouped CV MAP ${pct} \\(95% CI ${pct}–${pct}\\), MRR ${pct} \\(95% CI ${pct}–${pct}\\): 5 folds × 1 repeat, each of 50 distinct questions scored once \\(50 labeled training queries\\)$`,
  );
  await expect(page.getByTestId('model-cv-tfidf-cv')).toHaveText(figure);
  // The finished job says it too (it said only "kept epoch 1 of 1", no CV figure at all).
  await expect(page.getByTestId('train-done-cv')).toHaveText(figure);
  expect(await page.getByTestId('train-done-cv').textContent()).toBe(await page.getByTestId('model-cv-tfidf-cv').textContent());
});
