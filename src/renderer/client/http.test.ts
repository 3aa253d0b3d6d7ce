import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventHub } from '../../main/engine/events';
import { ContractError, isCommandName, parseArgs } from '../../shared/contract';
import { startServer, type RunningServer } from '../../main/serve/server';
import { createHttpClient } from './http';
import { ACCESS_ENDED, ClientError, type ConnectionState } from './types';

/** A controllable fake WebSocket. */
class FakeWS {
  static all: FakeWS[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeWS.all.push(this);
  }
  close(): void {
    this.closed = true;
  }
  open(): void {
    this.onopen?.({});
  }
  drop(): void {
    this.onclose?.({});
  }
  message(data: unknown): void {
    this.onmessage?.({ data });
  }
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

afterEach(() => {
  FakeWS.all = [];
  vi.useRealTimers();
});

describe('HTTP client (fakes)', () => {
  it('POSTs {command, args} with the API headers and returns the result', async () => {
    const fetch = vi.fn(async () => jsonResponse(200, { questions: 3 }));
    const c = createHttpClient({ baseUrl: 'http://127.0.0.1:5180/', fetch: fetch as unknown as typeof globalThis.fetch, WebSocket: FakeWS });
    const r = await c.invoke('workspace.stats', {});
    expect(r).toEqual({ questions: 3 });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://127.0.0.1:5180/api/invoke');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ 'Content-Type': 'application/json', 'X-QPairs': '1' });
    expect(JSON.parse(String(init.body))).toEqual({ command: 'workspace.stats', args: {} });
    expect(FakeWS.all[0]!.url).toBe('ws://127.0.0.1:5180/api/events');
    c.close();
  });

  it('passes invoke’s signal to the fetch: aborting it gives up on the request', async () => {
    const fetch = vi.fn((_url: string, init: RequestInit) => new Promise<Response>((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))));
    const c = createHttpClient({ baseUrl: 'http://h', fetch: fetch as unknown as typeof globalThis.fetch, WebSocket: FakeWS });
    const abort = new AbortController();
    const call = c.invoke('workspace.stats', {}, { signal: abort.signal }).catch((x: unknown) => x);
    abort.abort();
    expect(await call).toMatchObject({ name: 'AbortError' });
    expect((fetch.mock.calls[0]![1] as RequestInit).signal).toBe(abort.signal);
    c.close();
  });

  it('throws the WireError as a ClientError with its code and status', async () => {
    const fetch = vi.fn(async () => jsonResponse(422, { code: 'user-error', message: 'pool "x" does not exist' }));
    const c = createHttpClient({ baseUrl: 'http://h', fetch: fetch as unknown as typeof globalThis.fetch, WebSocket: FakeWS });
    const e = await c.invoke('pool.progress', { pool: 'x' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ClientError);
    expect(e).toMatchObject({ code: 'user-error', status: 422, message: 'pool "x" does not exist' });
    c.close();
  });

  it("keeps the WireError's reason code when it is one the contract names, and no other", async () => {
    const reply = (reason: unknown) => vi.fn(async () => jsonResponse(422, { code: 'user-error', message: 'refusing to overwrite an existing file: /o/x.qrels', reason }));
    const coded = createHttpClient({ baseUrl: 'http://h', fetch: reply('export-files-exist') as unknown as typeof globalThis.fetch, WebSocket: FakeWS });
    await expect(coded.invoke('app.info', {})).rejects.toMatchObject({ code: 'user-error', reason: 'export-files-exist' });
    // A label's late copy, refused as superseded: the outbox drops it quietly by this reason.
    const late = createHttpClient({ baseUrl: 'http://h', fetch: reply('label-superseded') as unknown as typeof globalThis.fetch, WebSocket: FakeWS });
    await expect(late.invoke('app.info', {})).rejects.toMatchObject({ code: 'user-error', reason: 'label-superseded' });
    late.close();
    const unknown = createHttpClient({ baseUrl: 'http://h', fetch: reply('made-up') as unknown as typeof globalThis.fetch, WebSocket: FakeWS });
    const e = await unknown.invoke('app.info', {}).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'user-error' });
    expect((e as ClientError).reason).toBeUndefined();
    coded.close();
    unknown.close();
  });

