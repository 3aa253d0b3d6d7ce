import type { CommandArgs, CommandName, CommandResult, EventName, EventPayloads, WireError, WireReason } from '../../shared/contract';
import { EXPORT_FILES_EXIST } from '../../shared/gold';
import { LABEL_SUPERSEDED } from '../../shared/labels';
import { sendRetryingBusyReads } from './busy-retry';
import { ACCESS_ENDED, ClientError, type AppClient, type ConnectionState, type UploadedSource } from './types';

type WSLike = {
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  close(): void;
};

export interface HttpClientOptions {
  /** Origin of the server, e.g. "http://127.0.0.1:5180" (default: the page's origin). */
  baseUrl: string;
  fetch?: typeof fetch;
  WebSocket?: new (url: string) => WSLike;
  /** Reconnect delays in ms (the last one repeats). */
  reconnectDelays?: number[];
}

const WIRE_CODES: ReadonlySet<string> = new Set(['invalid-argument', 'not-found', 'user-error', 'internal', 'forbidden', 'busy', 'storage-full']);
/** The contract's WIRE_REASONS (the contract's values are not imported here: its zod would trip the page's CSP). */
const WIRE_REASONS: ReadonlySet<string> = new Set<WireReason>([EXPORT_FILES_EXIST, LABEL_SUPERSEDED]);

async function errorFrom(res: Response): Promise<ClientError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    /* not JSON: a proxy or a dying server */
  }
  const w = body as Partial<WireError> | null;
  if (w && typeof w.message === 'string' && typeof w.code === 'string' && WIRE_CODES.has(w.code)) {
    const reason = typeof w.reason === 'string' && WIRE_REASONS.has(w.reason) ? (w.reason as WireReason) : undefined;
    const retryAfter = res.status === 429 ? Number(res.headers.get('Retry-After') ?? NaN) : NaN;
    return new ClientError(w.message, w.code as WireError['code'], res.status, reason, Number.isFinite(retryAfter) ? retryAfter : undefined);
  }
  const transient = res.status === 502 || res.status === 503 || res.status === 504 || res.status === 408;
  return new ClientError(`HTTP ${res.status} ${res.statusText}`.trim(), transient ? 'transport' : 'internal', res.status);
}

/** How long the page waits for the server to say whether it still has a request (onHand). */
export const ON_HAND_PROBE_MS = 5000;

