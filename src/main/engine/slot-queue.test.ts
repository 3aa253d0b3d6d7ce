import { describe, expect, it, vi } from 'vitest';
import { CancelledError } from '../errors';
import { SlotQueue } from './slot-queue';

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('SlotQueue', () => {
  it('gives free slots at once and queues the rest first come first served', async () => {
    const q = new SlotQueue({ max: () => 2 });
    const a = await q.acquire();
    const b = await q.acquire();
    const order: string[] = [];
    const c = q.acquire().then((r) => (order.push('c'), r));
    const d = q.acquire().then((r) => (order.push('d'), r));
    await tick();
    expect(order).toEqual([]);
    expect(q.load).toEqual({ running: 2, queued: 2 });
    b();
    b(); // a second call frees nothing more
    await tick();
    expect(order).toEqual(['c']);
    expect(q.load).toEqual({ running: 2, queued: 1 });
    a();
    (await c)();
    (await d)();
    expect(q.load).toEqual({ running: 0, queued: 0 });
  });

  it('tells a waiting task the tasks before it (running and queued ahead), at once and as it moves up', async () => {
    const q = new SlotQueue({ max: () => 2 });
    const held = [await q.acquire(), await q.acquire()];
    const first: number[] = [];
    const second: number[] = [];
    const p1 = q.acquire(undefined, (n) => first.push(n));
    const p2 = q.acquire(undefined, (n) => second.push(n));
    expect(first).toEqual([2]);
    expect(second).toEqual([3]);
    held[0]!();
    await p1;
    expect(second).toEqual([3, 2]);
    held[1]!();
    (await p1)();
    (await p2)();
  });

  it('with noticeMs, says nothing of a short wait and tells places only after the notice', async () => {
    vi.useFakeTimers();
    try {
      const q = new SlotQueue({ max: () => 1, noticeMs: 250 });
      const held = await q.acquire();
      const places: number[] = [];
      const p = q.acquire(undefined, (n) => places.push(n));
      const short: number[] = [];
      const p2 = q.acquire(undefined, (n) => short.push(n));
      vi.advanceTimersByTime(249);
      expect(places).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(places).toEqual([1]);
      expect(short).toEqual([2]);
      held();
      (await p)();
      expect(short).toEqual([2, 1]);
      (await p2)();
      // A task whose slot came before its notice is never told.
      const h = await q.acquire();
      const never: number[] = [];
      const p3 = q.acquire(undefined, (n) => never.push(n));
      h();
      (await p3)();
      vi.advanceTimersByTime(1000);
      expect(never).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses beyond maxQueued with busy()\'s error, naming the load', async () => {
    const q = new SlotQueue({ max: () => 1, maxQueued: () => 1, busy: (l) => new Error(`busy ${l.running}+${l.queued}`) });
    const held = await q.acquire();
    const waiting = q.acquire();
    await expect(q.acquire()).rejects.toThrow('busy 1+1');
    held();
    (await waiting)();
  });

  it('a cancelled wait leaves the queue, the tasks behind it move up and are told; an aborted signal is refused before any wait', async () => {
    const q = new SlotQueue({ max: () => 1, cancelled: () => new CancelledError('gone') });
    const held = await q.acquire();
    const ac = new AbortController();
    const cancelled = q.acquire(ac.signal);
    const behind: number[] = [];
    const next = q.acquire(undefined, (n) => behind.push(n));
    ac.abort();
    await expect(cancelled).rejects.toThrow('gone');
    expect(behind).toEqual([2, 1]);
    expect(q.load).toEqual({ running: 1, queued: 1 });
    held();
    (await next)();
    await expect(q.acquire(ac.signal)).rejects.toBeInstanceOf(CancelledError);
    expect(q.load).toEqual({ running: 0, queued: 0 });
  });

  it('reads its limit at every release: a raised limit starts as many waiting tasks as it allows', async () => {
    let max = 1;
    const q = new SlotQueue({ max: () => max });
    const held = await q.acquire();
    const started: number[] = [];
    const waits = [1, 2, 3].map((i) => q.acquire().then((r) => (started.push(i), r)));
    max = 3;
    held();
    await tick();
    expect(started).toEqual([1, 2, 3]);
    for (const w of waits) (await w)();
  });
});
