import { describe, expect, it } from 'vitest';
import { readOnce, type Flight } from './flight';

/** A read that finishes when told to, counting how many were started. */
function reads() {
  const started: Array<() => void> = [];
  const read = (): Promise<void> => new Promise<void>((resolve) => started.push(resolve));
  return { started, read };
}

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

describe('readOnce', () => {
  it('reads once more after the running read, however many ask meanwhile, and resolves them after that read', async () => {
    const slot: { current: Flight | null } = { current: null };
    const { started, read } = reads();
    const load = (): Promise<void> => readOnce(slot, 'p/judy', false, read, load);
    const first = load();
    let done = 0;
    const later = [load(), load(), load()].map((p) => p.then(() => done++));
    expect(started).toHaveLength(1);
    started[0]!();
    await first;
    await tick();
    // One read for the three who asked while the first ran, and they wait for it.
    expect(started).toHaveLength(2);
    expect(done).toBe(0);
    started[1]!();
    await Promise.all(later);
    expect(done).toBe(3);
    expect(started).toHaveLength(2);
    expect(slot.current).toBeNull();
  });

  it('a forced read, or one for another pool or judge, starts at once', async () => {
    const slot: { current: Flight | null } = { current: null };
    const { started, read } = reads();
    void readOnce(slot, 'p/judy', false, read, () => Promise.resolve());
    void readOnce(slot, 'p/judy', true, read, () => Promise.resolve());
    void readOnce(slot, 'q/judy', false, read, () => Promise.resolve());
    expect(started).toHaveLength(3);
    for (const s of started) s();
    await tick();
    expect(slot.current).toBeNull();
  });

  it('a failed read still lets the waiting callers read', async () => {
    const slot: { current: Flight | null } = { current: null };
    let n = 0;
    const read = (): Promise<void> => (++n === 1 ? Promise.reject(new Error('offline')) : Promise.resolve());
    const load = (): Promise<void> => readOnce(slot, 'k', false, read, load);
    const first = load().catch(() => 'failed');
    const second = load();
    expect(await first).toBe('failed');
    await second;
    expect(n).toBe(2);
  });
});
