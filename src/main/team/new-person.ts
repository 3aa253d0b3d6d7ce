/**
 * A name the workspace did not know becomes a new annotator when a command labels, assigns or
 * imports under it: said so, with the known person a typo most likely meant (`alcie` for alice was
 * added in silence, and `eval --annotator alice` then missed the labels).
 */
import { closest } from '../../shared/suggest';
import type { Workspace } from '../workspace/workspace';

/** The people who label, among `known` (gold and reference systems are no one's typo). */
export function labelingPeople(ws: Workspace, known: ReadonlySet<string>): string[] {
  return ws
    .listAnnotators()
    .filter((x) => known.has(x.name) && x.role !== 'gold' && x.role !== 'system')
    .map((x) => x.name);
}

/** The note for `stored`, added as a new annotator; `thenDo(meant)` says how to put things right when a known person is close. */
export function newPersonNote(stored: string, candidates: readonly string[], thenDo: (meant: string) => string): string {
  const meant = closest(stored, candidates);
  return `${stored} was not a person of this workspace and is added as a new annotator${meant ? ` (did you mean ${meant}? ${thenDo(meant)})` : ''}`;
}

/**
 * The note when `name` (as a command gave it) named no one among `known` (the people before the
 * command) and is now an annotator of the workspace; null otherwise (a known name, a label source).
 */
export function addedPersonNote(ws: Workspace, name: string, known: ReadonlySet<string>, thenDo: (meant: string) => string): string | null {
  const stored = ws.personName(name);
  if (known.has(stored) || ws.listAnnotators().find((x) => x.name === stored)?.role !== 'annotator') return null;
  return newPersonNote(stored, labelingPeople(ws, known), thenDo);
}
