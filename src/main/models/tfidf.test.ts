import { describe, expect, it } from 'vitest';
import { modelSuite } from './model-suite';
import { TfIdfRanker } from './tfidf';

describe('tfidf', () => {
  modelSuite({ kind: 'tfidf', config: {}, epochs: 1, tfjs: false, lossFalls: false });

  it('scores identical texts 1, disjoint texts 0, and shared rare n-grams above shared common words', async () => {
    const docs = ['the cat sat', 'the dog ran', 'the bird flew', 'a cat purred loudly', 'the the the'];
    const questions = new Map(docs.map((t, i) => [`d${i}`, { id: `d${i}`, title: t, body: '' }]));
    const m = new TfIdfRanker({ stopWords: false, minDf: 1 });
    await m.train({ questions, positives: [], randomPool: [] });
    const q = { id: 'q', title: 'the cat sat', body: '' };
    const s = m.score(q, [questions.get('d0')!, { id: 'x', title: 'zebra', body: '' }, questions.get('d3')!, questions.get('d1')!]);
    expect(s[0]).toBeCloseTo(1, 6);
    expect(s[1]).toBe(0);
    expect(s[2]).toBeGreaterThan(s[3]);
  });

  it('drops stop words when asked', async () => {
    const questions = new Map([['a', { id: 'a', title: 'the of and', body: '' }]]);
    const m = new TfIdfRanker({ stopWords: true });
    await m.train({ questions, positives: [], randomPool: [] });
    expect(m.score({ id: 'q', title: 'the of and', body: '' }, [questions.get('a')!])[0]).toBe(0);
  });
});
