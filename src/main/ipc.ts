/**
 * The Electron IPC transport: one invoke channel carrying contract commands to the engine (the
 * engine validates every argument) and one event channel forwarding every engine event to the
 * app's windows. Replies are `{ok: true, result}` or `{ok: false, error: WireError}` so errors
 * keep their code across IPC (a thrown error would arrive as a bare string).
 *
 * Shell commands the engine cannot answer (they need Electron) are handled here on the same
 * channel, so the preload still exposes only `invoke` and `on`:
 *   dialog.openFiles {title?, multiple?} → {paths: string[]}   (empty when cancelled)
 *   dialog.saveFile {title?, defaultPath?} → {path: string | null}   (null when cancelled)
 */
import { BrowserWindow, dialog, ipcMain, type IpcMainInvokeEvent } from 'electron';
import { z } from 'zod';
import { invalidArgumentsMessage, type WireError } from '../shared/contract';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../shared/ipc-channels';
import type { Engine } from './engine/engine';
import { toWireError } from './serve/wire';

/** The channels, from the list the preload shares (src/shared/ipc-channels.ts). */
export { EVENT_CHANNEL, INVOKE_CHANNEL };

export type IpcReply = { ok: true; result: unknown } | { ok: false; error: WireError };

const openFilesArgs = z.object({ title: z.string().max(200).optional(), multiple: z.boolean().default(true) });
const saveFileArgs = z.object({ title: z.string().max(200).optional(), defaultPath: z.string().max(4096).optional() });

/** A dialog command's refusal, worded as the engine words its own (contract.ts), not zod's JSON dump. */
function invalidDialogArgs(command: string, error: z.ZodError): IpcReply {
  return { ok: false, error: { code: 'invalid-argument', message: invalidArgumentsMessage(command, error) } };
}

/**
 * Registers the invoke handler (the only one on INVOKE_CHANNEL: Electron allows one per channel)
 * and forwards every engine event to every window on EVENT_CHANNEL. Calls from a frame whose URL
 * `isAppUrl` does not accept are refused with `forbidden`. Returns the function that undoes both.
 */
export function registerIpc(engine: Engine, isAppUrl: (url: string) => boolean): () => void {
  const trusted = (e: IpcMainInvokeEvent): boolean => {
    const url = e.senderFrame?.url ?? '';
    return isAppUrl(url);
  };

  ipcMain.handle(INVOKE_CHANNEL, async (e, command: unknown, args: unknown): Promise<IpcReply> => {
    if (!trusted(e)) return { ok: false, error: { code: 'forbidden', message: 'IPC from an untrusted page refused' } };
    try {
      if (command === 'dialog.openFiles') {
        const a = openFilesArgs.safeParse(args ?? {});
        if (!a.success) return invalidDialogArgs(command, a.error);
        const win = BrowserWindow.fromWebContents(e.sender);
        const options: Electron.OpenDialogOptions = {
          title: a.data.title ?? 'Choose files to import',
          properties: a.data.multiple ? ['openFile', 'multiSelections'] : ['openFile'],
        };
        const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
        return { ok: true, result: { paths: r.canceled ? [] : r.filePaths } };
      }
      if (command === 'dialog.saveFile') {
        const a = saveFileArgs.safeParse(args ?? {});
        if (!a.success) return invalidDialogArgs(command, a.error);
        const win = BrowserWindow.fromWebContents(e.sender);
        const options: Electron.SaveDialogOptions = {
          title: a.data.title ?? 'Export to',
          ...(a.data.defaultPath ? { defaultPath: a.data.defaultPath } : {}),
          properties: ['createDirectory', 'showOverwriteConfirmation'],
        };
        const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
        return { ok: true, result: { path: r.canceled || !r.filePath ? null : r.filePath } };
      }
      return { ok: true, result: await engine.invoke(command, args, { annotator: null }) };
    } catch (err) {
      return { ok: false, error: toWireError(err) };
    }
  });

  const off = engine.hub.onAny((name, payload) => {
    for (const win of BrowserWindow.getAllWindows()) {
      if (!win.isDestroyed() && !win.webContents.isDestroyed()) win.webContents.send(EVENT_CHANNEL, name, payload);
    }
  });

  return () => {
    off();
    ipcMain.removeHandler(INVOKE_CHANNEL);
  };
}
