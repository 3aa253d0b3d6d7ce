/**
 * The desktop app end to end without the Electron binary (which cannot be installed here; where
 * it is, tests/e2e/electron.spec.ts drives the real thing as well).
 *
 * What is real: the app's main process — electron-vite's build of src/main/index.ts (workspace
 * lock, Engine, registerIpc from ipc.ts, hardenApp and createMainWindow from window.ts) — runs as
 * its own Node 22 process; the real preload bundle runs in the page as a sandboxed CommonJS
 * preload; the built renderer runs in Chromium over file://, talking to the engine through
 * `window.qpairs` (IPC), not HTTP. What stands in: the `electron` module, on each side of the
 * boundary only (tests/e2e/fake-electron: ipcMain/ipcRenderer with structured-clone arguments,
 * one invoke handler per channel, the sender frame's URL for the app's trust check; contextBridge
 * copying the API into the page; BrowserWindow as a Playwright page).
 *
 * The flow: the window opens hardened with the renderer started (the renderer subscribes to
 * train.progress at start-up — the preload before issue 28 threw there), a SemEval import through
 * the native file dialog, annotate → label → undo → evaluate (Evaluate following labels live over
 * the event channel), a training job whose progress arrives over IPC, the event listeners left after
 * many screen switches (counted in the page's stand-in ipcRenderer), the IPC refusals, and quit.
 * The tests share one app and run in order.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { dataset } from '../datasets';
import { useDesktopApp } from './desktop-app';
import { LISTENERS, type DesktopShell, type ShellWindow } from './fake-electron/host';

const SEMEVAL_DEV = dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');
const POOL = 'SemEval2016-Task3-CQA-QL-dev';
const RUN = 'search-engine';
const METRIC = /^\d{1,2}\.\d{2}$|^100\.00$/;

test.describe.configure({ mode: 'serial' });

let workspace = '';
const pageErrors: string[] = [];
// The app on a new workspace (created at start); every page's errors recorded from the first.
const app = useDesktopApp('desktop-shell', {
  prepare: (d) => (workspace = path.join(d, 'desktop.qpairs')),
  onContext: (context) => context.on('page', (p) => p.on('pageerror', (e) => pageErrors.push(e.message))),
});
let dir = '';
let rendererIndex = '';
let shell: DesktopShell;
let win: ShellWindow;
let page: Page;
test.beforeAll(() => {
  ({ dir, rendererIndex, shell, win, page } = app);
});

type Bridge = { qpairs: { invoke(c: string, a?: unknown): Promise<unknown>; on(e: string, fn: (p: unknown) => void): () => void } };

test('the main process opens one hardened window; the renderer starts over the real preload', async () => {
  // The renderer subscribes to every event at start-up (train.progress too): nothing may throw.
  expect(pageErrors).toEqual([]);
  await expect(page.getByTestId('tab-annotate')).toBeVisible();
  await expect(page.getByTestId('workspace-name')).toHaveText('desktop.qpairs');
  await expect(page.getByTestId('header-role')).toHaveAttribute('data-role', 'owner');
  expect(pageErrors).toEqual([]);
  expect(win.url).toBe(pathToFileURL(rendererIndex).href);

  const state = await shell!.inspect();
  expect(state.windows).toHaveLength(1);
  expect(state.windows[0]!.title).toBe('QPairs — desktop.qpairs');
  expect(state.windows[0]!.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
  expect(String(state.windows[0]!.webPreferences.preload)).toMatch(/[\\/]preload[\\/]index\.cjs$/);
  expect(state.handlers).toEqual(['qpairs:invoke']);
  expect(state.permissionRequestGranted).toBe(false);
  expect(state.permissionCheckGranted).toBe(false);
  expect(state.windowOpenHandlers).toEqual([1]);
  expect(state.webviewsPrevented).toEqual([true]);

  // The page sees exactly invoke and on, read-only, and nothing of Node.
  const surface = await page.evaluate(() => {
    const w = window as unknown as Bridge & { require?: unknown; process?: unknown };
    let replaced = true;
    try {
      (window as unknown as { qpairs: unknown }).qpairs = {};
    } catch {
      replaced = false;
    }
    return { keys: Object.keys(w.qpairs).sort(), frozen: Object.isFrozen(w.qpairs), replaced: replaced && (window as unknown as { qpairs: object }).qpairs !== w.qpairs, require: typeof w.require, process: typeof w.process };
  });
  expect(surface).toEqual({ keys: ['invoke', 'on'], frozen: true, replaced: false, require: 'undefined', process: 'undefined' });
  const info = await page.evaluate(() => (window as unknown as Bridge).qpairs.invoke('app.info', {}));
  expect(info).toMatchObject({ ok: true, result: { transport: 'electron' } });
});

test('imports the SemEval dev XML chosen in the native file dialog', async () => {
  shell!.answerDialogs([[SEMEVAL_DEV]]);
  await page.getByTestId('tab-workspace').click();
  await expect(page.getByTestId('stat-questions')).toHaveText('0');
  await page.getByTestId('import-format').selectOption('semeval');
  await page.getByTestId('import-choose').click();
  await expect(page.getByTestId('import-chosen')).toContainText(path.basename(SEMEVAL_DEV));
  await page.getByTestId('import-start').click();
  await expect(page.getByTestId('import-report')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('stat-questions')).toHaveText('550');
  await expect(page.getByTestId('stat-pools')).toHaveText('1');
  const state = await shell!.inspect();
  expect(state.dialogs).toEqual([{ kind: 'open', options: { title: 'Choose files to import', properties: ['openFile', 'multiSelections'] } }]);
  // The import's progress and end came over the event channel.
  expect(state.sentEvents['qpairs:event|job.progress'] ?? 0).toBeGreaterThan(0);
  expect(state.sentEvents['qpairs:event|job.done']).toBeGreaterThanOrEqual(1);
});

const rows = (p: Page) => p.locator('[data-testid^="candidate-row-"]');
const row = (p: Page, i: number) => p.getByTestId(`candidate-row-${i}`);

test('annotate → label → undo → evaluate, with Evaluate following labels live over IPC', async () => {
  await page.getByTestId('tab-annotate').click();
  await page.getByTestId('annotate-pool').selectOption(POOL);
  await page.getByTestId('annotator-input').fill('tester');
  await page.getByTestId('annotator-input').press('Enter');
  await expect(page.getByTestId('query-title')).toBeVisible();
  await expect(rows(page)).toHaveCount(10);
  const queryA = (await page.getByTestId('query-id').textContent())!;
  await expect(page.getByTestId('progress-queries')).toHaveText('0');

  await expect(row(page, 0)).toHaveAttribute('aria-selected', 'true');
  // The label keys act when no text field has the focus.
  await page.getByTestId('annotator-input').blur();
  await page.keyboard.press('1');
  await expect(row(page, 0)).toHaveAttribute('data-state', 'saved');
  for (let i = 1; i < 10; i++) await page.keyboard.press('0');
  await expect(page.locator('[data-testid^="candidate-row-"][data-state="saved"]')).toHaveCount(10);
  await expect(page.getByTestId('progress-queries')).toHaveText('1');
  // The SemEval pool's scheme is semeval3: 1 is Relevant, 0 Irrelevant.
  await expect(row(page, 0)).toHaveAttribute('data-label', 'Relevant');
  await expect(row(page, 9)).toHaveAttribute('data-label', 'Irrelevant');

  await page.keyboard.press('u');
  await expect(row(page, 9)).toHaveAttribute('data-label', '');
  await expect(page.getByTestId('progress-queries')).toHaveText('0');
  await expect(page.getByTestId('annotate-notice')).toContainText('Undone');
  await page.keyboard.press('0');
  await expect(row(page, 9)).toHaveAttribute('data-state', 'saved');
  await expect(page.getByTestId('progress-queries')).toHaveText('1');

  await page.getByTestId('tab-evaluate').click();
  await page.getByTestId('eval-pool').selectOption(POOL);
  await page.getByTestId('eval-annotator').selectOption('tester');
  await page.getByTestId('convention-zero').check();
  await expect(page.getByTestId('eval-labeled-queries')).toHaveText('1');
  await expect(page.getByTestId(`metric-${RUN}-queries`)).toHaveText('1');
  const map1 = Number(await page.getByTestId(`metric-${RUN}-MAP`).textContent());
  expect(map1).toBeGreaterThan(0);

  // Another query labeled Irrelevant through the bridge while Evaluate is open (as a second
  // window of the app would): the label.changed events reach this page over IPC and the screen
  // updates — with "score 0", the query counts with AP 0 and MAP halves.
  const labeled = await page.evaluate(
    async ({ pool, skip }) => {
      const q = window as unknown as Bridge;
      const next = (await q.qpairs.invoke('annotate.navigate', { pool, annotator: 'tester', from: skip, direction: 'next-unlabeled' })) as { ok: boolean; result: { queryId: string; candidates: Array<{ id: string }> } };
      if (!next.ok) throw new Error(JSON.stringify(next));
      for (const c of next.result.candidates) {
        const r = (await q.qpairs.invoke('label.set', { pool, queryId: next.result.queryId, candidateId: c.id, annotator: 'tester', value: 'Irrelevant' })) as { ok: boolean };
        if (!r.ok) throw new Error(JSON.stringify(r));
      }
      return next.result.queryId;
    },
    { pool: POOL, skip: queryA },
  );
  expect(labeled).not.toBe(queryA);
  await expect(page.getByTestId('eval-labeled-queries')).toHaveText('2');
  await expect.poll(async () => Number(await page.getByTestId(`metric-${RUN}-MAP`).textContent())).toBeCloseTo(map1 / 2, 1);
  const state = await shell!.inspect();
  expect(state.sentEvents['qpairs:event|label.changed']).toBeGreaterThanOrEqual(21); // 10 + undo + 1 + 10
});

test("a training job's progress arrives over IPC: ltr, 2 epochs, one dev point per epoch", async () => {
  test.setTimeout(240_000); // about 30 s alone; more on a busy machine
  await page.getByTestId('tab-models').click();
  await page.getByTestId('model-kind').selectOption('ltr');
  await page.getByTestId('model-name').fill('ltr-desktop');
  const box = page.getByTestId(`train-pool-${POOL}`);
  if (!(await box.isChecked())) await box.check();
  await page.getByTestId('model-dev-pool').selectOption(POOL);
  await page.getByTestId('model-keep-overlap').check();
  await page.getByTestId('model-epochs').fill('2');
  await page.getByTestId('model-seed').fill('1');
  await page.getByTestId('model-train').click();
  await expect(page.getByTestId('train-panel')).toHaveAttribute('data-model', 'ltr-desktop');
  await expect(page.getByTestId('train-panel')).toHaveAttribute('data-state', 'done', { timeout: 200_000 });
  await expect(page.getByTestId('train-dev-chart').getByTestId('curve-dev MRR')).toHaveAttribute('data-points', '2');
  await expect(page.getByTestId('train-loss-chart').getByTestId('curve-loss')).toHaveAttribute('data-points', '2');
  await expect(page.getByTestId('model-mrr-ltr-desktop')).toHaveText(METRIC);
  const state = await shell!.inspect();
  expect(state.sentEvents['qpairs:event|train.progress']).toBeGreaterThanOrEqual(2);
  const progress = shell!.delivered.filter((d) => d.channel === 'qpairs:event' && d.args[0] === 'train.progress');
  expect(progress.length).toBe(state.sentEvents['qpairs:event|train.progress']);
  expect(pageErrors).toEqual([]);
});

test("switching screens many times leaves no event listener behind (each screen's are removed when it goes)", async () => {
  const tabs = ['workspace', 'pools', 'annotate', 'review', 'agreement', 'evaluate', 'export', 'models', 'browse'];
  const listeners = () => page.evaluate((name) => (window as unknown as Record<string, (channel: string) => number>)[name]!('qpairs:event'), LISTENERS);
  const round = async (): Promise<void> => {
    for (const t of tabs) {
      await page.getByTestId(`tab-${t}`).click();
      await expect(page.getByTestId(`tab-${t}`)).toHaveAttribute('aria-selected', 'true');
    }
    await page.getByTestId('tab-workspace').click();
    await expect(page.getByTestId('stat-questions')).toBeVisible();
  };
  await round();
  await expect.poll(listeners).toBeGreaterThan(0);
  const base = await listeners();
  for (let i = 0; i < 10; i++) await round();
  // A screen's listeners that were not removed would stay for good: the count comes back to the same.
  await expect.poll(listeners).toBe(base);
  expect(base).toBeLessThan(20);
  expect(pageErrors).toEqual([]);
});

test('the bridge refuses what Electron and the app refuse', async () => {
  const refusals = await page.evaluate(async () => {
    const q = (window as unknown as Bridge).qpairs;
    const out: Record<string, unknown> = {};
    try {
      q.on('nope', () => {});
      out.unknownEvent = 'accepted';
    } catch (e) {
      out.unknownEvent = (e as Error).message;
    }
    try {
      await q.invoke('app.info', { f: () => 1 });
      out.uncloneable = 'sent';
    } catch (e) {
      out.uncloneable = (e as Error).message;
    }
    out.badArgs = await q.invoke('pool.create', { name: '' });
    out.unknownCommand = await q.invoke('nope', {});
    return out;
  });
  expect(refusals.unknownEvent).toBe('unknown event nope');
  expect(String(refusals.uncloneable)).toContain('could not be cloned');
  expect(refusals.badArgs).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
  expect(refusals.unknownCommand).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });

  // A page of the window that is not the app (another file) is refused by ipc.ts's sender check.
  const other = path.join(dir, 'other.html');
  writeFileSync(other, '<!doctype html><title>other</title>');
  const stranger = await shell!.openAsWindow(1, pathToFileURL(other).href);
  const reply = await stranger.evaluate(() => (window as unknown as Bridge).qpairs.invoke('workspace.stats', {}));
  expect(reply).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  await stranger.close();

  // No new windows, no navigation away from the app (setWindowOpenHandler, will-navigate).
  await page.evaluate(() => window.open('https://example.com/'));
  await page.evaluate(() => {
    window.location.href = 'https://example.com/';
  });
  await expect.poll(() => win.refused.length).toBe(2);
  expect(win.refused.some((u) => u.startsWith('https://example.com'))).toBe(true);
  await page.waitForTimeout(300);
  expect(page.url().split('#')[0]).toBe(pathToFileURL(rendererIndex).href);
  await expect(page.getByTestId('tab-annotate')).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test('quitting closes the engine, releases the workspace lock and ends the main process', async () => {
  expect(existsSync(`${workspace}.lock`)).toBe(true);
  const code = await shell!.quit();
  expect(code, shell!.log()).toBe(0);
  expect(existsSync(`${workspace}.lock`)).toBe(false);
  expect(shell!.errorBoxes).toEqual([]);
});
