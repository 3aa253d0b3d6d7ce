/**
 * The session's undo history: the seq of every label this window saved, and every note it changed,
 * newest last, kept in sessionStorage so a reload does not lose it. Undo walks back across queries;
 * what it took back can be redone (U) until a new change is made.
 */
import type { LabelAck } from '../../shared/contract';
import { isTransportError } from '../client/types';
import { errorMessage } from '../lib/format';
import type { KV } from '../lib/storage';
import type { HistoryEntry, RedoEntry } from './historyEntry';
import type { LabelOp } from './labelQueue';

export type { HistoryEntry, RedoEntry } from './historyEntry';

/** The workspace a history entry's change was given in, as the args of its undo or redo (none known: none). */
export const inWorkspace = (e: Pick<HistoryEntry, 'workspace'>): { workspace?: string } => (e.workspace ? { workspace: e.workspace } : {});

/**
 * What undo takes back of a saved op: its label event (with the note it changed, if any), else —
 * when only its note changed — the note change (an undo's own note op is not undone in turn); null when nothing changed.
 */
export function historyEntryFor(
  op: Pick<LabelOp, 'pool' | 'queryId' | 'candidateId' | 'annotator' | 'value' | 'note' | 'noteBefore' | 'undone' | 'workspace'>,
  ack: { seq: number | null; noteChanged?: boolean },
): HistoryEntry | null {
  const pair = { pool: op.pool, queryId: op.queryId, candidateId: op.candidateId, annotator: op.annotator, ...inWorkspace(op) };
  // A cleared label takes its note along (the engine's rule): what it set is no note.
  const note = { before: op.noteBefore ?? null, after: op.value === null ? null : op.note || null };
  if (ack.seq != null) return { seq: ack.seq, ...pair, value: op.value, ...(ack.noteChanged && !op.undone ? { note } : {}) };
  if (op.note !== undefined && ack.noteChanged && !op.undone) return { seq: 0, ...pair, note };
  return null;
}

/**
 * Records what a saved op of the label outbox (Annotate's labels and notes) or of the judge's
 * (Review's rulings and reasons, `review`) leaves in the history: the change it made, for undo;
 * an undo's op, the entry it took back, for redo — only now, so a refused undo leaves no redo.
 */
export function recordSaved(history: UndoHistory, op: LabelOp, ack: LabelAck, o: { review?: boolean } = {}): void {
  if (op.undone) history.pushRedo(op.undone);
  pushChange(history, op, ack, { review: o.review, keepRedo: op.redoing });
}

/** Pushes the change a saved op made (historyEntryFor), marked as Review's when `review`; `keepRedo`: a redo's change. */
function pushChange(history: UndoHistory, op: Parameters<typeof historyEntryFor>[0], ack: LabelAck, o: { review?: boolean; keepRedo?: boolean }): void {
  const entry = historyEntryFor(op, ack);
  if (entry) history.push(o.review ? { ...entry, review: true } : entry, { keepRedo: o.keepRedo });
}

/** What popRedo found: an entry to redo, nothing, or a redo lost to a change made after the undo. */
export type RedoPop = { entry: RedoEntry } | { entry: null; lost: boolean };

/** What U says in Annotate and in Review when this session took nothing back to give back. */
export const NOTHING_TO_REDO = 'Nothing to redo: U gives back what u took back in this session.';

/** One person's work on one pool, as a key (undo and redo histories, Review's reason drafts, the queue on screen). */
export const personScope = (pool: string, person: string): string => `${pool}\u0000${person}`;

/** What a redo of a label event sends besides its pair: the label again, its note, and what the pair must still hold. */
export interface RedoArgs {
  value: string | null;
  note?: string;
  /** The note the undo left: the engine refuses the redo once it changed since (a note change is no label event). */
  ifNote?: string | null;
  /** The label event the undo appended: the engine refuses the redo once the pair changed since (another tab, a script). */
  ifLatest: number;
  /** The workspace the undone label was given in: a server now on another refuses the redo. */
  workspace?: string;
}

/**
 * Redoes an undone label event (a label in Annotate, a ruling in Review — label.set or
 * review.settle, which `send` calls) and records it in `history` as a redo's change (the rest of the
 * redo history stays). Null when done; else the error to show: a refusal drops the entry (the pair
 * changed since the undo), a transport failure puts it back for another U.
 */
