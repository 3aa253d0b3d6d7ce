/**
 * What a ruling key does on the pair under Review's cursor, before anything is sent:
 * - on a pair the judge voted on while not judging the pool (ReviewItem.votedByYou, the engine's
 *   reading) it says at once why she cannot settle it and who can (the engine would refuse it);
 * - on a pair another judge settled with another value it asks first: the same key again overrules
 *   that ruling (the latest counts), any other key or Esc keeps it;
 * - else it settles, sending the ruling the row showed (seenRuling): when another judge ruled
 *   otherwise meanwhile, unseen, the engine refuses it and Review asks as above (rulingChangedAsk).
 */
import { rulingChangedBy, type SeenRuling } from '../../shared/ruling-changed';
import type { Row } from './reviewRow';

/** A ruling key pressed once on another judge's different ruling: the same key on the same pair overrules it. */
export interface PendingOverrule {
  key: string;
  value: string;
}

export type RulingKeyAction =
  | { kind: 'settle'; overrules: { judge: string; value: string } | null }
  | { kind: 'refuse'; notice: string }
  | { kind: 'confirm'; notice: string; pending: PendingOverrule };

export function rulingKeyAction(
  r: Row,
  judge: string,
  value: string,
  pressed: string,
  pending: PendingOverrule | null,
  words: (value: string) => string,
): RulingKeyAction {
  const voted = r.item.votedByYou;
  if (voted) return { kind: 'refuse', notice: votedByYouText(voted) };
  const other = r.by !== null && r.by !== judge && r.value !== null && r.state === 'saved' ? { judge: r.by, value: r.value } : null;
  if (!other || other.value === value) return { kind: 'settle', overrules: null };
  if (pending && pending.key === r.key && pending.value === value) return { kind: 'settle', overrules: other };
  return {
    kind: 'confirm',
    notice: `${other.judge} ruled ${words(other.value)} — press ${pressed} again to overrule ${other.judge} with ${words(value)}, or Esc to keep that ruling.`,
    pending: { key: r.key, value },
  };
}

/** When a judge voted on a pair she may not settle: before she first judged the pool, or between two spans of judging it (as the engine's refusal says). */
export const whenYouVoted = (voted: { between?: true }): string => (voted.between ? 'between two spans of judging the pool' : 'before judging the pool');

/** Why a judge does not settle a pair she voted on, and who does (Review's key notice and the pair's note). */
export function votedByYouText(voted: { judges: readonly string[]; between?: true }): string {
  const who = voted.judges.length ? `${voted.judges.join(' or ')} settles it` : 'no other judge of the pool may settle it: the owner makes someone else a judge';
  return `You voted on this pair ${whenYouVoted(voted)}, so you are not its third judge and your ruling would be refused: ${who}.`;
}

/** The ruling the row shows from the engine (the queue's), sent with a ruling as review.settle's ifRuling; null: unsettled. */
export function seenRuling(r: Row): SeenRuling | null {
  return r.item.settled ? { judge: r.item.settled.judge, value: r.item.settled.value } : null;
}

/**
 * Review's answer to review.settle refusing a ruling because another judge ruled otherwise since the row
 * was read (shared/ruling-changed.ts): it asks as before overruling a ruling it shows — the same key again
 * overrules. Null when `message` is not that refusal.
 */
export function rulingChangedAsk(
  rowKey: string,
  value: string,
  message: string | undefined,
  pressed: string,
  words: (value: string) => string,
): { notice: string; pending: PendingOverrule; by: SeenRuling } | null {
  const by = rulingChangedBy(message);
  if (!by) return null;
  return {
    notice: `${by.judge} ruled ${words(by.value)} meanwhile, so your ruling was not saved — press ${pressed} again to overrule ${by.judge} with ${words(value)}, or Esc to keep that ruling.`,
    pending: { key: rowKey, value },
    by,
  };
}
