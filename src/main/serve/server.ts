/**
 * Serve mode: the same app as the desktop shell, in a browser. One node:http server:
 *
 *   GET  /, /assets/…        the built renderer (out/renderer)
 *   POST /api/invoke         {command, args} → 200 result | 4xx/5xx WireError
 *   POST /api/upload?name=N  raw body streamed to a temp file (size-capped) → {uploadId, name, size}
 *   GET  /api/health         {ok: true}; ?request=ID adds pending: whether the caller's request ID is on hand (requests-on-hand.ts)
 *   GET  /api/download/ID    an export's download (export.write with `download`), once, to whoever exported (download-send.ts)
 *   WS   /api/events         every engine event, as {event, payload} JSON text frames
 *
 * Security: bound to 127.0.0.1 unless a host is given explicitly; any non-loopback host needs
 * per-annotator tokens (see auth.ts). The server only says who calls — the token's annotator (null
 * without tokens) and whether the caller is local (a loopback server without tokens required, and no
 * token presented: a token, even there, makes the caller its person) — and the engine decides what
 * they may do and which events reach them (src/main/engine/access.ts). On a loopback host the Host
 * header must name a loopback address (stops DNS rebinding). POSTs must carry `X-QPairs: 1` and,
 * when sent, a same-origin Origin — so a web page elsewhere cannot drive the API (no CORS headers
 * are ever sent, so the custom header cannot pass a preflight). Bodies have a size cap and a time
 * limit; a client that disconnects aborts the work it asked for.
 * Every response carries the CSP and the other headers of csp.ts.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { CommandName, EventName, EventPayloads, WireError } from '../../shared/contract';
import { SECURITY_HEADERS } from './csp';
import { annotatorForToken, isLoopbackHost, presentedToken, TOKEN_COOKIE, type TokenMap } from './auth';
import { findRendererDir, serveStatic } from './static';
import { clearUploads, defaultUploadStore, UploadQuotaError, UploadTooLargeError, type UploadStore } from './uploads';
import { statusOf, toWireError } from './wire';
import { withoutAbsolutePaths } from '../engine/server-paths';
import { BusyError, COMPUTING_COMMANDS, FairUse } from './fair-use';
import { CancelledError, QPairsError } from '../errors';
import { isPageLoad, sendLinkEnded, sendSignedOut } from './link-ended';
import { inviteLink } from '../../shared/invite-link';
import { RequestsOnHand } from './requests-on-hand';
import { sendDownload, type SentDownload } from './download-send';
import { DOWNLOAD_PATH } from '../../shared/gold';

/** Who is calling, as the server knows it: the token's annotator (null without tokens) and whether they are local. */
export interface ServeCaller {
  annotator: string | null;
  local: boolean;
  signal?: AbortSignal;
}

/** What the server needs from the engine (the Engine class fits; tests pass fakes). */
export interface ServeEngine {
  invoke(command: unknown, args: unknown, caller?: ServeCaller): Promise<unknown>;
  /** Whether an event may be sent to a caller (the engine decides; the server only asks). */
  canSee<E extends EventName>(caller: ServeCaller, event: E, payload: EventPayloads[E]): boolean;
  /** The event as that caller gets it (an annotator's label events by her own numbers); absent (test fakes): as it is. */
  eventFor?<E extends EventName>(caller: ServeCaller, event: E, payload: EventPayloads[E]): EventPayloads[E];
  readonly hub: { onAny(fn: (event: EventName, payload: unknown) => void): () => void };
  /**
   * Whether a caller's role may call a command (the engine's role table). Uploads feed only
   * `import.start`: a caller who may not import is refused an upload before its body is read.
   * Absent (test fakes): every caller may.
   */
  mayCall?(caller: ServeCaller, command: CommandName): boolean;
  /**
   * Tokens stored in the workspace (issue 23; the Engine's TokenVerifier): `verify` answers a
   * presented token's person or null; `onRevoked` tells of a revocation (open sockets close).
   */
  readonly tokens?: { verify(presented: string | null | undefined): string | null; onRevoked(fn: (name: string) => void): () => void };
  /**
   * An export's download for GET /api/download/ID, taken once; throws (a ContractError: 404 for an id
   * that is not the caller's, 403 for a role that may not export) unless the engine lets this caller
   * have it (access.ts authorizeDownload). Absent (test fakes): no downloads.
   */
  takeDownload?(id: string, caller: ServeCaller): SentDownload;
}

