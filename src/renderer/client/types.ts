import type { CommandArgs, CommandName, CommandResult, QPairsClient, WireError, WireReason } from '../../shared/contract';
import type { ShellCommandArgs, ShellCommandName, ShellEventPayloads, ShellResults } from '../../shared/shell-contract';

/** `transport`: the request never got an answer (network down, server gone) — worth retrying. */
export type ClientErrorCode = WireError['code'] | 'transport';

/** Every failure of a client call: the engine's WireError, or a transport failure. */
export class ClientError extends Error {
  constructor(
    message: string,
    readonly code: ClientErrorCode,
    readonly status?: number,
    /** The engine's reason code (WireError.reason), what a screen acts on rather than the message's words. */
    readonly reason?: WireReason,
    /** A busy refusal's (429) Retry-After, in seconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ClientError';
  }
}

/**
 * What a refused request says once the server no longer takes this page's token (revoked, or a
 * newer link made): as the connection chip's "access ended" — not the server's "open the link with
 * ?token=…", which the person did.
 */
export const ACCESS_ENDED = 'access ended: this link no longer works (access revoked, or a newer link was made); ask the workspace’s owner for a new one';

export function isTransportError(e: unknown): boolean {
  return e instanceof ClientError && e.code === 'transport';
}

/**
 * State of the event stream (always "open" over Electron IPC). `ended`: the server refused this
 * page's token (revoked, or no longer valid) — final: nothing is retried, a new link is needed.
 */
/** Whether a command failed because this link's access ended (the server answered 401). */
export function isAccessEnded(e: unknown): boolean {
  return e instanceof ClientError && e.status === 401;
}

export type ConnectionState = 'connecting' | 'open' | 'closed' | 'ended';

export interface UploadedSource {
  uploadId: string;
  name: string;
}

/** The renderer's client: the contract's invoke/on plus what differs between the two transports. */
export interface AppClient extends QPairsClient {
  readonly transport: 'electron' | 'http';
  /**
   * The contract's invoke; `signal` gives up on the request (browser: the fetch is aborted, its connection freed; IPC: ignored).
   * `requestId` (browser): names the request, so that `onHand` can ask about it.
   */
  invoke<C extends CommandName>(command: C, args: CommandArgs<C>, opts?: { signal?: AbortSignal; requestId?: string }): Promise<CommandResult<C>>;
  /**
   * Browser only: whether the server still has request `requestId` on hand (received, being worked on: it is busy, not
   * out of reach); false: it answers but has no such request (lost on the way, or answered and the answer lost);
   * null: no answer (out of reach).
   */
  onHand?(requestId: string): Promise<boolean | null>;
  /** Desktop only: the native file picker; absolute paths ([] when cancelled). */
  pickFiles?(opts?: { title?: string; multiple?: boolean }): Promise<string[]>;
  /** Desktop only: the native save dialog; an absolute path, or null when cancelled. */
  pickSavePath?(opts?: { title?: string; defaultPath?: string }): Promise<string | null>;
  /** Desktop only: a command of the app's shell (shell-contract.ts: dialogs, opening another workspace); the owner's. */
  shell?<C extends ShellCommandName>(command: C, args: ShellCommandArgs<C>): Promise<ShellResults[C]>;
  /** Desktop only: subscribes to one of the shell's events; returns the unsubscribe function. */
  onShell?<E extends keyof ShellEventPayloads>(event: E, listener: (payload: ShellEventPayloads[E]) => void): () => void;
  /** Browser only: uploads one file to the server for an import; `signal` stops it (the server drops what it received). */
  upload?(file: Blob, name: string, signal?: AbortSignal): Promise<UploadedSource>;
  /**
   * Browser only: subscribes to how many reads the server refused as busy (429) wait to be sent again
   * (client/busy-retry.ts); called at once with the current count.
   */
  onWaiting?(fn: (waiting: number) => void): () => void;
  /** Subscribes to the event-stream state; called at once with the current state. */
  onConnection(fn: (state: ConnectionState) => void): () => void;
  close(): void;
}

/** What the preload exposes as `window.qpairs` (see src/preload/index.ts). */
export interface QPairsBridge {
  invoke(command: string, args: unknown): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

export type IpcReply = { ok: true; result: unknown } | { ok: false; error: WireError };
