import { describe, expect, it } from 'vitest';
import { QPairsError } from '../errors';
import { modelSuite } from './model-suite';
import { Rng } from './rng';
import { formatWord2VecText, parseWord2VecText, SkipGramRanker } from './skipgram';
import type { QText } from './types';

describe('skipgram', () => {
  // unsupervised: the tiny corpus only needs to put same-topic questions first
  modelSuite({ kind: 'skipgram', config: { dim: 16, minCount: 1, window: 5, subsample: 0, lr: 0.05 }, epochs: 30, tfjs: false, minMRR: 0.8 });

  it('planted synonyms end closer than random words', async () => {
    // "sedan"/"automobile" and "laptop"/"notebook" are used interchangeably in their contexts
    const rng = new Rng(1);
    const ctxCar = 'drive road wheel engine fuel garage park highway'.split(' ');
    const ctxPc = 'screen keyboard battery charger usb ram cpu boot'.split(' ');
    const noise = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const pick = (a: string[]) => a[rng.int(a.length)];
    const questions = new Map<string, QText>();
    for (let i = 0; i < 600; i++) {
      const car = i % 2 === 0;
      const target = car ? (rng.next() < 0.5 ? 'sedan' : 'automobile') : rng.next() < 0.5 ? 'laptop' : 'notebook';
      const ctx = car ? ctxCar : ctxPc;
      const words = [pick(noise), pick(ctx), pick(ctx), target, pick(ctx), pick(ctx), pick(noise)];
      questions.set(`s${i}`, { id: `s${i}`, title: words.join(' '), body: '' });
    }
    const m = new SkipGramRanker({ dim: 24, minCount: 1, window: 3, epochs: 5, subsample: 0, seed: 2 });
    await m.train({ questions, positives: [], randomPool: [] });
    const syn = m.wordSimilarity('sedan', 'automobile')!;
    const syn2 = m.wordSimilarity('laptop', 'notebook')!;
    for (const other of ['laptop', 'notebook', 'w3', 'w17', 'w30']) {
      expect(syn).toBeGreaterThan(m.wordSimilarity('sedan', other)!);
    }
    expect(syn2).toBeGreaterThan(m.wordSimilarity('laptop', 'automobile')!);
    expect(syn).toBeGreaterThan(0.5);
  });

  it('word2vec text import/export round trip, header optional, errors name the line', () => {
    const wv = parseWord2VecText('2 3\nfoo 1 0 0\nbar 0 1 0\n');
    expect(wv.words).toEqual(['foo', 'bar']);
    expect(wv.dim).toBe(3);
    expect(Array.from(wv.data)).toEqual([1, 0, 0, 0, 1, 0]);
    expect(parseWord2VecText('foo 1 2\nbar 3 4').dim).toBe(2);
    const back = parseWord2VecText(formatWord2VecText(wv));
    expect(Array.from(back.data)).toEqual(Array.from(wv.data));
    expect(() => parseWord2VecText('foo 1 2\nbar 3', { file: 'v.txt' })).toThrow(QPairsError);
    expect(() => parseWord2VecText('foo 1 2\nbar 3', { file: 'v.txt' })).toThrow(/v\.txt:2/);
    expect(() => parseWord2VecText('foo 1 x')).toThrow(/not a number/);
    const r = SkipGramRanker.fromWordVectors(wv);
    expect(r.wordSimilarity('foo', 'bar')).toBeCloseTo(0, 6);
    expect(r.score({ id: 'a', title: 'foo', body: '' }, [{ id: 'b', title: 'foo', body: '' }])[0]).toBeCloseTo(1, 6);
  });

  it('imported vectors initialise training', async () => {
    const wv = parseWord2VecText('alpha 1 0\nbeta 0 1\n');
    const questions = new Map([['a', { id: 'a', title: 'alpha beta alpha beta', body: '' }]]);
    const m = new SkipGramRanker({ minCount: 1, epochs: 0 });
    await m.train({ questions, positives: [], randomPool: [] }, { embeddings: wv });
    expect(m.config.dim).toBe(2);
    expect(Array.from(m.vectors().data)).toEqual([1, 0, 0, 1]);
  });
});
