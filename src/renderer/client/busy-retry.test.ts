/**
 * A page reloaded at once had its Export preview refused ("No preview: too many requests at once from this
 * caller: 1 running and 4 waiting; retry in a moment"): the server still counted the page that went, and
 * nothing sent the read again. Reads refused as busy (429) are now sent again after Retry-After, a bounded
 * number of times, while the client counts them as waiting; writes still fail at once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUSY_RETRIES, sendRetryingBusyReads } from './busy-retry';
import { createHttpClient } from './http';
import { ClientError } from './types';

const busyBody = { code: 'busy', message: 'too many requests at once from this caller: 1 running and 4 waiting; retry in a moment' };
const busy = (): Response => new Response(JSON.stringify(busyBody), { status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': '2' } });
const ok = (body: unknown): Response => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

/** A WebSocket that never opens (these tests are about invoke). */
class QuietWS {
  onopen = null;
  onclose = null;
  onerror = null;
  onmessage = null;
  close(): void {}
}

/** A fetch answering each call with the next of `answers` (the last repeats), and the commands it was sent. */
function scripted(answers: Array<() => Response>): { fetch: typeof globalThis.fetch; sent: string[] } {
  const sent: string[] = [];
  const fetch = vi.fn(async (_url: string, init: RequestInit) => {
    sent.push((JSON.parse(String(init.body)) as { command: string }).command);
    return answers[Math.min(sent.length - 1, answers.length - 1)]!();
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, sent };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('reads refused as busy (429)', () => {
  it('are sent again after Retry-After, the client counting them as waiting meanwhile', async () => {
    vi.useFakeTimers();
    const { fetch, sent } = scripted([busy, busy, () => ok({ files: [] })]);
    const c = createHttpClient({ baseUrl: 'http://h', fetch, WebSocket: QuietWS });
    const counts: number[] = [];
    c.onWaiting!((n) => counts.push(n));
    let answer: unknown = null;
    const call = c.invoke('export.preview', { pool: 'p', format: 'jsonl' }).then((r) => (answer = r));
    await vi.advanceTimersByTimeAsync(1999);
    // Retry-After: 2 — not sent again before.
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2000);
    await call;
    expect(sent).toEqual(['export.preview', 'export.preview', 'export.preview']);
    expect(answer).toEqual({ files: [] });
    expect(counts).toEqual([0, 1, 0, 1, 0]);
    c.close();
  });

  it('a write refused as busy fails at once, not sent again', async () => {
    const { fetch, sent } = scripted([busy]);
    const c = createHttpClient({ baseUrl: 'http://h', fetch, WebSocket: QuietWS });
    const e = await c.invoke('export.write', { pool: 'p', format: 'jsonl', download: true }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ClientError);
    expect(e).toMatchObject({ code: 'busy', status: 429, retryAfterSeconds: 2, message: busyBody.message });
    expect(sent).toEqual(['export.write']);
    c.close();
  });

  it('are sent again a bounded number of times, then the refusal is the answer', async () => {
    const waits: number[] = [];
    let sends = 0;
    const e = await sendRetryingBusyReads(
      async () => {
        sends++;
        throw new ClientError('busy', 'busy', 429, undefined, 1);
      },
      { command: 'review.queue', onWaiting: () => {}, sleep: async (ms) => void waits.push(ms) },
    ).catch((x: unknown) => x);
    expect(e).toMatchObject({ status: 429 });
    expect(sends).toBe(BUSY_RETRIES + 1);
    expect(waits).toEqual(Array(BUSY_RETRIES).fill(1000));
  });

  it('other failures are not sent again, and a read given up on stops waiting', async () => {
    let sends = 0;
    const notFound = await sendRetryingBusyReads(
      async () => {
        sends++;
        throw new ClientError('no pool named "x"', 'not-found', 404);
      },
      { command: 'pool.progress', onWaiting: () => {} },
    ).catch((x: unknown) => x);
    expect(notFound).toMatchObject({ status: 404 });
    expect(sends).toBe(1);

    const abort = new AbortController();
    const counts: number[] = [];
    const call = sendRetryingBusyReads(
      async () => {
        throw new ClientError('busy', 'busy', 429, undefined, 1);
      },
      { command: 'annotate.query', signal: abort.signal, onWaiting: (d) => counts.push(d) },
    ).catch((x: unknown) => x);
    await new Promise((r) => setTimeout(r, 10));
    abort.abort();
    expect(await call).toMatchObject({ name: 'AbortError' });
    expect(counts).toEqual([1, -1]);
  });
});
