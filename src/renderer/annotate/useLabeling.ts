/**
 * Labels on the Annotate screen: the table's rows with each label's saved state (every label goes
 * through the outbox, labelQueue.ts), the rows the candidate filter shows, giving a label and
 * undoing the session's last one.
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type RefObject } from 'react';
import type { QueryView } from '../../shared/contract';
import { NOT_GIVEN_ACCESS_ENDED, NOT_GIVEN_READ_ONLY, notGivenOtherWorkspace, otherWorkspace, useAccessEnded, useApp } from '../lib/context';
import { errorMessage } from '../lib/format';
import { isTransportError } from '../client/types';
import { busyWith, invokeOrStall } from '../client/stall';
import { clampCursor, shownIndices, stepCursor } from './candidateFilter';
import { inWorkspace, NOTHING_TO_REDO, nothingLeftNotice, redoLabel, type HistoryEntry, type RedoEntry } from './history';
import { pairKey, type LabelOp } from './labelQueue';
import { useQueuedNotice } from './queuedNotice';
import type { RowModel } from './CandidateTable';
import type { QueryViewState } from './useQueryView';

export interface Labeling {
  /** Every candidate's row, in the view's order. */
  rows: RowModel[];
  /** The rows the candidate filter shows. */
  shownRows: RowModel[];
  /** The indices of the shown rows, as of the latest render. */
  shownRef: RefObject<number[]>;
  allLabeled: boolean;
  /**
   * Candidates of the query on screen with a saved label — what the progress counts. A label still
   * queued or refused counts only when its pair had a saved label before it (a refused label, e.g.
   * a revoked token's, never counts as labeled).
   */
  savedLabeled: number;
  /** When this session's labels were given (ms), the newest last. */
  labelTimes: number[];
  /**
   * Labels candidate `row` (`null` clears); `advance` moves the cursor to the next shown row. False
   * when refused at once: access ended, or the workspace is read-only (nothing given then could be saved; the notice says so).
   */
  giveLabel: (row: number, value: string | null, advance: boolean) => boolean;
  /** Issue 24: sets the note on candidate `row`'s label ('' removes it); false when the row has no label. */
  giveNote: (row: number, note: string) => boolean;
  doUndo: () => Promise<void>;
  /** Gives back what the last undo took back (U); refused once the pair, or the session, changed since. */
  doRedo: () => Promise<void>;
  /** Discards a label that was not saved: its row shows the pair's saved label again. */
  discardFailed: (id: number) => void;
}

