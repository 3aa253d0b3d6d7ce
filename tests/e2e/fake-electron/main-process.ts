/**
 * A stand-in for the `electron` module of the main process, for running the app's real main
 * bundle (electron-vite's out/main/index.js) on plain Node where the Electron binary cannot be
 * installed. The host (host.ts) installs it as `node_modules/electron` beside the built bundle
 * and starts that bundle as a child process; the Electron side it cannot have — windows, their
 * web contents and the renderer — is played by the host with Playwright pages, over Node's IPC
 * channel (protocol.ts, structured clone).
 *
 * It implements only what QPairs' main process uses, following Electron's documented semantics:
 *  - ipcMain.handle: one handler per channel (a second one throws "Attempted to register a second
 *    handler for 'CHANNEL'"); invoke arguments and replies are structured-cloned (an uncloneable
 *    reply rejects the renderer's invoke); a handler that throws rejects the invoke with
 *    "Error invoking remote method 'CHANNEL': ERROR"; no handler rejects with "No handler
 *    registered for 'CHANNEL'"; the event carries `sender` (the window's web contents) and
 *    `senderFrame.url` (the calling frame's URL, reported by the host);
 *  - webContents.send structured-clones its arguments (it throws for a function);
 *  - app: whenReady, on/once, quit (before-quit, windows closed, will-quit, quit — no
 *    window-all-closed, as for app.quit() in Electron), exit, getVersion (the app's package.json),
 *    isPackaged false; web-contents-created for every window's contents;
 *  - app.getPath/setPath('userData') (default ~/.config/QPairs, from HOME; no other name);
 *  - app.requestSingleInstanceLock(additionalData): true for the first process of an app data
 *    folder (getPath('userData')), false for any later one while the first
 *    runs; the first then gets 'second-instance' (event, argv, workingDirectory, additionalData —
 *    structured-cloned) from its event loop. The lock is a file holding the holder's pid (a dead
 *    holder's is taken over) and goes when the process exits; the second launch's message is a file
 *    the first one picks up (see singleInstance below);
 *  - BrowserWindow: getAllWindows, fromWebContents, loadFile/loadURL (the host navigates a page),
 *    ready-to-show after the first load, closed; setTitle/getTitle (the host's window spec follows),
 *    minimize/isMinimized/restore, focus/isFocused (reported to the host);
 *  - webContents: setWindowOpenHandler and will-navigate (the host asks before letting a page
 *    open a window or navigate), will-attach-webview (emitted once per contents to check the app
 *    prevents it);
 *  - session.defaultSession permission handlers (recorded and queried);
 *  - dialog: showOpenDialog/showSaveDialog answer with the paths the test queued (none: cancelled),
 *    showErrorBox is reported to the host.
 * Anything else is absent, so a main process that starts using more of Electron fails loudly here.
 */
import { EventEmitter } from 'node:events';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, watch, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HostMessage, MainMessage, MainState, WindowSpec } from './protocol';

function toHost(m: MainMessage): void {
  if (!process.send) throw new Error('the stand-in electron main process must be started by the test host (no IPC channel)');
  process.send(m);
}

/** Structured clone, with Electron's message on failure. */
function clone<T>(v: T): T {
  try {
    return structuredClone(v);
  } catch {
    throw new Error('An object could not be cloned.');
  }
}

// ------------------------------------------------------------------ app

class App extends EventEmitter {
  readonly isPackaged = false;
  private readyPromise: Promise<void> = new Promise((r) => setImmediate(r));
  private quitting = false;

  whenReady(): Promise<void> {
    return this.readyPromise;
  }

  isReady(): boolean {
    return true;
  }

  getName(): string {
    return 'QPairs';
  }

