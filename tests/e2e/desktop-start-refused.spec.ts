/**
 * The desktop app (its real main process through the fake Electron shell, as desktop-shell.spec.ts)
 * refusing to start: a workspace written by a newer QPairs is refused with an error box, left untouched
 * and not remembered. When that workspace was the one reopened from last time (no path given), every
 * start would meet the same refusal, so the box also says how to open another; before, it said only
 * "Upgrade QPairs to open it", and the app could not be started on anything else without knowing to
 * give a path.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { DesktopShell, prepareShell } from './fake-electron/host';
import { qpairs } from './small-pool';

const root = path.resolve(import.meta.dirname, '../..');

test.describe.configure({ mode: 'serial' });

let dir = '';
let app = '';
let initScriptFor: (preload: string) => string = () => '';
let newer = '';
const home = (): string => path.join(dir, 'home');
const config = (): string => path.join(home(), '.qpairs');

test.beforeAll(async ({}, info) => {
  info.setTimeout(300_000);
  const cache = path.join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  dir = realpathSync(mkdtempSync(path.join(cache, 'qpairs-desktop-start-refused-')));
  app = path.join(dir, 'app');
  ({ initScriptFor } = await prepareShell(app));
  // A workspace a newer QPairs wrote: a schema version past this one's.
  newer = path.join(dir, 'newer.qpairs');
  qpairs('init', newer);
  execFileSync(path.join(root, 'node_modules', '.bin', 'node'), ['-e', `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(newer)}); d.pragma('user_version = 999'); d.close();`], { cwd: root });
  mkdirSync(config(), { recursive: true });
});
test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Starts the app (no window is expected) and waits for its main process to end. */
async function start(browser: Browser, args: string[]): Promise<{ code: number | null; boxes: DesktopShell['errorBoxes'] }> {
  const context = await browser.newContext();
  const shell = new DesktopShell({ dir: app, initScriptFor, context, args, env: { HOME: home(), QPAIRS_CONFIG_DIR: config() } });
  try {
    const code = await shell.exited;
    return { code, boxes: shell.errorBoxes };
  } finally {
    await shell.quit();
    await context.close();
  }
}

test('a newer QPairs’ workspace given on the command line: refused, untouched, not remembered', async ({ browser }) => {
  const before = readFileSync(newer);
  const { code, boxes } = await start(browser, [newer]);
  expect(code).toBe(1);
  expect(boxes).toHaveLength(1);
  expect(boxes[0]!.title).toBe('QPairs could not start');
  expect(boxes[0]!.content).toContain('was written by a newer QPairs (workspace schema 999');
  expect(boxes[0]!.content).not.toContain('opened last time');
  expect(readFileSync(newer).equals(before)).toBe(true);
  expect(existsSync(`${newer}.lock`)).toBe(false);
  expect(existsSync(path.join(config(), 'recent.json'))).toBe(false);
});

test('the workspace reopened from last time is refused: the error box also says how to open another', async ({ browser }) => {
  writeFileSync(path.join(config(), 'recent.json'), JSON.stringify({ lastWorkspace: newer }) + '\n');
  const { code, boxes } = await start(browser, []);
  expect(code).toBe(1);
  expect(boxes).toHaveLength(1);
  expect(boxes[0]!.content).toContain('was written by a newer QPairs (workspace schema 999');
  expect(boxes[0]!.content).toContain(`QPairs tried ${newer} because it is the workspace opened last time. To open another, start QPairs with its path (npm start -- PATH).`);
  expect(existsSync(`${newer}.lock`)).toBe(false);
});
