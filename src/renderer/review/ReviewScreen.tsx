/**
 * The Review screen (adjudication): a judge goes through a pool's disagreements, highest impact
 * first (review.queue), sees the query, the candidate and every annotator's label, and settles
 * each with the label keys of the pool's scheme (the Annotate screen's mapping, without "?": a
 * judge's "?" settles nothing, so the key only says so and nothing is sent). Settled labels
 * go through the judge's durable outbox (review.settle) and show their saved state; u undoes the
 * judge's last change, a ruling (label.undo as the judge, with the reason it changed) or a reason, n jumps to the next unsettled disagreement.
 *
 * Issue 24: a split view — the list on the left, the selected pair on the right (query and
 * candidate texts, every vote with its note, the judge's label and reason), both panes sized to
 * the window and scrolling inside, so the texts stay in view at 1024×700 and up while j/k move
 * and the label keys settle. c writes the ruling's reason (sent with the ruling, or at once when
 * the pair is already settled).
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { NoteDialog } from '../components/NoteDialog';
import type { ReviewQueue } from '../../shared/contract';
import type { SharedState } from '../lib/shared-state';
import { useDebounced, useStoredString } from '../lib/hooks';
import { NOT_GIVEN_ACCESS_ENDED, NOT_GIVEN_READ_ONLY, notGivenOtherWorkspace, otherWorkspace, useAccessEnded, useApp, useEvent, useReconnect, useWorkspaceChangedExceptDraws } from '../lib/context';
import { errorMessage, fmtInt } from '../lib/format';
import { isAccessEnded } from '../client/types';
import { isScrollKeyInText, isTypingTarget } from '../lib/typing';
import { useArrivedFromScreenControl } from '../lib/arrival-focus';
import { commandKeyOf, labelKeyOf, rulingKeys, UNSURE_NOT_A_RULING, valueForKey } from '../annotate/keys';
import { LabelAnnouncer, rulingAnnouncement } from '../annotate/LabelAnnouncer';
import { UNSURE } from '../../shared/labels';
import { pairKey } from '../annotate/labelQueue';
import { FailedLabels, SaveStatus } from '../components/SaveStatus';
import { useQueuedNotice } from '../annotate/queuedNotice';
import { useTableSort } from '../components/DataTable';
import { personScope } from '../annotate/history';
import { reviewUndoActions } from './reviewUndo';
import { focusIndex, itemKey, mergeOrder, nextUnsettled } from './order';
import { PoolSelect } from '../components/PoolSelect';
import { NoPools } from '../components/NoPools';
import { loadDrafts, pruneSaved, saveDrafts, updateDrafts, type ReasonDrafts } from './reasonDrafts';
import { session } from '../lib/storage';
import { reviewJudge } from './judge';
import { readOnce, type Flight } from './flight';
import { mergeReviewQueue } from '../../shared/review-merge';
import { isSettled, labelWords, oneLine, votesText, type Row } from './reviewRow';
import { LIST_WINDOW, ReviewList } from './ReviewList';
import { ReviewPairDetail } from './ReviewPairDetail';
import { usePairTexts } from './usePairTexts';
import { rulingChangedAsk, rulingKeyAction, seenRuling, type PendingOverrule } from './rulingKey';

export function ReviewScreen({ shared }: { shared: SharedState }): ReactNode {
  const { client, settles, undo, info } = useApp();
  // Once access ended, rulings, reasons, undo and redo are refused here with one notice (each would only add a "not saved" row).
  const accessEnded = useAccessEnded();
  useSyncExternalStore(settles.subscribe, settles.version);
  const { pools, pool, setPool, lockedAnnotator } = shared;
  /**
   * The pool's judges (pool.assignment): role judge and not assigned to label this pool — a judge
   * the pool assigns as an annotator cannot settle its disagreements (the engine refuses the queue).
   * Null until the pool's list arrives.
   */
  const [poolJudges, setPoolJudges] = useState<{ pool: string; judges: string[] } | null>(null);
  const [storedJudge, setStoredJudge] = useStoredString('qpairs.judge', '');
  const judges = poolJudges !== null && poolJudges.pool === pool ? poolJudges.judges : null;
  // A judge's token acts as that judge; an owner (local or with a token) chooses any judge (judge.ts).
  const { judge, choosable } = reviewJudge({ role: shared.role, locked: lockedAnnotator, stored: storedJudge, self: shared.annotator, judges });
  const [queue, setQueue] = useState<ReviewQueue | null>(null);
  const [order, setOrder] = useState<string[]>([]);
  const [cursorKey, setCursorKey] = useState<string | null>(null);
  /** The moves made by the keys (j/k, Home/End, PgUp/PgDn), counted: each brings the cursor's pair into view. */
  const [moves, setMoves] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  /** An undo's or redo's notice of a reason: it says so when the engine refuses the change. */
  const queuedNotice = useQueuedNotice(settles, setNotice);
  const [loading, setLoading] = useState(false);
  /** Rulings this judge gave in this page: shown as given until the queue reloads. */
  const [given, setGiven] = useState<ReadonlyMap<string, string>>(new Map());
  /**
   * Reasons written and not yet shown by the queue (row key → text; '' = removed), shown and sent
   * with the next ruling of the pair: this pool's and judge's, kept in the tab's session (reasonDrafts.ts).
   */
  const [drafts, setDrafts] = useState<ReasonDrafts>(() => loadDrafts(session));
  const scope = personScope(pool, judge);
  const reasons: ReadonlyMap<string, string> = useMemo(() => new Map(Object.entries(drafts[scope] ?? {})), [drafts, scope]);
  const setReasons = useCallback(
    (f: (m: ReadonlyMap<string, string>) => ReadonlyMap<string, string>): void =>
      setDrafts((d) => {
        const next = updateDrafts(d, scope, f);
        saveDrafts(session, next);
        return next;
      }),
    [scope],
  );
  /** The row whose reason is being written (c). */
  const [reasonFor, setReasonFor] = useState<string | null>(null);

  const loadPeople = useCallback(() => {
    if (!pool) {
      setPoolJudges({ pool, judges: [] });
      return;
    }
    client
      .invoke('pool.assignment', { pool })
      .then((v) => setPoolJudges({ pool, judges: v.judges }))
      .catch(() => {});
  }, [client, pool]);
  useEffect(loadPeople, [loadPeople]);

  // ------------------------------------------------------------ the queue
  /** The queue's answer number: the pairs' texts (usePairTexts) are asked again after each. */
  const [pairGen, setPairGen] = useState(0);
  const seq = useRef(0);
  const shownFor = useRef('');
  // The pool and judge on screen now: a load started for others (an undo's reload after a switch)
  // neither shows its answer nor cancels the current load.
  const currentKey = useRef('');
  currentKey.current = scope;
  /**
   * The queue on screen, and what changed since it was read: after a burst of labels the screen
   * reads only the queries they touched (label.changed names them; review.queue's `since` adds any
   * other whose labels changed after the held queue's version) and merges their pairs into it
   * (mergeReviewQueue) — the whole queue was 0.94 MB for 3,000 disagreements. Anything else
   * (workspace.changed, a reconnection, the judge's re-sort, a failed read) reads it whole.
   */
  const held = useRef<ReviewQueue | null>(null);
  const touched = useRef(new Set<string>());
  const wholeRead = useRef(true);
  const fetchQueue = useCallback(
    async (resort = false): Promise<void> => {
      const forKey = personScope(pool, judge);
      if (forKey !== currentKey.current) return;
      if (!pool || !judge) {
        setQueue(null);
        return;
      }
      const my = ++seq.current;
      setLoading(true);
      const base = held.current;
      const partOf = !resort && !wholeRead.current && shownFor.current === forKey && base && base.pool === pool && base.judge === judge && base.queryOrder ? base : null;
      const queries = [...touched.current];
      touched.current.clear();
      wholeRead.current = false;
      try {
        const answer = await client.invoke('review.queue', partOf ? { pool, judge, includeSettled: true, since: partOf.version, queries } : { pool, judge, includeSettled: true });
        if (my !== seq.current || forKey !== currentKey.current) {
          // Not shown: the next read reads it all.
          wholeRead.current = true;
          return;
        }
        const q = partOf ? mergeReviewQueue(partOf, answer) : answer;
        if (!q) {
          wholeRead.current = true;
          return;
        }
        held.current = q;
        const fresh = resort || shownFor.current !== forKey;
        shownFor.current = forKey;
        setQueue(q);
        // The pairs on screen are asked for again (a vote or its note may have changed).
        setPairGen((g) => g + 1);
        // Reasons the queue now shows as stored need no draft.
        setDrafts((d) => {
          const next = pruneSaved(d, personScope(pool, judge), q.items.map((i) => ({ key: itemKey(i), judgeNote: i.judgeNote })));
          if (next !== d) saveDrafts(session, next);
          return next;
        });
        setOrder((o) => (fresh ? q.items.map(itemKey) : mergeOrder(o, q.items)));
        if (fresh) {
          // Start at the first unsettled disagreement.
          const first = q.items.find((i) => !i.settled);
          setCursorKey(first ? itemKey(first) : q.items[0] ? itemKey(q.items[0]) : null);
        }
        setError(null);
      } catch (e) {
        wholeRead.current = true;
        for (const id of queries) touched.current.add(id);
        // Access ended (a revocation's own event can ask for a read the server then refuses): the
        // queue stays on screen as it was, as Annotate keeps its query; the chip and notice say why.
        if (isAccessEnded(e)) return;
        if (my === seq.current) {
          setError(errorMessage(e));
          setQueue(null);
          setOrder([]);
          shownFor.current = '';
        }
      } finally {
        if (my === seq.current) setLoading(false);
      }
    },
    [client, pool, judge],
  );
  /** One queue read at a time per pool and judge: a burst of labels reads the queue once after the running read (flight.ts). */
  const flight = useRef<Flight | null>(null);
  const load = useCallback(
    (resort = false): Promise<void> =>
      readOnce(
        flight,
        personScope(pool, judge),
        resort,
        () => fetchQueue(resort),
        () => load(),
      ),
    [fetchQueue, pool, judge],
  );
  useEffect(() => {
    setNotice(null);
    setGiven(new Map());
    // Another pool or judge: the former queue is not shown (nor settled from) while the new one loads.
    if (shownFor.current !== currentKey.current) {
      seq.current++;
      shownFor.current = '';
      held.current = null;
      wholeRead.current = true;
      touched.current.clear();
      setQueue(null);
      setOrder([]);
      setLoading(false);
      forgetPairTexts();
    }
    void load();
  }, [load]);

  const later = useDebounced(() => void load(), 150);
  useEvent('label.changed', (rec) => {
    if (rec.pool !== pool) return;
    touched.current.add(rec.queryId);
    later();
  });
  // An ordered pool's draw for an annotator changes no label, judge or pair: nothing to read again.
  useWorkspaceChangedExceptDraws(() => {
    loadPeople();
    wholeRead.current = true;
    later();
  });
  useReconnect(() => {
    loadPeople();
    wholeRead.current = true;
    void load();
  });

  // ------------------------------------------------------------ rows
  const scheme = queue?.scheme ?? 'binary';
  const allRows: Row[] = useMemo(() => {
    if (!queue) return [];
    const byKey = new Map(queue.items.map((i) => [itemKey(i), i]));
    return order.flatMap((key): Row[] => {
      const item = byKey.get(key);
      if (!item) return [];
      const op = settles.latestFor(pairKey(queue.pool, judge, item.queryId, item.candidateId));
      if (op) return [{ item, key, value: op.value, state: op.state, by: judge, error: op.error }];
      if (item.settled) return [{ item, key, value: item.settled.value, state: 'saved', by: item.settled.judge }];
      const g = given.get(key);
      if (g) return [{ item, key, value: g, state: 'saved', by: judge }];
      return [{ item, key, value: null, state: 'none', by: null }];
    });
    // settles.version() changes with every outbox change
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queue, order, given, judge, settles, settles.version()]);

  // The list as shown: the queue's order (impact) unless a column header sorts it, narrowed by
  // the filter box. The keys move through the rows as shown.
  const sort = useTableSort(
    allRows,
    {
      query: (r) => oneLine(r.item.queryTitle ?? undefined) || r.item.queryId,
      candidate: (r) => oneLine(r.item.candidateTitle ?? undefined) || r.item.candidateId,
      labels: (r) => votesText(r, scheme),
      impact: (r) => r.item.impact,
      judge: (r) => (r.value === null ? null : labelWords(scheme, r.value)),
      saved: (r) => (r.state === 'none' ? null : r.state),
    },
    {
      rowId: (r) => r.key,
      filterText: (r) =>
        [r.item.queryId, r.item.queryTitle ?? '', r.item.candidateId, r.item.candidateTitle ?? '', votesText(r, scheme), r.value === null ? '' : labelWords(scheme, r.value)].join(' '),
    },
  );
  const rows = sort.rows;

  const cursor = Math.max(
    0,
    rows.findIndex((r) => r.key === cursorKey),
  );
  const current = rows[cursor];
  const remaining = allRows.filter((r) => !isSettled(r)).length;

  // The selected pair's texts (and its neighbours', so j/k show them at once): review.pair.
  const { pairs, forget: forgetPairTexts } = usePairTexts(client, {
    queue,
    pool,
    judge,
    scope,
    near: [rows[cursor], rows[cursor + 1], rows[cursor - 1]].filter((r): r is Row => r !== undefined).map((r) => r.key),
    gen: pairGen,
  });

  // A disagreement chosen on the Agreement screen.
  const focus = shared.reviewFocus;
  useEffect(() => {
    if (!focus || !queue || queue.pool !== focus.pool || loading) return;
    const i = focusIndex(
      allRows.map((r) => r.item),
      focus.queryId,
      focus.candidateId,
    );
    if (i >= 0) {
      sort.setFilter(''); // the chosen disagreement must be in the list
      setCursorKey(allRows[i]!.key);
      setNotice(null);
    } else setNotice(`Query ${focus.queryId} has no disagreement${focus.candidateId ? ` on ${focus.candidateId}` : ''} in pool “${focus.pool}” any more.`);
    shared.clearReviewFocus();
  }, [focus, queue, loading]); // eslint-disable-line react-hooks/exhaustive-deps

  // ------------------------------------------------------------ actions
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const cursorRef = useRef(cursor);
  cursorRef.current = cursor;

  // The keys move no focus: the pair the cursor lands on is said in a polite live region (not the
  // first one shown on opening the screen, which is on it already).
  const [cursorSay, setCursorSay] = useState('');
  const announcedKey = useRef<string | null>(null);
  const cursorOn = current?.key ?? null;
  useEffect(() => {
    if (cursorOn === null) return;
    const before = announcedKey.current;
    announcedKey.current = cursorOn;
    if (before === null || before === cursorOn) return;
    const r = rowsRef.current[cursorRef.current];
    if (!r || r.key !== cursorOn) return;
    const ruling = (r.value === null ? 'not settled' : `settled: ${labelWords(scheme, r.value)}`) + (r.item.votedByYou ? '; you voted on it, so you do not settle it' : '');
    setCursorSay(`Pair ${cursorRef.current + 1} of ${rowsRef.current.length}: “${r.item.candidateTitle ?? r.item.candidateId}” for query “${r.item.queryTitle ?? r.item.queryId}”. Votes ${votesText(r, scheme)}; ${ruling}.`);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cursorOn]);

  const move = (delta: number | 'home' | 'end'): void => {
    const rs = rowsRef.current;
    if (!rs.length) return;
    const i = delta === 'home' ? 0 : delta === 'end' ? rs.length - 1 : Math.max(0, Math.min(rs.length - 1, cursorRef.current + delta));
    setCursorKey(rs[i]!.key);
    setMoves((n) => n + 1);
  };

  const goNextUnsettled = (treatCurrentAsSettled: boolean): void => {
    const rs = rowsRef.current;
    const at = cursorRef.current;
    const n = nextUnsettled(rs.length, at, (i) => (i === at && treatCurrentAsSettled ? true : isSettled(rs[i])));
    if (n >= 0) {
      setCursorKey(rs[n]!.key);
      setNotice(null);
    } else if (rs.length) setNotice('Every disagreement of this pool is settled. Thank you!');
  };

  /** The judge's reason on a row: written in this page, else the stored one. */
  const reasonOf = (r: Row): string => reasons.get(r.key) ?? r.item.judgeNote ?? '';
  /** The judge's reason as stored: a reason written in this page went out with the ruling, else the queue's. */
  const storedReason = (r: Row): string | null => (r.value !== null && r.by === judge ? reasonOf(r) : (r.item.judgeNote ?? '')) || null;

  /** Rulings given in this page over another judge's (rulingKey.ts), by row: their announcement says whom they overrule. */
  const overruling = useRef(new Map<string, { value: string; overrules: { judge: string; value: string } }>());
  const settle = (value: string | null, overrules: { judge: string; value: string } | null = null): void => {
    const r = rowsRef.current[cursorRef.current];
    if (!r || !judge || !queue) return;
    const other = otherWorkspace(info, settles.givenIn());
    if (accessEnded || other || info?.readonly) {
      setNotice(accessEnded ? NOT_GIVEN_ACCESS_ENDED : other ? notGivenOtherWorkspace(other) : NOT_GIVEN_READ_ONLY);
      return;
    }
    setNotice(null);
    if (overrules && value !== null) overruling.current.set(r.key, { value, overrules });
    const pending = reasons.get(r.key);
    // What undo puts back: the reason stored before (clearing a ruling takes its reason along).
    settles.enqueue({
      pool: queue.pool,
      queryId: r.item.queryId,
      candidateId: r.item.candidateId,
      annotator: judge,
      value,
      // What tells a resent ruling's "unchanged" answer apart (resentAck.ts): the judge's ruling the row showed.
      valueBefore: r.by === judge ? r.value : null,
      // A ruling (not a clearing): the engine refuses it when another judge ruled otherwise since the row was read.
      ...(value !== null ? { ifRuling: seenRuling(r) } : {}),
      ...(pending !== undefined && value !== null ? { note: pending } : {}),
      noteBefore: storedReason(r),
    });
    setGiven((g) => {
      const n = new Map(g);
      if (value === null) n.delete(r.key);
      else n.set(r.key, value);
      return n;
    });
    if (value !== null) goNextUnsettled(true);
  };

  /**
   * Puts the cursor on the pair an undo or redo changed; a filter that hides it is cleared, or the
   * cursor would fall on another pair and the next key act on it.
   */
  const showPair = (key: string): void => {
    if (!rowsRef.current.some((r) => r.key === key)) sort.setFilter('');
    setCursorKey(key);
  };

  const { doUndo, doRedo } = reviewUndoActions({
    client,
    settles,
    undo,
    workspaceName: info?.workspaceName ?? null,
    judge,
    pool,
    queuePool: queue?.pool ?? null,
    allRows,
    storedReason,
    setReasons,
    setGiven,
    showPair,
    setNotice,
    setError,
    queuedNotice,
    load: (queryId) => {
      touched.current.add(queryId);
      return load();
    },
  });

  /**
   * Drops a ruling or reason the engine refused. On a pair this judge had settled, the reason it
   * carried was shown as a draft only until saved: without it the stored reason shows again (a reason
   * written before a ruling stays, to go with the next one).
   */
  const dismissFailed = (id: number): void => {
    const op = settles.ops().find((o) => o.id === id);
    settles.dismiss(id);
    if (!op || op.note === undefined || !queue || queue.pool !== op.pool) return;
    const key = itemKey(op);
    const r = allRows.find((x) => x.key === key);
    if (!r || r.value === null || r.by !== judge || reasons.get(key) !== op.note) return;
    setReasons((m) => {
      const n = new Map(m);
      n.delete(key);
      return n;
    });
  };

  // ------------------------------------------------------------ keyboard
  const counts = settles.counts();
  const failed = settles.ops().filter((o) => o.state === 'failed');
  /** A ruling key pressed once on another judge's different ruling (rulingKey.ts): any key but the same one again forgets it. */
  const pendingOverrule = useRef<PendingOverrule | null>(null);
  // A ruling the engine refused because another judge ruled otherwise since the row was read (two judges racing,
  // rulingKey.ts rulingChangedAsk): it goes, the queue is read again to show that ruling, and Review asks on its
  // pair as before overruling a ruling it shows — the same key again overrules it.
  const failedIds = failed.map((o) => o.id).join(',');
  useEffect(() => {
    if (!queue || !judge) return;
    for (const op of failed) {
      if (op.pool !== queue.pool || op.annotator !== judge || op.value === null) continue;
      const key = itemKey(op);
      const pressed = rulingKeys(scheme).find((k) => k.value === op.value)?.key ?? op.value;
      const ask = rulingChangedAsk(key, op.value, op.error, pressed, (v) => labelWords(scheme, v));
      if (!ask) continue;
      settles.dismiss(op.id);
      setGiven((g) => {
        const n = new Map(g);
        n.delete(key);
        return n;
      });
      touched.current.add(op.queryId);
      void load();
      showPair(key);
      setNotice(ask.notice);
      pendingOverrule.current = ask.pending;
    }
  }, [failedIds, queue?.pool, judge]); // eslint-disable-line react-hooks/exhaustive-deps
  const keyHandler = useRef<(e: KeyboardEvent) => void>(() => {});
  keyHandler.current = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (isTypingTarget(e.target) || isScrollKeyInText(e) || reasonFor !== null) return;
    const pending = pendingOverrule.current;
    pendingOverrule.current = null;
    if (pending && !['Shift', 'Control', 'Alt', 'Meta', 'CapsLock'].includes(e.key)) setNotice(null);
    else pendingOverrule.current = pending;
    let handled = true;
    switch (commandKeyOf(e)) {
      case 'Escape':
        if (pending && current) setNotice(`Kept ${current.by ?? 'the other judge'}’s ruling.`);
        else handled = false;
        break;
      case 'ArrowDown':
      case 'j':
        move(1);
        break;
      case 'ArrowUp':
      case 'k':
        move(-1);
        break;
      case 'Home':
        move('home');
        break;
      case 'PageDown':
        move(LIST_WINDOW);
        break;
      case 'PageUp':
        move(-LIST_WINDOW);
        break;
      case 'End':
        move('end');
        break;
      case 'n':
        goNextUnsettled(false);
        break;
      case 'u':
      case 'Backspace':
        if (accessEnded) setNotice(NOT_GIVEN_ACCESS_ENDED);
        else void doUndo();
        break;
      case 'U':
        if (accessEnded) setNotice(NOT_GIVEN_ACCESS_ENDED);
        else void doRedo();
        break;
      case 'x':
        // x clears the judge's own ruling: another judge's stays (sending a clear would change nothing
        // while the screen reader heard "Ruling cleared").
        if (current?.value != null && current.by !== null && current.by !== judge) setNotice(`This pair is settled by ${current.by}: x clears only your own ruling, so theirs stays.`);
        else if (current?.value != null) settle(null);
        break;
      case 'r':
        sort.clearSort();
        void load(true);
        break;
      case 'c':
        if (current) setReasonFor(current.key);
        break;
      default: {
        const value = queue ? valueForKey(queue.scheme, labelKeyOf(e)) : null;
        // "?" is not a ruling (the engine refuses it): say so instead of sending it.
        if (value === UNSURE) setNotice(UNSURE_NOT_A_RULING);
        else if (value !== null && current) {
          const act = rulingKeyAction(current, judge, value, labelKeyOf(e), pending, (v) => labelWords(scheme, v));
          if (act.kind === 'settle') settle(value, act.overrules);
          else {
            setNotice(act.notice);
            if (act.kind === 'confirm') pendingOverrule.current = act.pending;
          }
        } else handled = false;
      }
    }
    if (handled) e.preventDefault();
  };
  useEffect(() => {
    const on = (e: KeyboardEvent): void => keyHandler.current(e);
    window.addEventListener('keydown', on);
    return () => window.removeEventListener('keydown', on);
  }, []);

  const currentRow = useRef<HTMLTableRowElement | null>(null);
  const splitRef = useRef<HTMLDivElement | null>(null);
  // On each move, the cursor's pair into view: a key that leaves the cursor where it is (Home on the
  // first pair, the first key after opening) brings it into view too (`moves`).
  useEffect(() => {
    currentRow.current?.scrollIntoView({ block: 'nearest' });
    // A narrow window's detail scrolls as a whole: the next pair shows from its titles.
    splitRef.current?.querySelector('[data-testid="review-current"]')?.scrollTo({ top: 0 });
    // A short window (splitFillsWindow): the page scrolls the split to the window's top, list and pair both in view.
    if (splitRef.current?.dataset.fillsWindow) splitRef.current.scrollIntoView({ block: 'start' });
  }, [cursorKey, moves]);

  // Brought here by a button of another screen (Agreement's Review): the focus, which went with that
  // screen, goes to the list once it shows (unless it was put elsewhere meanwhile).
  const arrivedFromControl = useArrivedFromScreenControl();
  const focusListOnArrival = useRef(arrivedFromControl);
  const listShown = !!queue && allRows.length > 0;
  useEffect(() => {
    if (!listShown || !focusListOnArrival.current) return;
    focusListOnArrival.current = false;
    if (document.activeElement && document.activeElement !== document.body) return;
    splitRef.current?.querySelector<HTMLElement>('[data-testid="review-list"]')?.focus({ preventScroll: true });
  }, [listShown]);

  // The split view fills the window below what is above it; its panes scroll inside (issue 24).
  const [splitHeight, setSplitHeight] = useState<{ height: number; fillsWindow: boolean } | null>(null);
  useLayoutEffect(() => {
    const fit = (): void => {
      const el = splitRef.current;
      if (el) setSplitHeight(splitFit(el));
    };
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [queue !== null, notice, error, failed.length, loading, judge]); // eslint-disable-line react-hooks/exhaustive-deps

  // ------------------------------------------------------------ render
  // The ruling keys: the pool's labels (for graded pools every grade), never "?" (it settles nothing).
  const keys = rulingKeys(scheme).filter((k) => scheme === 'graded' || !queue || queue.values.includes(k.value));

  // No pools: say what to do, not an empty select and buttons that do nothing.
  if (shared.poolsLoaded && pools.length === 0) {
    return <NoPools role={shared.role} title="Review" testId="review-no-pools" onOpenPools={() => shared.goTo('pools')} />;
  }

  return (
    <div className="review-screen">
      <LabelAnnouncer
        queue={settles}
        say={(op) => {
          const item = queue?.items.find((i) => i.queryId === op.queryId && i.candidateId === op.candidateId);
          const which = item ? `“${item.candidateTitle ?? op.candidateId}” for query “${item.queryTitle ?? op.queryId}”` : `candidate ${op.candidateId} of query ${op.queryId}`;
          const said = rulingAnnouncement(op, which, (value) => labelWords(scheme, value));
          const over = op.value !== null ? overruling.current.get(itemKey(op)) : undefined;
          if (over?.value !== op.value) return said;
          overruling.current.delete(itemKey(op));
          return `${said} It overrules ${over.overrules.judge}’s ruling (${labelWords(scheme, over.overrules.value)}).`;
        }}
      />
      <p className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="review-cursor-announce">
        {cursorSay}
      </p>
      <div className="annotate-bar">
        {/* blur: the keys are the judge's, not the select's type-ahead */}
        <PoolSelect testId="review-pool" pools={pools} value={pool} onChange={setPool} emptyText="(no pools)" blurOnChange />
        <label className="inline">
          Judge
          <select
            data-testid="review-judge"
            value={judge}
            disabled={!choosable}
            onChange={(e) => {
              setStoredJudge(e.target.value);
              e.target.blur();
            }}
          >
            {!judge && <option value="">{judges?.length === 0 ? '(no judges)' : '(choose)'}</option>}
            {judge && !judges?.includes(judge) && <option value={judge}>{judge}</option>}
            {(judges ?? []).map((j) => (
              <option key={j} value={j}>
                {j}
              </option>
            ))}
          </select>
        </label>
        <span className="spacer" />
        <SaveStatus counts={counts} onRetry={() => failed.forEach((o) => settles.retry(o.id))} />
      </div>

      {queue && (
        <div className="progress-line" data-testid="review-progress">
          <span>
            <strong data-testid="review-remaining">{fmtInt(remaining)}</strong> disagreement{remaining === 1 ? '' : 's'} to settle
          </span>
          <span>
            <strong data-testid="review-total">{fmtInt(allRows.length)}</strong> in the pool
          </span>
          <span>
            rule <strong data-testid="review-rule">{queue.rule}</strong>
          </span>
          {current && (
            <span>
              item <strong data-testid="review-index">{cursor + 1}</strong> of {fmtInt(rows.length)}
            </span>
          )}
          {loading && <span className="muted">loading…</span>}
        </div>
      )}

      {!judge && judges !== null && (
        <div className="card">
          <p data-testid="review-need-judge">
            {judges.length === 0
              ? 'No judge for this pool: mark someone as judge on the Pools screen (Team → role “judge”). A judge the pool assigns as an annotator labels it and cannot settle its disagreements.'
              : 'Choose the judge who settles the disagreements.'}
          </p>
        </div>
      )}
      {error && (
        <div className="error-box" role="alert" data-testid="review-error">
          {error}{' '}
          <button onClick={() => void load()} data-testid="review-reload">
            Reload
          </button>
        </div>
      )}
      {queue?.note && (
        <div className="note-box" data-testid="review-note">
          {queue.note}
        </div>
      )}
      {notice && (
        <div className="note-box" role="status" data-testid="review-notice">
          {notice}
        </div>
      )}
      {failed.length > 0 && <FailedLabels ops={failed} onRetry={(id) => settles.retry(id)} onDismiss={dismissFailed} />}
      {queue && allRows.length === 0 && (
        <div className="card" data-testid="review-empty">
          <p>No disagreements in this pool{queue.total === 0 ? ' (yet)' : ''}.</p>
        </div>
      )}

      {queue && allRows.length > 0 && (
        <div
          className="review-split"
          ref={splitRef}
          style={splitHeight ? { height: splitHeight.height } : undefined}
          data-fills-window={splitHeight?.fillsWindow || undefined}
          data-testid="review-split"
        >
          <ReviewList sort={sort} total={allRows.length} cursor={cursor} scheme={scheme} currentRow={currentRow} onChoose={setCursorKey} />

          {current ? (
            <ReviewPairDetail
              current={current}
              detail={pairs.get(current.key)}
              judge={judge}
              scheme={scheme}
              reason={reasonOf(current)}
              reasonUnsent={reasons.has(current.key)}
              rulingKeys={keys}
              onWriteReason={() => setReasonFor(current.key)}
              place={{ at: cursor + 1, of: rows.length }}
            />
          ) : (
            <section className="review-detail muted">Choose a pair in the list.</section>
          )}
        </div>
      )}
      {reasonFor !== null &&
        (() => {
          const r = allRows.find((x) => x.key === reasonFor);
          if (!r || !queue) return null;
          return (
            <NoteDialog
              title="Reason"
              testId="reason-dialog"
              subject={`${r.item.queryId} → ${r.item.candidateId}`}
              hint={r.value === null ? 'sent with your ruling' : 'saved with your ruling'}
              initial={reasonOf(r)}
              onSave={(text) => {
                if (accessEnded) {
                  setNotice(NOT_GIVEN_ACCESS_ENDED);
                  return;
                }
                const before = storedReason(r);
                setReasons((m) => new Map(m).set(r.key, text));
                // Already ruled on: the reason goes now, with the same label (u takes it back).
                if (r.value !== null && r.by === judge) settles.enqueue({ pool: queue.pool, queryId: r.item.queryId, candidateId: r.item.candidateId, annotator: judge, value: r.value, note: text, noteBefore: before });
              }}
              onClose={() => setReasonFor(null)}
            />
          );
        })()}
    </div>
  );
}

/** The least height the split view gets below what is above it before it fills the window instead. */
const SPLIT_MIN_HEIGHT = 320;

/**
 * The split view's height: the window's height below what is above it, or, when that leaves it
 * less than SPLIT_MIN_HEIGHT (a short window: 1360×900 at 200% zoom is 680×450), the whole window
 * (under the top bar where it is sticky), the page scrolling the split to the window's top on each
 * move, so the list's row and the pair's titles and bodies are in view together.
 */
function splitFit(el: HTMLElement): { height: number; fillsWindow: boolean } {
  const top = el.getBoundingClientRect().top + window.scrollY;
  const below = Math.floor(window.innerHeight - top - 12);
  if (below >= SPLIT_MIN_HEIGHT) return { height: below, fillsWindow: false };
  const bar = document.querySelector<HTMLElement>('header.topbar');
  const barHeight = bar && getComputedStyle(bar).position === 'sticky' ? bar.offsetHeight : 0;
  return { height: Math.max(200, Math.floor(window.innerHeight - barHeight - 8)), fillsWindow: true };
}
