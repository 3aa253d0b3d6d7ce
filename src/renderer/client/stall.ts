/**
 * Serve mode's wait for an answer: a request with none after STALL_MS is taken as lost on the way
 * (the network may have swallowed it; the operating system may not give up on its connection for
 * minutes). The label outbox resends labels after it (labelQueue.ts stallMs); an undo or a redo,
 * sent directly, gets a transport failure after it, so the page says "not confirmed" and the key
 * may be pressed again (the engine answers a repeated undo or redo with the one it saved).
 */
import type { CommandArgs, CommandName, CommandResult, QPairsClient } from '../../shared/contract';
import { ClientError, type AppClient } from './types';

/** A client that may say its transport (the app's does; a test's contract-only client need not: no limit then). */
type MaybeHttpClient = QPairsClient & Partial<Pick<AppClient, 'transport'>>;

export const STALL_MS = 20_000;

/** How long a request of this client may go unanswered before it is taken as lost (none over IPC: the main process always answers). */
export function stallMsOf(client: Partial<Pick<AppClient, 'transport'>>): number | undefined {
  return client.transport === 'http' ? STALL_MS : undefined;
}

/** `client.invoke`, given up on (aborted: its connection freed) with a transport failure after `ms` without an answer. */
export async function invokeOrStall<C extends CommandName>(client: MaybeHttpClient, command: C, args: CommandArgs<C>, ms = stallMsOf(client)): Promise<CommandResult<C>> {
  if (ms === undefined) return client.invoke(command, args);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new ClientError(`no answer from the server in ${Math.round(ms / 1000)} s`, 'transport')), ms);
  try {
    // The browser's client (transport 'http': stallMsOf) takes the signal and aborts its fetch.
    return await (client as AppClient).invoke(command, args, { signal: abort.signal });
  } finally {
    clearTimeout(timer);
  }
}
