/**
 * The desktop shell's main process: opens one workspace (the path given on the command line, else
 * the last one opened, else ~/.qpairs/demo.qpairs, created from the demo corpus on first run), wires the engine to
 * IPC and opens the window. The user may open another workspace from the app (shell-commands.ts,
 * desktop-workspace.ts). One app per user: a second launch quits at once and brings this window to
 * the front (single-instance.ts). All the work happens in the engine; this file only touches Electron.
 */
import { app, dialog } from 'electron';
import os from 'node:os';
import path from 'node:path';
import { DesktopWorkspace } from './desktop-workspace';
import { cancelJobsOnStop } from './engine/stop-jobs';
import { lastRefusedNote, startupWorkspace, type StartupChoice } from './engine/recent-workspace';
import { registerIpc } from './ipc';
import { shellHandlers, windowTitle } from './shell-commands';
import { onSecondLaunch, workspaceFromArgv } from './single-instance';
import { createMainWindow, hardenApp, isAppUrl } from './window';

/** Where the demo workspace and the memory of the last workspaces live (QPAIRS_CONFIG_DIR, else ~/.qpairs). */
const CONFIG_DIR = process.env.QPAIRS_CONFIG_DIR || path.join(os.homedir(), '.qpairs');

/** The workspace this launch names, made absolute here (the first instance may run in another folder). */
const given = workspaceFromArgv(process.argv, app.isPackaged, process.cwd());

// A config folder of its own (QPAIRS_CONFIG_DIR: a test, a second profile) gets Electron's data folder of its
// own too, and with it its own single-instance lock: one app per user and config folder.
if (process.env.QPAIRS_CONFIG_DIR) app.setPath('userData', path.join(CONFIG_DIR, 'electron'));

// One app per user: a second launch hands its workspace to the first (its 'second-instance') and quits.
if (!app.requestSingleInstanceLock({ workspace: given })) {
  app.quit();
} else {
  const desktop = new DesktopWorkspace({ configDir: CONFIG_DIR, version: app.getVersion(), preloadIndex: true, log: (m) => console.warn(m) });
  /** The workspace chosen at start-up (for the refusal's advice when it cannot be opened). */
  let startup: StartupChoice | null = null;
  let unregister: (() => void) | null = null;
  let started = false;
  let jobsStopped = false;

  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', (e) => {
    // A running import (or undo, training, export…) is cancelled first and quitting waits for it, so its
    // committed chunks are rolled back now, as Cancel does — not left for the next open to undo as a crash's.
    if (!jobsStopped && started) {
      jobsStopped = true;
      const stopping = cancelJobsOnStop(desktop.engine, (line) => console.log(line));
      if (stopping.cancelled > 0) {
        e.preventDefault();
        void stopping.settled.finally(() => app.quit());
        return;
      }
    }
    unregister?.();
    desktop.close();
  });
  onSecondLaunch(() => desktop.file);

  app
    .whenReady()
    .then(async () => {
      hardenApp();
      startup = startupWorkspace(given, CONFIG_DIR, path.join(CONFIG_DIR, 'demo.qpairs'));
      await desktop.start(startup);
      started = true;
      unregister = registerIpc(desktop, isAppUrl, shellHandlers(desktop, CONFIG_DIR));
      createMainWindow(windowTitle(startup.workspace));
    })
    .catch((e: unknown) => {
      desktop.close();
      const message = (e as Error)?.message ?? String(e);
      dialog.showErrorBox('QPairs could not start', startup?.reason === 'last' ? `${message}\n\n${lastRefusedNote(startup.workspace)}` : message);
      app.exit(1);
    });
}
