import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { debounce } from './debounce';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('debounce with a longest wait', () => {
  it('runs once, ms after the last call of a burst', () => {
    const fn = vi.fn();
    const d = debounce(fn, 800, 2400);
    d.call();
    vi.advanceTimersByTime(500);
    d.call();
    vi.advanceTimersByTime(799);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('calls coming every 300 ms (faster than the 800 ms quiet it waits for) still run it every 2.4 s, not never', () => {
    const fn = vi.fn();
    const d = debounce(fn, 800, 2400);
    for (let t = 0; t < 10_000; t += 300) {
      d.call();
      vi.advanceTimersByTime(300);
    }
    // 10 s of calls: the runs came at most 2.4 s after each burst's first call (before: none until the calls stopped).
    expect(fn.mock.calls.length).toBeGreaterThanOrEqual(4);
    expect(fn.mock.calls.length).toBeLessThanOrEqual(5);
  });

  it('cancel drops a waiting run', () => {
    const fn = vi.fn();
    const d = debounce(fn, 100, 300);
    d.call();
    d.cancel();
    vi.advanceTimersByTime(1000);
    expect(fn).not.toHaveBeenCalled();
  });
});