export function useLabeling(
  pool: string,
  annotator: string,
  ready: boolean,
  qv: QueryViewState,
  fetchQuery: (queryId?: string, focusCandidate?: string) => Promise<boolean>,
): Labeling {
  const { client, outbox, undo, info } = useApp();
  useSyncExternalStore(outbox.subscribe, outbox.version);
  const { view, viewRef, patch, setCursor, setNotice, setError, candFilter } = qv;
  /** When each label of this session was given, with its outbox op: refused ones (failed, or discarded after failing) do not count. */
  const [givenTimes, setGivenTimes] = useState<Array<{ t: number; op: number }>>([]);
  const discarded = useRef(new Set<number>());
  // Once access ended, on another workspace, or on a workspace open read-only, every label would only be refused, each
  // adding a "not saved" row: refused here, once, with a notice.
  const accessEnded = useAccessEnded();
  const endedRef = useRef(accessEnded);
  endedRef.current = accessEnded;
  const readOnlyRef = useRef(!!info?.readonly);
  readOnlyRef.current = !!info?.readonly;
  // The server came back on another workspace: every label would be refused there (label.set `workspace`).
  const otherRef = useRef<string | null>(null);
  otherRef.current = otherWorkspace(info, outbox.givenIn());
  const refusedUpFront = useCallback((): boolean => {
    if (endedRef.current) setNotice(NOT_GIVEN_ACCESS_ENDED);
    else if (otherRef.current) setNotice(notGivenOtherWorkspace(otherRef.current));
    else if (readOnlyRef.current) setNotice(NOT_GIVEN_READ_ONLY);
    else return false;
    return true;
  }, [setNotice]);

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
  /** Pair key → its saved label when a label was given over it in this page (the view is patched at once). */
  const savedBefore = useRef(new Map<string, string | null>());
  const savedLabeled = useMemo(() => {
    if (!view) return 0;
    let n = 0;
    for (const r of rows) {
      const key = pairKey(view.pool, annotator, view.queryId, r.c.id);
      if (!r.op) {
        savedBefore.current.delete(key);
        if (r.c.label != null) n++;
      } else if ((savedBefore.current.has(key) ? savedBefore.current.get(key) : r.c.label) != null) n++;
    }
    return n;
  }, [rows, view, annotator]);
  // The pace counts labels the engine took or may still take: not refused ones (as savedLabeled).
  const labelTimes = useMemo(() => {
    const refused = new Set(outbox.ops().filter((o) => o.state === 'failed').map((o) => o.id));
    return givenTimes.filter((g) => !refused.has(g.op) && !discarded.current.has(g.op)).map((g) => g.t);
    // outbox.version() changes with every queue change
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [givenTimes, outbox, outbox.version()]);
  const shown = useMemo(() => (view ? shownIndices(view.candidates, candFilter) : []), [view, candFilter]);
  const shownRef = useRef(shown);
  shownRef.current = shown;
  const shownRows = useMemo(() => {
    const on = new Set(shown);
    return rows.filter((r) => on.has(r.i));
  }, [rows, shown]);
  // The cursor stays on a shown row when the filter changes.
  useEffect(() => setCursor((c) => clampCursor(shownRef.current, c)), [candFilter, setCursor]);

  const giveLabel = useCallback(
    (row: number, value: string | null, advance: boolean) => {
      const v = viewRef.current;
      if (!v) return false;
      const c = v.candidates[row];
      if (!c) return false;
      if (refusedUpFront()) return false;
      setNotice(null);
      const key = pairKey(v.pool, annotator, v.queryId, c.id);
      // Without an op in the outbox the view's label is the saved one (an op restored from a reload
      // leaves the view as the engine read it; the rows above then use it).
      if (!outbox.latestFor(key)) savedBefore.current.set(key, c.label);
      // Clearing a label removes its note too (the engine's rule): keep the note for undo to put back.
      const op = outbox.enqueue({ pool: v.pool, queryId: v.queryId, candidateId: c.id, annotator, value, valueBefore: c.label, ...(value === null ? { noteBefore: c.note ?? null } : {}) });
      if (value !== null) setGivenTimes((t) => [...t.slice(-99), { t: Date.now(), op: op.id }]);
      // Keep the view in step so the row does not flicker back while the save completes.
      const patched: QueryView = { ...v, candidates: v.candidates.map((x, j) => (j === row ? { ...x, label: value, ...(value === null ? { note: null } : {}) } : x)) };
      patch(patched);
      if (advance) setCursor(stepCursor(shownRef.current, row, 1));
      return true;
    },
    [outbox, annotator, viewRef, patch, setCursor, setNotice, refusedUpFront],
  );

  /**
   * Sends a note for row `row` (its label unchanged); `undoing`: the undone note change (redo gives it
   * again once the undo is saved), sent even when the label is gone since; `redoing`: a redo's.
   */
  const sendNote = useCallback(
    (row: number, note: string, undoing: RedoEntry | null, redoing: HistoryEntry | null = null): LabelOp | null => {
      const v = viewRef.current;
      const c = v?.candidates[row];
      if (!v || !c) return null;
      const op = outbox.latestFor(pairKey(v.pool, annotator, v.queryId, c.id));
      const label = op ? op.value : c.label;
      if (label == null && !undoing) return null;
      // What undo puts back: the note shown before this one (an earlier note still on its way included).
      const sent = outbox.enqueue({ pool: v.pool, queryId: v.queryId, candidateId: c.id, annotator, value: label, valueBefore: label, note, noteBefore: c.note ?? null, ...(undoing ? { undone: undoing, ...inWorkspace(undoing) } : {}), ...(redoing ? { redoing: true, ifNote: c.note ?? null, ...inWorkspace(redoing) } : {}) });
      patch({ ...v, candidates: v.candidates.map((x, j) => (j === row ? { ...x, note: note || null } : x)) });
      return sent;
    },
    [outbox, annotator, viewRef, patch],
  );
  const giveNote = useCallback((row: number, note: string): boolean => !refusedUpFront() && sendNote(row, note, null) !== null, [sendNote, refusedUpFront]);
  /** An undo's or redo's notice of a note: it says so when the engine refuses the change. */
  const queuedNotice = useQueuedNotice(outbox, setNotice);
  const workspaceName = info?.workspaceName ?? null;

  const doUndo = useCallback(() => undo.runUndo(async () => {
    if (!ready || refusedUpFront()) return;
    if (!(await outbox.settledForUndo(setNotice))) return;
    const e = undo.pop(pool, annotator);
    if (!e) {
      setNotice(nothingLeftNotice(undo, pool, annotator, 'u', workspaceName, 'Nothing to undo: no labels given in this session.'));
      return;
    }
    if (e.note && e.seq === 0) {
      // A note change: its pair is shown and gets back the note it had before (its label stays).
      if (!(await fetchQuery(e.queryId, e.candidateId))) {
        undo.putBack(e);
        return;
      }
      const row = viewRef.current?.pool === e.pool && viewRef.current.queryId === e.queryId ? viewRef.current.candidates.findIndex((c) => c.id === e.candidateId) : -1;
      const sent = row < 0 ? null : sendNote(row, e.note.before ?? '', { ...e, undoneBy: 0 });
      if (!sent) {
        undo.putBack(e);
        setNotice(`Cannot undo the note on ${e.candidateId} in query ${e.queryId} now: that query is not shown.`);
        return;
      }
      queuedNotice(
        sent,
        e.note.before ? `Undone: the note on ${e.candidateId} in query ${e.queryId} is back to what it was.` : `Undone: the note on ${e.candidateId} in query ${e.queryId} (removed).`,
        `Not undone: the note on ${e.candidateId} in query ${e.queryId} was refused, so it stays as it was (see what was not saved).`,
      );
      return;
    }
    try {
      // A label whose call changed the note (a cleared label took its note) gets that note back with it.
      const rec = await invokeOrStall(client, 'label.undo', { seq: e.seq, annotator, pair: { pool: e.pool, queryId: e.queryId, candidateId: e.candidateId }, ...(e.note ? { note: e.note.before ?? '' } : {}), ...inWorkspace(e) }, undefined, () => setNotice(busyWith('undo')));
      undo.pushRedo({ ...e, undoneBy: rec.seq });
      setNotice(`Undone: the label of ${e.candidateId} in query ${e.queryId}${e.note?.before ? ', with its note' : ''}.`);
      await fetchQuery(e.queryId, e.candidateId);
    } catch (err) {
      if (!isTransportError(err)) return setError(`Undo failed: ${errorMessage(err)}`);
      // The undo may have been saved with its answer lost: u again is answered with that undo, never a second one.
      undo.putBack(e);
      setError(`Undo not confirmed: ${errorMessage(err)}. Press u again once the server answers.`);
    }
  }), [ready, outbox, undo, pool, annotator, client, fetchQuery, setNotice, setError, viewRef, sendNote, queuedNotice, refusedUpFront, workspaceName]);

  const doRedo = useCallback(async () => {
    if (!ready || refusedUpFront()) return;
    // An undo still waiting for its answer has not yet put back what it took (U right after u).
    await undo.afterUndos();
    if (!(await outbox.settledForUndo(setNotice))) return;
    const got = undo.popRedo(pool, annotator);
    const r = got.entry;
    if (!r) {
      setNotice(
        got.lost
          ? 'Cannot redo: a label or note was given after the undo, so what u took back stays undone.'
          : nothingLeftNotice(undo, pool, annotator, 'U', workspaceName, NOTHING_TO_REDO),
      );
      return;
    }
    if (r.review) {
      // A ruling or reason undone in Review (the same name judged this pool): redone there, as a
      // ruling — given here it would come back as a vote. Once the name no longer judges the pool
      // (the owner assigned it as an annotator, or its role changed), Review cannot redo it either:
      // dropped, or it would stop every later U here.
      const what = `your ${r.seq === 0 ? 'reason' : 'ruling'} on ${r.candidateId} of query ${r.queryId}`;
      let judges: string[] | null = null;
      try {
        judges = (await client.invoke('pool.assignment', { pool: r.pool })).judges;
      } catch {
        // Unknown: Review may still redo it.
      }
      if (judges !== null && !judges.includes(annotator)) {
        setNotice(`Cannot redo ${what}: you undid it in Review as this pool's judge, and you no longer judge it, so it stays undone. U again redoes the undo before it.`);
        return;
      }
      undo.putBackRedo(r);
      setNotice(`Your last undo was of ${what}, in Review: U there redoes it.`);
      return;
    }
    const where = `${r.candidateId} in query ${r.queryId}`;
    if (r.seq === 0 && r.note) {
      // A note change: given again only while the pair still has the note the undo put back.
      if (!(await fetchQuery(r.queryId, r.candidateId))) {
        undo.putBackRedo(r);
        return;
      }
      const v = viewRef.current;
      const row = v?.pool === r.pool && v.queryId === r.queryId ? v.candidates.findIndex((c) => c.id === r.candidateId) : -1;
      const c = row >= 0 ? v!.candidates[row]! : null;
      if (!c) {
        undo.putBackRedo(r);
        setNotice(`Cannot redo the note on ${where} now: that query is not shown.`);
        return;
      }
      if ((c.note ?? null) !== (r.note.before ?? null) || c.label == null) {
        setError(`Redo refused: the note on ${where} changed since the undo (from another tab or window, or a script). Write the note you want with c.`);
        return;
      }
      const sent = sendNote(row, r.note.after ?? '', null, r);
      if (sent)
        queuedNotice(
          sent,
          r.note.after ? `Redone: the note on ${where}.` : `Redone: the note on ${where} (removed).`,
          `Not redone: the note on ${where} was refused, so it stays as the undo left it (see what was not saved).`,
        );
      return;
    }
    const failed = await redoLabel(r, undo, (args) => invokeOrStall(client, 'label.set', { pool: r.pool, queryId: r.queryId, candidateId: r.candidateId, annotator, ...args }, undefined, () => setNotice(busyWith('redo'))));
    if (failed) {
      setNotice(null);
      setError(failed);
      return;
    }
    setNotice(r.value == null ? `Redone: the label of ${where} is cleared again.` : `Redone: the label of ${where}.`);
    await fetchQuery(r.queryId, r.candidateId);
  }, [ready, outbox, undo, pool, annotator, client, fetchQuery, setNotice, setError, viewRef, sendNote, queuedNotice, refusedUpFront, workspaceName]);

  const discardFailed = useCallback(
    (id: number) => {
      const op = outbox.ops().find((o) => o.id === id);
      if (!op) return;
      const key = pairKey(op.pool, op.annotator, op.queryId, op.candidateId);
      const known = savedBefore.current.has(key);
      const before = savedBefore.current.get(key) ?? null;
      discarded.current.add(id);
      outbox.dismiss(id);
      // The view was patched with the discarded value when it was given: put the saved one back.
      const v = viewRef.current;
      if (!known || outbox.latestFor(key) || !v || v.pool !== op.pool || v.queryId !== op.queryId) return;
      savedBefore.current.delete(key);
      patch({ ...v, candidates: v.candidates.map((c) => (c.id === op.candidateId ? { ...c, label: before } : c)) });
    },
    [outbox, viewRef, patch],
  );

  return { rows, shownRows, shownRef, allLabeled, savedLabeled, labelTimes, giveLabel, giveNote, doUndo, doRedo, discardFailed };
}
