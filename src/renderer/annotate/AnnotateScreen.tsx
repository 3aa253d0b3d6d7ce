/**
 * The Annotate screen: one query at a time, its candidates in a table, labels by keyboard.
 * Every label goes through the outbox (labelQueue.ts) and shows its saved state per row.
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { AssignmentView, CandidateView, QueryView } from '../../shared/contract';
import type { SharedState } from '../shared-state';
import { useApp, useEvent, useReconnect } from '../lib/context';
import { errorMessage, fmtDuration, fmtEta, fmtInt } from '../lib/format';
import { baselineOf, liveProgress, msPerLabel, type Baseline } from './progress';
import { effectiveSort, GIVEN_ORDER, givenOrder, headerSort, nextSort, parseSort, sortCandidates, storeSort, type CandidateSort, type SortColumn } from './candidateSort';
import { clampCursor, shownIndices, stepCursor } from './candidateFilter';
import { FilterBox } from '../components/DataTable';
import { LiveMetrics } from './LiveMetrics';
import { GotoDialog, type SeenQuery } from './GotoDialog';
import { useStoredString } from '../lib/hooks';
import { Markdown } from '../lib/markdown';
import { highlight, termSet } from '../lib/highlight';
import { isTransportError } from '../client/types';
import { describeLabel, labelKeys, NAV_KEYS, valueForKey } from './keys';
import { pairKey } from './labelQueue';
import { CandidateTable, type RowModel } from './CandidateTable';
import { FailedLabels, SaveStatus } from '../components/SaveStatus';
import { KeyLegend } from '../components/KeyLegend';
import { isTypingTarget } from '../lib/typing';

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

/** The "Order by" list's value: '' (pool order), a ranker (its rank, best first), else a column header's sort. */
const COLUMN_CHOICE = '\u0000column';
function orderChoice(v: QueryView, sort: CandidateSort): string {
  const s = effectiveSort(v, sort);
  if (s.by === null || (s.by === 'position' && !s.desc)) return '';
  if (s.by === 'run' && !s.desc) return s.run ?? '';
  return COLUMN_CHOICE;
}

