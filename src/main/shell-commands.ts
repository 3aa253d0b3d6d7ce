/**
 * The desktop shell's answers to the shell commands of src/shared/shell-contract.ts: the native
 * file dialogs, and opening another workspace (an existing one, a new one, a recent one) in place
 * of the open one (desktop-workspace.ts does the switch; this file does the dialogs and the window).
 */
import { BrowserWindow, dialog } from 'electron';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { WorkspaceSwitch } from '../shared/shell-contract';
import { QPairsError } from './errors';
import { recentWorkspaces } from './engine/recent-workspace';
import { newWorkspacePath, type DesktopWorkspace } from './desktop-workspace';
import type { ShellHandlers } from './ipc';

const WORKSPACE_FILTERS = [{ name: 'QPairs workspaces', extensions: ['qpairs'] }];

/** The window title for a workspace. */
export function windowTitle(file: string): string {
  return `QPairs — ${path.basename(file)}`;
}

async function openDialog(win: BrowserWindow | null, options: Electron.OpenDialogOptions): Promise<string[]> {
  const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
  return r.canceled ? [] : r.filePaths;
}

async function saveDialog(win: BrowserWindow | null, options: Electron.SaveDialogOptions): Promise<string | null> {
  const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
  return r.canceled || !r.filePath ? null : r.filePath;
}

export function shellHandlers(desktop: DesktopWorkspace, configDir: string): ShellHandlers {
  /** Refused before any dialog while a job runs (the dialog's choice would be refused anyway). */
  const refuseWhileBusy = (): void => {
    const busy = desktop.busyReason();
    if (busy) throw new QPairsError(busy);
  };
  const switched = async (file: string, create: boolean): Promise<WorkspaceSwitch> => {
    await desktop.switchTo(file, { create });
    for (const w of BrowserWindow.getAllWindows()) if (!w.isDestroyed()) w.setTitle(windowTitle(file));
    return { opened: true, workspaceName: path.basename(file) };
  };
  return {
    'dialog.openFiles': async (a, win) => ({
      paths: await openDialog(win, { title: a.title ?? 'Choose files to import', properties: a.multiple ? ['openFile', 'multiSelections'] : ['openFile'] }),
    }),
    'dialog.saveFile': async (a, win) => ({
      path: await saveDialog(win, { title: a.title ?? 'Export to', ...(a.defaultPath ? { defaultPath: a.defaultPath } : {}), properties: ['createDirectory', 'showOverwriteConfirmation'] }),
    }),
    'shell.openWorkspace': async (a, win) => {
      refuseWhileBusy();
      const chosen = a.path ?? (await openDialog(win, { title: 'Open workspace', filters: WORKSPACE_FILTERS, properties: ['openFile'] }))[0];
      return chosen ? switched(chosen, false) : { opened: false };
    },
    'shell.newWorkspace': async (a, win) => {
      refuseWhileBusy();
      // A path a second launch named is made as that launch would have made it: that very name.
      if (a.path) return switched(path.resolve(a.path), true);
      const folder = desktop.file ? path.dirname(desktop.file) : undefined;
      const chosen = await saveDialog(win, {
        title: 'New workspace',
        buttonLabel: 'Create',
        filters: WORKSPACE_FILTERS,
        ...(folder ? { defaultPath: path.join(folder, 'new workspace.qpairs') } : {}),
        properties: ['createDirectory'],
      });
      return chosen ? switched(newWorkspacePath(chosen), true) : { opened: false };
    },
    'shell.recentWorkspaces': async () => ({
      workspaces: recentWorkspaces(configDir).map((p) => ({ path: p, name: path.basename(p), exists: existsSync(p), current: p === desktop.file })),
    }),
  };
}
