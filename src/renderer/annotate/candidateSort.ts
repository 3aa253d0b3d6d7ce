/**
 * The order of the Annotate screen's candidates: the column they are sorted by (a header click
 * cycles ascending → descending → the given order) and the order that results. The given order
 * is the engine's: the pool's (retriever's) order in an open pool, the annotator's own in a blind
 * one. Keys, ties broken by the given order:
 * - position: the pool position; title: the candidate's title (its id when the text is missing),
 *   numbers inside compared as numbers;
 * - run: the ranker's rank (1 = its best first when ascending); candidates it did not score last
 *   in both directions;
 * - label: this annotator's label — unlabeled first when ascending, then by grade, "?" after the
 *   grades. Sorting by label is a snapshot: while the same query is on screen, newly given labels
 *   do not move rows (the keyboard flow goes on down the rows); a click sorts again.
 * Blind pools sort by title or label only (no positions or rankers are shown there).
 */
import type { CandidateView, QueryView } from '../../shared/contract';
import { labelGrade } from '../../shared/labels';

export type SortColumn = 'position' | 'title' | 'label' | 'run';

export interface CandidateSort {
  /** null: the given order. */
  by: SortColumn | null;
  /** The ranker, when by = run. */
  run?: string;
  desc: boolean;
}

export const GIVEN_ORDER: CandidateSort = { by: null, desc: false };

/**
 * Stored form (localStorage): '' = the given order; a bare name = that ranker ascending (the
 * older form, still read); `sort:<column>:<asc|desc>[:<ranker>]` otherwise.
 */
export function parseSort(stored: string): CandidateSort {
  if (stored === '') return GIVEN_ORDER;
  if (!stored.startsWith('sort:')) return { by: 'run', run: stored, desc: false };
  const [, by, dir, ...run] = stored.split(':');
  if (by !== 'position' && by !== 'title' && by !== 'label' && by !== 'run') return GIVEN_ORDER;
  if (by === 'run' && run.length === 0) return GIVEN_ORDER;
  return { by, desc: dir === 'desc', ...(by === 'run' ? { run: run.join(':') } : {}) };
}

export function storeSort(s: CandidateSort): string {
  if (s.by === null) return '';
  return `sort:${s.by}:${s.desc ? 'desc' : 'asc'}${s.by === 'run' ? `:${s.run ?? ''}` : ''}`;
}

export function sameColumn(s: CandidateSort, by: SortColumn, run?: string): boolean {
  return s.by === by && (by !== 'run' || s.run === run);
}

/** A header click: another column → ascending; ascending → descending; descending → the given order. */
export function nextSort(s: CandidateSort, by: SortColumn, run?: string): CandidateSort {
  if (!sameColumn(s, by, run)) return { by, desc: false, ...(by === 'run' ? { run } : {}) };
  return s.desc ? GIVEN_ORDER : { ...s, desc: true };
}

/** The sort that applies to this view: blind pools and rankers the view lacks fall back to the given order. */
export function effectiveSort(v: Pick<QueryView, 'blind' | 'runNames'>, s: CandidateSort): CandidateSort {
  if (s.by === 'run' && (v.blind || !v.runNames.includes(s.run ?? ''))) return GIVEN_ORDER;
  if (s.by === 'position' && v.blind) return GIVEN_ORDER;
  return s;
}

/** The sort as the headers show it: an open pool's given order is its pool order (position ascending). */
export function headerSort(v: Pick<QueryView, 'blind' | 'runNames'>, s: CandidateSort): CandidateSort {
  const e = effectiveSort(v, s);
  return e.by === null && !v.blind ? { by: 'position', desc: false } : e;
}

/** The candidates put back in the given order (ids in that order; unknown ids last). */
export function givenOrder(cands: readonly CandidateView[], ids: readonly string[]): CandidateView[] {
  const at = new Map(ids.map((id, i) => [id, i]));
  const pos = (c: CandidateView): number => at.get(c.id) ?? Number.POSITIVE_INFINITY;
  return [...cands].sort((a, b) => pos(a) - pos(b));
}

/** aria-sort of a column's header. */
export function ariaSort(s: CandidateSort, by: SortColumn, run?: string): 'ascending' | 'descending' | 'none' {
  return sameColumn(s, by, run) ? (s.desc ? 'descending' : 'ascending') : 'none';
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function labelKey(label: string | null): [number, number, string] {
  if (label == null) return [0, 0, ''];
  const g = labelGrade(label);
  return g === null ? [2, 0, label] : [1, g, label];
}

/**
 * The candidates in the sort's order (a new array; the input is not changed). `previous`: the
 * order on screen for the same query — a label sort keeps it (rows do not jump while labeling).
 */
export function sortCandidates(cands: readonly CandidateView[], s: CandidateSort, previous?: readonly string[]): CandidateView[] {
  const given = new Map(cands.map((c, i) => [c.id, i]));
  const byGiven = (a: CandidateView, b: CandidateView): number => given.get(a.id)! - given.get(b.id)!;
  if (s.by === null) return [...cands];
  if (s.by === 'label' && previous && previous.length > 0) {
    const at = new Map(previous.map((id, i) => [id, i]));
    const pos = (c: CandidateView): number => at.get(c.id) ?? Number.POSITIVE_INFINITY;
    return [...cands].sort((a, b) => pos(a) - pos(b) || byGiven(a, b));
  }
  const dir = s.desc ? -1 : 1;
  let cmp: (a: CandidateView, b: CandidateView) => number;
  switch (s.by) {
    case 'position':
      cmp = (a, b) => dir * (a.position - b.position);
      break;
    case 'title':
      cmp = (a, b) => dir * collator.compare(a.question?.title || a.id, b.question?.title || b.id);
      break;
    case 'run': {
      const run = s.run ?? '';
      cmp = (a, b) => {
        const x = a.runs[run]?.rank;
        const y = b.runs[run]?.rank;
        if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
        return dir * (x - y);
      };
      break;
    }
    case 'label':
      cmp = (a, b) => {
        const x = labelKey(a.label);
        const y = labelKey(b.label);
        return dir * (x[0] - y[0] || x[1] - y[1] || collator.compare(x[2], y[2]));
      };
      break;
  }
  return [...cands].sort((a, b) => cmp(a, b) || byGiven(a, b));
}
