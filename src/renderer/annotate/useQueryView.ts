/**
 * What the Annotate screen shows: the query view in the chosen candidate order (candidateSort.ts),
 * the cursor, the expanded rows, the candidate filter, the queries seen this session and the
 * screen's error and notice. Reading views from the engine: useQueryNavigation.ts.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import type { QueryView } from '../../shared/contract';
import type { SharedState } from '../lib/shared-state';
import { useStoredString } from '../lib/hooks';
import { baselineOf, type Baseline } from './progress';
import { candidateMatches } from './candidateFilter';
import { effectiveSort, givenOrder, parseSort, sortCandidates, storeSort, type CandidateSort } from './candidateSort';
import type { SeenQuery } from './GotoDialog';

/**
 * The view in the chosen sort's order (candidateSort.ts); `prev`: the view on screen — when it
 * shows the same query its order is kept by a label sort.
 */
function ordered(v: QueryView, sort: CandidateSort, prev?: QueryView | null): QueryView {
  const s = effectiveSort(v, sort);
  if (s.by === null) return v;
  const same = prev && prev.pool === v.pool && prev.queryId === v.queryId ? prev.candidates.map((c) => c.id) : undefined;
  return { ...v, candidates: sortCandidates(v.candidates, s, same) };
}

/** The row of the first candidate without a label (in the order shown), else 0. */
export function firstUnlabeled(v: QueryView): number {
  return Math.max(0, v.candidates.findIndex((c) => c.label == null));
}

/** When the query on screen was shown, and whether it arrived with every candidate labeled. */
export interface Arrival {
  at: number;
  /** A query that arrives complete (revisited) does not count towards time per query. */
  complete: boolean;
}

export interface QueryViewState {
  view: QueryView | null;
  /** The view on screen now (ahead of `view` between a change and the next render). */
  viewRef: RefObject<QueryView | null>;
  error: string | null;
  setError: Dispatch<SetStateAction<string | null>>;
  notice: string | null;
  setNotice: Dispatch<SetStateAction<string | null>>;
  cursor: number;
  setCursor: Dispatch<SetStateAction<number>>;
  expanded: ReadonlySet<string>;
  toggleExpand: (id: string) => void;
  /** Queries shown in this session (for the go-to list): id → position and title. */
  seen: ReadonlyMap<string, SeenQuery>;
  order: CandidateSort;
  /** Candidates sorted by a column (candidateSort.ts); the cursor stays on its candidate. */
  changeOrder: (sort: CandidateSort) => void;
  /** The candidate filter (reset on each new query); the cursor steps over the rows it hides. */
  candFilter: string;
  setCandFilter: Dispatch<SetStateAction<string>>;
  /** The engine's snapshot the live progress starts from (progress.ts). */
  baseline: RefObject<Baseline | null>;
  arrival: RefObject<Arrival>;
  /** Puts a freshly loaded view on screen; a new query resets the cursor and the clock. */
  show: (raw: QueryView, focusCandidate?: string) => void;
  /** Puts a re-read of the query on screen, keeping its order and the cursor's candidate. */
  update: (raw: QueryView) => void;
  /** Replaces the view on screen as it is (already in order). */
  patch: (v: QueryView) => void;
  /** No view on screen. */
  clear: () => void;
}

