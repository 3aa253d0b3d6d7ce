/**
 * An undo or a redo is sent directly (not through the label outbox): in serve mode a request the
 * network swallowed left `u` waiting until the operating system gave up on the connection, and
 * `U` waited behind it. invokeOrStall gives up after STALL_MS with a transport failure, which the
 * page reads as "not confirmed" (the key may be pressed again), and frees the connection.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient } from './http';
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
  it('serve mode: a request with no answer after 20 s fails as a transport failure, and its fetch is aborted', async () => {
    vi.useFakeTimers();
    const aborted: boolean[] = [];
    // A fetch the network swallowed: it ends only when aborted.
    const fetch = vi.fn((_url: string, init: RequestInit) => new Promise<Response>((_resolve, reject) => init.signal!.addEventListener('abort', () => (aborted.push(true), reject(new DOMException('aborted', 'AbortError'))))));
    const client = createHttpClient({ baseUrl: 'http://h', fetch: fetch as unknown as typeof globalThis.fetch, WebSocket: QuietWS });
    expect(stallMsOf(client)).toBe(STALL_MS);
    const call = invokeOrStall(client, 'label.undo', { seq: 7, annotator: 'ann', pair: { pool: 'p', queryId: 'q', candidateId: 'c' } }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(STALL_MS - 1);
    expect(aborted).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const e = await call;
    expect(isTransportError(e)).toBe(true);
    expect((e as Error).message).toBe('no answer from the server in 20 s');
    expect(aborted).toEqual([true]);
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
