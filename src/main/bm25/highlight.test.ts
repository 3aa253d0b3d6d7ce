import { describe, expect, it } from 'vitest';
import { rareSharedTerms } from './highlight';

describe('rareSharedTerms (issue 24: highlight only the rarer shared terms, by IDF)', () => {
  const df: Record<string, number> = { ubuntu: 400, install: 90, wifi: 12, broadcom: 2, driver: 40 };
  const docFreq = (t: string): number => df[t] ?? 0;

  it('keeps terms in at most 5% of the documents, in the order given; unknown terms count as rare', () => {
    // N = 1000: the limit is 50 documents.
    expect(rareSharedTerms(['ubuntu', 'install', 'wifi', 'broadcom', 'driver', 'bcm4313'], docFreq, 1000)).toEqual(['wifi', 'broadcom', 'driver', 'bcm4313']);
  });

  it('caps the count, keeping the highest idf', () => {
    expect(rareSharedTerms(['driver', 'wifi', 'broadcom'], docFreq, 1000, { maxTerms: 2 })).toEqual(['wifi', 'broadcom']);
  });

  it('a tiny corpus still highlights terms in up to 3 documents; no index keeps everything', () => {
    expect(rareSharedTerms(['broadcom', 'wifi'], docFreq, 10)).toEqual(['broadcom']);
    expect(rareSharedTerms(['a', 'b'], () => 3, 10)).toEqual(['a', 'b']);
    expect(rareSharedTerms(['a', 'b'], () => 7, 0)).toEqual(['a', 'b']);
  });
});
