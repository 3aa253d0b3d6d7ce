/** Test helper (not a test file): seeded synthetic corpora. */
import type { Bm25Document } from './bm25-index';

/** A small seeded corpus with Zipf-like word frequencies. */
export function randomCorpus(seed: number, n: number, maxLen: number): Bm25Document[] {
  let a = seed >>> 0;
  const rnd = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const vocab = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}`).concat(['the', 'is', 'and', 'visa', 'c++', 'node.js']);
  const word = () => vocab[Math.floor(vocab.length * Math.pow(rnd(), 2.5))]!;
  const docs: Bm25Document[] = [];
  for (let i = 0; i < n; i++) {
    const tl = 1 + Math.floor(rnd() * 8);
    const bl = Math.floor(rnd() * maxLen);
    docs.push({ doc: i + 1, title: Array.from({ length: tl }, word).join(' '), body: Array.from({ length: bl }, word).join(' ') });
  }
  return docs;
}
