/**
 * The Electron IPC transport: one invoke channel carrying contract commands to the engine (the
 * engine validates every argument) and one event channel forwarding every engine event to the
 * app's windows. Replies are `{ok: true, result}` or `{ok: false, error: WireError}` so errors
 * keep their code across IPC (a thrown error would arrive as a bare string).
 *
 * Shell commands the engine cannot answer (they need Electron: native dialogs, opening another
 * workspace) travel on the same channel, so the preload still exposes only `invoke` and `on`; they
 * are declared in src/shared/shell-contract.ts (names, argument schemas, results), validated here
 * and answered by the handlers the shell gives (shell-commands.ts).
 */
import { BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron';
import { invalidArgumentsMessage, type EventName, type EventPayloads, type WireError } from '../shared/contract';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../shared/ipc-channels';
import { isShellCommandName, shellCommandArgs, type ParsedShellArgs, type ShellCommandName, type ShellEventPayloads, type ShellResults } from '../shared/shell-contract';
import type { Engine } from './engine/engine';
import { toWireError } from './serve/wire';

/** The channels, from the list the preload shares (src/shared/ipc-channels.ts). */
export { EVENT_CHANNEL, INVOKE_CHANNEL };

export type IpcReply = { ok: true; result: unknown } | { ok: false; error: WireError };

/** The shell's answer to each shell command; `win` is the calling window (null when it is gone). */
export type ShellHandlers = { [C in ShellCommandName]: (args: ParsedShellArgs<C>, win: BrowserWindow | null) => Promise<ShellResults[C]> };

/** The engine commands go to: the open workspace's, which changes when the user opens another. */
export interface EngineSource {
  readonly engine: Engine;
  /** Calls `fn` with each engine opened from now on; returns the unsubscribe function. */
  onOpened(fn: (engine: Engine) => void): () => void;
}

/** Sends one event (the engine's, or the shell's own) to every window of the app. */
export function sendToWindows<E extends EventName | keyof ShellEventPayloads>(name: E, payload: E extends EventName ? EventPayloads[E] : ShellEventPayloads[E & keyof ShellEventPayloads]): void {
  for (const win of BrowserWindow.getAllWindows()) {
    if (!win.isDestroyed() && !win.webContents.isDestroyed()) win.webContents.send(EVENT_CHANNEL, name, payload);
  }
}

async function runShellCommand<C extends ShellCommandName>(command: C, args: unknown, handlers: ShellHandlers, e: IpcMainInvokeEvent): Promise<IpcReply> {
  const a = shellCommandArgs[command].safeParse(args ?? {});
  // A refusal worded as the engine words its own (contract.ts), not zod's JSON dump.
  if (!a.success) return { ok: false, error: { code: 'invalid-argument', message: invalidArgumentsMessage(command, a.error) } };
  const handler = handlers[command] as (args: unknown, win: BrowserWindow | null) => Promise<unknown>;
  return { ok: true, result: await handler(a.data, BrowserWindow.fromWebContents(e.sender)) };
}

/**
 * Registers the invoke handler (the only one on INVOKE_CHANNEL: Electron allows one per channel)
 * and forwards every event of the open engine (and of each one opened later) to every window on
 * EVENT_CHANNEL. Calls from a frame whose URL `isAppUrl` does not accept are refused with
 * `forbidden`. Returns the function that undoes both.
 */
export function registerIpc(source: EngineSource, isAppUrl: (url: string) => boolean, shell: ShellHandlers): () => void {
  const trusted = (e: IpcMainInvokeEvent): boolean => isAppUrl(e.senderFrame?.url ?? '');

  ipcMain.handle(INVOKE_CHANNEL, async (e, command: unknown, args: unknown): Promise<IpcReply> => {
    if (!trusted(e)) return { ok: false, error: { code: 'forbidden', message: 'IPC from an untrusted page refused' } };
    try {
      if (isShellCommandName(command)) return await runShellCommand(command, args, shell, e);
      // The desktop app's caller is its owner, the one role shell commands need (SHELL_COMMAND_ROLE).
      return { ok: true, result: await source.engine.invoke(command, args, { annotator: null }) };
    } catch (err) {
      return { ok: false, error: toWireError(err) };
    }
  });

  const forward = (engine: Engine): (() => void) => engine.hub.onAny((name, payload) => sendToWindows(name, payload as never));
  let off = forward(source.engine);
  const offOpened = source.onOpened((engine) => {
    off();
    off = forward(engine);
  });

  return () => {
    off();
    offOpened();
    ipcMain.removeHandler(INVOKE_CHANNEL);
  };
}
