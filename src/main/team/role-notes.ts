/**
 * What a role change means for the labels a person already gave, said by annotator.setRole (engine)
 * and `qpairs annotators role`. A pool nobody is assigned to (open) takes as votes the labels of
 * people of role annotator, and as rulings those of its judges: so an annotator made a judge stops
 * voting there (and their votes are not rulings either: gold/state.ts judgeSince), and a judge made
 * an annotator votes there with their rulings, which settle nothing any more. Both happened without
 * a word: the pools' agreement, Review and gold changed.
 */
import { annotatorRole, getAssignment, setAnnotatorRole } from '../gold/store';
import type { AnnotatorRole, Workspace } from '../workspace/workspace';

/** The labels `name` has now in each open pool: read before the role changes, for roleChangeNotes. */
function openPoolLabels(ws: Workspace, name: string): Array<{ pool: string; labels: number }> {
  const out: Array<{ pool: string; labels: number }> = [];
  for (const p of ws.listPools()) {
    if (getAssignment(ws, p.name).mode !== 'open') continue;
    const labels = ws.currentLabels(p.name, name).length;
    if (labels > 0) out.push({ pool: p.name, labels });
  }
  return out;
}

const inPools = (pools: ReadonlyArray<{ pool: string; labels: number }>): string =>
  pools.map((p) => `${p.pool} (${p.labels} label${p.labels === 1 ? '' : 's'})`).join(', ');

/** The notes for `name`'s role going `from` → `to`, given their labels in open pools before (openPoolLabels). */
function roleChangeNotes(name: string, from: AnnotatorRole | null, to: AnnotatorRole, before: ReadonlyArray<{ pool: string; labels: number }>): string[] {
  if (before.length === 0 || from === null || from === to) return [];
  const one = before.length === 1;
  const where = `${name} labeled ${one ? 'pool' : 'pools'} nobody is assigned to: ${inPools(before)}`;
  const back = `and the disagreements ${name} settled are back in Review.`;
  if (from === 'annotator') {
    return [
      `${where}; as ${to === 'judge' ? 'a judge' : 'an owner'} ${name} no longer votes there: those labels stop counting in ${one ? 'its' : 'their'} agreement and gold` +
        (to === 'judge' ? ', and they are not rulings either (who voted on a pair is no third judge of it): another judge settles the pairs in dispute.' : '.'),
    ];
  }
  if (from === 'judge' && to === 'annotator') {
    return [`${where}; those labels were rulings and now count as ${name}'s votes (in agreement, given seeing everyone's labels, and in the gold): they settle nothing any more, ${back}`];
  }
  if (from === 'judge') return [`${where}; those labels were rulings and settle nothing any more (an owner's labels there neither vote nor rule), ${back}`];
  if (to === 'annotator') return [`${where}; those labels, given as an owner seeing everyone's labels, now count as ${name}'s votes there (in agreement and in the gold).`];
  return [];
}

/**
 * Sets `name`'s role (setAnnotatorRole; `signsIn` as there) and says what that does to the labels they gave in open pools
 * (roleChangeNotes, read from before the change): annotator.setRole and `qpairs annotators role`.
 */
export function setRoleWithNotes(ws: Workspace, name: string, role: AnnotatorRole, opts: { signsIn?: boolean } = {}): { role: AnnotatorRole; notes: string[] } {
  const person = ws.personName(name);
  const from = annotatorRole(ws, person);
  const before = openPoolLabels(ws, person);
  const to = setAnnotatorRole(ws, name, role, opts);
  return { role: to, notes: roleChangeNotes(person, from, to, before) };
}
