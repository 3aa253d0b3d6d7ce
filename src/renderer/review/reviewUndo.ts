/**
 * The Review screen's u and U: undo and redo of the judge's own changes in this session — a ruling
 * (label.undo as the judge, with the reason it changed; redone through review.settle) or a reason
 * given alone (through the judge's outbox, so a refusal shows as not saved). What cannot be undone
 * or redone here (a note written in Annotate, a pair no longer in dispute, a change made since the
 * undo) is said, never acted on another pair.
 */
import type { Dispatch, SetStateAction } from 'react';
import type { QPairsClient } from '../../shared/contract';
import type { AppClient } from '../client/types';
import { isTransportError } from '../client/types';
import { busyWith, invokeOrStall } from '../client/stall';
import { errorMessage } from '../lib/format';
import { inWorkspace, NOTHING_TO_REDO, nothingLeftNotice, redoLabel, type UndoHistory } from '../annotate/history';
import type { LabelOp, LabelQueue } from '../annotate/labelQueue';
import { itemKey } from './order';

/** What undo and redo read of a row on screen. */
export interface UndoableRow {
  key: string;
  /** The ruling shown (null: none). */
  value: string | null;
  /** Whose ruling it is. */
  by: string | null;
}

export interface ReviewUndoContext<R extends UndoableRow> {
  /** The app's client (in serve mode an undo or redo with no answer in 20 s is taken as lost: client/stall.ts). */
  client: QPairsClient & Partial<Pick<AppClient, 'transport'>>;
  settles: LabelQueue;
  undo: UndoHistory;
  judge: string;
  pool: string;
  /** The pool of the queue on screen (null: none loaded). */
  queuePool: string | null;
  allRows: readonly R[];
  /** The judge's reason on a row as stored. */
  storedReason: (r: R) => string | null;
  setReasons: (f: (m: ReadonlyMap<string, string>) => ReadonlyMap<string, string>) => void;
  setGiven: Dispatch<SetStateAction<ReadonlyMap<string, string>>>;
  /** Puts the cursor on a pair, clearing a filter that hides it. */
  showPair: (key: string) => void;
  setNotice: (s: string | null) => void;
  setError: (s: string | null) => void;
  /** Shows `done` once the op is saved, `refused` if the engine refuses it. */
  queuedNotice: (op: LabelOp, done: string, refused: string) => void;
  /** Reads the queue again: the pairs of `queryId` (the query the undo or redo changed) and of any query whose labels changed since. */
  load: (queryId: string) => Promise<void>;
  /** The workspace the server serves (app.info), named when u or U says its history dropped another's changes. */
  workspaceName?: string | null;
}

