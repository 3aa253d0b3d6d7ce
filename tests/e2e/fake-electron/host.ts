/**
 * Runs the desktop app without the Electron binary, for the desktop-shell e2e spec:
 *
 *  1. builds the app's real bundles with the project's electron-vite configuration (build.ts)
 *     into a folder of its own under node_modules/.cache (inside the checkout, so the main bundle
 *     resolves its dependencies from the project's node_modules like out/main does);
 *  2. installs the stand-in `electron` module there (main-process.ts bundled as
 *     node_modules/electron), so the main bundle's `import … from 'electron'` — and only that —
 *     resolves to it;
 *  3. starts the main bundle as its own process on the project's Node 22 (`node main/index.js
 *     WORKSPACE`, as `electron . WORKSPACE` would), talking to this host over Node's IPC channel
 *     with structured-clone serialization;
 *  4. plays Electron's renderer side: each BrowserWindow the app creates becomes a Playwright page
 *     in the given browser context; the page gets the real preload bundle (run with a `require`
 *     that knows only the browser-side stand-in, renderer-process.ts) before any of its scripts,
 *     then loads what the app asked for (loadFile → the built renderer, over file://);
 *     ipcRenderer.invoke reaches ipcMain's handler with the calling frame's URL as the sender
 *     frame, webContents.send reaches the page's ipcRenderer listeners in order; window.open and
 *     http(s) navigations are put to the app's setWindowOpenHandler / will-navigate first.
 *
 * The browser context must allow module scripts from file:// (Chromium's
 * --allow-file-access-from-files, which Electron grants file:// pages by default).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { buildShell } from './build';
import type { HostMessage, MainMessage, MainState, WindowSpec } from './protocol';

const root = path.resolve(import.meta.dirname, '../../..');
const here = import.meta.dirname;

/** The window property through which the host hands main's messages to the page's stand-in ipcRenderer. */
const DELIVER = '__qpairsFakeElectronDeliver';
/** The window property through which a test counts the page's ipcRenderer listeners of a channel (listenerCount). */
export const LISTENERS = '__qpairsFakeElectronListenerCount';

/** One BrowserWindow of the app, as a page. */
export interface ShellWindow {
  spec: WindowSpec;
  page: Page;
  /** The URL the app loaded into it (null until that page has loaded). */
  url: string | null;
  loaded: Promise<void>;
  /** window.open calls and renderer-initiated navigations the app refused, by URL. */
  refused: string[];
}

interface WindowState extends ShellWindow {
  markLoaded: () => void;
  queue: Array<{ channel: string; args: unknown[] }>;
  flushing: boolean;
}

/** Builds the shell (bundles, stand-in electron, browser-side script) into `dir`; returns the files it made. */
export async function prepareShell(dir: string): Promise<{ mainEntry: string; rendererIndex: string; initScriptFor: (preload: string) => string }> {
  const { build } = await import('esbuild');
  const built = await buildShell(dir);
  // The built main bundle is ESM (.js) like out/main: its own package scope says so (a package
  // scope ends at a node_modules folder, so the project's package.json does not reach here).
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }) + '\n');
  const fake = path.join(dir, 'node_modules', 'electron');
  mkdirSync(fake, { recursive: true });
  writeFileSync(path.join(fake, 'package.json'), JSON.stringify({ name: 'electron', version: '0.0.0-stand-in', type: 'module', main: 'index.js' }) + '\n');
  await build({ entryPoints: [path.join(here, 'main-process.ts')], outfile: path.join(fake, 'index.js'), bundle: true, platform: 'node', format: 'esm', target: 'node22', logLevel: 'warning' });
  const browserSide = await build({ entryPoints: [path.join(here, 'renderer-process.ts')], bundle: true, write: false, platform: 'browser', format: 'iife', globalName: '__fakeElectron', target: 'chrome130', logLevel: 'warning' });
  const fakeRenderer = browserSide.outputFiles[0]!.text;
  /** The init script of a window: the stand-in, then the preload as a sandboxed CommonJS function. */
  const initScriptFor = (preload: string): string => {
    const code = readFileSync(preload, 'utf8');
    return [
      '(() => {',
      '  if (window.top !== window) return; // preloads run in the main frame only',
      fakeRenderer,
      `  Object.defineProperty(window, ${JSON.stringify(DELIVER)}, { value: __fakeElectron.deliver, enumerable: false });`,
      `  Object.defineProperty(window, ${JSON.stringify(LISTENERS)}, { value: (channel) => __fakeElectron.electron.ipcRenderer.listenerCount(channel), enumerable: false });`,
      '  const require = (id) => {',
      "    if (id === 'electron') return __fakeElectron.electron;",
      "    throw new Error(`module not found: ${id} (a sandboxed preload can require only electron)`);",
      '  };',
      '  const module = { exports: {} };',
      '  (function (require, module, exports) {',
      code,
      '  })(require, module, module.exports);',
      '})();',
    ].join('\n');
  };
  return { mainEntry: built.main, rendererIndex: built.renderer, initScriptFor };
}

