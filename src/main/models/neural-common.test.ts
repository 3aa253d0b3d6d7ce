import { describe, it, expect } from 'vitest';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { EncodingCache } from './neural-common';
import type { QText } from './types';

const q = (id: string): QText => ({ id, title: id, body: '' });
// A fake encoder: row i = [n, 0] where n is the text's id number (unit length after normalising).
const encoder = (calls: string[][]) => (texts: QText[]) => {
  calls.push(texts.map((t) => t.id));
  return tf.tensor2d(texts.flatMap((t) => [Number(t.id.slice(1)), 1]), [texts.length, 2]);
};

describe('EncodingCache.encodeAll', () => {
  it('encodes only uncached texts, once each, in one batch', async () => {
    await tf.setBackend('cpu');
    const cache = new EncodingCache();
    const calls: string[][] = [];
    const a = cache.encodeAll([q('t1'), q('t2'), q('t1')], 2, encoder(calls));
    expect(calls).toEqual([['t1', 't2']]);
    expect(a[0]).toBe(a[2]);
    const b = cache.encodeAll([q('t2'), q('t3')], 2, encoder(calls));
    expect(calls).toEqual([['t1', 't2'], ['t3']]);
    expect(b[0]).toBe(a[1]);
    expect(Math.hypot(...b[1]!)).toBeCloseTo(1, 6);
  });

  it('returns every encoding even when the cache is cleared while it fills', async () => {
    await tf.setBackend('cpu');
    const cache = new EncodingCache(3); // full after 3 entries: the 4th set clears it
    const calls: string[][] = [];
    cache.encodeAll([q('t1'), q('t2')], 2, encoder(calls));
    const out = cache.encodeAll([q('t1'), q('t2'), q('t3'), q('t4'), q('t5')], 2, encoder(calls));
    expect(out.every((v) => v instanceof Float32Array && v.length === 2)).toBe(true);
    expect(out.map((v) => Math.round((v[0]! / v[1]!) * 10) / 10)).toEqual([1, 2, 3, 4, 5]);
    expect(tf.memory().numTensors).toBe(0);
  });
});