  it('reports network failures and gateway errors as transport errors (retryable)', async () => {
    const down = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const c = createHttpClient({ baseUrl: 'http://h', fetch: down as unknown as typeof globalThis.fetch, WebSocket: FakeWS });
    await expect(c.invoke('app.info', {})).rejects.toMatchObject({ code: 'transport' });
    const gw = createHttpClient({ baseUrl: 'http://h', fetch: (async () => new Response('bad gateway', { status: 502 })) as typeof globalThis.fetch, WebSocket: FakeWS });
    await expect(gw.invoke('app.info', {})).rejects.toMatchObject({ code: 'transport', status: 502 });
    const html = createHttpClient({ baseUrl: 'http://h', fetch: (async () => new Response('<html>', { status: 500 })) as typeof globalThis.fetch, WebSocket: FakeWS });
    await expect(html.invoke('app.info', {})).rejects.toMatchObject({ code: 'internal', status: 500 });
    c.close();
    gw.close();
    html.close();
  });

  it('uploads a blob with its name', async () => {
    const fetch = vi.fn(async () => jsonResponse(200, { uploadId: 'abcdef01-2345', name: 'a b.xml', size: 3 }));
    const c = createHttpClient({ baseUrl: 'http://h', fetch: fetch as unknown as typeof globalThis.fetch, WebSocket: FakeWS });
    const r = await c.upload!(new Blob(['abc']), 'a b.xml');
    expect(r).toEqual({ uploadId: 'abcdef01-2345', name: 'a b.xml' });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://h/api/upload?name=a%20b.xml');
    expect(init.headers).toMatchObject({ 'X-QPairs': '1' });
    c.close();
  });

  it('dispatches WebSocket events, ignores junk, reconnects and reports the connection state', async () => {
    vi.useFakeTimers();
    const c = createHttpClient({ baseUrl: 'http://h', fetch: vi.fn() as unknown as typeof globalThis.fetch, WebSocket: FakeWS, reconnectDelays: [100, 200] });
    const states: ConnectionState[] = [];
    c.onConnection((s) => states.push(s));
    const got: unknown[] = [];
    const off = c.on('label.changed', (p) => got.push(p));
    const ws = FakeWS.all[0]!;
    ws.open();
    ws.message(JSON.stringify({ event: 'label.changed', payload: { seq: 1 } }));
    ws.message(JSON.stringify({ event: 'job.done', payload: {} }));
    ws.message('not json');
    ws.message(JSON.stringify({ nope: 1 }));
    expect(got).toEqual([{ seq: 1 }]);
    ws.drop();
    expect(states).toEqual(['connecting', 'open', 'closed']);
    expect(FakeWS.all).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(FakeWS.all).toHaveLength(2);
    FakeWS.all[1]!.drop();
    vi.advanceTimersByTime(150);
    expect(FakeWS.all).toHaveLength(2); // second delay is 200
    vi.advanceTimersByTime(60);
    expect(FakeWS.all).toHaveLength(3);
    FakeWS.all[2]!.open();
    expect(states.at(-1)).toBe('open');
    FakeWS.all[2]!.message(JSON.stringify({ event: 'label.changed', payload: { seq: 2 } }));
    off();
    FakeWS.all[2]!.message(JSON.stringify({ event: 'label.changed', payload: { seq: 3 } }));
    expect(got).toEqual([{ seq: 1 }, { seq: 2 }]);
    c.close();
    expect(FakeWS.all[2]!.closed).toBe(true);
  });