export interface ShellOptions {
  /** Folder prepared by prepareShell (the main bundle is dir/main/index.js). */
  dir: string;
  initScriptFor: (preload: string) => string;
  context: BrowserContext;
  /** Arguments after the app entry (a workspace path). */
  args: string[];
  /** Environment of the main process (added to this one's). */
  env?: Record<string, string>;
}

/** The running desktop app: its main process and its windows. */
export class DesktopShell {
  private readonly child: ChildProcess;
  private readonly windows = new Map<number, WindowState>();
  private readonly calls = new Map<number, (r: { ok: true; value: unknown } | { ok: false; message: string }) => void>();
  private nextCall = 1;
  private output = '';
  private windowWaiters: Array<(w: ShellWindow) => void> = [];
  private lifecycle: Promise<void> = Promise.resolve();
  readonly exited: Promise<number | null>;
  /** dialog.showErrorBox calls. */
  readonly errorBoxes: Array<{ title: string; content: string }> = [];
  /** Every message main sent to a window, in order (channel and arguments). */
  readonly delivered: Array<{ window: number; channel: string; args: unknown[] }> = [];

  constructor(private readonly o: ShellOptions) {
    const node = path.join(root, 'node_modules', '.bin', 'node');
    this.child = fork(path.join(o.dir, 'main', 'index.js'), o.args, {
      execPath: node,
      cwd: root,
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: { ...process.env, ...o.env },
    });
    this.child.stdout!.on('data', (d: Buffer) => (this.output += d.toString()));
    this.child.stderr!.on('data', (d: Buffer) => (this.output += d.toString()));
    this.child.on('message', (m) => this.dispatch(m as MainMessage));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    void this.exited.then(() => {
      for (const [, r] of this.calls) r({ ok: false, message: 'the main process exited' });
      this.calls.clear();
    });
  }

