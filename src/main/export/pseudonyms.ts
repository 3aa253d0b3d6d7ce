/**
 * Pseudonyms for an export (`pseudonymize`: the CLI's `--pseudonymize`, the Export screen's
 * "Replace annotator names with A1, A2, …"): every person of the workspace — annotators, judges,
 * owners; not the label sources that are no one (`gold`, reference systems: roles gold and system)
 * — is `A1`, `A2`, … in the order the workspace first knew them (the annotators table's ids), so two
 * exports of the same workspace, of any pool, give a person the same pseudonym, and a judge keeps the
 * one they have as an annotator (a person is one row, whatever their role).
 *
 * Names are replaced where the export writes them as names (label columns, votes, judges, notes'
 * authors, the datasheet's tables and sentences), and as whole words in the free text people wrote
 * for the set: notes on labels and the pool's guidelines. The questions' text is the source data and
 * is written as it is: a name inside a word ("Ann" in "Annual") or a question is not a person's name.
 */
import { isReservedRole } from '../../shared/roles';
import type { Workspace } from '../workspace/workspace';

export interface Pseudonyms {
  /** The name the export writes for a label source: its pseudonym, or the name itself when it is no person's. */
  of(name: string): string;
  /** Free text (a note, the guidelines) with every person's name, as a whole word, replaced by their pseudonym. */
  inText(text: string): string;
  /** Whether names are replaced (false: `of` and `inText` give back what they are given). */
  readonly replaced: boolean;
  /** How many people have a pseudonym. */
  readonly people: number;
}

/** The export's names as they are (the default). */
export const REAL_NAMES: Pseudonyms = { of: (n) => n, inText: (t) => t, replaced: false, people: 0 };

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The workspace's people's pseudonyms, A1, A2, … in the order of the annotators table. */
export function workspacePseudonyms(ws: Workspace): Pseudonyms {
  const byName = new Map<string, string>();
  for (const a of ws.listAnnotators()) {
    if (isReservedRole(a.role)) continue;
    byName.set(a.name, `A${byName.size + 1}`);
  }
  // Longest first, so "Ann Lee" is replaced before "Ann"; a letter, digit or _ on either side means another word.
  const names = [...byName.keys()].sort((a, b) => b.length - a.length);
  const word = names.length ? new RegExp(`(?<![\\p{L}\\p{N}_])(?:${names.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}_])`, 'gu') : null;
  return {
    of: (n) => byName.get(n) ?? n,
    inText: (t) => (word ? t.replace(word, (m) => byName.get(m) ?? m) : t),
    replaced: true,
    people: byName.size,
  };
}