export interface ServerOptions {
  engine: ServeEngine;
  /** Default 5180; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. Anything that is not a loopback address requires `tokens`. */
  host?: string;
  /**
   * annotator → secret, held in memory only (`--tokens-file`, or the deprecated `--token`). Tokens
   * stored in the workspace (engine.tokens) are accepted as well whenever tokens are required.
   */
  tokens?: TokenMap;
  /**
   * Require a token on a loopback address too (off loopback it is always required). Default: only
   * when `tokens` are given.
   */
  requireTokens?: boolean;
  /** Fair use (issue 23): how many computing commands one caller may run at once (default 1), and queue (default 4) before 429. */
  perCallerCompute?: number;
  perCallerQueue?: number;
  /** Fair use: /api/invoke requests one caller may have in flight (default 16); beyond, 429 before the body is read. */
  perCallerRequests?: number;
  /**
   * Fair use: export downloads (GET /api/download/ID) one caller may have sending at once (default 4),
   * and waiting their turn (default 64) before 429. Apart from perCallerRequests: a download lasts as
   * long as the transfer, and a judge downloading an export must still label and rule meanwhile.
   */
  perCallerDownloads?: number;
  perCallerDownloadQueue?: number;
  /**
   * Fair use: event sockets one caller may hold open (default 16; the app opens one per tab). Beyond,
   * the upgrade is refused with 429: every event is checked against every open socket, so one
   * caller's thousands of sockets would slow every label of everyone.
   */
  perCallerSockets?: number;
  /** How long a 429 is held before it is sent (default 1000 ms, the Retry-After). */
  busyDelayMs?: number;
  /** Directory of the built renderer; default: found next to the bundle or under cwd. */
  staticDir?: string;
  /** Size cap of one upload in bytes (default 2 GiB). */
  maxUploadBytes?: number;
  /** Size cap of one /api/invoke body in bytes (default 16 MiB). */
  maxJsonBytes?: number;
  /** Time allowed to receive a whole /api/invoke body (default 30 s), then 408. */
  bodyTimeoutMs?: number;
  /** An upload that sends nothing for this long is cut off (default 60 s). */
  uploadIdleMs?: number;
  /** Where uploads go (one store per server: a total quota, cleared on close); default the process's store. */
  uploads?: UploadStore;
  /** Delete uploaded files when the server closes (default true). */
  clearUploadsOnClose?: boolean;
  log?: (line: string) => void;
}

export interface RunningServer {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly server: http.Server;
  /** Whether requests must present a token. */
  readonly authRequired: boolean;
  /** A link that logs an annotator in (sets the cookie), or the plain URL without tokens. */
  linkFor(annotator: string): string;
  /**
   * Replaces the in-memory tokens (`--tokens-file` re-read): a person no longer listed, or listed
   * with another secret, is refused from the next request, and their open event sockets close.
   */
  setTokens(next: TokenMap): void;
  close(): Promise<void>;
}

export const DEFAULT_PORT = 5180;
export const DEFAULT_MAX_UPLOAD = 2 * 1024 ** 3;
export const DEFAULT_MAX_JSON = 16 * 1024 ** 2;
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;
/** How long an idle keep-alive connection is kept open (ms). */
export const KEEP_ALIVE_MS = 25_000;
export const DEFAULT_UPLOAD_IDLE_MS = 60_000;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly wire: WireError,
  ) {
    super(wire.message);
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body === undefined ? null : body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    ...extra,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, wire: WireError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status, wire, status === 413 ? { Connection: 'close' } : {});
}

function sendText(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, ...extra, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text);
}

/** Reads a whole request body, refusing more than `limit` bytes (413) or a body slower than `timeoutMs` (408). */
async function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    throw new HttpError(413, { code: 'invalid-argument', message: `request body exceeds ${limit} bytes` });
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => {
      cleanup();
      reject(new HttpError(408, { code: 'invalid-argument', message: `request body not received within ${timeoutMs / 1000} s` }));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        reject(new HttpError(413, { code: 'invalid-argument', message: `request body exceeds ${limit} bytes` }));
      } else chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (e: Error): void => {
      cleanup();
      reject(e);
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onError);
    };
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

