/**
 * The answer to a label sent again when an earlier send of it may have been saved: its answer was
 * lost (the connection broke after the server committed), or the page was reloaded while it was on
 * its way. The engine then finds the pair already as asked and answers "unchanged" (seq null), so
 * the page would record nothing to undo, and u would take back the label given before it. What the
 * earlier send changed is what the page meant to change: the label when it differed from the one
 * the page showed before (then the engine's `latest`, the annotator's latest event on the pair, is
 * that send's), the note when the pair's note now differs from the one before.
 */
import type { LabelAck } from '../../shared/contract';

/** What a queued label knows of the pair before it (labelQueue.ts LabelInput's fields). */
export interface ResentLabel {
  value: string | null;
  /** The label the page showed on the pair when this one was given (undefined: unknown). */
  valueBefore?: string | null;
  note?: string;
  noteBefore?: string | null;
}

export function ackOfResent(op: ResentLabel, ack: LabelAck): LabelAck {
  if (ack.seq !== null) return ack;
  const labelChanged = op.valueBefore !== undefined && op.valueBefore !== op.value && ack.latest != null;
  // A cleared label takes its note along (the engine's rule), as a note sent sets it.
  const noteSent = op.value === null || op.note !== undefined;
  const noteChanged = !!ack.noteChanged || (noteSent && op.noteBefore !== undefined && (op.noteBefore ?? null) !== (ack.note ?? null));
  return { ...ack, seq: labelChanged ? ack.latest! : null, noteChanged };
}
