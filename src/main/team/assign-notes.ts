/**
 * What an assignment means beyond its table, said by pool.assign (engine) and `qpairs assign`:
 * - issue 23: a judge (or an owner) assigned as one of a pool's annotators keeps the role — the
 *   assignment adds labeling, it does not make them a plain annotator — and since they see
 *   everyone's labels, they do not label blind;
 * - a name the workspace did not know is added as a new annotator: said so, with the known person
 *   it most likely meant (`alcie` for alice was added in silence, and the pool waited on nobody);
 * - an assignment replaces the earlier one: an annotator who had voted in the pool and is left out
 *   of the new list is said so, with their labels' count (`assign --annotators dave` to add dave
 *   took alice and bob out in silence: their votes stopped counting, and the pool's agreement,
 *   Review, gold and eval figures changed with no word).
 */
import { getAssignment } from '../gold/store';
import { labelingPeople, newPersonNote } from './new-person';
import type { Workspace } from '../workspace/workspace';

/**
 * The people whose labels vote in `pool` now — its assigned annotators, else every annotator who
 * labeled it, as the pool's label state takes them — with their current labels there ("?" included).
 * Read before an assignment, for assignmentNotes.
 */
export function poolVoters(ws: Workspace, pool: string): Map<string, number> {
  const plan = getAssignment(ws, pool);
  const roles = new Map(ws.listAnnotators().map((x) => [x.name, x.role]));
  const counts = new Map<string, number>();
  for (const l of ws.currentLabels(pool)) counts.set(l.annotator, (counts.get(l.annotator) ?? 0) + 1);
  const voters = plan.mode === 'open' ? [...counts.keys()].filter((n) => roles.get(n) === 'annotator') : plan.annotators;
  return new Map(voters.filter((n) => (counts.get(n) ?? 0) > 0).map((n) => [n, counts.get(n)!]));
}

/**
 * The notes for assigning `names`; `known` are the people of the workspace before the assignment,
 * `votersBefore` the pool's voters then (poolVoters).
 */
export function assignmentNotes(ws: Workspace, names: readonly string[], known: ReadonlySet<string>, votersBefore: ReadonlyMap<string, number>): string[] {
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
  const assigned = new Set(names.map((n) => ws.personName(n)));
  const left = [...votersBefore].filter(([n]) => !assigned.has(n));
  return [...addedNotes, ...roleNotes, ...(left.length ? [leftOutNote(left)] : [])];
}

/** `bob (20 labels) is no longer one of the pool's annotators: …`. */
function leftOutNote(left: ReadonlyArray<readonly [string, number]>): string {
  const who = left.map(([n, c]) => `${n} (${c} label${c === 1 ? '' : 's'})`);
  const list = who.length === 1 ? who[0]! : `${who.slice(0, -1).join(', ')} and ${who[who.length - 1]!}`;
  const one = left.length === 1;
  return (
    `${list} ${one ? 'is' : 'are'} no longer one of this pool's annotators (an assignment replaces the earlier one): ` +
    `${one ? 'those labels stay' : 'their labels stay'} but no longer count as votes in its agreement, Review and gold (@aggregate), nor in eval; ` +
    `to keep them counting, assign again with ${one ? left[0]![0] : 'them'} in the list.`
  );
}
