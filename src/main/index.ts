/**
 * The desktop shell's main process: opens one workspace (the path given on the command line, else
 * the last one opened, else ~/.qpairs/demo.qpairs, created from the demo corpus on first run), wires the engine to
 * IPC and opens the window. All the work happens in the engine; this file only touches Electron.
 */
import { app, dialog } from 'electron';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine } from './engine/engine';
import { Workspace } from './workspace/workspace';
import { acquireWorkspaceLock, type WorkspaceLock } from './workspace/lock';
import { ensureDemoWorkspace } from './engine/demo';
import { cancelJobsOnStop } from './engine/stop-jobs';
import { lastMissingNote, lastRefusedNote, rememberWorkspace, startupWorkspace, type StartupChoice } from './engine/recent-workspace';
import { registerIpc } from './ipc';
import { createMainWindow, hardenApp, isAppUrl } from './window';

/** The first non-flag argument after the app entry (`electron . W` or `electron out/main/index.js W`). */
function workspaceFromArgv(argv: readonly string[]): string | null {
  const rest = argv.slice(app.isPackaged ? 1 : 2);
  const w = rest.find((a) => a && !a.startsWith('-'));
  return w ? path.resolve(w) : null;
}

let lock: WorkspaceLock | null = null;

/** The app writes to its workspace for its lifetime: it holds the workspace lock (see workspace/lock.ts). */
function lockWorkspace(file: string): void {
  lock = acquireWorkspaceLock(file, { command: `QPairs desktop app (${file})`, onNote: (m) => console.warn(m) });
}

/** Where the demo workspace and the memory of the last workspace live (QPAIRS_CONFIG_DIR, else ~/.qpairs). */
const CONFIG_DIR = process.env.QPAIRS_CONFIG_DIR || path.join(os.homedir(), '.qpairs');

/** Makes the chosen workspace when it is new: the demo (created on first run) or a path with no file yet. */
async function createIfNew(choice: StartupChoice): Promise<void> {
  if (choice.reason === 'demo') {
    const demo = choice.workspace;
    mkdirSync(path.dirname(demo), { recursive: true });
    if (!existsSync(demo)) lockWorkspace(demo);
    await ensureDemoWorkspace(demo);
    return;
  }
  // A new path starts a new, empty workspace.
  if (!existsSync(choice.workspace)) {
    lockWorkspace(choice.workspace);
    Workspace.create(choice.workspace).close();
  }
}

let engine: Engine | null = null;
/** The workspace chosen at start-up (for the refusal's advice when it cannot be opened). */
let startup: StartupChoice | null = null;
let unregister: (() => void) | null = null;

let jobsStopped = false;

app.on('window-all-closed', () => app.quit());
app.on('will-quit', (e) => {
  // A running import (or undo, training, export…) is cancelled first and quitting waits for it, so its
  // committed chunks are rolled back now, as Cancel does — not left for the next open to undo as a crash's.
  if (!jobsStopped && engine) {
    jobsStopped = true;
    const stopping = cancelJobsOnStop(engine, (line) => console.log(line));
    if (stopping.cancelled > 0) {
      e.preventDefault();
      void stopping.settled.finally(() => app.quit());
      return;
    }
  }
  unregister?.();
  engine?.close();
  engine = null;
  lock?.release();
  lock = null;
});

app
  .whenReady()
  .then(async () => {
    hardenApp();
    startup = startupWorkspace(workspaceFromArgv(process.argv), CONFIG_DIR, path.join(CONFIG_DIR, 'demo.qpairs'));
    await createIfNew(startup);
    const { workspace, reason, lastMissing } = startup;
    // The last workspace is gone: the demo opened instead, which the user is told above every screen.
    const startNotices = lastMissing ? [{ kind: 'last-missing' as const, message: lastMissingNote(lastMissing, workspace) }] : [];
    engine = Engine.open(workspace, { transport: 'electron', version: app.getVersion(), preloadIndex: true, startNotices });
    // Remembered once it opened: one refused (a newer QPairs wrote it, not a workspace, damaged) must not
    // replace the last one that opened, or every later start would reopen the refusal.
    if (reason !== 'demo') rememberWorkspace(CONFIG_DIR, workspace);
    // A read-only workspace needs no lock (nothing can write it); its writes fail saying so.
    if (!engine.ws.readonly && !lock) lockWorkspace(workspace);
    unregister = registerIpc(engine, isAppUrl);
    createMainWindow(`QPairs — ${path.basename(workspace)}`);
  })
  .catch((e: unknown) => {
    lock?.release();
    const message = (e as Error)?.message ?? String(e);
    dialog.showErrorBox('QPairs could not start', startup?.reason === 'last' ? `${message}\n\n${lastRefusedNote(startup.workspace)}` : message);
    app.exit(1);
  });