  /** The main process's output so far. */
  log(): string {
    return this.output;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  private send(m: HostMessage): void {
    if (this.child.connected) this.child.send(m);
  }

  private request<T>(make: (call: number) => HostMessage): Promise<T> {
    const call = this.nextCall++;
    return new Promise<T>((resolve, reject) => {
      this.calls.set(call, (r) => (r.ok ? resolve(r.value as T) : reject(new Error(r.message))));
      this.send(make(call));
    });
  }

  /** The first window the app opened, once the app has loaded something into it. */
  async firstWindow(timeoutMs = 60_000): Promise<ShellWindow> {
    const w =
      this.windows.values().next().value ??
      (await new Promise<ShellWindow>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no window within ${timeoutMs / 1000} s; main process output:\n${this.output}`)), timeoutMs);
        this.windowWaiters.push((w) => {
          clearTimeout(timer);
          resolve(w);
        });
      }));
    await w.loaded;
    return w;
  }

  /** Queues the answers of the next native dialogs (an empty path list cancels an open dialog, null a save dialog). */
  answerDialogs(open: string[][], save: Array<string | null> = []): void {
    this.send({ t: 'dialog-answers', open, save });
  }

  /** What the app did to Electron so far. */
  inspect(): Promise<MainState> {
    return this.request<MainState>((call) => ({ t: 'inspect', call }));
  }

  /**
   * Opens another page that is wired to window `windowId` of the app (same preload, same web
   * contents on the main side) at `url`: a frame of the app's window showing something else.
   */
  async openAsWindow(windowId: number, url: string): Promise<Page> {
    const w = this.windows.get(windowId);
    if (!w) throw new Error(`no window ${windowId}`);
    const page = await this.o.context.newPage();
    await this.wirePage(page, windowId, w.spec);
    await page.goto(url);
    return page;
  }

  /** The user minimises window `windowId`. */
  minimize(windowId: number): void {
    this.send({ t: 'minimize', window: windowId });
  }

  /**
   * Launches the app a second time (its own main process, same environment and so the same user's
   * app data folder) with `args`, as a user starting QPairs again would; resolves once that process
   * has ended (killed after `timeoutMs`) with its exit code, how many windows it opened and its output.
   */
  async secondLaunch(args: string[], timeoutMs = 60_000): Promise<{ code: number | null; windows: number; log: string }> {
    const second = new DesktopShell({ ...this.o, args });
    const timer = setTimeout(() => second.child.kill('SIGKILL'), timeoutMs);
    const code = await second.exited;
    clearTimeout(timer);
    const windows = second.windows.size;
    for (const w of second.windows.values()) await w.page.close().catch(() => {});
    return { code, windows, log: second.output };
  }

  /** app.quit(); resolves with the main process's exit code (killed after 15 s). */
  async quit(): Promise<number | null> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.child.exitCode;
    this.send({ t: 'quit' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    const code = await this.exited;
    clearTimeout(timer);
    for (const w of this.windows.values()) await w.page.close().catch(() => {});
    return code;
  }

  private async wirePage(page: Page, windowId: number, spec: WindowSpec): Promise<void> {
    await page.exposeBinding('__qpairsFakeElectronInvoke', async (source, channel: string, args: unknown[]) =>
      new Promise((resolve) => {
        const call = this.nextCall++;
        this.calls.set(call, resolve);
        this.send({ t: 'invoke', call, window: windowId, frameUrl: source.frame.url(), channel, args });
      }),
    );
    const preload = spec.webPreferences.preload;
    if (typeof preload === 'string') await page.addInitScript({ content: this.o.initScriptFor(preload) });
  }

  /**
   * Replies and sends are handled at once (a page load may wait on replies); window life-cycle
   * messages one after another, in the order main sent them.
   */
  private dispatch(m: MainMessage): void {
    if (m.t === 'reply' || m.t === 'send') {
      void this.onMessage(m);
      return;
    }
    this.lifecycle = this.lifecycle.then(() => this.onMessage(m)).catch((e: unknown) => {
      this.output += `[host] ${(e as Error)?.stack ?? String(e)}\n`;
    });
  }

  private async onMessage(m: MainMessage): Promise<void> {
    switch (m.t) {
      case 'reply': {
        const r = this.calls.get(m.call);
        this.calls.delete(m.call);
        r?.(m.ok ? { ok: true, value: m.value } : { ok: false, message: m.message });
        break;
      }
      case 'window': {
        let markLoaded = (): void => {};
        const loaded = new Promise<void>((r) => (markLoaded = r));
        const page = await this.o.context.newPage();
        await page.setViewportSize({ width: m.window.width, height: m.window.height });
        const w: WindowState = { spec: m.window, page, url: null, loaded, markLoaded, refused: [], queue: [], flushing: false };
        this.windows.set(m.window.id, w);
        await this.wirePage(page, m.window.id, m.window);
        page.on('close', () => {
          if (this.windows.get(m.window.id) === w) {
            this.windows.delete(m.window.id);
            this.send({ t: 'closed', window: m.window.id });
          }
        });
        // window.open: Electron asks setWindowOpenHandler before any window exists; here the popup
        // is closed at once when the app denies it.
        page.on('popup', (popup) => {
          void this.request<string>((call) => ({ t: 'window-open', call, window: m.window.id, url: popup.url() })).then(async (action) => {
            if (action === 'deny') {
              w.refused.push(popup.url());
              await popup.close().catch(() => {});
            }
          });
        });
        // Renderer-initiated navigations (http/https; Playwright cannot route file://) go to will-navigate first.
        await page.route(/^https?:/, async (route) => {
          const req = route.request();
          if (req.isNavigationRequest() && req.frame() === page.mainFrame()) {
            const allowed = await this.request<boolean>((call) => ({ t: 'will-navigate', call, window: m.window.id, url: req.url() }));
            if (!allowed) {
              w.refused.push(req.url());
              return route.abort('aborted'); // net::ERR_ABORTED commits no error page: the app stays, as after preventDefault()
            }
          }
          return route.continue();
        });
        for (const fn of this.windowWaiters.splice(0)) fn(w);
        break;
      }
      case 'load': {
        const w = this.windows.get(m.window);
        if (!w) break;
        await w.page.goto(m.url);
        w.url = m.url;
        w.markLoaded();
        this.send({ t: 'loaded', window: m.window });
        this.flush(w);
        break;
      }
      case 'send': {
        const w = this.windows.get(m.window);
        this.delivered.push({ window: m.window, channel: m.channel, args: m.args });
        if (!w) break;
        w.queue.push({ channel: m.channel, args: m.args });
        this.flush(w);
        break;
      }
      case 'close': {
        const w = this.windows.get(m.window);
        this.windows.delete(m.window);
        await w?.page.close().catch(() => {});
        break;
      }
      case 'title': {
        const w = this.windows.get(m.window);
        if (w) w.spec.title = m.title;
        break;
      }
      case 'error-box':
        this.errorBoxes.push({ title: m.title, content: m.content });
        break;
    }
  }

  /** Hands queued messages to the page in order, one batch at a time (dropped while no page listens, as in Electron). */
  private flush(w: WindowState): void {
    if (w.flushing || w.url === null) return;
    w.flushing = true;
    void (async () => {
      while (w.queue.length > 0) {
        const batch = w.queue.splice(0);
        await w.page
          .evaluate(([name, b]) => (window as unknown as Record<string, ((m: unknown) => void) | undefined>)[name]?.(b), [DELIVER, batch] as const)
          .catch(() => {}); // page navigating or closed: those messages had no listener
      }
      w.flushing = false;
    })();
  }
}