  it('a revoked token ends the connection: "ended", never "reconnecting" (socket closed with 4401, or an answer 401)', async () => {
    vi.useFakeTimers();
    const down = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const c = createHttpClient({ baseUrl: 'http://h', fetch: down as unknown as typeof globalThis.fetch, WebSocket: FakeWS, reconnectDelays: [100] });
    const states: ConnectionState[] = [];
    c.onConnection((s) => states.push(s));
    FakeWS.all[0]!.open();
    // The server closes a revoked person's socket with 4401: no reconnect.
    FakeWS.all[0]!.onclose?.({ code: 4401, reason: 'token revoked' });
    expect(states).toEqual(['connecting', 'open', 'ended']);
    vi.advanceTimersByTime(1000);
    expect(FakeWS.all).toHaveLength(1);
    c.close();

    // A request answered 401 (the token no longer works) ends it too, and the error still reaches the
    // caller, saying what the chip says: access ended (not the server's "open the link with ?token=…").
    const refused = vi.fn(async () => jsonResponse(401, { code: 'forbidden', message: 'missing or invalid token: open the link with ?token=… you were given' }));
    const d = createHttpClient({ baseUrl: 'http://h', fetch: refused as unknown as typeof globalThis.fetch, WebSocket: FakeWS, reconnectDelays: [100] });
    const dStates: ConnectionState[] = [];
    d.onConnection((s) => dStates.push(s));
    FakeWS.all[1]!.open();
    await expect(d.invoke('label.set', { pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'erin', value: '1' })).rejects.toMatchObject({ code: 'forbidden', status: 401, message: ACCESS_ENDED });
    expect(ACCESS_ENDED).toMatch(/^access ended: .*ask the workspace’s owner for a new one$/);
    expect(dStates.at(-1)).toBe('ended');
    expect(FakeWS.all[1]!.closed).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(FakeWS.all).toHaveLength(2);
    d.close();
  });

  it('a socket that closes while the token is refused (the upgrade got 401): the health probe ends it', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(async () => jsonResponse(401, { code: 'forbidden', message: 'missing or invalid token' }));
    const c = createHttpClient({ baseUrl: 'http://h', fetch: fetch as unknown as typeof globalThis.fetch, WebSocket: FakeWS, reconnectDelays: [100] });
    const states: ConnectionState[] = [];
    c.onConnection((s) => states.push(s));
    FakeWS.all[0]!.drop();
    expect(states.at(-1)).toBe('closed');
    await vi.waitFor(() => expect(states.at(-1)).toBe('ended'));
    expect((fetch.mock.calls[0] as unknown as [string])[0]).toBe('http://h/api/health');
    vi.advanceTimersByTime(1000);
    expect(FakeWS.all).toHaveLength(1);
    c.close();
  });
});

describe('HTTP client against the real server', () => {
  let server: RunningServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('invokes, maps validation errors, uploads and receives events over a real WebSocket', async () => {
    const hub = new EventHub();
    const engine = {
      hub,
      async invoke(command: unknown, args: unknown, ctx?: { annotator: string | null }) {
        if (!isCommandName(command)) throw new ContractError('unknown command', 'invalid-argument');
        parseArgs(command, args);
        return { command, annotator: ctx?.annotator ?? null };
      },
      canSee: () => true,
    };
    server = await startServer({ engine, port: 0 });
    const c = createHttpClient({ baseUrl: server.url });
    await expect(c.invoke('app.info', {})).resolves.toEqual({ command: 'app.info', annotator: null });
    await expect(c.invoke('pool.create', { name: '' } as never)).rejects.toMatchObject({ code: 'invalid-argument', status: 400 });
    const up = await c.upload!(new Blob(['<xml/>']), 'x.xml');
    expect(up.uploadId).toMatch(/^[a-f0-9-]{36}$/);

    const opened = new Promise<void>((r) => c.onConnection((s) => s === 'open' && r()));
    await opened;
    const got = new Promise<unknown>((r) => c.on('workspace.changed', r));
    hub.emit('workspace.changed', { what: 'pool' });
    await expect(got).resolves.toEqual({ what: 'pool' });
    c.close();
  });
});