  /** Electron: the version field of the app's package.json when not packaged. */
  getVersion(): string {
    try {
      const pkg = JSON.parse(readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')) as { version?: string };
      return pkg.version ?? '0.0.0';
    } catch {
      return '0.0.0';
    }
  }

  private userData: string | null = null;

  /** Only 'userData' (Electron's default on Linux: ~/.config/APP-NAME, or what setPath set). */
  getPath(name: string): string {
    if (name === 'userData') return this.userData ?? path.join(os.homedir(), '.config', this.getName());
    throw new Error(`app.getPath('${name}') is not provided by the stand-in electron`);
  }

  /** Only 'userData' (an absolute path, as Electron requires); before the single-instance lock, as in Electron. */
  setPath(name: string, p: string): void {
    if (name !== 'userData') throw new Error(`app.setPath('${name}') is not provided by the stand-in electron`);
    if (!path.isAbsolute(p)) throw new Error(`Path must be absolute: ${p}`);
    this.userData = p;
  }

  quit(): void {
    if (this.quitting) return;
    const ev = { defaultPrevented: false, preventDefault(): void {
      this.defaultPrevented = true;
    } };
    this.emit('before-quit', ev);
    if (ev.defaultPrevented) return;
    this.quitting = true;
    for (const w of BrowserWindow.getAllWindows()) w.destroyFromMain();
    const wq = { defaultPrevented: false, preventDefault(): void {
      this.defaultPrevented = true;
    } };
    this.emit('will-quit', wq);
    if (wq.defaultPrevented) {
      this.quitting = false;
      return;
    }
    this.emit('quit', {}, 0);
    setImmediate(() => process.exit(0));
  }

  exit(code = 0): void {
    process.exit(code);
  }

  requestSingleInstanceLock(additionalData?: Record<string, unknown>): boolean {
    return singleInstance.request(additionalData ?? {});
  }

  hasSingleInstanceLock(): boolean {
    return singleInstance.held;
  }

  releaseSingleInstanceLock(): void {
    singleInstance.release();
  }
}

/**
 * Electron's single-instance lock, between processes of one app data folder: that folder
 * (app.getPath('userData'), `~/.config/QPairs` by default on Linux) holds `SingletonLock` (the holder's pid, made with O_EXCL) and
 * `second-instance/`, where a later launch writes its argv, working directory and additionalData
 * before it is told false; the holder watches that folder and emits 'second-instance' for each.
 */
const singleInstance = {
  held: false,
  dir(): string {
    return app.getPath('userData');
  },
  pidAlive(pid: number): boolean {
    try {
      process.kill(pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
  request(additionalData: Record<string, unknown>): boolean {
    if (this.held) return true;
    const dir = this.dir();
    const inbox = path.join(dir, 'second-instance');
    mkdirSync(inbox, { recursive: true });
    const lock = path.join(dir, 'SingletonLock');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(lock, 'wx');
        writeSync(fd, String(process.pid));
        closeSync(fd);
        this.held = true;
        process.on('exit', () => this.release());
        this.listen(inbox);
        return true;
      } catch {
        const holder = Number(readFileSync(lock, 'utf8').trim());
        if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && this.pidAlive(holder)) {
          // Handed to the first instance: written whole, then renamed into the folder it watches.
          const tmp = path.join(dir, `.second-instance-${process.pid}`);
          writeFileSync(tmp, JSON.stringify({ argv: process.argv, cwd: process.cwd(), data: clone(additionalData) }));
          renameSync(tmp, path.join(inbox, `${process.pid}-${Date.now()}.json`));
          return false;
        }
        rmSync(lock, { force: true }); // its holder is gone: taken over
      }
    }
    return false;
  },
  listen(inbox: string): void {
    const pick = (): void => {
      for (const f of readdirSync(inbox).filter((n) => n.endsWith('.json')).sort()) {
        const file = path.join(inbox, f);
        let m: { argv: string[]; cwd: string; data: unknown };
        try {
          m = JSON.parse(readFileSync(file, 'utf8')) as typeof m;
          unlinkSync(file);
        } catch {
          continue;
        }
        app.emit('second-instance', {}, m.argv, m.cwd, m.data);
      }
    };
    const w = watch(inbox, () => pick());
    w.unref();
    pick();
  },
  release(): void {
    if (!this.held) return;
    this.held = false;
    rmSync(path.join(this.dir(), 'SingletonLock'), { force: true });
  },
};

export const app = new App();

// ------------------------------------------------------------------ web contents and windows

let nextWindowId = 1;
const windows = new Map<number, BrowserWindow>();

class WebContents extends EventEmitter {
  private destroyed = false;
  windowOpenHandler: ((details: { url: string }) => { action: 'allow' | 'deny' }) | null = null;
  webviewPrevented = false;

  constructor(readonly id: number) {
    super();
  }

  /** Sends to the window's page: arguments structured-cloned (a function throws, as in Electron). */
  send(channel: string, ...args: unknown[]): void {
    if (this.destroyed) throw new Error('Object has been destroyed');
    const cloned = clone(args);
    const key = `${channel}|${typeof args[0] === 'string' ? args[0] : ''}`;
    sent[key] = (sent[key] ?? 0) + 1;
    toHost({ t: 'send', window: this.id, channel, args: cloned });
  }

  setWindowOpenHandler(fn: (details: { url: string }) => { action: 'allow' | 'deny' }): void {
    this.windowOpenHandler = fn;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  destroy(): void {
    this.destroyed = true;
  }
}

export class BrowserWindow extends EventEmitter {
  readonly id: number;
  readonly webContents: WebContents;
  private destroyed = false;
  private shown = false;
  private loadedOnce = false;
  private pendingLoad: { resolve: () => void } | null = null;
  readonly spec: WindowSpec;

