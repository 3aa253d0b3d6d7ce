/**
 * The Electron shell (ipc.ts, window.ts) with `electron` mocked — the binary cannot run on every
 * machine; tests/e2e/electron.spec.ts drives the real thing where it is installed.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ContractError, isCommandName, parseArgs } from '../shared/contract';
import { shellCommandArgs } from '../shared/shell-contract';
import { EventHub } from './engine/events';
import { QPairsError } from './errors';

const h = vi.hoisted(() => {
  const handlers = new Map<string, (...a: unknown[]) => unknown>();
  const appListeners = new Map<string, (...a: unknown[]) => void>();
  const windows: Array<{ opts: Record<string, unknown>; sent: unknown[][]; loaded: string | null }> = [];
  return { handlers, appListeners, windows, dialogResult: { canceled: false, filePaths: ['/data/dev.xml'] } };
});

vi.mock('electron', () => {
  class BrowserWindow {
    static getAllWindows = () => h.windows.map((w) => ({ isDestroyed: () => false, webContents: { isDestroyed: () => false, send: (...a: unknown[]) => w.sent.push(a) } }));
    static fromWebContents = () => null;
    private rec: { opts: Record<string, unknown>; sent: unknown[][]; loaded: string | null };
    constructor(opts: Record<string, unknown>) {
      this.rec = { opts, sent: [], loaded: null };
      h.windows.push(this.rec);
    }
    once(): void {}
    on(): void {}
    show(): void {}
    loadFile(f: string): Promise<void> {
      this.rec.loaded = f;
      return Promise.resolve();
    }
    loadURL(u: string): Promise<void> {
      this.rec.loaded = u;
      return Promise.resolve();
    }
  }
  return {
    app: { isPackaged: false, on: (ev: string, fn: (...a: unknown[]) => void) => h.appListeners.set(ev, fn) },
    BrowserWindow,
    ipcMain: { handle: (ch: string, fn: (...a: unknown[]) => unknown) => h.handlers.set(ch, fn), removeHandler: (ch: string) => h.handlers.delete(ch) },
    dialog: { showOpenDialog: async () => h.dialogResult },
    session: { defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() } },
  };
});

const { registerIpc, INVOKE_CHANNEL, EVENT_CHANNEL } = await import('./ipc');
const win = await import('./window');
const { shellHandlers } = await import('./shell-commands');
const { DesktopWorkspace } = await import('./desktop-workspace');

/** The shell commands of an app with no workspace open yet (the dialogs need none). */
const shell = () => shellHandlers(new DesktopWorkspace({ configDir: path.join(import.meta.dirname, 'no-such-config'), version: '0' }), path.join(import.meta.dirname, 'no-such-config'));
/** An engine that stays the open one. */
const fixed = (engine: FakeEngine) => ({ engine: engine as never, onOpened: () => () => {} });

class FakeEngine {
  readonly hub = new EventHub();
  async invoke(command: unknown, args: unknown): Promise<unknown> {
    if (!isCommandName(command)) throw new ContractError(`unknown command: ${String(command)}`, 'invalid-argument');
    const a = parseArgs(command, args) as Record<string, unknown>;
    if (command === 'pool.progress') throw new QPairsError(`pool "${String(a.pool)}" does not exist`);
    return { command };
  }
}

const appUrl = pathToFileURL(path.join(import.meta.dirname, '../renderer/index.html')).href;
const event = (url: string) => ({ senderFrame: { url }, sender: {} });

