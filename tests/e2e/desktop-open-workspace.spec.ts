/**
 * Opening another workspace from inside the desktop app (its real main process through the fake
 * Electron shell, as desktop-shell.spec.ts), and one app per user. Before, the app kept the workspace
 * it started on for its lifetime (another one meant quitting and starting again with its path), and a
 * second launch met the workspace lock's CLI wording instead of the open window.
 *
 *  - refused targets (a newer QPairs' workspace, a file that is not a workspace, one held by another
 *    QPairs process) and a running import keep the open workspace, saying why;
 *  - Open workspace… shows the other workspace's data, in a window titled with it, its lock taken and
 *    the old one's released, and the tab's undo history of the old workspace forgotten;
 *  - the recent list says when one is gone; New workspace… makes an empty one (an existing file refused);
 *  - a second launch quits at once, brings the window back (restored when minimised) and, when it named
 *    another workspace, offers to open it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { useDesktopApp } from './desktop-app';
import { buildSmallPool, qpairs } from './small-pool';

const root = path.resolve(import.meta.dirname, '../..');
/** Serve mode holding workspace `held` (a port of this spec's own). */
const HELD_PORT = 23513;

test.describe.configure({ mode: 'serial' });

let a = '';
let b = '';
let newer = '';
let notWorkspace = '';
let held = '';
let big = '';
let holder: ChildProcess | null = null;

const app = useDesktopApp('desktop-open-workspace', {
  prepare(d) {
    ({ workspace: a } = buildSmallPool(d, (pairs) => pairs.slice(0, 2).map(([q, c]) => `${q},${c},ann,1`)));
    b = path.join(d, 'b', 'b.qpairs');
    mkdirSync(path.dirname(b));
    qpairs('init', b);
    qpairs('import', b, '--format', 'questions-jsonl', path.join(root, 'resources', 'demo', 'questions.jsonl'));
    qpairs('pool', 'create', b, '--name', 'other', '--sample', '3', '--seed', '1', '--depth', '4');
    newer = path.join(d, 'newer.qpairs');
    qpairs('init', newer);
    execFileSync(path.join(root, 'node_modules', '.bin', 'node'), ['-e', `const D = require('better-sqlite3'); const x = new D(${JSON.stringify(newer)}); x.pragma('user_version = 999'); x.close();`], { cwd: root });
    notWorkspace = path.join(d, 'notes.qpairs');
    writeFileSync(notWorkspace, 'my notes about the pools, not a workspace\n'.repeat(200));
    held = path.join(d, 'held.qpairs');
    qpairs('init', held);
    // An import long enough to still run when the switch is asked for.
    big = path.join(d, 'big.jsonl');
    writeFileSync(big, Array.from({ length: 150_000 }, (_, i) => JSON.stringify({ id: `big${i}`, title: `question number ${i} about keyboards and screens`, body: `body ${i} `.repeat(8) })).join('\n') + '\n');
    return a;
  },
});

test.afterAll(() => {
  holder?.kill('SIGTERM');
});

/** Opens the workspace menu (closed first if open) and picks `item`. */
async function menuPick(page: Page, item: 'workspace-open' | 'workspace-new'): Promise<void> {
  const menu = page.getByTestId('workspace-menu');
  if ((await menu.getAttribute('aria-expanded')) === 'true') await menu.click();
  await menu.click();
  await page.getByTestId(item).click();
}

async function poolsOffered(page: Page): Promise<string[]> {
  await page.getByTestId('tab-annotate').click();
  const select = page.getByTestId('annotate-pool');
  await expect(select).toBeVisible();
  return select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
}

/** The open workspace is still A: its name, its pool, its lock. */
async function expectStillA(page: Page): Promise<void> {
  await expect(page.getByTestId('workspace-name')).toHaveText('w.qpairs');
  expect(await poolsOffered(page)).toEqual(['dev', 'p']);
  expect(JSON.parse(readFileSync(`${a}.lock`, 'utf8')).command).toBe(`QPairs desktop app (${a})`);
}