  constructor(options: { title?: string; width?: number; height?: number; show?: boolean; webPreferences?: Record<string, unknown> } = {}) {
    super();
    this.id = nextWindowId++;
    this.webContents = new WebContents(this.id);
    this.shown = options.show !== false;
    this.spec = { id: this.id, title: options.title ?? '', width: options.width ?? 800, height: options.height ?? 600, webPreferences: clone(options.webPreferences ?? {}) };
    windows.set(this.id, this);
    app.emit('web-contents-created', {}, this.webContents);
    // The app's hardening is expected to refuse webviews: ask it once for every contents.
    const wv = { defaultPrevented: false, preventDefault(): void {
      this.defaultPrevented = true;
    } };
    this.webContents.emit('will-attach-webview', wv, {}, {});
    this.webContents.webviewPrevented = wv.defaultPrevented;
    app.emit('browser-window-created', {}, this);
    toHost({ t: 'window', window: this.spec });
  }

  static getAllWindows(): BrowserWindow[] {
    return [...windows.values()];
  }

  static fromWebContents(wc: unknown): BrowserWindow | null {
    return [...windows.values()].find((w) => w.webContents === wc) ?? null;
  }

  static fromId(id: number): BrowserWindow | null {
    return windows.get(id) ?? null;
  }

  loadFile(file: string): Promise<void> {
    return this.loadURL(pathToFileURL(path.resolve(file)).href);
  }

  loadURL(url: string): Promise<void> {
    toHost({ t: 'load', window: this.id, url });
    return new Promise((resolve) => {
      this.pendingLoad = { resolve };
    });
  }

  /** Called when the host reports the page loaded. */
  loaded(): void {
    this.webContents.emit('did-finish-load');
    this.pendingLoad?.resolve();
    this.pendingLoad = null;
    if (!this.loadedOnce) {
      this.loadedOnce = true;
      this.emit('ready-to-show');
    }
  }

  show(): void {
    this.shown = true;
  }

  setTitle(title: string): void {
    this.spec.title = title;
    toHost({ t: 'title', window: this.id, title });
  }

  getTitle(): string {
    return this.spec.title;
  }

  minimize(): void {
    this.minimized = true;
  }

  isMinimized(): boolean {
    return this.minimized;
  }

  restore(): void {
    this.minimized = false;
  }

  focus(): void {
    this.focusCount++;
  }

  /** How many times the app focused the window (the host's inspect reports it). */
  focusCount = 0;
  private minimized = false;