export async function redoLabel(r: RedoEntry, history: UndoHistory, send: (args: RedoArgs) => Promise<LabelAck>): Promise<string | null> {
  const value = r.value ?? null;
  try {
    const ack = await send({ value, ...(r.note ? { note: r.note.after ?? '', ifNote: r.note.before ?? null } : {}), ifLatest: r.undoneBy, ...inWorkspace(r) });
    const pair = { pool: r.pool, queryId: r.queryId, candidateId: r.candidateId, annotator: r.annotator, ...inWorkspace(r) };
    pushChange(history, { ...pair, value, ...(r.note ? { note: r.note.after ?? '', noteBefore: r.note.before } : {}) }, ack, { review: r.review, keepRedo: true });
    return null;
  } catch (err) {
    if (!isTransportError(err)) return `Redo refused: ${errorMessage(err)}`;
    // It may have been saved with its answer lost: U again is answered with that redo, never a second one.
    history.putBackRedo(r);
    return `Redo not confirmed: ${errorMessage(err)}. Press U again once the server answers.`;
  }
}

/**
 * What u (or U) says when it finds nothing in a pool for a person whose history held changes given
 * in another workspace, dropped when the page loaded (UndoHistory.dropOtherWorkspaces).
 */
export const droppedOtherWorkspaceNotice = (dropped: number, key: 'u' | 'U', name: string | null): string =>
  `Nothing to ${key === 'u' ? 'undo' : 'redo'} here: this tab's ${dropped} earlier change${dropped === 1 ? ' was' : 's were'} given in another workspace than the one the server now serves${name ? ` (${name})` : ''}, so ${dropped === 1 ? 'it was' : 'they were'} dropped from ${key}'s history when the page loaded; ${key} acts on changes made here.`;

/** What u or U says on finding nothing for this pool and person: the changes dropped as another workspace's, once; else `otherwise`. */
export function nothingLeftNotice(history: UndoHistory, pool: string, person: string, key: 'u' | 'U', workspaceName: string | null, otherwise: string): string {
  const dropped = history.takeDropped(pool, person);
  return dropped > 0 ? droppedOtherWorkspaceNotice(dropped, key, workspaceName) : otherwise;
}

export class UndoHistory {
  private entries: HistoryEntry[];
  /** What undo took back, newest last (redo gives it again). */
  private redo: RedoEntry[];
  /** Pool and annotator whose redo was dropped by a change made after an undo. */
  private lost: string[];
  /** Changes (undo and redo entries) of another workspace dropped at load, by pool and person, until u or U says so. */
  private readonly dropped = new Map<string, number>();

  constructor(
    private readonly storage?: KV,
    // '.2': an annotator's entries hold her own event numbers (the engine's own-seq.ts); entries kept
    // under the old key held the workspace's numbers, which would name other events of hers now.
    private readonly key = 'qpairs.undoHistory.2',
  ) {
    const entries = this.read(key, []);
    this.entries = Array.isArray(entries) ? (entries as HistoryEntry[]).filter((e) => e && typeof e.seq === 'number') : [];
    const redo = this.read(`${key}.redo`, {}) as { entries?: unknown; lost?: unknown };
    this.redo = Array.isArray(redo?.entries) ? (redo.entries as RedoEntry[]).filter((e) => e && typeof e.seq === 'number' && typeof e.undoneBy === 'number') : [];
    this.lost = Array.isArray(redo?.lost) ? (redo.lost as unknown[]).filter((x): x is string => typeof x === 'string') : [];
  }

  /**
   * Records a change. A new change (not a redo's, `keepRedo`) ends what could be redone in its
   * pool: redo then says so instead of giving back an undone label over it.
   */
  push(e: HistoryEntry, o: { keepRedo?: boolean } = {}): void {
    this.entries.push(e);
    if (this.entries.length > 5000) this.entries.splice(0, this.entries.length - 5000);
    if (!o.keepRedo) {
      const before = this.redo.length;
      this.redo = this.redo.filter((r) => personScope(r.pool, r.annotator) !== personScope(e.pool, e.annotator));
      if (this.redo.length < before && !this.lost.includes(personScope(e.pool, e.annotator))) this.lost.push(personScope(e.pool, e.annotator));
    }
    this.save();
  }