/** u (doUndo) and U (doRedo) of the Review screen, over the screen's current state. */
export function reviewUndoActions<R extends UndoableRow>(c: ReviewUndoContext<R>): { doUndo: () => Promise<void>; doRedo: () => Promise<void> } {
  const { client, settles, undo, judge, pool, allRows, storedReason, setReasons, setGiven, showPair, setNotice, setError, queuedNotice, load } = c;

  const doUndo = (): Promise<void> => undo.runUndo(undoLast);

  const undoLast = async (): Promise<void> => {
    if (!judge || !pool) return;
    if (!(await settles.settledForUndo(setNotice))) return;
    const e = undo.pop(pool, judge);
    if (!e) {
      setNotice(nothingLeftNotice(undo, pool, judge, 'u', c.workspaceName ?? null, 'Nothing to undo: you settled nothing in this session.'));
      return;
    }
    if (e.note && e.seq === 0 && !e.review) {
      // A note written in Annotate (as an assigned annotator): undone there, where it shows.
      undo.putBack(e);
      setNotice(`Your last change is your note on ${e.candidateId} of query ${e.queryId}, written in Annotate: u there undoes it.`);
      return;
    }
    const key = itemKey(e);
    if (e.note && e.seq === 0) {
      // A reason given alone: the pair gets back the reason it had, its ruling unchanged.
      const r = allRows.find((x) => x.key === key);
      if (c.queuePool !== e.pool) {
        undo.putBack(e);
        setNotice(`Cannot undo the reason on ${e.candidateId} of query ${e.queryId} now: that pair is not shown with your ruling.`);
        return;
      }
      if (!r || r.value === null || r.by !== judge) {
        // The queue lists every disagreement of the pool: a reason on a pair out of it (its votes agree
        // now), or without this judge's ruling, cannot be put back (the engine takes a reason only with a
        // ruling, on a pair in dispute). Kept, it would stop every later u here.
        setNotice(
          `Cannot undo your reason on ${e.candidateId} of query ${e.queryId}: that pair ${!r ? 'is no longer in dispute' : 'no longer has your ruling'}, so the reason stays. u again undoes your change before it.`,
        );
        return;
      }
      const before = e.note.before ?? '';
      // Redo can give it again once the engine took the undo (a refused undo took nothing back).
      const op = settles.enqueue({ pool: e.pool, queryId: e.queryId, candidateId: e.candidateId, annotator: judge, value: r.value, note: before, noteBefore: storedReason(r), undone: { ...e, undoneBy: 0 }, ...inWorkspace(e) });
      setReasons((m) => new Map(m).set(key, before));
      showPair(key);
      queuedNotice(
        op,
        before ? `Undone: your reason on ${e.candidateId} for query ${e.queryId} is back to what it was.` : `Undone: your reason on ${e.candidateId} for query ${e.queryId} (removed).`,
        `Not undone: your reason on ${e.candidateId} for query ${e.queryId} was refused, so it stays as it was (see what was not saved).`,
      );
      return;
    }
    try {
      // A ruling whose call changed the reason (given with it, or taken along by x) gets that reason back with it.
      const rec = await invokeOrStall(client, 'label.undo', { seq: e.seq, annotator: judge, pair: { pool: e.pool, queryId: e.queryId, candidateId: e.candidateId }, ...(e.note ? { note: e.note.before ?? '' } : {}), ...inWorkspace(e) }, undefined, () => setNotice(busyWith('undo')));
      undo.pushRedo({ ...e, undoneBy: rec.seq });
      setGiven((g) => {
        const n = new Map(g);
        n.delete(key);
        return n;
      });
      setReasons((m) => {
        const n = new Map(m);
        n.delete(key);
        return n;
      });
      showPair(key);
      setNotice(`Undone: your label of ${e.candidateId} for query ${e.queryId}${e.note ? (e.note.before ? ', with the reason it had' : ' and its reason') : ''}.`);
      await load(e.queryId);
    } catch (err) {
      if (isTransportError(err)) undo.putBack(e);
      setError(`Undo failed: ${errorMessage(err)}`);
    }
  };

  /** U: gives back what the last undo took back (a ruling, with its reason, or a reason). */
  const doRedo = async (): Promise<void> => {
    if (!judge || !pool) return;
    // An undo still waiting for its answer has not yet put back what it took (U right after u).
    await undo.afterUndos();
    if (!(await settles.settledForUndo(setNotice))) return;
    const got = undo.popRedo(pool, judge);
    const e = got.entry;
    if (!e || !e.review) {
      if (e) undo.putBackRedo(e);
      setNotice(
        got.entry === null && got.lost
          ? 'Cannot redo: you ruled or wrote a reason after the undo, so what u took back stays undone.'
          : e
            ? `Your last undo was of your ${e.seq === 0 ? 'note' : 'label'} on ${e.candidateId} of query ${e.queryId}, in Annotate: U there redoes it.`
            : nothingLeftNotice(undo, pool, judge, 'U', c.workspaceName ?? null, NOTHING_TO_REDO),
      );
      return;
    }
    const key = itemKey(e);
    const where = `${e.candidateId} for query ${e.queryId}`;
    if (e.note && e.seq === 0) {
      const r = allRows.find((x) => x.key === key);
      if (c.queuePool !== e.pool) {
        undo.putBackRedo(e);
        setNotice(`Cannot redo the reason on ${where} now: that pair is not shown.`);
        return;
      }
      if (!r) {
        // The queue lists every disagreement of the pool: a pair out of it (its votes agree now) takes no
        // reason (the engine takes one only with a ruling, on a pair in dispute). Kept, it would stop every later U here.
        setNotice(`Cannot redo your reason on ${where}: that pair is no longer in dispute. U again redoes what the undo before it took back.`);
        return;
      }
      if (r.value === null || r.by !== judge || storedReason(r) !== (e.note.before ?? null)) {
        setError(`Redo refused: your ruling or reason on ${where} changed since the undo. Write the reason you want with c.`);
        return;
      }
      const after = e.note.after ?? '';
      const op = settles.enqueue({ pool: e.pool, queryId: e.queryId, candidateId: e.candidateId, annotator: judge, value: r.value, note: after, noteBefore: storedReason(r), redoing: true, ifNote: e.note.before ?? null, ...inWorkspace(e) });
      setReasons((m) => new Map(m).set(key, after));
      showPair(key);
      queuedNotice(
        op,
        after ? `Redone: your reason on ${where}.` : `Redone: your reason on ${where} (removed).`,
        `Not redone: your reason on ${where} was refused, so it stays as the undo left it (see what was not saved).`,
      );
      return;
    }
    const failed = await redoLabel(e, undo, (args) => invokeOrStall(client, 'review.settle', { pool: e.pool, judge, queryId: e.queryId, candidateId: e.candidateId, ...args }, undefined, () => setNotice(busyWith('redo'))));
    if (failed) {
      setNotice(null);
      setError(failed);
      return;
    }
    setReasons((m) => {
      const n = new Map(m);
      n.delete(key);
      return n;
    });
    showPair(key);
    setNotice(e.value == null ? `Redone: your label of ${where} is cleared again.` : `Redone: your label of ${where}.`);
    await load(e.queryId);
  };

  return { doUndo, doRedo };
}
