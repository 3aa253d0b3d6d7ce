/**
 * The Annotate screen's candidate filter: which rows are shown, and how the cursor (an index into
 * the displayed order of all candidates) steps over the rows the filter hides, so that j/k, the
 * label keys' advance, Home and End follow the rows on screen.
 */
import type { CandidateView } from '../../shared/contract';

/** Case-insensitive; every word of the filter must occur in the candidate's id, title or body. */
export function candidateMatches(c: CandidateView, filter: string): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = `${c.id} ${c.question?.title ?? ''} ${c.question?.body ?? ''}`.toLowerCase();
  return words.every((w) => text.includes(w));
}

/** Indices (into cands) of the rows the filter shows, in order. */
export function shownIndices(cands: readonly CandidateView[], filter: string): number[] {
  const out: number[] = [];
  cands.forEach((c, i) => {
    if (candidateMatches(c, filter)) out.push(i);
  });
  return out;
}

/**
 * The cursor moved by `delta` shown rows (±1), staying at the first/last shown row at the ends.
 * From a hidden row it goes to the nearest shown row in that direction (else the other way).
 * No shown rows: the cursor stays.
 */
export function stepCursor(shown: readonly number[], cursor: number, delta: 1 | -1): number {
  if (shown.length === 0) return cursor;
  const at = shown.indexOf(cursor);
  if (at >= 0) return shown[Math.max(0, Math.min(shown.length - 1, at + delta))]!;
  if (delta > 0) return shown.find((i) => i > cursor) ?? shown[shown.length - 1]!;
  return [...shown].reverse().find((i) => i < cursor) ?? shown[0]!;
}

/** The cursor kept on a shown row: itself when shown, else the first shown row at or after it (else the last). */
export function clampCursor(shown: readonly number[], cursor: number): number {
  if (shown.length === 0 || shown.includes(cursor)) return cursor;
  return shown.find((i) => i > cursor) ?? shown[shown.length - 1]!;
}