describe('ipc.ts', () => {
  beforeEach(() => {
    h.handlers.clear();
    h.windows.length = 0;
  });

  it('answers commands as {ok, result} and engine errors as {ok: false, error: WireError}', async () => {
    const engine = new FakeEngine();
    const off = registerIpc(fixed(engine), win.isAppUrl, shell());
    const handle = h.handlers.get(INVOKE_CHANNEL)!;
    await expect(handle(event(appUrl), 'app.info', {})).resolves.toEqual({ ok: true, result: { command: 'app.info' } });
    await expect(handle(event(appUrl), 'pool.create', { name: '' })).resolves.toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    await expect(handle(event(appUrl), 'pool.progress', { pool: 'x' })).resolves.toEqual({ ok: false, error: { code: 'user-error', message: 'pool "x" does not exist' } });
    await expect(handle(event(appUrl), 'nope', {})).resolves.toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    off();
    expect(h.handlers.has(INVOKE_CHANNEL)).toBe(false);
  });

  it('shell commands are their own names (no engine command is shadowed) and are validated against shell-contract.ts', async () => {
    for (const c of Object.keys(shellCommandArgs)) expect(isCommandName(c), c).toBe(false);
    registerIpc(fixed(new FakeEngine()), win.isAppUrl, shell());
    const handle = h.handlers.get(INVOKE_CHANNEL)!;
    await expect(handle(event(appUrl), 'shell.openWorkspace', { path: '' })).resolves.toEqual({
      ok: false,
      error: { code: 'invalid-argument', message: 'invalid arguments for shell.openWorkspace: path: Too small: expected string to have >=1 characters' },
    });
    await expect(handle(event(appUrl), 'shell.recentWorkspaces', {})).resolves.toEqual({ ok: true, result: { workspaces: [] } });
  });

  it('refuses IPC from any page but the app', async () => {
    registerIpc(fixed(new FakeEngine()), win.isAppUrl, shell());
    const handle = h.handlers.get(INVOKE_CHANNEL)!;
    await expect(handle(event('https://evil.example/'), 'app.info', {})).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await expect(handle(event('file:///tmp/other.html'), 'app.info', {})).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('answers dialog.openFiles with the chosen paths', async () => {
    registerIpc(fixed(new FakeEngine()), win.isAppUrl, shell());
    const handle = h.handlers.get(INVOKE_CHANNEL)!;
    await expect(handle(event(appUrl), 'dialog.openFiles', {})).resolves.toEqual({ ok: true, result: { paths: ['/data/dev.xml'] } });
    h.dialogResult = { canceled: true, filePaths: [] };
    await expect(handle(event(appUrl), 'dialog.openFiles', { multiple: false })).resolves.toEqual({ ok: true, result: { paths: [] } });
    await expect(handle(event(appUrl), 'dialog.openFiles', { multiple: 'yes' })).resolves.toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
  });

  it("words a dialog command's invalid arguments as the engine does (one line naming each field), not as zod's JSON", async () => {
    registerIpc(fixed(new FakeEngine()), win.isAppUrl, shell());
    const handle = h.handlers.get(INVOKE_CHANNEL)!;
    await expect(handle(event(appUrl), 'dialog.openFiles', { title: 5 })).resolves.toEqual({
      ok: false,
      error: { code: 'invalid-argument', message: 'invalid arguments for dialog.openFiles: title: Invalid input: expected string, received number' },
    });
    await expect(handle(event(appUrl), 'dialog.saveFile', [])).resolves.toEqual({
      ok: false,
      error: { code: 'invalid-argument', message: 'invalid arguments for dialog.saveFile: (arguments): Invalid input: expected object, received array' },
    });
  });

  it('forwards every engine event to the windows', () => {
    const engine = new FakeEngine();
    registerIpc(fixed(engine), win.isAppUrl, shell());
    win.createMainWindow('QPairs — t');
    engine.hub.emit('workspace.changed', { what: 'pool' });
    expect(h.windows[0]!.sent).toEqual([[EVENT_CHANNEL, 'workspace.changed', { what: 'pool' }]]);
  });
});

describe('window.ts', () => {
  it('opens a sandboxed, context-isolated window without Node, loading the built renderer', () => {
    h.windows.length = 0;
    win.createMainWindow('QPairs — t');
    const prefs = h.windows[0]!.opts.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
    expect(String(prefs.preload)).toMatch(/preload[\\/]index\.cjs$/);
    expect(h.windows[0]!.loaded).toMatch(/renderer[\\/]index\.html$/);
  });

  it('denies new windows, navigation away and webviews for every web contents', () => {
    win.hardenApp();
    const created = h.appListeners.get('web-contents-created')!;
    const on = new Map<string, (...a: unknown[]) => void>();
    let openHandler: (() => unknown) | null = null;
    created({}, { setWindowOpenHandler: (fn: () => unknown) => (openHandler = fn), on: (ev: string, fn: (...a: unknown[]) => void) => on.set(ev, fn) });
    expect(openHandler!()).toEqual({ action: 'deny' });
    const nav = (url: string): boolean => {
      const ev = { prevented: false, preventDefault() {
        this.prevented = true;
      } };
      on.get('will-navigate')!(ev, url);
      return ev.prevented;
    };
    expect(nav('https://example.com/')).toBe(true);
    expect(nav('file:///etc/passwd')).toBe(true);
    expect(nav(appUrl)).toBe(false);
    expect(nav(`${appUrl}#annotate`)).toBe(false);
    const wv = { prevented: false, preventDefault() {
      this.prevented = true;
    } };
    on.get('will-attach-webview')!(wv);
    expect(wv.prevented).toBe(true);
  });
});
