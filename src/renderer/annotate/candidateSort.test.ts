import { describe, expect, it } from 'vitest';
import type { CandidateView } from '../../shared/contract';
import { ariaSort, effectiveSort, GIVEN_ORDER, nextSort, parseSort, sortCandidates, storeSort, type CandidateSort } from './candidateSort';
import { clampCursor, shownIndices, stepCursor } from './candidateFilter';

const cand = (id: string, position: number, title: string | null, label: string | null, rank?: number): CandidateView =>
  ({
    id,
    position,
    label,
    question: title === null ? null : { id, title, body: `body of ${id}`, tags: [] },
    sharedTerms: [],
    runs: rank === undefined ? {} : { r: { rank, score: 1 / rank } },
    others: {},
  }) as unknown as CandidateView;

// Given order a, b, c, d (pool positions 0..3).
const cs = [cand('a', 0, 'Wifi 10 drops', '1', 3), cand('b', 1, null, null), cand('c', 2, 'wifi 9 drops', '?', 1), cand('d', 3, 'Audio', '0', 2)];
const ids = (s: CandidateSort, prev?: string[]): string[] => sortCandidates(cs, s, prev).map((c) => c.id);

describe('candidate sort', () => {
  it('sorts by each column both ways, ties and missing keys in the given order', () => {
    expect(ids(GIVEN_ORDER)).toEqual(['a', 'b', 'c', 'd']);
    expect(ids({ by: 'position', desc: true })).toEqual(['d', 'c', 'b', 'a']);
    // Titles compare numbers as numbers and ignore case; a missing text sorts by its id.
    expect(ids({ by: 'title', desc: false })).toEqual(['d', 'b', 'c', 'a']);
    expect(ids({ by: 'title', desc: true })).toEqual(['a', 'c', 'b', 'd']);
    // Ranker: best rank first; unscored last either way.
    expect(ids({ by: 'run', run: 'r', desc: false })).toEqual(['c', 'd', 'a', 'b']);
    expect(ids({ by: 'run', run: 'r', desc: true })).toEqual(['a', 'd', 'c', 'b']);
    // Label: unlabeled, then grades, then "?".
    expect(ids({ by: 'label', desc: false })).toEqual(['b', 'd', 'a', 'c']);
    expect(ids({ by: 'label', desc: true })).toEqual(['c', 'a', 'd', 'b']);
    expect(cs.map((c) => c.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('a label sort keeps the order on screen while the same query is refreshed', () => {
    const relabeled = cs.map((c) => (c.id === 'b' ? { ...c, label: '?' } : c));
    expect(sortCandidates(relabeled, { by: 'label', desc: false }, ['b', 'd', 'a', 'c']).map((c) => c.id)).toEqual(['b', 'd', 'a', 'c']);
    // …and sorts afresh without one.
    expect(sortCandidates(relabeled, { by: 'label', desc: false }).map((c) => c.id)).toEqual(['d', 'a', 'b', 'c']);
  });

  it('header clicks cycle ascending → descending → given; aria-sort follows', () => {
    let s = nextSort(GIVEN_ORDER, 'title');
    expect(s).toEqual({ by: 'title', desc: false });
    expect(ariaSort(s, 'title')).toBe('ascending');
    expect(ariaSort(s, 'label')).toBe('none');
    s = nextSort(s, 'title');
    expect(ariaSort(s, 'title')).toBe('descending');
    expect(nextSort(s, 'title')).toEqual(GIVEN_ORDER);
    s = nextSort(s, 'run', 'bm25');
    expect(s).toEqual({ by: 'run', run: 'bm25', desc: false });
    expect(ariaSort(s, 'run', 'bm25')).toBe('ascending');
    expect(ariaSort(s, 'run', 'other')).toBe('none');
    expect(nextSort(s, 'run', 'other')).toEqual({ by: 'run', run: 'other', desc: false });
  });

  it('stores and reads back every sort, and reads the older bare ranker name', () => {
    for (const s of [GIVEN_ORDER, { by: 'title', desc: true }, { by: 'label', desc: false }, { by: 'run', run: 'a:b', desc: true }] as CandidateSort[]) {
      expect(parseSort(storeSort(s))).toEqual(s);
    }
    expect(parseSort('bm25')).toEqual({ by: 'run', run: 'bm25', desc: false });
    expect(parseSort('sort:nonsense:asc')).toEqual(GIVEN_ORDER);
  });

  it('blind pools and missing rankers fall back to the given order', () => {
    expect(effectiveSort({ blind: true, runNames: [] }, { by: 'position', desc: true })).toEqual(GIVEN_ORDER);
    expect(effectiveSort({ blind: true, runNames: [] }, { by: 'title', desc: true })).toEqual({ by: 'title', desc: true });
    expect(effectiveSort({ blind: false, runNames: ['x'] }, { by: 'run', run: 'r', desc: false })).toEqual(GIVEN_ORDER);
    expect(effectiveSort({ blind: false, runNames: ['r'] }, { by: 'run', run: 'r', desc: false })).toEqual({ by: 'run', run: 'r', desc: false });
  });
});

describe('candidate filter', () => {
  it('shows rows whose id, title or body hold every word; the cursor steps over hidden rows', () => {
    expect(shownIndices(cs, '')).toEqual([0, 1, 2, 3]);
    expect(shownIndices(cs, 'WIFI drops')).toEqual([0, 2]);
    expect(shownIndices(cs, 'of audio')).toEqual([3]);
    expect(shownIndices(cs, ' 10 ')).toEqual([0]);
    expect(shownIndices(cs, 'nothing')).toEqual([]);
    const shown = [0, 2];
    expect(stepCursor(shown, 0, 1)).toBe(2);
    expect(stepCursor(shown, 2, 1)).toBe(2);
    expect(stepCursor(shown, 2, -1)).toBe(0);
    expect(stepCursor(shown, 1, 1)).toBe(2);
    expect(stepCursor(shown, 1, -1)).toBe(0);
    expect(stepCursor(shown, 3, 1)).toBe(2);
    expect(stepCursor([], 3, 1)).toBe(3);
    expect(clampCursor(shown, 1)).toBe(2);
    expect(clampCursor(shown, 3)).toBe(2);
    expect(clampCursor(shown, 0)).toBe(0);
  });
});
