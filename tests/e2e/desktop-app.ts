/**
 * The setup the desktop specs share (as served-workspace.ts is serve mode's): the fake Electron shell
 * (fake-electron/host.ts) built into a scratch folder of the spec's own, the app's main process
 * started on a workspace, its first window as a page (`useDesktopApp`: set up before the spec's
 * tests, quit and removed after them). The browser is given file access from file pages, which the
 * renderer's module scripts over file:// need (Electron grants it to file:// pages by default).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { test, type BrowserContext, type Page } from '@playwright/test';
import { findBrowser } from './browser';
import { DesktopShell, prepareShell, type ShellWindow } from './fake-electron/host';

const root = path.resolve(import.meta.dirname, '../..');

/** A spec's desktop app: filled in before its first test, quit after its last. */
export interface DesktopApp {
  /** The spec's scratch folder (under node_modules/.cache; its real path). */
  dir: string;
  /** The built renderer's index.html, which the app's window loads over file://. */
  rendererIndex: string;
  shell: DesktopShell;
  context: BrowserContext;
  /** The app's first window, and its page. */
  win: ShellWindow;
  page: Page;
}

export interface DesktopAppOptions {
  /**
   * Run once the shell is built, before the app starts, with the scratch folder (to build the
   * workspace by the CLI, say): the workspace file the app opens (as `qpairs-app W` would); null
   * starts the app without one (it reopens the last workspace remembered in the folder's
   * `home/.qpairs`, else the demo).
   */
  prepare(dir: string): string | null | Promise<string | null>;
  /** Called with the browser context before the app's first window opens (to listen to its pages). */
  onContext?(context: BrowserContext): void;
}

/**
 * Registers the spec's setup and teardown: the browser's file access flag; before its tests, a
 * scratch folder `qpairs-NAME-` inside the checkout (node_modules/.cache, so the main bundle finds
 * the project's dependencies), the shell built into its `app` folder, `prepare`, and the app
 * started with HOME set to the folder's `home` and QPAIRS_CONFIG_DIR to its `.qpairs` (the app must not touch the user's ~/.qpairs); after
 * them, the app quit (its output logged unless it exits 0), the context closed and the folder
 * removed. Returns the state the tests read.
 */
export function useDesktopApp(name: string, o: DesktopAppOptions): DesktopApp {
  const found = findBrowser();
  const launch = 'launchOptions' in found ? found.launchOptions : {};
  test.use({ launchOptions: { ...launch, args: [...(launch.args ?? []), '--allow-file-access-from-files'] } });
  const desktop = {} as DesktopApp;
  let started = false;
  test.beforeAll(async ({ browser }, info) => {
    info.setTimeout(300_000);
    const cache = path.join(root, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    // Its real path: Node loads the main bundle by its real path, so the URLs the app computes from
    // import.meta.url name it that way even when node_modules is a symbolic link (a shared checkout).
    desktop.dir = realpathSync(mkdtempSync(path.join(cache, `qpairs-${name}-`)));
    const app = path.join(desktop.dir, 'app');
    const t0 = Date.now();
    const prepared = await prepareShell(app);
    console.log(`[${name}] built main, preload and renderer with electron.vite.config.ts in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    desktop.rendererIndex = prepared.rendererIndex;
    const workspace = await o.prepare(desktop.dir);
    mkdirSync(path.join(desktop.dir, 'home'), { recursive: true });
    desktop.context = await browser.newContext();
    o.onContext?.(desktop.context);
    const home = path.join(desktop.dir, 'home');
    // QPAIRS_CONFIG_DIR as the app's default under that home, whatever the runner's environment says.
    const env = { HOME: home, QPAIRS_CONFIG_DIR: path.join(home, '.qpairs') };
    desktop.shell = new DesktopShell({ dir: app, initScriptFor: prepared.initScriptFor, context: desktop.context, args: workspace === null ? [] : [workspace], env });
    started = true;
    desktop.win = await desktop.shell.firstWindow();
    desktop.page = desktop.win.page;
  });
  test.afterAll(async () => {
    const code = started ? await desktop.shell.quit() : 0;
    if (code !== 0) console.log(`[${name}] main process exit ${code}; output:\n${desktop.shell.log()}`);
    await desktop.context?.close();
    if (desktop.dir) rmSync(desktop.dir, { recursive: true, force: true });
  });
  return desktop;
}
