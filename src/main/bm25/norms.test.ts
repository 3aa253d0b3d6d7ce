import { describe, expect, it } from 'vitest';
import { IndexState, TF_BITS, TF_ESCAPE } from './index-state';
import { refreshNorms, tfFactorOf } from './norms';
import { scoredLength } from './length-norm';

/** A state with documents of the given lengths (no postings: the norms only read lengths). */
function stateWithLengths(lengths: number[], lengthNorm: 'lucene' | 'exact'): IndexState {
  const st = new IndexState({ lengthNorm, k1: 1.1, b: 0.6 });
  st.ordLen = Int32Array.from(lengths);
  st.nOrd = lengths.length;
  for (const l of lengths) {
    st.totalLen += l;
    if (l > 0) st.nNonEmpty++;
  }
  return st;
}

describe('BM25 length norms as a table (refreshNorms, tfFactorOf)', () => {
  const lengths = [0, 1, 7, 23, 24, 40, 41, 100, 977, 1000, 5000, 41, 7, 123456];
  for (const mode of ['lucene', 'exact'] as const) {
    it(`gives tf / (tf + k1 · (1 − b + b · dl / avgdl)) for every document and tf (${mode} lengths)`, () => {
      const st = stateWithLengths(lengths, mode);
      refreshNorms(st);
      const avgdl = st.totalLen / st.nNonEmpty;
      for (let o = 0; o < lengths.length; o++) {
        const norm = 1.1 * (1 - 0.6 + (0.6 * scoredLength(lengths[o]!, mode === 'exact')) / avgdl);
        for (let tf = 1; tf <= 70; tf++) expect(tfFactorOf(st, tf, o)).toBe(tf / (tf + norm));
        // The scans' table: 0 for tf 0 and for the escape code (whose real tf is added apart).
        expect(st.tfFactor[(st.normClass[o]! << TF_BITS) | 0]).toBe(0);
        expect(st.tfFactor[(st.normClass[o]! << TF_BITS) | TF_ESCAPE]).toBe(0);
      }
    });
  }

  it('puts documents of one scored length in one class (256 at most with Lucene norms)', () => {
    const st = stateWithLengths(lengths, 'lucene');
    refreshNorms(st);
    expect(st.normClass[6]).toBe(st.normClass[11]); // 41 and 41
    expect(st.normClass[5]).toBe(st.normClass[6]); // 40 and 41 share Lucene's byte
    expect(st.classNorm.length).toBe(256);
    const exact = stateWithLengths(lengths, 'exact');
    refreshNorms(exact);
    expect(exact.normClass[5]).not.toBe(exact.normClass[6]);
    expect(exact.classNorm.length).toBe(new Set(lengths).size);
  });

  it('follows the average length when documents change', () => {
    const st = stateWithLengths([10, 20], 'exact');
    refreshNorms(st);
    const before = tfFactorOf(st, 3, 0);
    st.ordLen = Int32Array.from([10, 20, 90]);
    st.nOrd = 3;
    st.totalLen += 90;
    st.nNonEmpty++;
    refreshNorms(st);
    expect(tfFactorOf(st, 3, 0)).toBeGreaterThan(before); // avgdl up: a 10-token document's norm down
    expect(tfFactorOf(st, 3, 0)).toBe(3 / (3 + 1.1 * (1 - 0.6 + (0.6 * 10) / 40)));
  });
});
