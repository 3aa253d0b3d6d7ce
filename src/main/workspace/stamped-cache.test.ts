import { describe, expect, it } from 'vitest';
import { StampedCache } from './stamped-cache';

describe('StampedCache', () => {
  it('hands a value out again only while the stamp stays, and keeps at most max keys', () => {
    let stamp = 's1';
    const cache = new StampedCache<string, number>({ changeStamp: () => stamp }, 2);
    let reads = 0;
    const read = (v: number) => (): number => (reads++, v);
    expect(cache.get('a', read(1))).toBe(1);
    expect(cache.get('a', read(9))).toBe(1);
    expect(reads).toBe(1);
    stamp = 's2'; // a commit
    expect(cache.get('a', read(2))).toBe(2);
    expect(reads).toBe(2);
    cache.get('b', read(3));
    cache.get('c', read(4)); // a, the least recently stored, is dropped
    expect(cache.at('a', 's2')).toBeUndefined();
    expect(cache.at('b', 's2')).toBe(3);
    expect(cache.at('b', 's1')).toBeUndefined();
    cache.put('b', 's1', 5);
    expect(cache.at('b', 's1')).toBe(5);
    expect(cache.at('b', 's2')).toBeUndefined();
  });
});
