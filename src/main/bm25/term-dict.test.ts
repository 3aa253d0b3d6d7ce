import { describe, expect, it } from 'vitest';
import { TermDict } from './term-dict';
import { Tokenizer } from './tokenizer';

describe('TermDict', () => {
  it('assigns dense ids, finds terms inside larger strings, survives growth and truncation', () => {
    const d = new TermDict();
    const words = Array.from({ length: 5000 }, (_, i) => `t${i}x${(i * 7919) % 1000}`);
    words.forEach((w, i) => expect(d.intern(w)).toBe(i));
    expect(d.size).toBe(5000);
    words.forEach((w, i) => expect(d.intern(w)).toBe(i));
    const text = `-- ${words[1234]} --`;
    expect(d.find(text, 3, 3 + words[1234]!.length, TermDict.hash(text, 3, 3 + words[1234]!.length))).toBe(1234);
    expect(d.get('absent')).toBe(-1);
    expect(d.get('')).toBe(-1);
    d.truncate(100);
    expect(d.size).toBe(100);
    expect(d.get(words[99]!)).toBe(99);
    expect(d.get(words[100]!)).toBe(-1);
    expect(d.intern(words[4000]!)).toBe(100);
  });
});

describe('Tokenizer.tokenizeToIds', () => {
  it('gives exactly the tokens of tokenize(), as ids', () => {
    const texts = [
      "Don’t use C++ or C#; node.js 3.14 1,000 user's VISA Visa visa",
      'Ärger über Straße 東京タワー 𠮷野家 😀 x\uD800y ÉCOLE école',
      'a'.repeat(70) + ' short the and of',
      '',
    ];
    for (const opts of [{}, { stopWords: 'none' as const }, { stopWords: ['visa'], maxTokenLength: 5 }]) {
      const t = new Tokenizer(opts);
      const d = new TermDict();
      for (const text of texts) {
        const ids: number[] = [];
        const n = t.tokenizeToIds(text, d, true, ids);
        expect(n).toBe(ids.length);
        expect(ids.map((i) => d.terms[i])).toEqual(t.tokenize(text));
      }
      // without add, unknown terms are skipped
      const ids: number[] = [];
      t.tokenizeToIds('visa zzzunknown école', d, false, ids);
      expect(ids.map((i) => d.terms[i])).toEqual(t.tokenize('visa école'));
    }
  });
});
