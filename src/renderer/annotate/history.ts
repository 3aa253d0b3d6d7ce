/**
 * The session's undo history: the seq of every label this window saved, newest last, kept in
 * sessionStorage so a reload does not lose it. Undo walks back across queries.
 */
import type { KV } from '../lib/storage';

export interface HistoryEntry {
  seq: number;
  pool: string;
  queryId: string;
  candidateId: string;
  annotator: string;
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