  /**
   * Drops, in one go, every entry (to undo or redo) given in another workspace than `workspace` (the
   * one the server serves as the page loads): after a reload onto another workspace at the same
   * address, each u refused one such entry at a time ("not undone…"). Entries that name no workspace
   * stay. Returns how many were dropped; `takeDropped` says it once per pool and person.
   */
  dropOtherWorkspaces(workspace: string): number {
    const other = (e: HistoryEntry): boolean => e.workspace !== undefined && e.workspace !== workspace;
    const gone = [...this.entries.filter(other), ...this.redo.filter(other)];
    if (gone.length === 0) return 0;
    for (const e of gone) this.dropped.set(personScope(e.pool, e.annotator), (this.dropped.get(personScope(e.pool, e.annotator)) ?? 0) + 1);
    this.entries = this.entries.filter((e) => !other(e));
    this.redo = this.redo.filter((e) => !other(e));
    this.save();
    return gone.length;
  }

  /** How many changes of this pool and person were dropped as another workspace's (dropOtherWorkspaces), said once: 0 after. */
  takeDropped(pool: string, annotator: string): number {
    const n = this.dropped.get(personScope(pool, annotator)) ?? 0;
    this.dropped.delete(personScope(pool, annotator));
    return n;
  }

  /** Puts back an entry whose undo did not happen (refused, or the server unreachable). */
  putBack(e: HistoryEntry): void {
    this.push(e, { keepRedo: true });
  }

  /** Records what an undo took back, for redo. */
  pushRedo(e: RedoEntry): void {
    this.redo.push(e);
    if (this.redo.length > 5000) this.redo.splice(0, this.redo.length - 5000);
    this.lost = this.lost.filter((x) => x !== personScope(e.pool, e.annotator));
    this.save();
  }

  /** Removes and returns the newest undone entry of this pool and annotator (lost: a change since the undo dropped it; said once). */
  popRedo(pool: string, annotator: string): RedoPop {
    for (let i = this.redo.length - 1; i >= 0; i--) {
      const e = this.redo[i]!;
      if (e.pool === pool && e.annotator === annotator) {
        this.redo.splice(i, 1);
        this.save();
        return { entry: e };
      }
    }
    const lost = this.lost.includes(personScope(pool, annotator));
    if (lost) {
      this.lost = this.lost.filter((x) => x !== personScope(pool, annotator));
      this.save();
    }
    return { entry: null, lost };
  }

  /** Puts back an entry whose redo did not happen (the server unreachable). */
  putBackRedo(e: RedoEntry): void {
    this.redo.push(e);
    this.save();
  }

  /** The undos under way (their calls not answered yet): redo waits for them (afterUndos). */
  private undoing: Promise<void> = Promise.resolve();

  /**
   * Runs an undo, which redo waits for. U pressed right after u, before u's call was answered (a
   * busy server), found nothing to redo: what u took back reaches the redo list only with the answer.
   */
  runUndo(undo: () => Promise<void>): Promise<void> {
    const run = undo();
    this.undoing = Promise.all([this.undoing, run.catch(() => undefined)]).then(() => undefined);
    return run;
  }

  /** Resolves once every undo begun so far (runUndo) is over. */
  afterUndos(): Promise<void> {
    return this.undoing;
  }

  /** Removes and returns the newest entry of this pool and annotator. */
  pop(pool: string, annotator: string): HistoryEntry | null {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (e.pool === pool && e.annotator === annotator) {
        this.entries.splice(i, 1);
        this.save();
        return e;
      }
    }
    return null;
  }

  size(pool: string, annotator: string): number {
    return this.entries.filter((e) => e.pool === pool && e.annotator === annotator).length;
  }

  private read(key: string, fallback: unknown): unknown {
    try {
      return JSON.parse(this.storage?.getItem(key) ?? 'null') ?? fallback;
    } catch {
      return fallback;
    }
  }

  private save(): void {
    try {
      this.storage?.setItem(this.key, JSON.stringify(this.entries));
      this.storage?.setItem(`${this.key}.redo`, JSON.stringify({ entries: this.redo, lost: this.lost }));
    } catch {
      /* ignore */
    }
  }
}