test('refused targets keep the open workspace, saying why: a newer QPairs, not a workspace, held by another process', async () => {
  test.setTimeout(120_000);
  const { page, shell } = app;
  await expect(page.getByTestId('workspace-name')).toHaveText('w.qpairs');
  const error = page.getByTestId('workspace-switch-error');

  shell.answerDialogs([[newer]]);
  await menuPick(page, 'workspace-open');
  await expect(error).toContainText('was written by a newer QPairs (workspace schema 999');
  await page.screenshot({ path: test.info().outputPath('refused-newer.png') });
  await expectStillA(page);

  shell.answerDialogs([[notWorkspace]]);
  await menuPick(page, 'workspace-open');
  await expect(error).toContainText(notWorkspace);
  await expect(error).toContainText(/not a QPairs workspace/i);
  await expectStillA(page);

  holder = spawn(path.join(root, 'node_modules', '.bin', 'node'), [path.join(root, 'bin', 'qpairs.mjs'), 'serve', held, '--port', String(HELD_PORT)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    holder!.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/serving|http:\/\//.test(out)) resolve();
    });
    holder!.once('exit', (code) => reject(new Error(`qpairs serve exited ${code}: ${out}`)));
  });
  shell.answerDialogs([[held]]);
  await menuPick(page, 'workspace-open');
  await expect(error).toContainText(`qpairs serve ${held}`);
  await expect(error).toContainText('Only one process may write to a workspace at a time');
  await expectStillA(page);
  holder.kill('SIGTERM');
  await new Promise((r) => holder!.once('exit', r));
  holder = null;

  const dialogs = (await shell.inspect()).dialogs.filter((x) => x.kind === 'open');
  expect(dialogs.at(-1)!.options).toMatchObject({ title: 'Open workspace', filters: [{ name: 'QPairs workspaces', extensions: ['qpairs'] }], properties: ['openFile'] });
});

test('an import running: refused before any dialog, naming it; once cancelled, the switch goes ahead', async () => {
  test.setTimeout(120_000);
  const { page, shell } = app;
  type Bridge = { qpairs: { invoke: (cmd: string, a: unknown) => Promise<{ ok: boolean; result: { jobId: string } }> } };
  const started = await page.evaluate((file) => (window as unknown as Bridge).qpairs.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: file }] }), big);
  expect(started.ok).toBe(true);
  const opensBefore = (await shell.inspect()).dialogs.length;
  await menuPick(page, 'workspace-open');
  await expect(page.getByTestId('workspace-switch-error')).toContainText(
    'A job is running in this workspace (the import of big.jsonl (questions-jsonl)): cancel it or let it end, then open the other workspace. Nothing was changed.',
  );
  expect((await shell.inspect()).dialogs.length).toBe(opensBefore);
  await page.evaluate((jobId) => (window as unknown as Bridge).qpairs.invoke('job.cancel', { jobId }), started.result.jobId);
  // Once the cancelled import has rolled back, Open workspace… shows its dialog (cancelled here: nothing queued).
  await expect(async () => {
    const before = (await shell.inspect()).dialogs.length;
    await menuPick(page, 'workspace-open');
    await expect.poll(async () => (await shell.inspect()).dialogs.length, { timeout: 3_000 }).toBe(before + 1);
  }).toPass({ timeout: 60_000 });
  await expect(page.getByTestId('workspace-switch-error')).toHaveCount(0);
  await expectStillA(page);
});

test('Open workspace…: the other workspace’s data, title and lock; the old lock released, its undo history forgotten', async () => {
  test.setTimeout(120_000);
  const { page, shell } = app;
  // A label given in A through the keys: the tab's undo history holds it.
  await page.getByTestId('tab-annotate').click();
  await page.getByTestId('annotate-pool').selectOption('p');
  await expect(page.getByTestId('candidates')).toHaveAttribute('data-pool', 'p');
  await page.keyboard.press('Home');
  await page.keyboard.press('1');
  await expect.poll(() => page.evaluate(() => JSON.parse(sessionStorage.getItem('qpairs.undoHistory.2') ?? '[]').length)).toBeGreaterThan(0);

  shell.answerDialogs([[b]]);
  await menuPick(page, 'workspace-open');
  await expect(page.getByTestId('workspace-name')).toHaveText('b.qpairs');
  expect(await poolsOffered(page)).toEqual(['other']);
  expect(await page.evaluate(() => sessionStorage.getItem('qpairs.undoHistory.2'))).toBeNull();
  // Undo in the new workspace has nothing of the old one to take back.
  await page.keyboard.press('Home');
  await page.keyboard.press('u');
  await expect(page.getByText('Nothing to undo: no labels given in this session.')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('opened-b.png') });
  expect((await shell.inspect()).windows[0]!.title).toBe('QPairs — b.qpairs');
  expect(existsSync(`${a}.lock`)).toBe(false);
  expect(JSON.parse(readFileSync(`${b}.lock`, 'utf8')).command).toBe(`QPairs desktop app (${b})`);
  const recent = JSON.parse(readFileSync(path.join(app.dir, 'home', '.qpairs', 'recent.json'), 'utf8'));
  expect(recent).toEqual({ lastWorkspace: b, recent: [b, a] });
});

