/**
 * What a ruling key does on the pair under Review's cursor, before anything is sent:
 * - on a pair the judge voted on before judging the pool (ReviewItem.votedByYou, the engine's
 *   reading) it says at once why she cannot settle it and who can (the engine would refuse it);
 * - on a pair another judge settled with another value it asks first: the same key again overrules
 *   that ruling (the latest counts), any other key or Esc keeps it;
 * - else it settles.
 */
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
  if (voted) return { kind: 'refuse', notice: votedByYouText(voted.judges) };
  const other = r.by !== null && r.by !== judge && r.value !== null && r.state === 'saved' ? { judge: r.by, value: r.value } : null;
  if (!other || other.value === value) return { kind: 'settle', overrules: null };
  if (pending && pending.key === r.key && pending.value === value) return { kind: 'settle', overrules: other };
  return {
    kind: 'confirm',
    notice: `${other.judge} ruled ${words(other.value)} — press ${pressed} again to overrule ${other.judge} with ${words(value)}, or Esc to keep that ruling.`,
    pending: { key: r.key, value },
  };
}

/** Why a judge does not settle a pair she voted on, and who does (Review's key notice and the pair's note). */
export function votedByYouText(judges: readonly string[]): string {
  const who = judges.length ? `${judges.join(' or ')} settles it` : 'no other judge of the pool may settle it: the owner makes someone else a judge';
  return `You voted on this pair before judging the pool, so you are not its third judge and your ruling would be refused: ${who}.`;
}