/** The browser transport: POST /api/invoke, POST /api/upload and the /api/events WebSocket. */
export function createHttpClient(opts: HttpClientOptions): AppClient {
  const base = opts.baseUrl.replace(/\/$/, '');
  const doFetch = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const WS = opts.WebSocket ?? (globalThis.WebSocket as unknown as new (url: string) => WSLike);
  const delays = opts.reconnectDelays ?? [500, 1000, 2000, 4000, 8000];

  const post = async (path: string, body: BodyInit, contentType: string, signal?: AbortSignal, requestId?: string): Promise<unknown> => {
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': contentType, 'X-QPairs': '1', ...(requestId ? { 'X-QPairs-Request': requestId } : {}) },
        body,
        credentials: 'same-origin',
        cache: 'no-store',
        ...(signal ? { signal } : {}),
      });
    } catch (e) {
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new DOMException('cancelled', 'AbortError');
      throw new ClientError(`cannot reach the QPairs server (${(e as Error)?.message ?? String(e)})`, 'transport');
    }
    if (!res.ok) {
      // 401 only ever means "missing or invalid token" (revoked, or a link that no longer works).
      if (res.status === 401) {
        end();
        throw new ClientError(ACCESS_ENDED, 'forbidden', 401);
      }
      throw await errorFrom(res);
    }
    try {
      return await res.json();
    } catch (e) {
      throw new ClientError(`the connection broke while reading the answer (${(e as Error).message})`, 'transport');
    }
  };

  /** Reads refused as busy that wait to be sent again (busy-retry.ts), and who is told how many. */
  let waiting = 0;
  const waitingListeners = new Set<(n: number) => void>();
  const onWaiting = (delta: 1 | -1): void => {
    waiting += delta;
    for (const fn of [...waitingListeners]) fn(waiting);
  };

  // ------------------------------------------------------------ events
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const stateListeners = new Set<(s: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let ws: WSLike | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  /** The token was refused (401, or the socket closed as revoked): no more reconnecting. */
  let ended = false;

  const setState = (s: ConnectionState): void => {
    if (s === state) return;
    state = s;
    for (const fn of [...stateListeners]) fn(s);
  };

  /** Access ended: the socket closes for good and the state says so (it is never "reconnecting"). */
  function end(): void {
    if (ended || closed) return;
    ended = true;
    if (timer) clearTimeout(timer);
    timer = null;
    const sock = ws;
    ws = null;
    sock?.close();
    setState('ended');
  }

  /** After the socket closed: a refused upgrade looks like any network failure, so ask whether the token still works. */
  const probe = async (): Promise<void> => {
    try {
      const res = await doFetch(`${base}/api/health`, { method: 'GET', credentials: 'same-origin', cache: 'no-store' });
      if (res.status === 401) end();
    } catch {
      /* unreachable: keep reconnecting */
    }
  };

  const connect = (): void => {
    if (closed || ended || ws) return;
    const url = base.replace(/^http/, 'ws') + '/api/events';
    let sock: WSLike;
    try {
      sock = new WS(url);
    } catch {
      schedule();
      return;
    }
    ws = sock;
    sock.onopen = () => {
      attempt = 0;
      setState('open');
    };
    sock.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      let msg: { event?: unknown; payload?: unknown };
      try {
        msg = JSON.parse(ev.data) as typeof msg;
      } catch {
        return;
      }
      if (typeof msg.event !== 'string') return;
      for (const fn of [...(listeners.get(msg.event) ?? [])]) {
        try {
          fn(msg.payload);
        } catch (e) {
          console.error(`listener for ${msg.event} failed`, e);
        }
      }
    };
    sock.onerror = () => {};
    sock.onclose = (ev) => {
      if (ws === sock) ws = null;
      if (closed || ended) return;
      // The server closes a revoked person's sockets with 4401 (src/main/serve/server.ts).
      if ((ev as { code?: unknown } | null)?.code === 4401) {
        end();
        return;
      }
      setState('closed');
      schedule();
      void probe();
    };
  };

  const schedule = (): void => {
    if (closed || ended || timer) return;
    const delay = delays[Math.min(attempt, delays.length - 1)] ?? 1000;
    attempt++;
    timer = setTimeout(() => {
      timer = null;
      connect();
    }, delay);
  };

  connect();

  return {
    transport: 'http',
    invoke: <C extends CommandName>(command: C, args: CommandArgs<C>, o?: { signal?: AbortSignal; requestId?: string }) =>
      sendRetryingBusyReads(() => post('/api/invoke', JSON.stringify({ command, args: args ?? {} }), 'application/json', o?.signal, o?.requestId), {
        command,
        signal: o?.signal,
        onWaiting,
      }) as Promise<CommandResult<C>>,
    onWaiting: (fn) => {
      waitingListeners.add(fn);
      fn(waiting);
      return () => {
        waitingListeners.delete(fn);
      };
    },
    onHand: async (requestId: string): Promise<boolean | null> => {
      // Answered off the engine's path (a request waiting behind a long write does not hold it up); none in
      // ON_HAND_PROBE_MS: the server is out of reach (or its process stuck), as far as the page can tell.
      const abort = new AbortController();
      const t = setTimeout(() => abort.abort(), ON_HAND_PROBE_MS);
      try {
        const res = await doFetch(`${base}/api/health?request=${encodeURIComponent(requestId)}`, { method: 'GET', credentials: 'same-origin', cache: 'no-store', signal: abort.signal });
        if (!res.ok) return null;
        const body = (await res.json()) as { pending?: unknown };
        return typeof body.pending === 'boolean' ? body.pending : null;
      } catch {
        return null;
      } finally {
        clearTimeout(t);
      }
    },
    on: <E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void) => {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const fn = listener as (p: unknown) => void;
      set.add(fn);
      return () => {
        set.delete(fn);
      };
    },
    upload: async (file: Blob, name: string, signal?: AbortSignal): Promise<UploadedSource> => {
      const r = (await post(`/api/upload?name=${encodeURIComponent(name)}`, file, 'application/octet-stream', signal)) as UploadedSource;
      return { uploadId: r.uploadId, name: r.name ?? name };
    },
    onConnection: (fn) => {
      stateListeners.add(fn);
      fn(state);
      return () => {
        stateListeners.delete(fn);
      };
    },
    close: () => {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      ws?.close();
      ws = null;
      setState('closed');
    },
  };
}
