/**
 * What an assignment means beyond its table, said by pool.assign (engine) and `qpairs assign`:
 * - issue 23: a judge (or an owner) assigned as one of a pool's annotators keeps the role — the
 *   assignment adds labeling, it does not make them a plain annotator — and since they see
 *   everyone's labels, they do not label blind;
 * - a name the workspace did not know is added as a new annotator: said so, with the known person
 *   it most likely meant (`alcie` for alice was added in silence, and the pool waited on nobody).
 */
import { labelingPeople, newPersonNote } from './new-person';
import type { Workspace } from '../workspace/workspace';

/** The notes for assigning `names`; `known` are the people of the workspace before the assignment. */
export function assignmentNotes(ws: Workspace, names: readonly string[], known: ReadonlySet<string>): string[] {
  const roles = new Map(ws.listAnnotators().map((x) => [x.name, x.role]));
  const trimmed = names.map((raw) => raw.trim());
  const added = trimmed.filter((n) => !known.has(n));
  const people = labelingPeople(ws, known).filter((p) => !trimmed.includes(p));
  const addedNotes = added.map((n) => `${newPersonNote(n, people, (meant) => `then assign again with ${meant}`)}.`);
  const roleNotes = trimmed
    .filter((n) => roles.get(n) === 'judge' || roles.get(n) === 'owner')
    .map((n) =>
      roles.get(n) === 'judge'
        ? `${n} is a judge and stays one: assigned here, ${n} also labels this pool as one of its annotators (those labels count in agreement and in the aggregate like any annotator's); ` +
          `as a judge ${n} still sees everyone's labels and settles disagreements, so ${n} does not label blind. To have ${n} only settle, leave ${n} out of the assignment.`
        : `${n} is an owner and stays one: assigned here, ${n} also labels this pool as one of its annotators, but sees everyone's labels, so ${n} does not label blind.`,
    );
  return [...addedNotes, ...roleNotes];
}
