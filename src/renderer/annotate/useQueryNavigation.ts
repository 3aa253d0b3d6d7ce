/**
 * The Annotate screen's reads from the engine: loading a query, moving between queries, going to
 * one by id, and re-reading the query on screen quietly when labels, guidelines, runs or the pool
 * change elsewhere, or when the connection comes back (a failed read is then made again). Each read
 * is numbered so a stale answer never replaces a newer one.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useApp, useEvent, useReconnect } from '../lib/context';
import { errorMessage } from '../lib/format';
import { readJson, session, writeJson } from '../lib/storage';
import { personScope } from './history';
import { rereadsOpenQuery } from './changeRereads';
import type { QueryViewState } from './useQueryView';

export type NavDirection = 'next-unlabeled' | 'next' | 'previous';

/** The query this tab showed last, per pool and annotator (sessionStorage): a reload comes back to it. */
const SHOWN_KEY = 'qpairs.annotate.shown';
type Shown = Record<string, string>;

export interface QueryNavigation {
  loading: boolean;
  /** Loads a query (the engine's choice without `queryId`); false when the read failed. */
  fetchQuery: (queryId?: string, focusCandidate?: string) => Promise<boolean>;
  navigate: (direction: NavDirection) => Promise<void>;
  /** Shows query `id` from the go-to dialog: closes it once shown, else sets its error. */
  goTo: (id: string, dialog: { close: () => void; setError: (message: string | null) => void }) => Promise<void>;
}

