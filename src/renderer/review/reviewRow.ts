/**
 * A row of the Review screen's list: one disagreement of the queue with the judge label shown for
 * it, and the few pure readings of a row the list, the detail pane and the keys share.
 */
import type { ReviewItem } from '../../shared/gold';
import type { OpState } from '../annotate/labelQueue';
import { describeLabel } from '../annotate/keys';

export interface Row {
  item: ReviewItem;
  key: string;
  /** The judge label shown: an unsaved one first, else the saved one (any judge's). */
  value: string | null;
  state: OpState | 'saved' | 'none';
  by: string | null;
  error?: string;
}

/** Settled: a judge label other than "?" (which settles nothing) is shown for the row. */
export function isSettled(r: Row | undefined): boolean {
  return !!r && r.value !== null && r.value !== '?';
}

/** A label value in the scheme's words ("similar"), else the value itself. */
export function labelWords(scheme: string, value: string): string {
  return describeLabel(scheme, value).text || value;
}

/** The row's votes in words, "alice: similar · bob: not similar" (the list's title, filter and sort; the cursor's announcement). */
export function votesText(r: Row, scheme: string): string {
  // Commas, not "·": this is what a screen reader says (the cursor's announcement, the list's votes), and it read "dot".
  return r.item.labels.map((l) => `${l.annotator}: ${labelWords(scheme, l.value)}`).join(', ');
}

/**
 * The row's votes as the list shows them, "alice 1 · bob 0": each value as stored, but a Likert one
 * as its scale point ("alice +1 · bob −2"), as the ruling beside it and the pair's votes read — the
 * stored "1" (+1) read as key 1, which rules −2.
 */
export function votesShown(r: Row, scheme: string): string {
  const shown = (v: string): string => (scheme === 'likert5' && v !== '?' ? (describeLabel(scheme, v).text.split(' ')[0] || v) : v);
  return r.item.labels.map((l) => `${l.annotator} ${shown(l.value)}`).join(' · ');
}

/** A title as the list shows it (whitespace collapsed), for sorting. */
export function oneLine(t: string | undefined): string {
  return (t ?? '').replace(/\s+/g, ' ').trim();
}
