/**
 * The undo history's entries (history.ts keeps them): what undo takes back, and what redo gives
 * again. Apart so the label outbox (labelQueue.ts) can carry the entry an undo's op takes back.
 */

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
  note?: { before: string | null; /** The note the change set (null: removed); what redo sets again. */ after?: string | null };
  /** The label the event gave (label events): what redo gives again. */
  value?: string | null;
  /** Given on the Review screen (a judge's ruling or reason): undone and redone there. */
  review?: true;
  /** The workspace it was given in (the op's): its undo and redo name it, so a server now on another workspace refuses them. */
  workspace?: string;
}

/**
 * What redo gives again: an undone history entry, with the label event its undo appended
 * (`undoneBy`; 0 for a note change), so redo is refused once the pair changed since.
 */
export interface RedoEntry extends HistoryEntry {
  undoneBy: number;
}