test('the recent list: the workspace opened before, and one moved since says so', async () => {
  const { page } = app;
  // By keyboard: the menu opens on its first item; Escape closes it and gives the focus back.
  await page.getByTestId('workspace-menu').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('workspace-open')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('workspace-menu-panel')).toHaveCount(0);
  await expect(page.getByTestId('workspace-menu')).toBeFocused();
  await page.getByTestId('workspace-menu').click();
  const items = page.getByTestId('workspace-recent-item');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveText('w.qpairs');
  await expect(items.first()).toHaveAttribute('title', a);
  await page.getByTestId('workspace-menu').click();
  const moved = path.join(app.dir, 'moved.qpairs');
  renameSync(a, moved);
  await page.getByTestId('workspace-menu').click();
  await expect(items.first()).toContainText('w.qpairs (not found: moved or deleted)');
  await items.first().click();
  await expect(page.getByTestId('workspace-switch-error')).toContainText(`${a} is no longer there (moved, renamed or deleted).`);
  await page.screenshot({ path: test.info().outputPath('recent-moved.png') });
  await expect(page.getByTestId('workspace-name')).toHaveText('b.qpairs');
  // A click elsewhere closes the menu, refusal and all.
  await page.getByTestId('workspace-name').click();
  await expect(page.getByTestId('workspace-menu-panel')).toHaveCount(0);
  await expect(page.getByTestId('workspace-switch-error')).toHaveCount(0);
  renameSync(moved, a);
});

test('New workspace…: an existing file is refused; a new name makes an empty workspace and opens it', async () => {
  const { page, shell } = app;
  shell.answerDialogs([], [a]);
  await menuPick(page, 'workspace-new');
  await expect(page.getByTestId('workspace-switch-error')).toContainText(`${a} already exists; not overwriting it`);
  await expect(page.getByTestId('workspace-name')).toHaveText('b.qpairs');
  const save = (await shell.inspect()).dialogs.filter((x) => x.kind === 'save').at(-1)!;
  expect(save.options).toMatchObject({ title: 'New workspace', defaultPath: path.join(path.dirname(b), 'new workspace.qpairs') });

  shell.answerDialogs([], [path.join(app.dir, 'fresh')]);
  await menuPick(page, 'workspace-new');
  await expect(page.getByTestId('workspace-name')).toHaveText('fresh.qpairs');
  expect(existsSync(path.join(app.dir, 'fresh.qpairs'))).toBe(true);
  expect(existsSync(`${b}.lock`)).toBe(false);
  await page.getByTestId('tab-pools').click();
  await expect(page.getByTestId('pools-empty')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('new-workspace.png') });
});

test('a second launch quits at once and brings the window back; one naming another workspace is offered, not opened', async () => {
  test.setTimeout(120_000);
  const { page, shell } = app;
  // The single-instance lock is the config folder's (QPAIRS_CONFIG_DIR gives Electron's data folder there).
  expect(existsSync(path.join(app.dir, 'home', '.qpairs', 'electron', 'SingletonLock'))).toBe(true);
  const focusedBefore = (await shell.inspect()).windowStates[0]!.focused;
  shell.minimize(1);
  await expect.poll(async () => (await shell.inspect()).windowStates[0]!.minimized).toBe(true);
  const plain = await shell.secondLaunch([]);
  expect(plain).toMatchObject({ code: 0, windows: 0 });
  await expect.poll(async () => (await shell.inspect()).windowStates[0]).toMatchObject({ minimized: false, visible: true, focused: focusedBefore + 1 });
  await expect(page.getByTestId('second-launch-notice')).toHaveCount(0);
  expect(shell.errorBoxes).toEqual([]);

  const named = await shell.secondLaunch([a]);
  expect(named).toMatchObject({ code: 0, windows: 0 });
  const notice = page.getByTestId('second-launch-notice');
  await expect(notice).toContainText(`QPairs is already open. It was started again on ${a}`);
  await expect(page.getByTestId('workspace-name')).toHaveText('fresh.qpairs');
  await page.screenshot({ path: test.info().outputPath('second-launch.png') });
  await page.getByTestId('second-launch-open').click();
  await expect(page.getByTestId('workspace-name')).toHaveText('w.qpairs');
  await expect(notice).toHaveCount(0);
  expect((await shell.inspect()).windows[0]!.title).toBe('QPairs — w.qpairs');

  // A launch on a path with no file yet (which would start a new workspace there): offered as such.
  const later = path.join(app.dir, 'later');
  expect(await shell.secondLaunch([later])).toMatchObject({ code: 0, windows: 0 });
  await expect(notice).toContainText(`It was started again on ${later}; this window stays on the workspace open here. No workspace is there yet: Create it starts a new, empty one there and opens it.`);
  await page.getByTestId('second-launch-open').click();
  await expect(page.getByTestId('workspace-name')).toHaveText('later');
  expect(existsSync(later)).toBe(true);
});
