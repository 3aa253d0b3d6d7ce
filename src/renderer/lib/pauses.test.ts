/**
 * Pauses that end with their screen (pauses.ts): the Export screen's downloads wait between questions to
 * the server; closing the screen ends every pause under way and clears its timer.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPauses } from './pauses';

afterEach(() => void vi.useRealTimers());

describe('createPauses', () => {
  it('a pause resolves after its time, and endAll ends those under way at once, leaving no timer', async () => {
    vi.useFakeTimers();
    const pauses = createPauses();
    const ended: string[] = [];
    void pauses.wait(400).then(() => ended.push('short'));
    void pauses.wait(5_000).then(() => ended.push('long'));
    expect(vi.getTimerCount()).toBe(2);
    await vi.advanceTimersByTimeAsync(400);
    expect(ended).toEqual(['short']);
    expect(pauses.size).toBe(1);
    pauses.endAll();
    await Promise.resolve();
    expect(ended).toEqual(['short', 'long']);
    expect(pauses.size).toBe(0);
    expect(vi.getTimerCount(), 'no timer left behind').toBe(0);
  });
});
