/**
 * A pool an import creates under a name close to a pool the workspace has (`dve` for dev): a labels
 * file imported into a mistyped pool made a new pool of its pairs in silence, and the labels were
 * missing from the pool meant. Names that differ only in their numbers (train1, train2; p, p2) are a series,
 * not a typo; nor are names of one or two characters.
 */
import { closest } from '../../shared/suggest';

/** The warning for new pool `name` among the pools before (`existing`), or null when none is close. */
export function newPoolNote(name: string, existing: readonly string[]): string | null {
  if (name.length < 3) return null; // a, b: too short to tell a typo from a choice
  const series = (s: string): string => s.toLowerCase().replace(/\d+/g, '');
  const meant = closest(
    name,
    existing.filter((p) => series(p) !== series(name)),
  );
  return meant === null ? null : `pool "${name}" was not in the workspace and is created by this import (did you mean ${meant}? then undo this import and import again into pool ${meant})`;
}
