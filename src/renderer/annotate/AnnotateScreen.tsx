/**
 * The Annotate screen: one query at a time, its candidates in a table, labels by keyboard.
 * Every label goes through the outbox (labelQueue.ts) and shows its saved state per row.
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { AssignmentView, CandidateView, QueryView } from '../../shared/contract';
import type { SharedState } from '../shared-state';
import { useApp, useEvent, useReconnect } from '../lib/context';
import { errorMessage, fmtDuration, fmtInt } from '../lib/format';
import { Markdown } from '../lib/markdown';
import { highlight, termSet } from '../lib/highlight';
import { isTransportError } from '../client/types';
import { describeLabel, labelKeys, NAV_KEYS, valueForKey } from './keys';
import { pairKey } from './labelQueue';
import { CandidateTable, type RowModel } from './CandidateTable';
import { FailedLabels, SaveStatus } from '../components/SaveStatus';
import { KeyLegend } from '../components/KeyLegend';
import { isTypingTarget } from '../lib/typing';

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
  const [gotoText, setGotoText] = useState('');
  const [durations, setDurations] = useState<ReadonlyMap<string, number>>(new Map());
  useSyncExternalStore(outbox.subscribe, outbox.version);

  const viewRef = useRef<QueryView | null>(null);
  viewRef.current = view;
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

  /** Puts a freshly loaded view on screen; a new query resets the cursor and the clock. */
  const show = useCallback(
    (v: QueryView, focusCandidate?: string) => {
      const newQuery = viewRef.current?.queryId !== v.queryId || viewRef.current?.pool !== v.pool;
      viewRef.current = v;
      setView(v);
      setError(null);
      shared.setLastQueryId(v.queryId);
      const at = focusCandidate ? v.candidates.findIndex((c) => c.id === focusCandidate) : -1;
      if (at >= 0) setCursor(at);
      else if (newQuery) {
        const firstOpen = v.candidates.findIndex((c) => c.label == null);
        setCursor(firstOpen >= 0 ? firstOpen : 0);
      }
      if (newQuery) {
        shownAt.current = Date.now();
        // A query that arrives complete (revisited) does not count towards time per query.
        completeOnArrival.current = v.candidates.length > 0 && v.candidates.every((c) => c.label != null);
        setExpanded(new Set());
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
      viewRef.current = v;
      setView(v);
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
    void fetchQuery(cur && cur.pool === pool ? cur.queryId : undefined);
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
      // Keep the view in step so the row does not flicker back while the save completes.
      const patched: QueryView = { ...v, candidates: v.candidates.map((x, j) => (j === row ? { ...x, label: value } : x)) };
      viewRef.current = patched;
      setView(patched);
      if (advance && row < v.candidates.length - 1) setCursor(row + 1);
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

  const submitGoto = async (): Promise<void> => {
    const id = gotoText.trim();
    if (!id) return;
    if (await fetchQuery(id)) {
      setOverlay(null);
      setGotoText('');
    }
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
    const n = v?.candidates.length ?? 0;
    let handled = true;
    switch (e.key) {
      case 'ArrowDown':
      case 'j':
        setCursor((c) => Math.min(n - 1, c + 1));
        break;
      case 'ArrowUp':
      case 'k':
        setCursor((c) => Math.max(0, c - 1));
        break;
      case 'Home':
        setCursor(0);
        break;
      case 'End':
        setCursor(Math.max(0, n - 1));
        break;
      case 'o':
      case ' ':
        if (v && v.candidates[cursor]) toggleExpand(v.candidates[cursor]!.id);
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
        setOverlay('goto');
        break;
      case 'h':
        setOverlay((o) => (o === 'guidelines' ? null : 'guidelines'));
        break;
      case 'x':
        if (v && rows[cursor]?.label != null) giveLabel(cursor, null, false);
        break;
      default: {
        const value = v ? valueForKey(v.scheme, e.key) : null;
        if (value !== null && v) giveLabel(cursor, value, true);
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

      {view && (
        <div className="progress-line" data-testid="annotate-progress">
          <span>
            Query <strong data-testid="progress-index">{view.index + 1}</strong> of {fmtInt(view.total)}
          </span>
          <span>
            <strong data-testid="progress-queries">{fmtInt(view.progress.doneQueries)}</strong> / {fmtInt(view.progress.totalQueries)} queries done
          </span>
          <span>
            <strong data-testid="progress-pairs">{fmtInt(view.progress.labeledPairs)}</strong> / {fmtInt(view.progress.totalPairs)} pairs labeled
          </span>
          {assigned && assigned.mode !== 'open' && assigned.queries && (
            <span data-testid="annotate-assigned" title="the queries of this pool assigned to you">
              {fmtInt(assigned.queries.length)} assigned to you ({assigned.mode === 'full' ? 'full overlap' : `${assigned.perQuery} annotator${assigned.perQuery === 1 ? '' : 's'} per query`})
            </span>
          )}
          <span data-testid="progress-time">{avgMs === null ? 'time per query: —' : `${fmtDuration(avgMs)} per query (${durations.size} this session)`}</span>
          {loading && <span className="muted">loading…</span>}
        </div>
      )}

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
          <section className="query-panel" data-testid="query-panel">
            <div className="query-meta small muted">
              <span data-testid="query-id">{view.queryId}</span>
              {view.query?.category && <span> · {view.query.category}</span>}
              {view.query?.tags.length ? <span> · {view.query.tags.join(', ')}</span> : null}
            </div>
            <h2 data-testid="query-title">{view.query?.title ? highlight(view.query.title, queryTerms) : <span className="muted">(no title)</span>}</h2>
            <div className="query-body" data-testid="query-body">
              {view.query ? highlight(view.query.body, queryTerms) : <span className="muted">The text of this query is not in the workspace.</span>}
            </div>
          </section>

          <KeyLegend labels={keys} nav={NAV_KEYS} testId="legend" />

          <CandidateTable
            view={view}
            rows={rows}
            cursor={cursor}
            expanded={expanded}
            keys={keys}
            onSelect={setCursor}
            onToggle={toggleExpand}
            onLabel={(i, value) => giveLabel(i, value, false)}
            onRetry={(op) => outbox.retry(op.id)}
            describe={(value) => describeLabel(scheme, value)}
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
      {overlay === 'goto' && (
        <div className="overlay" role="dialog" aria-label="Go to query" onClick={() => setOverlay(null)}>
          <form
            className="overlay-card small-card"
            onClick={(e) => e.stopPropagation()}
            onSubmit={(e) => {
              e.preventDefault();
              void submitGoto();
            }}
          >
            <label>
              Go to query id
              <input autoFocus data-testid="goto-input" value={gotoText} onChange={(e) => setGotoText(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && setOverlay(null)} />
            </label>
            <div className="actions">
              <button type="submit" className="primary" data-testid="goto-submit">
                Go
              </button>
              <button type="button" onClick={() => setOverlay(null)}>
                Cancel
              </button>
            </div>
          </form>
        </div>
      )}
    </div>
  );
}
