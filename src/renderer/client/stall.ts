/**
 * Serve mode's wait for an answer: a request with none after STALL_MS may have been lost on the way
 * (the network may have swallowed it; the operating system may not give up on its connection for
 * minutes) — or the server may be busy with it (a label waits behind a long write). The page then
 * asks the server, off the engine's path, whether it still has the request (AppClient.onHand): while
 * it has, the page keeps waiting for the answer (a second copy would only queue behind the first);
 * otherwise the request is taken as lost. The label outbox resends labels then (labelQueue.ts
 * stallMs); an undo or a redo, sent directly, gets a transport failure, so the page says "not
 * confirmed" and the key may be pressed again (the engine answers a repeated undo or redo with the
 * one it saved).
 */
import type { CommandArgs, CommandName, CommandResult, QPairsClient } from '../../shared/contract';
import { ClientError, type AppClient } from './types';

/** A client that may say its transport (the app's does; a test's contract-only client need not: no limit then). */
type MaybeHttpClient = QPairsClient & Partial<Pick<AppClient, 'transport' | 'onHand'>>;

export const STALL_MS = 20_000;

/** How long a request of this client may go unanswered before it is taken as lost (none over IPC: the main process always answers). */
export function stallMsOf(client: Partial<Pick<AppClient, 'transport'>>): number | undefined {
  return client.transport === 'http' ? STALL_MS : undefined;
}

/** A random request id (crypto.getRandomValues works on a plain-HTTP page too, unlike randomUUID). */
export function newRequestId(): string {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * What the server says of a request with no answer after `ms`: 'busy' (it has it on hand), 'lost' (it answers but has
 * no such request), 'unreachable' (no answer to the question either, or no way to ask).
 */
export type StallVerdict = 'busy' | 'lost' | 'unreachable';

export async function stallVerdict(onHand: AppClient['onHand'], requestId: string): Promise<StallVerdict> {
  const held = onHand ? await onHand(requestId).catch(() => null) : null;
  return held === true ? 'busy' : held === false ? 'lost' : 'unreachable';
}

/** What a request given up on after `ms` says, by the verdict. */
export function stallMessage(ms: number, verdict: Exclude<StallVerdict, 'busy'>): string {
  const after = `no answer from the server in ${Math.round(ms / 1000)} s`;
  return verdict === 'lost' ? `${after}: it answers, but the request never reached it (or its answer was lost)` : after;
}

/** What an undo's or a redo's page says while the server, busy, works on it (invokeOrStall onBusy). */
export const busyWith = (what: 'undo' | 'redo'): string => `The server is busy: waiting for its answer to the ${what} (not done until it answers).`;

/**
 * `client.invoke`, given up on (aborted: its connection freed) with a transport failure once it has had no answer for
 * `ms` and the server does not have it on hand; while the server says it has it (busy), waited for, `onBusy` told once.
 */
export async function invokeOrStall<C extends CommandName>(client: MaybeHttpClient, command: C, args: CommandArgs<C>, ms = stallMsOf(client), onBusy?: () => void): Promise<CommandResult<C>> {
  if (ms === undefined) return client.invoke(command, args);
  const abort = new AbortController();
  const requestId = newRequestId();
  let settled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let toldBusy = false;
  const check = async (): Promise<void> => {
    const verdict = await stallVerdict(client.onHand?.bind(client), requestId);
    if (settled) return;
    if (verdict === 'busy') {
      if (!toldBusy) onBusy?.();
      toldBusy = true;
      timer = setTimeout(() => void check(), ms);
      return;
    }
    abort.abort(new ClientError(stallMessage(ms, verdict), 'transport'));
  };
  timer = setTimeout(() => void check(), ms);
  try {
    // The browser's client (transport 'http': stallMsOf) takes the signal and aborts its fetch.
    return await (client as AppClient).invoke(command, args, { signal: abort.signal, requestId });
  } finally {
    settled = true;
    clearTimeout(timer);
  }
}
