/**
 * The session's undo history: the seq of every label this window saved, and every note it changed,
 * newest last, kept in sessionStorage so a reload does not lose it. Undo walks back across queries.
 */
import type { KV } from '../lib/storage';
import type { LabelOp } from './labelQueue';

export interface HistoryEntry {
  /** The label event to undo (label.undo); 0 for a note change. */
  seq: number;
  pool: string;
  queryId: string;
  candidateId: string;
  annotator: string;
  /**
   * The note the pair had before (null: none), when the change took it: with seq 0 a note change
   * (the label kept its value); with a label event, a label whose call changed the note too (a
   * cleared label takes its note along) — undoing it puts back both at once.
   */
  note?: { before: string | null };
  /** Given on the Review screen (a judge's ruling or reason): undone and redone there. */
  review?: true;
}

/**
 * What undo takes back of a saved op: its label event (with the note it changed, if any), else —
 * when only its note changed — the note change (an undo's own note op is not undone in turn); null when nothing changed.
 */
export function historyEntryFor(op: LabelOp, ack: { seq: number | null; noteChanged?: boolean }): HistoryEntry | null {
  const pair = { pool: op.pool, queryId: op.queryId, candidateId: op.candidateId, annotator: op.annotator };
  if (ack.seq != null) return { seq: ack.seq, ...pair, ...(ack.noteChanged && !op.undoing ? { note: { before: op.noteBefore ?? null } } : {}) };
  if (op.note !== undefined && ack.noteChanged && !op.undoing) return { seq: 0, ...pair, note: { before: op.noteBefore ?? null } };
  return null;
}

export class UndoHistory {
  private entries: HistoryEntry[];

  constructor(
    private readonly storage?: KV,
    private readonly key = 'qpairs.undoHistory',
  ) {
    let loaded: unknown = [];
    try {
      loaded = JSON.parse(storage?.getItem(key) ?? '[]');
    } catch {
      loaded = [];
    }
    this.entries = Array.isArray(loaded) ? (loaded as HistoryEntry[]).filter((e) => e && typeof e.seq === 'number') : [];
  }

  push(e: HistoryEntry): void {
    this.entries.push(e);
    if (this.entries.length > 5000) this.entries.splice(0, this.entries.length - 5000);
    this.save();
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

  private save(): void {
    try {
      this.storage?.setItem(this.key, JSON.stringify(this.entries));
    } catch {
      /* ignore */
    }
  }
}
