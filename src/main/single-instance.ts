/**
 * One desktop app per user (Electron's single-instance lock, taken in index.ts): a second launch
 * quits at once, and this one brings its window to the front (restored if minimised). When the
 * second launch named another workspace, the window is told (the `shell.secondLaunch` event) and
 * offers to open it — it never switches by itself: the user may be in the middle of labeling.
 */
import { app, BrowserWindow } from 'electron';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sendToWindows } from './ipc';

/**
 * The workspace a command line names: the first non-flag argument after the app entry (`electron . W`
 * or `electron out/main/index.js W`; a packaged app's arguments start after the executable), made
 * absolute against `cwd`.
 */
export function workspaceFromArgv(argv: readonly string[], packaged: boolean, cwd: string): string | null {
  const rest = argv.slice(packaged ? 1 : 2);
  const w = rest.find((a) => a && !a.startsWith('-'));
  return w ? path.resolve(cwd, w) : null;
}

/** What a second launch handed over (requestSingleInstanceLock's additionalData in index.ts). */
function namedWorkspace(data: unknown): string | null {
  const w = (data as { workspace?: unknown } | null)?.workspace;
  return typeof w === 'string' && path.isAbsolute(w) ? w : null;
}

/** Listens for second launches; `openNow` gives the workspace open here (null before it opened). */
export function onSecondLaunch(openNow: () => string | null): void {
  app.on('second-instance', (_e, _argv, _cwd, data) => {
    const win = BrowserWindow.getAllWindows().find((w) => !w.isDestroyed());
    if (win) {
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
    }
    const named = namedWorkspace(data);
    const open = openNow();
    const other = named !== null && open !== null && path.resolve(open) !== named ? named : null;
    sendToWindows('shell.secondLaunch', { workspace: other, exists: other !== null && existsSync(other) });
  });
}
