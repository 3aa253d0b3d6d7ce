/**
 * The app window and the web-contents hardening: context isolation, sandbox, no Node in the
 * renderer, web security on, no new windows, no navigation away from the app, no webviews, no
 * permission grants.
 */
import { app, BrowserWindow, session } from 'electron';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const RENDERER_INDEX = path.join(import.meta.dirname, '../renderer/index.html');
const PRELOAD = path.join(import.meta.dirname, '../preload/index.cjs');
/** electron-vite's dev server, during `electron-vite dev` only. */
const DEV_URL = !app.isPackaged ? process.env['ELECTRON_RENDERER_URL'] : undefined;

/** Whether a URL is the app itself (the built index.html, or the dev server in development). */
export function isAppUrl(url: string): boolean {
  if (DEV_URL) {
    try {
      return new URL(url).origin === new URL(DEV_URL).origin;
    } catch {
      return false;
    }
  }
  const index = pathToFileURL(RENDERER_INDEX).href;
  return url === index || url.startsWith(index + '#') || url.startsWith(index + '?');
}

/** Applies the hardening to every web contents the app ever creates. Call once, before windows. */
export function hardenApp(): void {
  app.on('web-contents-created', (_e, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-navigate', (ev, url) => {
      if (!isAppUrl(url)) ev.preventDefault();
    });
    contents.on('will-redirect', (ev, url) => {
      if (!isAppUrl(url)) ev.preventDefault();
    });
    contents.on('will-attach-webview', (ev) => ev.preventDefault());
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}

export function createMainWindow(title: string): BrowserWindow {
  const win = new BrowserWindow({
    title,
    width: 1360,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    show: false,
    backgroundColor: '#f7f7f5',
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  // Keep the workspace name in the title (the page sets its own <title>).
  win.on('page-title-updated', (e) => e.preventDefault());
  if (DEV_URL) void win.loadURL(DEV_URL);
  else void win.loadFile(RENDERER_INDEX);
  return win;
}
