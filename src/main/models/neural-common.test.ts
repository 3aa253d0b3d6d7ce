import { describe, it, expect, vi } from 'vitest';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { EncodingCache, pretrainKey, startingVectors } from './neural-common';
import { SKIPGRAM_DEFAULTS, SkipGramRanker } from './skipgram';
import type { QText, TrainingData, WordVectorCache } from './types';

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

describe('startingVectors with a word-vector cache', () => {
  const text = (k: number) => Array.from({ length: 12 }, (_, i) => `w${(k * 5 + i * 3) % 41}`).join(' ');
  const corpus = (extra: QText[] = []): TrainingData => {
    const questions = new Map<string, QText>();
    for (let k = 0; k < 40; k++) questions.set(`q${k}`, { id: `q${k}`, title: `t${k % 4}`, body: text(k) });
    for (const q of extra) questions.set(q.id, q);
    return { questions, positives: [['q0', 'q4']], negatives: [], randomPool: [...questions.keys()] };
  };
  const trainings = () => {
    const spy = vi.spyOn(SkipGramRanker.prototype, 'train');
    return { count: () => spy.mock.calls.length, restore: () => spy.mockRestore() };
  };

  it('trains skip-gram once per key and hands the same vectors to the next training of that key', async () => {
    const cache: WordVectorCache = new Map();
    const t = trainings();
    try {
      const alone = await startingVectors(corpus(), {}, 16, 2, 7);
      const first = await startingVectors(corpus(), { wordVectorCache: cache }, 16, 2, 7);
      expect(t.count()).toBe(2);
      expect(cache.size).toBe(1);
      const second = await startingVectors(corpus(), { wordVectorCache: cache }, 16, 2, 7);
      expect(t.count()).toBe(2); // taken from the cache
      // Bit for bit the vectors a training of its own gives, and a copy: changing it changes no later one.
      for (const v of [first!, second!]) {
        expect(v.words).toEqual(alone!.words);
        expect(Buffer.from(v.data.buffer, v.data.byteOffset, v.data.byteLength).equals(Buffer.from(alone!.data.buffer, alone!.data.byteOffset, alone!.data.byteLength))).toBe(true);
      }
      second!.data.fill(0);
      const third = await startingVectors(corpus(), { wordVectorCache: cache }, 16, 2, 7);
      expect(Array.from(third!.data)).toEqual(Array.from(alone!.data));
    } finally {
      t.restore();
    }
  });

  it('trains again for another seed, other settings, or other texts (an empty question included: it moves the shuffle)', async () => {
    const cache: WordVectorCache = new Map();
    await startingVectors(corpus(), { wordVectorCache: cache }, 16, 2, 7);
    const t = trainings();
    try {
      await startingVectors(corpus(), { wordVectorCache: cache }, 16, 2, 8);
      await startingVectors(corpus(), { wordVectorCache: cache }, 16, 3, 7);
      await startingVectors(corpus(), { wordVectorCache: cache }, 8, 2, 7);
      await startingVectors({ ...corpus(), extraTexts: ['w1 w2 w3'] }, { wordVectorCache: cache }, 16, 2, 7);
      expect(t.count()).toBe(4);
      // M-NET's category term reads the questions' categories: they are in the key when it is on.
      const categorised = corpus([{ ...corpus().questions.get('q0')!, category: 'visas' }]);
      const mnet = { ...SKIPGRAM_DEFAULTS, dim: 16, epochs: 2, seed: 7, categoryWeight: 0.05 };
      expect(pretrainKey(categorised, mnet)).not.toBe(pretrainKey(corpus(), mnet));
      expect(pretrainKey(categorised, { ...mnet, categoryWeight: 0 })).toBe(pretrainKey(corpus(), { ...mnet, categoryWeight: 0 }));
      // A pool id without a question row has an empty text: no word, but one more sentence to shuffle.
      const withEmpty = corpus([{ id: 'x', title: '', body: '' }]);
      const cfg = { ...SKIPGRAM_DEFAULTS, dim: 16, epochs: 2, seed: 7 };
      expect(pretrainKey(withEmpty, cfg)).not.toBe(pretrainKey(corpus(), cfg));
      const own = await startingVectors(withEmpty, {}, 16, 2, 7);
      const given = await startingVectors(withEmpty, { wordVectorCache: cache }, 16, 2, 7);
      expect(t.count()).toBe(6);
      expect(Array.from(given!.data)).toEqual(Array.from(own!.data));
      // … and those vectors differ from the corpus without it, so they could not have been shared.
      expect(Array.from(own!.data)).not.toEqual(Array.from(cache.get(pretrainKey(corpus(), cfg))!.data));
    } finally {
      t.restore();
    }
  });
});
