/** The Review screen's keys besides the label keys (shown in its legend and the F1 overlay). */
export const REVIEW_KEYS: ReadonlyArray<[string, string]> = [
  ['↑ ↓ / j k', 'move'],
  ['Home / End', 'first / last pair shown'],
  ['PgUp / PgDn', '200 pairs up / down (the list shows 200 at a time)'],
  ['n', 'next unsettled'],
  ['u / Backspace', 'undo'],
  ['U', 'redo (Shift+u)'],
  ['x', 'clear my label'],
  ['r', 're-sort by impact (clears a column sort)'],
  ['c', 'reason for the ruling'],
  ['Esc', "keep another judge's ruling (a label key on it asks first; the same key again overrules it)"],
];
