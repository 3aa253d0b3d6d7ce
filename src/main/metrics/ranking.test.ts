import { describe, expect, it } from 'vitest';
import { QPairsError } from '../errors';
import { compareCodePoints, countScored, hasTiedScores, rankCandidates, rankIndices, scoreOf } from './ranking';

describe('rankCandidates', () => {
  const pool = ['b', 'a', 'c', 'd', 'e'];
  const scores = new Map([
    ['b', 1],
    ['a', 2],
    ['c', 2],
    ['e', 0.5],
  ]);

  it('sorts by score descending; pool-order ties keep the pool order; unscored go last in pool order', () => {
    expect(rankCandidates(pool, scores)).toEqual(['a', 'c', 'b', 'e', 'd']);
    expect(rankCandidates(pool, scores, { ties: 'pool-order' })).toEqual(['a', 'c', 'b', 'e', 'd']);
  });

  it("trec-eval ties: doc id descending (strcmp); unscored still last in pool order", () => {
    expect(rankCandidates(pool, scores, { ties: 'trec-eval' })).toEqual(['c', 'a', 'b', 'e', 'd']);
    expect(rankCandidates(['10', '9', '100', '2'], { '10': 1, '9': 1, '100': 1, '2': 1 }, { ties: 'trec-eval' })).toEqual([
      '9',
      '2',
      '100',
      '10',
    ]);
  });

  it("unscored 'drop' leaves unscored candidates out", () => {
    expect(rankCandidates(pool, scores, { unscored: 'drop' })).toEqual(['a', 'c', 'b', 'e']);
    expect(rankCandidates(pool, undefined, { unscored: 'drop' })).toEqual([]);
  });

  it('an empty run ranks the pool in its original order', () => {
    expect(rankCandidates(pool, undefined)).toEqual(pool);
    expect(rankCandidates(pool, {})).toEqual(pool);
    expect(rankCandidates(pool, new Map(), { ties: 'trec-eval' })).toEqual(pool);
    expect(rankCandidates([], undefined)).toEqual([]);
  });

  it('accepts records; NaN and non-number scores count as unscored; ±Infinity are scores', () => {
    const rec = { b: NaN, a: Infinity, c: -Infinity, d: 'x' as unknown as number, e: 0 };
    expect(rankCandidates(pool, rec)).toEqual(['a', 'e', 'c', 'b', 'd']);
    expect(countScored(pool, rec)).toBe(3);
    expect(scoreOf({ toString: 1 } as Record<string, number>, 'hasOwnProperty')).toBeNaN();
  });

  it('treats 0 and -0 as a tie', () => {
    expect(rankCandidates(['x', 'y'], { x: -0, y: 0 })).toEqual(['x', 'y']);
    expect(hasTiedScores(['x', 'y'], { x: -0, y: 0 })).toBe(true);
  });

  it('is deterministic whatever the input order of a large tie', () => {
    const ids = Array.from({ length: 50 }, (_, i) => `d${i}`);
    const s = Object.fromEntries(ids.map((id, i) => [id, i % 3]));
    const a = rankCandidates(ids, s, { ties: 'trec-eval' });
    const b = rankCandidates([...ids].reverse(), s, { ties: 'trec-eval' });
    expect(a).toEqual(b);
    const p = rankCandidates(ids, s);
    expect(p.filter((id) => s[id] === 2)).toEqual(ids.filter((id) => s[id] === 2));
  });

  it('rankIndices returns indices and can reuse a scratch buffer', () => {
    const buf = new Float64Array(10);
    expect(rankIndices(pool, scores, {}, buf)).toEqual([1, 2, 0, 4, 3]);
    expect(rankIndices(pool, scores, {}, new Float64Array(1))).toEqual([1, 2, 0, 4, 3]);
  });

  it('rejects unknown rules', () => {
    expect(() => rankIndices(pool, scores, { ties: 'random' as never })).toThrow(QPairsError);
    expect(() => rankIndices(pool, scores, { unscored: 'first' as never })).toThrow(QPairsError);
  });
});

describe('compareCodePoints (strcmp on UTF-8 bytes)', () => {
  it('orders ASCII as strcmp does, shorter prefix first', () => {
    expect(compareCodePoints('9', '10')).toBeGreaterThan(0);
    expect(compareCodePoints('10', '100')).toBeLessThan(0);
    expect(compareCodePoints('B', 'a')).toBeLessThan(0);
    expect(compareCodePoints('abc', 'abc')).toBe(0);
  });
  it('orders astral characters after U+E000–U+FFFF (unlike UTF-16 code units)', () => {
    const astral = '\u{1F600}'; // UTF-8 F0 9F 98 80
    const bmpHigh = '\uFF21'; // UTF-8 EF BC A1
    expect(astral < bmpHigh).toBe(true); // JS UTF-16 order
    expect(compareCodePoints(astral, bmpHigh)).toBeGreaterThan(0);
    expect(compareCodePoints(bmpHigh, astral)).toBeLessThan(0);
    expect(Buffer.compare(Buffer.from(astral), Buffer.from(bmpHigh))).toBeGreaterThan(0);
  });
  it('agrees with byte comparison on random strings', () => {
    const alphabet = ['a', 'Z', '0', 'é', '\u4E2D', '\uFF21', '\u{1F600}', '\u{10400}', '\uD7FF'];
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const word = () => Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
    for (let t = 0; t < 2000; t++) {
      const a = word();
      const b = word();
      expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
    }
  });
});

describe('hasTiedScores / countScored', () => {
  it('ignores unscored candidates', () => {
    expect(hasTiedScores(['a', 'b', 'c'], { a: 1, b: 2 })).toBe(false);
    expect(hasTiedScores(['a', 'b', 'c'], { a: 1, b: 1 })).toBe(true);
    expect(hasTiedScores(['a', 'b'], undefined)).toBe(false);
    expect(countScored(['a', 'b', 'c'], { a: 1, b: NaN })).toBe(1);
  });
});
