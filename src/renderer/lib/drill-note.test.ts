import { describe, expect, it } from 'vitest';
import type { QueryEvaluation } from '../../shared/contract';
import { drillNote } from './drill-note';

/** A query with one ranker over candidates of these grades (null: no label). */
const query = (grades: Array<number | null>): QueryEvaluation => ({
  pool: 'p',
  queryId: 'q',
  rankers: [
    {
      run: 'bm25',
      order: grades.map((g, i) => ({ candidateId: `c${i}`, score: 10 - i, grade: g, relevant: g !== null && g >= 1 })),
      AP: grades.some((g) => g !== null && g >= 1) ? 1 : null,
      RR: grades.some((g) => g !== null && g >= 1) ? 1 : null,
    },
  ],
});

describe('the drill-down says why its query counts differently from the table', () => {
  it('no similar candidate: "—" explained by the convention', () => {
    expect(drillNote(query([0, 0, 0]), 'skip', false)).toBe('No candidate is similar: AP and RR are undefined (“—”); the table leaves this query out (convention skip).');
    expect(drillNote(query([0, 0, 0]), 'zero', false)).toBe('No candidate is similar: AP and RR are undefined (“—”); the table counts them 0 for this query (score 0).');
  });
  it('a partly labeled query: left out of the table unless partial, its unlabeled candidates counted as not similar here', () => {
    expect(drillNote(query([1, 0, null, null]), 'zero', false)).toBe(
      '2 of its 4 candidates have no label from this source (counted here as not similar): the table leaves it out until every candidate is labeled (or “include partially labeled queries”).',
    );
    expect(drillNote(query([1, 0, null, 0]), 'zero', true)).toBe(
      '1 of its 4 candidates has no label from this source (counted here as not similar): the table counts it with them as not similar (partially labeled queries included).',
    );
    expect(drillNote(query([0, null]), 'skip', true)).toBe('1 of its 2 candidates has no label from this source (counted here as not similar) and none is similar: AP and RR are undefined (“—”); the table leaves it out (convention skip).');
  });
  it('a fully labeled query with a similar candidate needs no note', () => {
    expect(drillNote(query([0, 1, 0]), 'zero', false)).toBeNull();
  });
});
