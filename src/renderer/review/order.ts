/**
 * The Review screen's list logic (pure, unit-tested). The engine orders a pool's disagreements
 * by impact, and settling one changes the others' impact; re-sorting under the judge's cursor
 * after every label would make items jump, so the screen keeps the order it first showed and
 * appends new disagreements (in the engine's order) until the judge asks to re-sort.
 */
import type { ReviewItem } from '../../shared/gold';

export const itemKey = (i: { queryId: string; candidateId: string }): string => `${i.queryId}\u0000${i.candidateId}`;

/**
 * The display order after a refresh: the keys of `prev` still present, in their old order, then
 * the new items' keys in the engine's order. Items no longer listed drop out.
 */
export function mergeOrder(prev: readonly string[], items: readonly ReviewItem[]): string[] {
  const present = new Set(items.map(itemKey));
  const kept = prev.filter((k) => present.has(k));
  const seen = new Set(kept);
  for (const it of items) {
    const k = itemKey(it);
    if (!seen.has(k)) {
      kept.push(k);
      seen.add(k);
    }
  }
  return kept;
}

/**
 * The index of the next unsettled item after `from` (wrapping around, `from` itself last), or
 * -1 when every item is settled.
 */
export function nextUnsettled(count: number, from: number, isSettled: (index: number) => boolean): number {
  if (count <= 0) return -1;
  for (let k = 1; k <= count; k++) {
    const i = (((from + k) % count) + count) % count;
    if (!isSettled(i)) return i;
  }
  return -1;
}

/** Where to put the cursor for a focus request (a query, optionally one candidate): the first matching item, or -1. */
export function focusIndex(ordered: ReadonlyArray<{ queryId: string; candidateId: string }>, queryId: string, candidateId?: string): number {
  if (candidateId) {
    const exact = ordered.findIndex((i) => i.queryId === queryId && i.candidateId === candidateId);
    if (exact >= 0) return exact;
  }
  return ordered.findIndex((i) => i.queryId === queryId);
}
