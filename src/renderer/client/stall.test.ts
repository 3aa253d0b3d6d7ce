/**
 * An undo or a redo is sent directly (not through the label outbox): in serve mode a request the
 * network swallowed left `u` waiting until the operating system gave up on the connection, and
 * `U` waited behind it. invokeOrStall gives up after STALL_MS with a transport failure, which the
 * page reads as "not confirmed" (the key may be pressed again), and frees the connection — unless
 * the server, asked, says it has the request on hand: it is busy with it, and is waited for.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient, ON_HAND_PROBE_MS } from './http';
import { invokeOrStall, STALL_MS, stallMsOf } from './stall';
import { isTransportError, type AppClient } from './types';

class QuietWS {
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  close(): void {}
}

afterEach(() => vi.useRealTimers());

describe('invokeOrStall', () => {
  it('serve mode: a request with no answer after 20 s, and none to the question whether the server has it, fails as a transport failure; its fetch is aborted', async () => {
    vi.useFakeTimers();
    const aborted: string[] = [];
    // A network that swallows everything: each fetch ends only when aborted.
    const fetch = vi.fn((url: string, init: RequestInit) => new Promise<Response>((_resolve, reject) => init.signal!.addEventListener('abort', () => (aborted.push(new URL(url).pathname), reject(new DOMException('aborted', 'AbortError'))))));
    const client = createHttpClient({ baseUrl: 'http://h', fetch: fetch as unknown as typeof globalThis.fetch, WebSocket: QuietWS });
    expect(stallMsOf(client)).toBe(STALL_MS);
    const call = invokeOrStall(client, 'label.undo', { seq: 7, annotator: 'ann', pair: { pool: 'p', queryId: 'q', candidateId: 'c' } }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(STALL_MS);
    expect(aborted).toEqual([]);
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['http://h/api/invoke', expect.stringMatching(/^http:\/\/h\/api\/health\?request=[0-9a-f]{24}$/)]);
    await vi.advanceTimersByTimeAsync(ON_HAND_PROBE_MS);
    const e = await call;
    expect(isTransportError(e)).toBe(true);
    expect((e as Error).message).toBe('no answer from the server in 20 s');
    expect(aborted).toEqual(['/api/health', '/api/invoke']);
    client.close();
  });

  it('a server busy with the request (it says it has it on hand) is waited for, not given up on; onBusy is told once', async () => {
    vi.useFakeTimers();
    let answer: (r: Response) => void = () => {};
    let invokeSignal: AbortSignal | undefined;
    let requestHeader: string | undefined;
    const asked: string[] = [];
    const fetch = vi.fn((url: string, init: RequestInit) => {
      if (url.startsWith('http://h/api/health')) {
        asked.push(new URL(url).searchParams.get('request')!);
        return Promise.resolve(new Response(JSON.stringify({ ok: true, pending: true })));
      }
      invokeSignal = init.signal ?? undefined;
      requestHeader = (init.headers as Record<string, string>)['X-QPairs-Request'];
      return new Promise<Response>((r) => (answer = r));
    });
    const client = createHttpClient({ baseUrl: 'http://h', fetch: fetch as unknown as typeof globalThis.fetch, WebSocket: QuietWS });
    const busy = vi.fn();
    const call = invokeOrStall(client, 'label.undo', { seq: 7, annotator: 'ann', pair: { pool: 'p', queryId: 'q', candidateId: 'c' } }, STALL_MS, busy);
    await vi.advanceTimersByTimeAsync(STALL_MS * 3);
    // Before: given up on after 20 s ("Undo not confirmed") though the server was working on it.
    expect(invokeSignal?.aborted).toBe(false);
    expect(asked).toEqual([requestHeader, requestHeader, requestHeader]);
    expect(busy).toHaveBeenCalledTimes(1);
    answer(new Response(JSON.stringify({ seq: 9 })));
    await expect(call).resolves.toEqual({ seq: 9 });
    await vi.advanceTimersByTimeAsync(STALL_MS * 2);
    expect(asked).toHaveLength(3);
    client.close();
  });

  it('a server that answers but has no such request: given up on at once (lost on the way)', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn((url: string, init: RequestInit) =>
      url.startsWith('http://h/api/health')
        ? Promise.resolve(new Response(JSON.stringify({ ok: true, pending: false })))
        : new Promise<Response>((_r, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    );
    const client = createHttpClient({ baseUrl: 'http://h', fetch: fetch as unknown as typeof globalThis.fetch, WebSocket: QuietWS });
    const call = invokeOrStall(client, 'label.undo', { seq: 7, annotator: 'ann', pair: { pool: 'p', queryId: 'q', candidateId: 'c' } }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(STALL_MS);
    const e = await call;
    expect(isTransportError(e)).toBe(true);
    expect((e as Error).message).toBe('no answer from the server in 20 s: it answers, but the request never reached it (or its answer was lost)');
    client.close();
  });

  it('an answer in time is the answer, and nothing is aborted later', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const client = { transport: 'http', invoke: vi.fn(async (_c: string, _a: unknown, o?: { signal?: AbortSignal }) => ((signal = o?.signal), { seq: 9 })) } as unknown as AppClient;
    await expect(invokeOrStall(client, 'label.undo', { seq: 7, annotator: 'ann', pair: { pool: 'p', queryId: 'q', candidateId: 'c' } })).resolves.toEqual({ seq: 9 });
    await vi.advanceTimersByTimeAsync(STALL_MS * 2);
    expect(signal?.aborted).toBe(false);
  });

  it('over IPC (the desktop app) no time limit: the main process always answers', () => {
    expect(stallMsOf({ transport: 'electron' })).toBeUndefined();
  });
});