export function useQueryNavigation(pool: string, annotator: string, ready: boolean, qv: QueryViewState): QueryNavigation {
  const { client, outbox } = useApp();
  const { viewRef, show, update, clear, setError, setNotice } = qv;
  const [loading, setLoading] = useState(false);
  const navSeq = useRef(0);
  const quietSeq = useRef(0);
  // The pool and annotator on screen now: a read started for others (an undo's reload, a quiet
  // re-read set off before the switch) is neither shown nor allowed to cancel the current one.
  const current = useRef({ pool, annotator });
  current.current = { pool, annotator };
  const isCurrent = (p: string, a: string): boolean => current.current.pool === p && current.current.annotator === a;
  const quietTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const fetchQuery = useCallback(
    async (queryId?: string, focusCandidate?: string): Promise<boolean> => {
      if (!ready || !isCurrent(pool, annotator)) return false;
      const my = ++navSeq.current;
      setLoading(true);
      try {
        const v = await client.invoke('annotate.query', { pool, annotator, ...(queryId ? { queryId } : {}) });
        if (my === navSeq.current && isCurrent(pool, annotator)) show(v, focusCandidate);
        return true;
      } catch (e) {
        if (my === navSeq.current) setError(errorMessage(e));
        return false;
      } finally {
        if (my === navSeq.current) setLoading(false);
      }
    },
    [client, pool, annotator, ready, show, setError],
  );

  const navigate = useCallback(
    async (direction: NavDirection): Promise<void> => {
      const cur = viewRef.current;
      if (!cur || !ready || !isCurrent(pool, annotator)) return;
      const my = ++navSeq.current;
      setLoading(true);
      setNotice(null);
      try {
        // "Next unlabeled" counts this query's labels: the ones just given go first (a few seconds
        // at most; a server that is away does not hold the move).
        if (direction === 'next-unlabeled' && outbox.counts().unsaved > 0) {
          await Promise.race([outbox.idle(), new Promise((r) => setTimeout(r, 4000))]);
          if (my !== navSeq.current || !isCurrent(pool, annotator)) return;
        }
        const v = await client.invoke('annotate.navigate', { pool, annotator, from: cur.queryId, direction });
        if (my !== navSeq.current || !isCurrent(pool, annotator)) return;
        if (v) {
          show(v);
          // The engine answers with this very query when it is the only one to go on with.
          if (direction === 'next-unlabeled' && v.pool === cur.pool && v.queryId === cur.queryId)
            setNotice('No other query is waiting for you: this one still has unlabeled candidates (in a pool with a labeling order, the next query is drawn once the drawn ones are done).');
        } else
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
    [client, outbox, pool, annotator, ready, show, viewRef, setError, setNotice],
  );

  /** Re-reads the current query (labels from elsewhere, progress), never racing a save. */
  const refreshQuiet = useCallback(async (): Promise<void> => {
    const cur = viewRef.current;
    if (!cur || !ready || !isCurrent(pool, annotator) || cur.pool !== pool) return;
    const nav = navSeq.current;
    const my = ++quietSeq.current;
    const saved = outbox.savedCount();
    try {
      const v = await client.invoke('annotate.query', { pool, annotator, queryId: cur.queryId });
      if (my !== quietSeq.current || nav !== navSeq.current || !isCurrent(pool, annotator) || viewRef.current?.pool !== v.pool || viewRef.current?.queryId !== v.queryId) return;
      // A label saved meanwhile may be missing from this snapshot: read again.
      if (outbox.savedCount() !== saved) {
        void refreshQuiet();
        return;
      }
      // A label of this query given meanwhile and still on its way is missing too, and its row
      // would show the old label once it is saved: read again when the outbox has sent it.
      if (outbox.ops().some((o) => o.state !== 'failed' && o.pool === v.pool && o.annotator === annotator && o.queryId === v.queryId)) {
        void outbox.idle().then(() => refreshQuiet());
        return;
      }
      update(v);
    } catch {
      /* the next event or reconnect refreshes */
    }
  }, [client, pool, annotator, ready, outbox, update, viewRef]);

  // Load when pool or annotator change: stay on the same query when possible.
  useEffect(() => {
    // Answers still on their way are for the pool or annotator just left: none may be shown now
    // (it would sit under the new pool's name, and the label keys would act on it).
    navSeq.current++;
    quietSeq.current++;
    if (quietTimer.current) clearTimeout(quietTimer.current);
    // What the screen said about the pool or annotator just left ("this is the first query", "no
    // other query is waiting", an undo) is not about this one.
    setNotice(null);
    setError(null);
    if (!ready) {
      setLoading(false);
      clear();
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
    // A reload resumes on the query this tab showed last while it is unfinished — a query reached
    // with n past a skipped one, or with N or g, is not traded for the first unfinished one.
    const resumed = cur ? undefined : readJson<Shown>(session, SHOWN_KEY, {})[personScope(pool, annotator)];
    const wanted = handed ?? (cur && cur.pool === pool ? cur.queryId : resumed);
    void fetchQuery(wanted).then((ok) => {
      if (handed || !resumed || wanted !== resumed || !isCurrent(pool, annotator)) return;
      // That query may be gone for this annotator since (assignment changed, pool rebuilt), or be
      // finished: the engine's choice then (the first unfinished query).
      const v = viewRef.current;
      if (ok ? v?.queryId === resumed && v.candidates.length > 0 && v.candidates.every((c) => c.label != null) : !v) void fetchQuery();
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pool, annotator, ready]);

  // Remember the query on screen for a reload.
  const shownNow = qv.view && qv.view.pool === pool ? qv.view.queryId : null;
  useEffect(() => {
    if (!ready || !shownNow) return;
    writeJson(session, SHOWN_KEY, { ...readJson<Shown>(session, SHOWN_KEY, {}), [personScope(pool, annotator)]: shownNow });
  }, [ready, pool, annotator, shownNow]);

  const scheduleQuiet = useCallback(() => {
    if (quietTimer.current) clearTimeout(quietTimer.current);
    quietTimer.current = setTimeout(() => void refreshQuiet(), 120);
  }, [refreshQuiet]);
  useEffect(() => () => void (quietTimer.current && clearTimeout(quietTimer.current)), []);
  useEvent('label.changed', (rec) => {
    if (rec.pool === pool) scheduleQuiet();
  });
  useEvent('workspace.changed', (w) => {
    // 'pool': the pool may have been switched blind or open by its owner; 'import': a run's scores or a question's text too.
    if (rereadsOpenQuery(w, pool)) scheduleQuiet();
  });
  // Back online (a server restart, a network drop): the query on screen is re-read quietly; a read
  // that failed meanwhile (nothing on screen, or its error shown) is made again, so the screen does
  // not stay on "cannot reach the QPairs server" once the server answers.
  useReconnect(() => {
    if (!ready) return;
    if (!viewRef.current || qv.error !== null) void fetchQuery(viewRef.current?.pool === pool ? viewRef.current.queryId : readJson<Shown>(session, SHOWN_KEY, {})[personScope(pool, annotator)]);
    else scheduleQuiet();
  });

  const goTo: QueryNavigation['goTo'] = async (id, dialog) => {
    if (!id.trim() || !ready || !isCurrent(pool, annotator)) return;
    const my = ++navSeq.current;
    dialog.setError(null);
    try {
      const v = await client.invoke('annotate.query', { pool, annotator, queryId: id.trim() });
      if (my !== navSeq.current || !isCurrent(pool, annotator)) return;
      show(v);
      dialog.close();
    } catch (e) {
      if (my === navSeq.current) dialog.setError(`No query “${id.trim()}” to show in pool “${pool}”: ${errorMessage(e)}`);
    }
  };

  return { loading, fetchQuery, navigate, goTo };
}
