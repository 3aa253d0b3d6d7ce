/**
 * Issue 23: what assigning a judge (or an owner) as one of a pool's annotators means. They keep
 * their role — the assignment adds labeling, it does not make them a plain annotator — and since
 * they see everyone's labels, they do not label blind. pool.assign (engine) and `qpairs assign`
 * return these notes.
 */
import type { Workspace } from '../workspace/workspace';

export function assignmentNotes(ws: Workspace, names: readonly string[]): string[] {
  const roles = new Map(ws.listAnnotators().map((x) => [x.name, x.role]));
  return names
    .map((raw) => raw.trim())
    .filter((n) => roles.get(n) === 'judge' || roles.get(n) === 'owner')
    .map((n) =>
      roles.get(n) === 'judge'
        ? `${n} is a judge and stays one: assigned here, ${n} also labels this pool as one of its annotators (those labels count in agreement and in the aggregate like any annotator's); ` +
          `as a judge ${n} still sees everyone's labels and settles disagreements, so ${n} does not label blind. To have ${n} only settle, leave ${n} out of the assignment.`
        : `${n} is an owner and stays one: assigned here, ${n} also labels this pool as one of its annotators, but sees everyone's labels, so ${n} does not label blind.`,
    );
}