  isVisible(): boolean {
    return this.shown && !this.destroyed;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  close(): void {
    if (this.destroyed) return;
    toHost({ t: 'close', window: this.id });
    this.closedByUser();
  }

  /** The window is gone (closed by the user, or by close()): closed, then window-all-closed when it was the last. */
  closedByUser(): void {
    if (this.destroyed) return;
    this.destroyFromMain();
    if (windows.size === 0) app.emit('window-all-closed');
  }

  /** Destroys the window without window-all-closed (app.quit() closes windows that way). */
  destroyFromMain(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.webContents.destroy();
    windows.delete(this.id);
    this.emit('closed');
  }
}

// ------------------------------------------------------------------ ipcMain

interface InvokeEvent {
  processId: number;
  frameId: number;
  sender: WebContents;
  senderFrame: { url: string; processId: number; routingId: number };
}

type InvokeHandler = (event: InvokeEvent, ...args: unknown[]) => unknown;
const handlers = new Map<string, InvokeHandler>();

export const ipcMain = {
  handle(channel: string, handler: InvokeHandler): void {
    if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    handlers.set(channel, handler);
  },
  handleOnce(channel: string, handler: InvokeHandler): void {
    ipcMain.handle(channel, (e, ...a) => {
      handlers.delete(channel);
      return handler(e, ...a);
    });
  },
  removeHandler(channel: string): void {
    handlers.delete(channel);
  },
};

async function invoke(m: Extract<HostMessage, { t: 'invoke' }>): Promise<void> {
  const reply = (r: { ok: true; value: unknown } | { ok: false; message: string }): void => {
    try {
      toHost({ t: 'reply', call: m.call, ...r } as MainMessage);
    } catch {
      toHost({ t: 'reply', call: m.call, ok: false, message: `Error invoking remote method '${m.channel}': Error: An object could not be cloned.` });
    }
  };
  const win = windows.get(m.window);
  const handler = handlers.get(m.channel);
  if (!win) return reply({ ok: false, message: `no window ${m.window}` });
  if (!handler) return reply({ ok: false, message: `Error invoking remote method '${m.channel}': Error: No handler registered for '${m.channel}'` });
  try {
    const event: InvokeEvent = { processId: 1, frameId: 1, sender: win.webContents, senderFrame: { url: m.frameUrl, processId: 1, routingId: 1 } };
    const value = await handler(event, ...m.args);
    reply({ ok: true, value });
  } catch (e) {
    reply({ ok: false, message: `Error invoking remote method '${m.channel}': ${String(e)}` });
  }
}

// ------------------------------------------------------------------ session, dialog

let permissionRequest: ((wc: unknown, permission: string, callback: (granted: boolean) => void) => void) | null = null;
let permissionCheck: ((wc: unknown, permission: string) => boolean) | null = null;

export const session = {
  defaultSession: {
    setPermissionRequestHandler(fn: typeof permissionRequest): void {
      permissionRequest = fn;
    },
    setPermissionCheckHandler(fn: typeof permissionCheck): void {
      permissionCheck = fn;
    },
  },
};

const openAnswers: string[][] = [];
const saveAnswers: Array<string | null> = [];
const dialogsShown: MainState['dialogs'] = [];
const sent: Record<string, number> = {};

/** The options argument of a dialog call (the window argument is optional). */
function dialogOptions(a: unknown, b: unknown): Record<string, unknown> {
  return ((a instanceof BrowserWindow ? b : a) ?? {}) as Record<string, unknown>;
}

export const dialog = {
  async showOpenDialog(a: unknown, b?: unknown): Promise<{ canceled: boolean; filePaths: string[] }> {
    dialogsShown.push({ kind: 'open', options: clone(dialogOptions(a, b)) });
    const paths = openAnswers.shift() ?? [];
    return { canceled: paths.length === 0, filePaths: paths };
  },
  async showSaveDialog(a: unknown, b?: unknown): Promise<{ canceled: boolean; filePath: string }> {
    dialogsShown.push({ kind: 'save', options: clone(dialogOptions(a, b)) });
    const p = saveAnswers.shift() ?? null;
    return { canceled: p === null, filePath: p ?? '' };
  },
  showErrorBox(title: string, content: string): void {
    console.error(`[electron dialog] ${title}: ${content}`);
    toHost({ t: 'error-box', title, content });
  },
};

// ------------------------------------------------------------------ the host's messages

function state(): MainState {
  let granted: boolean | null = null;
  permissionRequest?.(null, 'media', (g) => (granted = g));
  return {
    windows: [...windows.values()].map((w) => w.spec),
    windowStates: [...windows.values()].map((w) => ({ id: w.id, minimized: w.isMinimized(), focused: w.focusCount, visible: w.isVisible() })),
    handlers: [...handlers.keys()],
    permissionRequestGranted: granted,
    permissionCheckGranted: permissionCheck ? permissionCheck(null, 'media') : null,
    dialogs: dialogsShown,
    windowOpenHandlers: [...windows.values()].filter((w) => w.webContents.windowOpenHandler).map((w) => w.id),
    webviewsPrevented: [...windows.values()].map((w) => w.webContents.webviewPrevented),
    sentEvents: { ...sent },
  };
}

process.on('message', (raw) => {
  const m = raw as HostMessage;
  switch (m.t) {
    case 'invoke':
      void invoke(m);
      break;
    case 'loaded':
      windows.get(m.window)?.loaded();
      break;
    case 'closed':
      windows.get(m.window)?.closedByUser();
      break;
    case 'will-navigate': {
      const wc = windows.get(m.window)?.webContents;
      const ev = { url: m.url, defaultPrevented: false, preventDefault(): void {
        this.defaultPrevented = true;
      } };
      wc?.emit('will-navigate', ev, m.url);
      toHost({ t: 'reply', call: m.call, ok: true, value: !ev.defaultPrevented });
      break;
    }
    case 'window-open': {
      const h = windows.get(m.window)?.webContents.windowOpenHandler;
      toHost({ t: 'reply', call: m.call, ok: true, value: h ? h({ url: m.url }).action : 'allow' });
      break;
    }
    case 'dialog-answers':
      openAnswers.push(...m.open);
      saveAnswers.push(...m.save);
      break;
    case 'inspect':
      toHost({ t: 'reply', call: m.call, ok: true, value: state() });
      break;
    case 'quit':
      app.quit();
      break;
    case 'minimize':
      windows.get(m.window)?.minimize();
      break;
  }
});

// The test host went away (the test ended or crashed): quit as the app would, leaving nothing behind.
process.on('disconnect', () => app.quit());

export default { app, BrowserWindow, dialog, ipcMain, session };