export function useQueryView(shared: SharedState): QueryViewState {
  const [view, setView] = useState<QueryView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [cursor, setCursor] = useState(0);
  const cursorRef = useRef(0);
  cursorRef.current = cursor;
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [seen, setSeen] = useState<ReadonlyMap<string, SeenQuery>>(new Map());
  const [storedSort, setStoredSort] = useStoredString('qpairs.annotate.order', '');
  const order = useMemo(() => parseSort(storedSort), [storedSort]);
  const orderRef = useRef(order);
  orderRef.current = order;
  const [candFilter, setCandFilter] = useState('');
  const candFilterRef = useRef(candFilter);
  candFilterRef.current = candFilter;
  const baseline = useRef<Baseline | null>(null);
  const [landSeq, setLandSeq] = useState(0);

  const viewRef = useRef<QueryView | null>(null);
  viewRef.current = view;
  /** The candidates' ids in the engine's order (the given order), from the newest view read. */
  const givenIds = useRef<string[]>([]);
  const arrival = useRef<Arrival>({ at: Date.now(), complete: false });

  const show = useCallback(
    (raw: QueryView, focusCandidate?: string) => {
      const newQuery = viewRef.current?.queryId !== raw.queryId || viewRef.current?.pool !== raw.pool;
      givenIds.current = raw.candidates.map((c) => c.id);
      const v = ordered(raw, orderRef.current, viewRef.current);
      baseline.current = baselineOf(v);
      viewRef.current = v;
      setView(v);
      setError(null);
      shared.setLastQueryId(v.queryId);
      // The cursor goes to the candidate handed over (an undo's), else to the pair the labeling
      // order asks for next (decide-rankers-mtc), on the same query too.
      const want = focusCandidate ?? raw.focus;
      const at = want ? v.candidates.findIndex((c) => c.id === want) : -1;
      if (at >= 0) {
        setCursor(at);
        // A candidate the filter hides (an undo's, a redo's): the filter goes, so the cursor is on a row shown.
        if (!newQuery && candFilterRef.current && !candidateMatches(v.candidates[at]!, candFilterRef.current)) setCandFilter('');
      }
      // A new query (a reload too) starts on its first unlabeled candidate: the first label key
      // must not overwrite a label given before. Row 1 when every candidate is labeled.
      else if (newQuery) setCursor(firstUnlabeled(v));
      if (newQuery) {
        // Land on the new query's top: its title in view.
        setLandSeq((n) => n + 1);
        setSeen((m) => new Map(m).set(v.queryId, { id: v.queryId, index: v.index, title: v.query?.title ?? '' }));
        arrival.current = { at: Date.now(), complete: v.candidates.length > 0 && v.candidates.every((c) => c.label != null) };
        setExpanded(new Set());
        setCandFilter('');
      }
    },
    [shared],
  );

  const update = useCallback(
    (raw: QueryView) => {
      const was = viewRef.current;
      if (was && was.blind !== raw.blind) {
        // The owner switched the pool blind or open: the order changes, the cursor stays on its candidate.
        show(raw, was.candidates[cursorRef.current]?.id);
        return;
      }
      givenIds.current = raw.candidates.map((c) => c.id);
      const next = ordered(raw, orderRef.current, was);
      baseline.current = baselineOf(next);
      viewRef.current = next;
      setView(next);
    },
    [show],
  );

  const patch = useCallback((v: QueryView) => {
    viewRef.current = v;
    setView(v);
  }, []);
  const clear = useCallback(() => setView(null), []);

  const toggleExpand = useCallback((id: string) => {
    setExpanded((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  }, []);

  // A new query: scroll to the page's top so its title is in view, then as little as needed for the
  // row under the cursor — its first unlabeled row, or the first row when that is partly behind the
  // floating panel of rankers — to be whole (the table's own scroll ran first: child effects run first).
  useEffect(() => {
    if (landSeq === 0) return;
    window.scrollTo({ top: 0, left: 0 });
    document.querySelector('table.candidates tr.cand-row.current')?.scrollIntoView({ block: 'nearest' });
  }, [landSeq]);

  const changeOrder = (sort: CandidateSort): void => {
    setStoredSort(storeSort(sort));
    orderRef.current = sort;
    const v = viewRef.current;
    if (!v) return;
    const at = v.candidates[cursorRef.current]?.id;
    // Sorted afresh from the engine's order (a label sort too).
    const next = ordered({ ...v, candidates: givenOrder(v.candidates, givenIds.current) }, sort);
    viewRef.current = next;
    setView(next);
    const i = next.candidates.findIndex((c) => c.id === at);
    setCursor(i >= 0 ? i : 0);
  };

  return {
    view,
    viewRef,
    error,
    setError,
    notice,
    setNotice,
    cursor,
    setCursor,
    expanded,
    toggleExpand,
    seen,
    order,
    changeOrder,
    candFilter,
    setCandFilter,
    baseline,
    arrival,
    show,
    update,
    patch,
    clear,
  };
}
