import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Bm25Index } from './bm25-index';
import { decodeLength, encodeLength, scoredLength } from './length-norm';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../tests/fixtures/lucene');
const lucene = JSON.parse(readFileSync(path.join(FIXTURES, 'smallfloat.json'), 'utf8')) as { byte4ToInt: number[]; intToByte4: Array<[number, number]> };

describe("Lucene 8's one-byte length norm (SmallFloat, values from real Lucene)", () => {
  it('decodes every byte as byte4ToInt does', () => {
    expect(lucene.byte4ToInt).toHaveLength(256);
    lucene.byte4ToInt.forEach((len, b) => expect(decodeLength(b)).toBe(len));
  });

  it('encodes lengths as intToByte4 does', () => {
    for (const [len, b] of lucene.intToByte4) expect(encodeLength(len)).toBe(b);
  });

  it('is exact up to 40 tokens, then rounds down (at most ~11%)', () => {
    for (let n = 0; n <= 40; n++) expect(scoredLength(n, false)).toBe(n);
    expect(scoredLength(41, false)).toBe(40);
    expect(scoredLength(100, false)).toBe(96);
    let worst = 0;
    for (let n = 41; n < 100_000; n++) {
      const d = scoredLength(n, false);
      expect(d).toBeLessThanOrEqual(n);
      worst = Math.max(worst, (n - d) / n);
    }
    expect(worst).toBeGreaterThan(0.1);
    expect(worst).toBeLessThan(0.12);
    expect(scoredLength(100, true)).toBe(100);
  });

  it('scores a long document with the rounded length (exact mode on request)', () => {
    // doc 1: "apple" + 99 fillers (len 100, stored as 96); doc 2: "apple pear" (len 2); avgdl = 51
    const docs = [
      { doc: 1, title: 'apple', body: Array.from({ length: 99 }, (_, i) => `f${i}`).join(' ') },
      { doc: 2, title: 'apple pear', body: '' },
    ];
    const idf = Math.log(1 + (2 - 2 + 0.5) / (2 + 0.5));
    const score = (dl: number) => idf / (1 + 1.2 * (1 - 0.75 + (0.75 * dl) / 51));
    const lucene = new Bm25Index();
    lucene.addDocuments(docs);
    const exact = new Bm25Index({ lengthNorm: 'exact' });
    exact.addDocuments(docs);
    expect(lucene.stats).toMatchObject({ avgdl: 51, lengthNorm: 'lucene' });
    expect(Math.abs(lucene.search('apple', 5).find((h) => h.doc === 1)!.score - score(96))).toBeLessThan(1e-12);
    expect(Math.abs(exact.search('apple', 5).find((h) => h.doc === 1)!.score - score(100))).toBeLessThan(1e-12);
    expect(() => new Bm25Index({ lengthNorm: 'nope' as never })).toThrow(/lengthNorm/);
  });
});
