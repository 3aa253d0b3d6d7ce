/**
 * A name the workspace did not know becomes a new annotator when a command labels, assigns or
 * imports under it: said so, with the known person a typo most likely meant (`alcie` for alice was
 * added in silence, and `eval --annotator alice` then missed the labels).
 */
import { closest } from '../../shared/suggest';
import type { Workspace } from '../workspace/workspace';

/** The workspace's people now, before a command adds any: the `known` of the notes below and of assignmentNotes. */
export function knownPeople(ws: Workspace): Set<string> {
  return new Set(ws.listAnnotators().map((x) => x.name));
}

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

/**
 * The notes for the people an import added: the one its annotator option named (the app's Annotator
 * field), and those its files' annotator column or field named (`alcie` in a labels file's column
 * was added in silence). `known`: the people before the import. One note per name a known person is
 * close to; the other new names together in one.
 */
export function importedPeopleNotes(ws: Workspace, known: ReadonlySet<string>, annotatorOption: string | undefined): string[] {
  const notes: string[] = [];
  const option = annotatorOption?.trim() ? ws.personName(annotatorOption) : null;
  const optionNote = option && addedPersonNote(ws, option, known, (meant) => `then undo this import and import again with annotator ${meant}`);
  if (optionNote) notes.push(optionNote);
  const people = labelingPeople(ws, known);
  const fromFiles = ws
    .listAnnotators()
    .filter((x) => x.role === 'annotator' && !known.has(x.name) && x.name !== option)
    .map((x) => x.name);
  const unlike: string[] = [];
  for (const name of fromFiles) {
    if (closest(name, people)) notes.push(newPersonNote(name, people, (meant) => `then undo this import and import again with ${meant} in the file's annotator column`));
    else unlike.push(name);
  }
  if (unlike.length === 1) notes.push(newPersonNote(unlike[0]!, [], () => ''));
  else if (unlike.length > 1) notes.push(`${namesList(unlike)} were not people of this workspace and are added as new annotators`);
  return notes;
}

/** `a, b and c`; past ten names, `a, …, j and 5 more`. */
function namesList(names: readonly string[]): string {
  const shown = names.slice(0, 10);
  const more = names.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]!}`;
}
