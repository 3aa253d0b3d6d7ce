import type { CommandArgs, CommandName, CommandResult, EventName, EventPayloads } from '../../shared/contract';
import type { ShellCommandArgs, ShellCommandName, ShellEventPayloads, ShellResults } from '../../shared/shell-contract';
import { ClientError, type AppClient, type ConnectionState, type IpcReply, type QPairsBridge } from './types';

function unwrap(reply: unknown): unknown {
  const r = reply as IpcReply | null;
  if (!r || typeof r !== 'object' || typeof r.ok !== 'boolean') throw new ClientError('malformed reply from the main process', 'internal');
  if (!r.ok) throw new ClientError(r.error?.message ?? 'unknown error', r.error?.code ?? 'internal', undefined, r.error?.reason);
  return r.result;
}

/** The desktop transport: Electron IPC through the preload's `window.qpairs`. */
export function createIpcClient(bridge: QPairsBridge): AppClient {
  const call = async (command: string, args: unknown): Promise<unknown> => {
    let reply: unknown;
    try {
      reply = await bridge.invoke(command, args);
    } catch (e) {
      throw new ClientError(`IPC failed: ${(e as Error)?.message ?? String(e)}`, 'transport');
    }
    return unwrap(reply);
  };
  const shell = <C extends ShellCommandName>(command: C, args: ShellCommandArgs<C>): Promise<ShellResults[C]> => call(command, args) as Promise<ShellResults[C]>;
  return {
    transport: 'electron',
    shell,
    onShell: <E extends keyof ShellEventPayloads>(event: E, listener: (payload: ShellEventPayloads[E]) => void) => bridge.on(event, listener as (p: unknown) => void),
    invoke: <C extends CommandName>(command: C, args: CommandArgs<C>) => call(command, args) as Promise<CommandResult<C>>,
    on: <E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void) => bridge.on(event, listener as (p: unknown) => void),
    pickFiles: async (opts = {}) => {
      const r = (await shell('dialog.openFiles', opts)) as { paths?: unknown };
      return Array.isArray(r?.paths) ? r.paths.filter((p): p is string => typeof p === 'string') : [];
    },
    pickSavePath: async (opts = {}) => {
      const r = (await shell('dialog.saveFile', opts)) as { path?: unknown };
      return typeof r?.path === 'string' && r.path ? r.path : null;
    },
    onConnection: (fn: (s: ConnectionState) => void) => {
      fn('open');
      return () => {};
    },
    close: () => {},
  };
}