export function AnnotateScreen({ shared }: { shared: SharedState }): ReactNode {
  const { client, outbox, undo } = useApp();
  const { pools, pool, setPool, annotator, setAnnotator, lockedAnnotator } = shared;
  const [nameDraft, setNameDraft] = useState(annotator);
  const [view, setView] = useState<QueryView | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [cursor, setCursor] = useState(0);
  const cursorRef = useRef(0);
  cursorRef.current = cursor;
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [overlay, setOverlay] = useState<null | 'guidelines' | 'goto' | 'help'>(null);
  const [gotoError, setGotoError] = useState<string | null>(null);
  /** Queries shown in this session (for the go-to list): id → position and title. */
  const [seen, setSeen] = useState<ReadonlyMap<string, SeenQuery>>(new Map());
  const [labelTimes, setLabelTimes] = useState<number[]>([]);
  const [bodyOpen, setBodyOpen] = useState(true);
  const [storedSort, setStoredSort] = useStoredString('qpairs.annotate.order', '');
  const order = useMemo(() => parseSort(storedSort), [storedSort]);
  const orderRef = useRef(order);
  orderRef.current = order;
  /** The candidate filter (reset on each new query); the cursor steps over the rows it hides. */
  const [candFilter, setCandFilter] = useState('');
  const baseline = useRef<Baseline | null>(null);
  const [landSeq, setLandSeq] = useState(0);
  const headRef = useRef<HTMLDivElement | null>(null);
  const [durations, setDurations] = useState<ReadonlyMap<string, number>>(new Map());
  useSyncExternalStore(outbox.subscribe, outbox.version);

  const viewRef = useRef<QueryView | null>(null);
  viewRef.current = view;
  /** The candidates' ids in the engine's order (the given order), from the newest view read. */
  const givenIds = useRef<string[]>([]);
  const shownAt = useRef<number>(Date.now());
  const completeOnArrival = useRef(false);
  const navSeq = useRef(0);
  const quietSeq = useRef(0);

  useEffect(() => setNameDraft(annotator), [annotator]);

  // ------------------------------------------------------------ assignment
  // With an assignment, an annotator works on their assigned queries only (the engine restricts
  // annotate.query/navigate to them); one who is not assigned to the pool is told so.
  const [assign, setAssign] = useState<{ key: string; view: AssignmentView | null; notAssigned: AssignmentView | null } | null>(null);
  const assignKey = `${pool}\u0000${annotator.trim()}`;
  const assignSeq = useRef(0);
  const loadAssignment = useCallback(async (): Promise<void> => {
    const who = annotator.trim();
    if (!pool || !who) return;
    const my = ++assignSeq.current;
    const key = `${pool}\u0000${who}`;
    try {
      const v = await client.invoke('pool.assignment', { pool, annotator: who });
      if (my === assignSeq.current) setAssign({ key, view: v, notAssigned: null });
    } catch {
      // Not assigned, or the assignment cannot be read: the plan without the annotator tells which.
      let plan: AssignmentView | null = null;
      try {
        plan = await client.invoke('pool.assignment', { pool });
      } catch {
        /* unknown: do not block labeling */
      }
      if (my !== assignSeq.current) return;
      setAssign({ key, view: null, notAssigned: plan && plan.mode !== 'open' && !plan.annotators.includes(who) ? plan : null });
    }
  }, [client, pool, annotator]);
  useEffect(() => void loadAssignment(), [loadAssignment]);
  useEvent('workspace.changed', (w) => {
    if (w.what === 'pool') void loadAssignment();
  });
  useReconnect(() => void loadAssignment());
  const assignChecked = assign?.key === assignKey;
  const notAssigned = assignChecked ? assign!.notAssigned : null;
  const assigned = assignChecked ? assign!.view : null;
  const ready = pool !== '' && annotator.trim() !== '' && assignChecked && !notAssigned;
  // The sticky head's height: rows scrolled to stay clear of it (scroll-margin-top in styles.css).
    useEffect(() => {
    const el = headRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => document.documentElement.style.setProperty('--annotate-head-h', `${el.offsetHeight}px`));
    ro.observe(el);
    return () => ro.disconnect();
  }, [view === null, ready]); // eslint-disable-line react-hooks/exhaustive-deps

  /** Puts a freshly loaded view on screen; a new query resets the cursor and the clock. */
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
      const at = focusCandidate ? v.candidates.findIndex((c) => c.id === focusCandidate) : -1;
      if (at >= 0) setCursor(at);
      else if (newQuery) setCursor(0);
      if (newQuery) {
        // Land on the new query's top: its title in view, row 1 selected.
        setLandSeq((n) => n + 1);
        setSeen((m) => new Map(m).set(v.queryId, { id: v.queryId, index: v.index, title: v.query?.title ?? '' }));
        shownAt.current = Date.now();
        // A query that arrives complete (revisited) does not count towards time per query.
        completeOnArrival.current = v.candidates.length > 0 && v.candidates.every((c) => c.label != null);
        setExpanded(new Set());
        setCandFilter('');
      }
    },
    [shared],
  );

  const fetchQuery = useCallback(
    async (queryId?: string, focusCandidate?: string): Promise<boolean> => {
      if (!ready) return false;
      const my = ++navSeq.current;
      setLoading(true);
      try {
        const v = await client.invoke('annotate.query', { pool, annotator, ...(queryId ? { queryId } : {}) });
        if (my === navSeq.current) show(v, focusCandidate);
        return true;
      } catch (e) {
        if (my === navSeq.current) setError(errorMessage(e));
        return false;
      } finally {
        if (my === navSeq.current) setLoading(false);
      }
    },
    [client, pool, annotator, ready, show],
  );

  const navigate = useCallback(
    async (direction: 'next-unlabeled' | 'next' | 'previous'): Promise<void> => {
      const cur = viewRef.current;
      if (!cur || !ready) return;
      const my = ++navSeq.current;
      setLoading(true);
      setNotice(null);
      try {
        const v = await client.invoke('annotate.navigate', { pool, annotator, from: cur.queryId, direction });
        if (my !== navSeq.current) return;
        if (v) show(v);
        else
          setNotice(
            direction === 'next-unlabeled'
              ? 'Every query in this pool is labeled. Thank you!'
              : direction === 'next'
                ? 'This is the last query of the pool.'
                : 'This is the first query of the pool.',
          );
      } catch (e) {
        if (my === navSeq.current) setError(errorMessage(e));
      } finally {
        if (my === navSeq.current) setLoading(false);
      }
    },
    [client, pool, annotator, ready, show],
  );

  /** Re-reads the current query (labels from elsewhere, progress), never racing a save. */
  const refreshQuiet = useCallback(async (): Promise<void> => {
    const cur = viewRef.current;
    if (!cur || !ready) return;
    const nav = navSeq.current;
    const my = ++quietSeq.current;
    const saved = outbox.savedCount();
    try {
      const v = await client.invoke('annotate.query', { pool, annotator, queryId: cur.queryId });
      if (my !== quietSeq.current || nav !== navSeq.current || viewRef.current?.queryId !== v.queryId) return;
      // A label saved meanwhile may be missing from this snapshot: read again.
      if (outbox.savedCount() !== saved) {
        void refreshQuiet();
        return;
      }
      const was = viewRef.current;
      if (was && was.blind !== v.blind) {
        // The owner switched the pool blind or open: the order changes, the cursor stays on its candidate.
        show(v, was.candidates[cursorRef.current]?.id);
        return;
      }
      givenIds.current = v.candidates.map((c) => c.id);
      const next = ordered(v, orderRef.current, was);
      baseline.current = baselineOf(next);
      viewRef.current = next;
      setView(next);
    } catch {
      /* the next event or reconnect refreshes */
    }
  }, [client, pool, annotator, ready, outbox, show]);

  // Load when pool or annotator change: stay on the same query when possible.
  useEffect(() => {
    if (!ready) {
      setView(null);
      return;
    }
    const cur = viewRef.current;
    // "open in Annotate" from the Browse screen hands over a query of this pool.
    let handed: string | undefined;
    try {
      const h = JSON.parse(sessionStorage.getItem('qpairs.annotate.open') ?? 'null') as { pool?: string; queryId?: string } | null;
      if (h?.pool === pool && h.queryId) handed = h.queryId;
      if (h?.pool === pool) sessionStorage.removeItem('qpairs.annotate.open');
    } catch {
      /* nothing handed over */
    }
    void fetchQuery(handed ?? (cur && cur.pool === pool ? cur.queryId : undefined));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pool, annotator, ready]);

  const quietTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const scheduleQuiet = useCallback(() => {
    if (quietTimer.current) clearTimeout(quietTimer.current);
    quietTimer.current = setTimeout(() => void refreshQuiet(), 120);
  }, [refreshQuiet]);
  useEffect(() => () => void (quietTimer.current && clearTimeout(quietTimer.current)), []);
  useEvent('label.changed', (rec) => {
    if (rec.pool === pool) scheduleQuiet();
  });
  useEvent('workspace.changed', (w) => {
    // 'pool': the pool may have been switched blind or open by its owner.
    if (w.what === 'guidelines' || w.what === 'run' || w.what === 'pool') scheduleQuiet();
  });
  useReconnect(scheduleQuiet);

  // ------------------------------------------------------------ rows
  const scheme = view?.scheme ?? 'binary';
  const rows: RowModel[] = useMemo(() => {
    if (!view) return [];
    return view.candidates.map((c, i) => {
      const op = outbox.latestFor(pairKey(view.pool, annotator, view.queryId, c.id));
      const label = op ? op.value : c.label;
      return { c, i, label, op: op ?? null, state: op ? op.state : c.label != null ? 'saved' : 'none' };
    });
    // outbox.version() changes with every queue change
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view, annotator, outbox, outbox.version()]);

  const allLabeled = rows.length > 0 && rows.every((r) => r.label != null);
  const shown = useMemo(() => (view ? shownIndices(view.candidates, candFilter) : []), [view, candFilter]);
  const shownRef = useRef(shown);
  shownRef.current = shown;
  const shownRows = useMemo(() => {
    const on = new Set(shown);
    return rows.filter((r) => on.has(r.i));
  }, [rows, shown]);
  // The cursor stays on a shown row when the filter changes.
  useEffect(() => setCursor((c) => clampCursor(shownRef.current, c)), [candFilter]);
  useEffect(() => {
    if (view && allLabeled && !completeOnArrival.current && !durations.has(view.queryId)) {
      setDurations((d) => new Map(d).set(view.queryId, Date.now() - shownAt.current));
    }
  }, [allLabeled, view, durations]);
  const avgMs = durations.size ? [...durations.values()].reduce((a, b) => a + b, 0) / durations.size : null;

  // ------------------------------------------------------------ actions
  const giveLabel = useCallback(
    (row: number, value: string | null, advance: boolean) => {
      const v = viewRef.current;
      if (!v) return;
      const c = v.candidates[row];
      if (!c) return;
      setNotice(null);
      outbox.enqueue({ pool: v.pool, queryId: v.queryId, candidateId: c.id, annotator, value });
      if (value !== null) setLabelTimes((t) => [...t.slice(-99), Date.now()]);
      // Keep the view in step so the row does not flicker back while the save completes.
      const patched: QueryView = { ...v, candidates: v.candidates.map((x, j) => (j === row ? { ...x, label: value } : x)) };
      viewRef.current = patched;
      setView(patched);
      if (advance) setCursor(stepCursor(shownRef.current, row, 1));
    },
    [outbox, annotator],
  );

  const doUndo = useCallback(async () => {
    if (!ready) return;
    if (!(await outbox.settledForUndo(setNotice))) return;
    const e = undo.pop(pool, annotator);
    if (!e) {
      setNotice('Nothing to undo: no labels given in this session.');
      return;
    }
    try {
      await client.invoke('label.undo', { seq: e.seq, annotator });
      setNotice(`Undone: the label of ${e.candidateId} in query ${e.queryId}.`);
      await fetchQuery(e.queryId, e.candidateId);
    } catch (err) {
      if (isTransportError(err)) undo.push(e);
      setError(`Undo failed: ${errorMessage(err)}`);
    }
  }, [ready, outbox, undo, pool, annotator, client, fetchQuery]);

  const toggleExpand = useCallback((id: string) => {
    setExpanded((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  }, []);

  const submitGoto = async (id: string): Promise<void> => {
    if (!id.trim() || !ready) return;
    const my = ++navSeq.current;
    setGotoError(null);
    try {
      const v = await client.invoke('annotate.query', { pool, annotator, queryId: id.trim() });
      if (my !== navSeq.current) return;
      show(v);
      setOverlay(null);
    } catch (e) {
      if (my === navSeq.current) setGotoError(`No query “${id.trim()}” to show in pool “${pool}”: ${errorMessage(e)}`);
    }
  };

  // A new query: scroll to the page's top so its title and row 1 are in view.
  useEffect(() => {
    if (landSeq > 0) window.scrollTo({ top: 0, left: 0 });
  }, [landSeq]);

  /** Candidates sorted by a column (candidateSort.ts); the cursor stays on its candidate. */
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

  // ------------------------------------------------------------ keyboard
  const keyHandler = useRef<(e: KeyboardEvent) => void>(() => {});
  keyHandler.current = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === 'Escape') {
      if (overlay) {
        e.preventDefault();
        setOverlay(null);
      }
      return;
    }
    if (isTypingTarget(e.target) || overlay === 'goto') return;
    if (overlay && e.key !== 'h') return;
    const v = viewRef.current;
    const shownNow = shownRef.current;
    // Label keys act on the row under the cursor only while the filter shows it.
    const onShown = shownNow.includes(cursor);
    let handled = true;
    switch (e.key) {
      case 'ArrowDown':
      case 'j':
        setCursor((c) => stepCursor(shownNow, c, 1));
        break;
      case 'ArrowUp':
      case 'k':
        setCursor((c) => stepCursor(shownNow, c, -1));
        break;
      case 'Home':
        if (shownNow.length) setCursor(shownNow[0]!);
        break;
      case 'End':
        if (shownNow.length) setCursor(shownNow[shownNow.length - 1]!);
        break;
      case 'o':
      case ' ':
        if (v && onShown && v.candidates[cursor]) toggleExpand(v.candidates[cursor]!.id);
        break;
      case 'Backspace':
      case 'u':
        void doUndo();
        break;
      case 'Enter':
      case 'n':
        void navigate('next-unlabeled');
        break;
      case 'N':
        void navigate('next');
        break;
      case 'p':
        void navigate('previous');
        break;
      case 'g':
        setGotoError(null);
        setOverlay('goto');
        break;
      case 'h':
        setOverlay((o) => (o === 'guidelines' ? null : 'guidelines'));
        break;
      case 'b':
        setBodyOpen((o) => !o);
        break;
      case 'x':
        if (v && onShown && rows[cursor]?.label != null) giveLabel(cursor, null, false);
        break;
      default: {
        const value = v ? valueForKey(v.scheme, e.key) : null;
        if (value !== null && v) {
          if (onShown) giveLabel(cursor, value, true);
        }
        else handled = false;
      }
    }
    if (handled) e.preventDefault();
  };
  useEffect(() => {
    const on = (e: KeyboardEvent): void => keyHandler.current(e);
    window.addEventListener('keydown', on);
    return () => window.removeEventListener('keydown', on);
  }, []);

  // ------------------------------------------------------------ render
  const counts = outbox.counts();
  const failedOps = outbox.ops().filter((o) => o.state === 'failed');
  const keys = labelKeys(scheme);
  // In the query, highlight the terms it shares with the candidate under the cursor.
  const current: CandidateView | undefined = view?.candidates[cursor];
  const queryTerms = termSet(current?.sharedTerms ?? []);
  const labeledNow = rows.filter((r) => r.label != null).length;
  const progress = view ? liveProgress(view, baseline.current, labeledNow) : null;
  const pace = msPerLabel(labelTimes);

  return (
    <div className="annotate-screen">
      <div className="annotate-bar">
        <label className="inline">
          Pool
          <select data-testid="annotate-pool" value={pool} onChange={(e) => setPool(e.target.value)}>
            {pools.length === 0 && <option value="">(no pools)</option>}
            {pools.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          Annotator
          <input
            data-testid="annotator-input"
            value={lockedAnnotator ?? nameDraft}
            disabled={lockedAnnotator !== null}
            placeholder="your name"
            size={14}
            onChange={(e) => setNameDraft(e.target.value)}
            onBlur={() => nameDraft.trim() && setAnnotator(nameDraft.trim())}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                if (nameDraft.trim()) setAnnotator(nameDraft.trim());
                (e.target as HTMLInputElement).blur();
              }
            }}
          />
        </label>
        {view && view.pool === pool && view.blind && (
          <span
            className="blind-badge"
            data-testid="blind-badge"
            title="This pool is blind: you see its candidates in your own order, no rankers' scores and no one else's labels, so your labels stay independent. The pool's owner sets this."
          >
            blind pool
          </span>
        )}
        <span className="spacer" />
        <SaveStatus counts={counts} onRetry={() => failedOps.forEach((o) => outbox.retry(o.id))} />
      </div>

      {notAssigned && (
        <div className="note-box" data-testid="annotate-not-assigned" role="status">
          <strong>{annotator}</strong> is not assigned to pool “{pool}” (its annotators: {notAssigned.annotators.join(', ')}).{' '}
          {notAssigned.judges.includes(annotator) ? (
            <>
              As a judge, settle its disagreements on the{' '}
              <button className="link-button underline" onClick={() => shared.goTo('review')}>
                Review
              </button>{' '}
              screen.
            </>
          ) : (
            'The pool is assigned on the Pools screen.'
          )}
        </div>
      )}
      {!ready && !notAssigned && (pools.length === 0 || !annotator.trim()) && (
        <div className="card">
          {pools.length === 0 ? (
            <p data-testid="annotate-empty">No pools yet: create one on the Pools screen.</p>
          ) : (
            <p data-testid="annotate-need-name">Enter your annotator name above to start (it is remembered on this computer).</p>
          )}
        </div>
      )}
      {error && (
        <div className="error-box" role="alert" data-testid="annotate-error">
          {error}{' '}
          <button onClick={() => void fetchQuery(viewRef.current?.queryId)} data-testid="annotate-reload">
            Reload
          </button>
        </div>
      )}
      {notice && (
        <div className="note-box" data-testid="annotate-notice" role="status">
          {notice}
        </div>
      )}
      {failedOps.length > 0 && <FailedLabels ops={failedOps} onRetry={(id) => outbox.retry(id)} onDismiss={(id) => outbox.dismiss(id)} />}

      {view && ready && (
        <>
          <div className="annotate-head" ref={headRef} data-testid="annotate-head">
            <div className="progress-line" data-testid="annotate-progress" aria-live="off">
              <span>
                Query <strong data-testid="progress-index">{view.index + 1}</strong> of {fmtInt(view.total)}
              </span>
              <span title="queries with every candidate labeled by you">
                <strong data-testid="progress-queries">{fmtInt(progress!.doneQueries)}</strong> / {fmtInt(progress!.totalQueries)} queries done
              </span>
              <span title="pairs you have labeled, counted as each label is given">
                <strong data-testid="progress-pairs">{fmtInt(progress!.labeledPairs)}</strong> / {fmtInt(progress!.totalPairs)} pairs labeled
              </span>
              {assigned && assigned.mode !== 'open' && assigned.queries && (
                <span data-testid="annotate-assigned" title="the queries of this pool assigned to you">
                  {fmtInt(assigned.queries.length)} assigned to you ({assigned.mode === 'full' ? 'full overlap' : `${assigned.perQuery} annotator${assigned.perQuery === 1 ? '' : 's'} per query`})
                </span>
              )}
              <span data-testid="progress-pace" title="your pace over this session's last labels (breaks over 2 min count as 2 min)">
                {pace === null ? 'pace: —' : `${(60_000 / pace).toFixed(pace < 6000 ? 0 : 1)} pairs/min`}
              </span>
              <span data-testid="progress-eta" title="time left for the remaining pairs at this pace">
                ETA {fmtEta(progress!.totalPairs - progress!.labeledPairs, pace)}
              </span>
              <span data-testid="progress-time">{avgMs === null ? 'time per query: —' : `${fmtDuration(avgMs)} per query (${durations.size} this session)`}</span>
              {loading && <span className="muted">loading…</span>}
            </div>
            <section className="query-panel" data-testid="query-panel" aria-label="The query">
              <div className="query-meta small muted">
                <span data-testid="query-id">{view.queryId}</span>
                {view.query?.category && <span> · {view.query.category}</span>}
                {view.query?.tags.length ? <span> · {view.query.tags.join(', ')}</span> : null}
                <span className="spacer" />
                {view.query && view.query.body.trim() && (
                  <button
                    className="link-button"
                    data-testid="query-body-toggle"
                    aria-expanded={bodyOpen}
                    tabIndex={-1}
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => setBodyOpen((o) => !o)}
                  >
                    {bodyOpen ? 'hide body' : 'show body'}
                  </button>
                )}
              </div>
              <h2 data-testid="query-title">{view.query?.title ? highlight(view.query.title, queryTerms) : <span className="muted">(no title)</span>}</h2>
              {bodyOpen && (
                <div className="query-body" data-testid="query-body" tabIndex={0} aria-label="query body">
                  {view.query ? highlight(view.query.body, queryTerms) : <span className="muted">The text of this query is not in the workspace.</span>}
                </div>
              )}
            </section>
          </div>

          {!view.blind && (
            <div className="annotate-tools">
              {view.runNames.length > 0 && (
                <label className="inline">
                  Order by
                  <select
                    data-testid="annotate-order"
                    value={orderChoice(view, order)}
                    onChange={(e) => changeOrder(e.target.value === '' ? GIVEN_ORDER : { by: 'run', run: e.target.value, desc: false })}
                  >
                    <option value="">pool order</option>
                    {orderChoice(view, order) === COLUMN_CHOICE && (
                      <option value={COLUMN_CHOICE} disabled>
                        a column header
                      </option>
                    )}
                    {view.runNames.map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                </label>
              )}
              <LiveMetrics pool={view.pool} annotator={annotator} runNames={view.runNames} />
            </div>
          )}

          <KeyLegend labels={keys} nav={NAV_KEYS} testId="legend" />

          <FilterBox value={candFilter} onChange={setCandFilter} label="Filter candidates" testId="candidates-filter" shown={shownRows.length} total={rows.length} />
          <CandidateTable
            view={view}
            rows={shownRows}
            cursor={cursor}
            expanded={expanded}
            keys={keys}
            onSelect={setCursor}
            onToggle={toggleExpand}
            onLabel={(i, value) => giveLabel(i, value, false)}
            onRetry={(op) => outbox.retry(op.id)}
            describe={(value) => describeLabel(scheme, value)}
            sort={effectiveSort(view, order)}
            onSort={(by: SortColumn, run?: string) => changeOrder(nextSort(headerSort(view, order), by, run))}
          />
          {allLabeled && (
            <p className="note-box" data-testid="query-complete">
              All candidates of this query are labeled. Press <kbd>Enter</kbd> or <kbd>n</kbd> for the next unlabeled query.
            </p>
          )}
        </>
      )}

      {overlay === 'guidelines' && view && (
        <div className="overlay" role="dialog" aria-label="Guidelines" data-testid="guidelines-overlay" onClick={() => setOverlay(null)}>
          <div className="overlay-card" onClick={(e) => e.stopPropagation()}>
            <h2>Guidelines — {view.pool}</h2>
            {view.guidelines.trim() ? <Markdown source={view.guidelines} /> : <p className="muted">This pool has no guidelines yet (write them on the Pools screen).</p>}
            <p className="small muted">
              <kbd>h</kbd> or <kbd>Esc</kbd> closes
            </p>
          </div>
        </div>
      )}
      {overlay === 'goto' && view && (
        <GotoDialog
          pool={view.pool}
          annotator={annotator.trim()}
          seen={[...seen.values()]}
          current={view.queryId}
          error={gotoError}
          onGo={(id) => void submitGoto(id)}
          onClose={() => setOverlay(null)}
          onEdit={() => setGotoError(null)}
        />
      )}
    </div>
  );
}