/** How deep an /api/invoke body may nest arrays and objects (the contract's arguments need a handful of levels). */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether a JSON text nests arrays/objects deeper than `max`, found by one pass over its bytes
 * (strings skipped) before it is parsed: JSON.parse of a 16 MiB body of brackets holds the main
 * thread for seconds and takes hundreds of MB, where a body as big but flat takes a tenth of that.
 */
export function jsonNestsDeeperThan(raw: Buffer, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped byte
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** A 303 to the same page (`url`, its token or signout parameter already removed) that sets `cookie`. */
function redirectSettingCookie(res: ServerResponse, url: URL, cookie: string): void {
  res.writeHead(303, { ...SECURITY_HEADERS, Location: url.pathname + (url.search || ''), 'Set-Cookie': cookie, 'Cache-Control': 'no-store' });
  res.end();
}

/** The hostname of a Host header ("[::1]:80" → "::1", "a:1" → "a"). */
function hostnameOf(hostHeader: string | undefined): string {
  if (!hostHeader) return '';
  if (hostHeader.startsWith('[')) return hostHeader.slice(1, hostHeader.indexOf(']'));
  return hostHeader.replace(/:\d+$/, '');
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const loopback = isLoopbackHost(host);
  const tokens: TokenMap = { ...(opts.tokens ?? {}) };
  const workspaceTokens = opts.engine.tokens ?? null;
  const authRequired = Object.keys(tokens).length > 0 || !!opts.requireTokens || !loopback;
  if (!loopback && Object.keys(tokens).length === 0 && !workspaceTokens) {
    throw new QPairsError(
      `refusing to listen on ${host} without tokens: anyone who can reach it could read and change the workspace. ` +
        `Invite people first (qpairs annotators invite W NAME), or listen on 127.0.0.1.`,
    );
  }
  const compute = new FairUse(opts.perCallerCompute ?? 1, opts.perCallerQueue ?? 4);
  // A page offers an export's files at once (a trec-run export: one per run), so those beyond the few sending wait.
  const downloading = new FairUse(opts.perCallerDownloads ?? 4, opts.perCallerDownloadQueue ?? 64);
  /**
   * A 429 is answered after Retry-After (1 s), not at once: a client that resends as soon as it is
   * refused (a flood) then costs the server one cheap answer per connection per second instead
   * of a busy loop, and other callers' labels keep their latency. Up to 64 refusals per caller
   * wait; beyond that they are answered at once and the connection closed.
   */
  const held = new Map<string, number>();
  const busyLater = (res: ServerResponse, key: string, message: string): void => {
    const body: WireError = { code: 'busy', message };
    const h = held.get(key) ?? 0;
    if (h >= 64) {
      res.setHeader('Connection', 'close');
      sendJson(res, 429, body, { 'Retry-After': '1' });
      return;
    }
    held.set(key, h + 1);
    const timer = setTimeout(() => {
      if (!res.destroyed && !res.headersSent) sendJson(res, 429, body, { 'Retry-After': '1' });
    }, busyDelayMs);
    timer.unref();
    res.once('close', () => {
      clearTimeout(timer);
      const m = (held.get(key) ?? 1) - 1;
      if (m > 0) held.set(key, m);
      else held.delete(key);
    });
  };
  /** /api/invoke requests each caller has in flight (from headers to the response's end). */
  const inFlight = new Map<string, number>();
  /** /api/invoke requests by the id their page gave them: a page asks whether one is still being worked on. */
  const onHand = new RequestsOnHand();
  const perCallerRequests = opts.perCallerRequests ?? 16;
  const busyDelayMs = opts.busyDelayMs ?? 1000;
  let serverUrl = '';
  const maxUpload = opts.maxUploadBytes ?? DEFAULT_MAX_UPLOAD;
  // Opening the store at start removes uploads left behind by servers that crashed.
  const uploads = opts.uploads ?? defaultUploadStore();
  const maxJson = opts.maxJsonBytes ?? DEFAULT_MAX_JSON;
  const bodyTimeout = opts.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const uploadIdle = opts.uploadIdleMs ?? DEFAULT_UPLOAD_IDLE_MS;
  const rendererDir = findRendererDir(opts.staticDir);
  const log = opts.log ?? (() => {});
  if (!rendererDir) log('warning: the built renderer (out/renderer) was not found; run `npm run build` first. The API works.');

  /** Checks Host (DNS rebinding) and Origin (cross-site requests); returns a reason or null. */
  const originProblem = (req: IncomingMessage): string | null => {
    if (loopback && !isLoopbackHost(hostnameOf(req.headers.host))) return `Host "${req.headers.host ?? ''}" is not this server`;
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${req.headers.host}`) return `cross-origin request from ${origin} refused`;
    return null;
  };

  /** The person a token belongs to: a workspace token (issue 23), else one of the in-memory tokens. */
  const whoHolds = (presented: string | null | undefined): string | null => workspaceTokens?.verify(presented) ?? annotatorForToken(tokens, presented);

  /**
   * Who calls: with tokens required, the token's person (401 when it is missing or wrong); on a
   * loopback server without them, the owner (local) — unless a token is presented: then its person,
   * as in token mode, so that opening an annotator's link on this machine shows what they see
   * (a wrong or revoked token is a 401, never the owner's rights).
   */
  const authenticate = (req: IncomingMessage, url: URL, allowQuery: boolean): ServeCaller => {
    const presented = presentedToken(req, url, allowQuery);
    if (!authRequired && !presented) return { annotator: null, local: true };
    const annotator = whoHolds(presented);
    if (!annotator) throw new HttpError(401, { code: 'forbidden', message: 'missing or invalid token: open the link with ?token=… you were given' });
    return { annotator, local: false };
  };

  const handleInvoke = async (req: IncomingMessage, res: ServerResponse, caller: ServeCaller): Promise<void> => {
    const { annotator } = caller;
    const type = String(req.headers['content-type'] ?? '');
    if (!/^application\/json\b/i.test(type)) {
      throw new HttpError(415, { code: 'invalid-argument', message: 'POST /api/invoke needs Content-Type: application/json' });
    }
    const raw = await readBody(req, maxJson, bodyTimeout);
    if (jsonNestsDeeperThan(raw, MAX_JSON_DEPTH)) {
      throw new HttpError(400, { code: 'invalid-argument', message: `request body nests deeper than ${MAX_JSON_DEPTH} levels` });
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch (e) {
      throw new HttpError(400, { code: 'invalid-argument', message: `request body is not JSON: ${(e as Error).message}` });
    }
    if (!body || typeof body !== 'object' || Array.isArray(body) || typeof (body as { command?: unknown }).command !== 'string') {
      throw new HttpError(400, { code: 'invalid-argument', message: 'request body must be {"command": string, "args": object}' });
    }
    const { command, args } = body as { command: string; args?: unknown };
    // A client that goes away stops the work it asked for (long reads run cancellable off the request path).
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    // Fair use: a caller's computing commands run one at a time (a few more wait; beyond, 429).
    const heavy = COMPUTING_COMMANDS.has(command);
    let release: (() => void) | null = null;
    try {
      if (heavy) {
        release = await compute.enter(annotator ?? '@owner', gone.signal);
        // A computing command starts on a later event-loop turn: requests already read (a label) go first.
        await new Promise((r) => setImmediate(r));
      }
      let result = await opts.engine.invoke(command, args ?? {}, { annotator, local: caller.local, signal: gone.signal });
      // The invitation's link, from the address the owner used (the token is in this one answer only).
      if (command === 'annotator.invite' && result && typeof result === 'object' && typeof (result as { token?: unknown }).token === 'string') {
        const base = req.headers.host ? `http://${req.headers.host}` : serverUrl;
        const inv = result as { token: string; role: 'annotator' | 'judge' | 'owner' };
        result = { ...(result as object), link: inviteLink(base, inv.token, inv.role) };
      }
      sendJson(res, 200, result);
    } catch (e) {
      if (e instanceof BusyError) {
        busyLater(res, annotator ?? '@owner', e.message);
        return;
      }
      // The client went away and its work was stopped, as asked: no fault of QPairs, and no one to answer.
      if (gone.signal.aborted && e instanceof CancelledError) {
        log(`${command} cancelled: the client went away`);
        return;
      }
      const found = toWireError(e);
      // A remote caller is told no server path, not even in an internal error (the log keeps it).
      const wire = found.code === 'internal' && !caller.local ? { ...found, message: withoutAbsolutePaths(found.message) } : found;
      if (wire.code === 'internal') log(`internal error in ${command}: ${(e as Error)?.stack ?? String(e)}`);
      if (wire.code === 'storage-full') log(`disk full in ${command}: ${(e as Error)?.message ?? String(e)}`);
      sendError(res, statusOf(wire.code), wire);
    } finally {
      release?.();
    }
  };

  const handleUpload = async (req: IncomingMessage, res: ServerResponse, url: URL, caller: ServeCaller): Promise<void> => {
    // Uploads only feed imports: someone who may not import may not fill the server's disk (and
    // the uploads' quota, which would lock the owner's imports out) either.
    if (opts.engine.mayCall && !opts.engine.mayCall(caller, 'import.start')) {
      throw new HttpError(403, { code: 'forbidden', message: 'uploads are for importing, which is for the owner' });
    }
    const name = url.searchParams.get('name') ?? '';
    if (!name.trim() || name.length > 500) {
      throw new HttpError(400, { code: 'invalid-argument', message: 'POST /api/upload needs ?name=<file name> (1–500 characters)' });
    }
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > maxUpload) {
      throw new HttpError(413, { code: 'invalid-argument', message: `${name}: ${sizeText(declared)} is more than ${uploadLimitText(maxUpload)}` });
    }
    if (Number.isFinite(declared)) {
      try {
        uploads.checkRoom(declared, name);
      } catch (e) {
        if (e instanceof UploadQuotaError) throw new HttpError(413, { code: 'invalid-argument', message: e.message });
        throw e;
      }
    }
    // A stalled upload (nothing arrives for uploadIdle ms) is cut off; receive() deletes its partial file.
    req.setTimeout(uploadIdle, () => req.destroy(new HttpError(408, { code: 'invalid-argument', message: `${name}: upload stalled (nothing received for ${uploadIdle / 1000} s)` })));
    try {
      const up = await uploads.receive(req, name, maxUpload);
      req.setTimeout(0);
      sendJson(res, 200, up);
    } catch (e) {
      if (e instanceof UploadQuotaError) throw new HttpError(413, { code: 'invalid-argument', message: e.message });
      if (e instanceof UploadTooLargeError) {
        throw new HttpError(413, { code: 'invalid-argument', message: `${name}: more than ${uploadLimitText(maxUpload)}` });
      }
      throw e;
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const problem = originProblem(req);
    if (problem) throw new HttpError(403, { code: 'forbidden', message: problem });
    const isApi = url.pathname === '/api' || url.pathname.startsWith('/api/');

    if (!isApi) {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, { code: 'invalid-argument', message: `${req.method} not allowed` });
      // First page load with ?token=: set the cookie and drop the token from the address bar.
      const queryToken = url.searchParams.get('token');
      // `?signout` drops a link's cookie (the app's "Sign out"): on loopback without tokens, back to
      // the owner; where links are required, a page saying how to come back.
      if (url.searchParams.has('signout')) {
        const clear = `${TOKEN_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
        if (authRequired) return sendSignedOut(req, res, clear);
        url.searchParams.delete('signout');
        return redirectSettingCookie(res, url, clear);
      }
      if (queryToken !== null) {
        const who = whoHolds(queryToken);
        if (!who) throw new HttpError(401, { code: 'forbidden', message: 'invalid token' });
        url.searchParams.delete('token');
        return redirectSettingCookie(res, url, `${TOKEN_COOKIE}=${encodeURIComponent(queryToken)}; Path=/; HttpOnly; SameSite=Strict`);
      }
      authenticate(req, url, false);
      if (!rendererDir) {
        sendText(res, 404, 'The app is not built: run `npm run build` (or `npm run serve`, which builds it), then reload.');
        return;
      }
      if (!serveStatic(rendererDir, url.pathname, req, res, { ...SECURITY_HEADERS })) sendText(res, 404, 'not found');
      return;
    }

    const caller = authenticate(req, url, false);
    const { annotator } = caller;
    if (url.pathname === '/api/health' && req.method === 'GET') {
      const pending = onHand.has(annotator ?? '@owner', url.searchParams.get('request'));
      sendJson(res, 200, { ok: true, annotator, ...(pending !== undefined ? { pending } : {}) });
      return;
    }
    if (url.pathname.startsWith(DOWNLOAD_PATH) && req.method === 'GET' && opts.engine.takeDownload) {
      // Fair use: a caller's downloads send a few at a time, the others wait (beyond, a held 429); the id is
      // taken once its turn comes, so a request given up while it waited leaves it as it was.
      const key = annotator ?? '@owner';
      const gone = new AbortController();
      res.once('close', () => gone.abort());
      let release: () => void;
      try {
        release = await downloading.enter(key, gone.signal);
      } catch (e) {
        if (e instanceof BusyError && !gone.signal.aborted) busyLater(res, key, e.message);
        return;
      }
      try {
        if (gone.signal.aborted) return;
        // A link the page clicks (no custom header can go with it): the id, unguessable and the caller's own, is what it proves.
        let download: SentDownload;
        try {
          download = opts.engine.takeDownload(url.pathname.slice(DOWNLOAD_PATH.length), caller);
        } catch (e) {
          const wire = toWireError(e);
          throw new HttpError(statusOf(wire.code), wire);
        }
        await sendDownload(res, download, SECURITY_HEADERS);
      } finally {
        release();
      }
      return;
    }
    if (url.pathname !== '/api/invoke' && url.pathname !== '/api/upload') {
      throw new HttpError(404, { code: 'not-found', message: `no API endpoint ${url.pathname}` });
    }
    if (req.method !== 'POST') throw new HttpError(405, { code: 'invalid-argument', message: `${url.pathname} takes POST` });
    if (req.headers['x-qpairs'] !== '1') {
      throw new HttpError(400, { code: 'invalid-argument', message: 'API requests must carry the header X-QPairs: 1' });
    }
    if (url.pathname === '/api/invoke') {
      // Fair use: a caller with too many requests in flight is answered 429 before its body is
      // read — a flood then costs the server a header parse per request, not a search.
      const key = annotator ?? '@owner';
      const n = inFlight.get(key) ?? 0;
      if (n >= perCallerRequests) {
        req.resume(); // the body is discarded unread
        busyLater(res, key, `too many requests at once from this caller (${n} in flight); retry in a moment`);
        return;
      }
      inFlight.set(key, n + 1);
      onHand.track(key, req, res);
      res.once('close', () => {
        const m = (inFlight.get(key) ?? 1) - 1;
        if (m > 0) inFlight.set(key, m);
        else inFlight.delete(key);
      });
      await handleInvoke(req, res, caller);
    } else await handleUpload(req, res, url, caller);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      // A page load with a refused token (revoked, replaced) gets a readable page, not JSON.
      if (e instanceof HttpError && e.status === 401 && isPageLoad(req)) sendLinkEnded(req, res, !authRequired);
      else if (e instanceof HttpError) sendError(res, e.status, e.wire);
      else {
        log(`request failed: ${(e as Error)?.stack ?? String(e)}`);
        sendError(res, 500, toWireError(e));
      }
      if (!req.complete) {
        // A refused body: drain small ones (keeps the connection usable); cut oversize ones off
        // once the answer is out.
        if (e instanceof HttpError && e.status === 413) res.once('finish', () => req.destroy());
        else req.resume();
      }
    });
  });
  server.requestTimeout = 0; // uploads can be long; the socket timeout below still applies
  server.headersTimeout = 30_000;
  // An idle keep-alive connection stays open this long (Node's default is 5 s). A client that sends
  // its next request just as the server closes the connection gets a reset (ECONNRESET); clients
  // that keep connections (Playwright's request API, scripts) met that after ~5 s pauses. Kept below
  // headersTimeout, so an idle connection is never cut by the headers timer first.
  server.keepAliveTimeout = KEEP_ALIVE_MS;

  // ---------------------------------------------------------------- events over WebSocket
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const alive = new WeakMap<WebSocket, boolean>();
  /** Who each event socket belongs to: events reach it only when the engine says they may. */
  const callers = new WeakMap<WebSocket, ServeCaller>();
  /** The token each event socket was opened with: a revocation closes the sockets whose token no longer holds. */
  const socketTokens = new WeakMap<WebSocket, string | null>();
  /** Open event sockets per caller (fair use). */
  const socketsOf = new Map<string, number>();
  const perCallerSockets = opts.perCallerSockets ?? 16;
  const refuse = (socket: Duplex, status: number, text: string): void => {
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/api/events') return refuse(socket, 404, 'Not Found');
    if (originProblem(req)) return refuse(socket, 403, 'Forbidden');
    let caller: ServeCaller;
    try {
      caller = authenticate(req, url, true);
    } catch {
      return refuse(socket, 401, 'Unauthorized');
    }
    const presented = presentedToken(req, url, true);
    const key = caller.annotator ?? '@owner';
    if ((socketsOf.get(key) ?? 0) >= perCallerSockets) return refuse(socket, 429, 'Too Many Requests');
    socketsOf.set(key, (socketsOf.get(key) ?? 0) + 1);
    let counted = true;
    const uncount = (): void => {
      if (!counted) return;
      counted = false;
      const n = (socketsOf.get(key) ?? 1) - 1;
      if (n > 0) socketsOf.set(key, n);
      else socketsOf.delete(key);
    };
    socket.once('close', uncount);
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.once('close', uncount);
      alive.set(ws, true);
      callers.set(ws, caller);
      socketTokens.set(ws, presented);
      ws.on('pong', () => alive.set(ws, true));
      ws.on('error', () => ws.terminate());
      ws.on('message', () => {}); // the channel is one-way
      wss.emit('connection', ws, req);
    });
  });
  /** Closes the event sockets of `name` (every person when absent) whose token no longer holds. */
  const closeRevokedSockets = (name?: string): void => {
    for (const ws of wss.clients) {
      const who = callers.get(ws)?.annotator;
      if (who == null || (name !== undefined && who !== name)) continue;
      if (whoHolds(socketTokens.get(ws)) !== who) ws.close(4401, 'token revoked');
    }
  };
  // A revoked person's open sockets close at once (their next request is refused anyway); so do
  // those opened with a token a new link replaced (annotator.invite of someone invited before).
  // The server's own tokens (--tokens-file, --token) are not the workspace's to revoke: a new link
  // for a tokens-file person leaves their line's token working (the file governs it).
  const offRevoked = workspaceTokens?.onRevoked((name) => closeRevokedSockets(name));
  const offHub = opts.engine.hub.onAny((event, payload) => {
    let frame: string | null = null;
    for (const ws of wss.clients) {
      if (ws.readyState !== ws.OPEN) continue;
      const caller = callers.get(ws);
      if (!caller || !opts.engine.canSee(caller, event, payload as never)) continue;
      const shown = opts.engine.eventFor ? opts.engine.eventFor(caller, event, payload as never) : payload;
      const sent = shown === payload ? (frame ??= JSON.stringify({ event, payload })) : JSON.stringify({ event, payload: shown });
      // A client that cannot keep up reconnects and refreshes rather than buffering forever.
      if (ws.bufferedAmount > 8 * 1024 ** 2) ws.terminate();
      else ws.send(sent);
    }
  });
  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, 30_000);
  heartbeat.unref();

  await new Promise<void>((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException): void => {
      reject(
        new QPairsError(
          e.code === 'EADDRINUSE'
            ? `port ${opts.port ?? DEFAULT_PORT} on ${host} is already in use; choose another with --port`
            : `cannot listen on ${host}:${opts.port ?? DEFAULT_PORT}: ${e.message}`,
        ),
      );
    };
    server.once('error', onError);
    server.listen(opts.port ?? DEFAULT_PORT, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : (opts.port ?? DEFAULT_PORT);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}`;
  serverUrl = url;

  let closed = false;
  return {
    url,
    host,
    port,
    server,
    authRequired,
    linkFor: (annotator) => (authRequired && tokens[annotator] ? `${url}/?token=${encodeURIComponent(tokens[annotator]!)}` : `${url}/`),
    setTokens: (next) => {
      for (const name of Object.keys(tokens)) delete tokens[name];
      Object.assign(tokens, next);
      closeRevokedSockets();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      offHub();
      offRevoked?.();
      clearInterval(heartbeat);
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      if (opts.clearUploadsOnClose ?? true) {
        if (opts.uploads) uploads.clear();
        else clearUploads(); // the process's default store: the next server gets a fresh one
      }
    },
  };
}

/** A size for people: bytes below a MiB (with thousands separators), else MiB with one decimal. */
function sizeText(bytes: number): string {
  return bytes < 1 << 20 ? `${bytes.toLocaleString('en-US')} bytes` : `${(bytes / (1 << 20)).toLocaleString('en-US', { maximumFractionDigits: 1 })} MiB`;
}

/**
 * The upload limit and what sets it: "15834700 bytes is more than the upload limit of 1048576 bytes"
 * left the owner to guess both the sizes and how to raise it.
 */
function uploadLimitText(maxUpload: number): string {
  return `the server's upload limit of ${sizeText(maxUpload)} (serve mode's --max-upload-mb sets it)`;
}
