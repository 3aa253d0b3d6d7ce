import { describe, expect, it } from 'vitest';
import { fnv1a } from './fnv1a';

describe('fnv1a', () => {
  it("gives FNV-1a's published 32-bit values (ASCII: one code unit per byte)", () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });
  it('hashes UTF-16 code units: a character beyond ASCII is one unit, not its UTF-8 bytes', () => {
    expect(fnv1a('é')).toBe(Math.imul(0x811c9dc5 ^ 0xe9, 0x01000193) >>> 0);
  });
});
