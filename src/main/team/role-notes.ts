/**
 * What a role change means for the labels a person already gave, said by annotator.setRole (engine)
 * and `qpairs annotators role`. A pool nobody is assigned to (open) takes as votes the labels of
 * people of role annotator, and as rulings those of its judges: so an annotator made a judge stops
 * voting there (and their votes are not rulings either: gold/judge-spans.ts), and a judge made
 * an annotator votes there with their rulings, which settle nothing any more. Both happened without
 * a word: the pools' agreement, Review and gold changed.
 */
import { annotatorRole, getAssignment, setAnnotatorRole } from '../gold/store';
import { givenWhileJudging, judgeSpans } from '../gold/judge-spans';
import { UNSURE } from '../../shared/labels';
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
 * Made a judge again: the labels `name` gave as a judge in an earlier span of judging each pool they
 * judge now (judge-spans.ts), which are rulings again, per pool (read after the change). Imported
 * labels are left out (they are rulings in any role).
 */
function rulingsBack(ws: Workspace, name: string): Array<{ pool: string; labels: number }> {
  const out: Array<{ pool: string; labels: number }> = [];
  for (const p of ws.listPools()) {
    if (getAssignment(ws, p.name).annotators.includes(name)) continue;
    // Every label they have there is from before now: those given in a span of judging (the span just
    // begun, or one that goes on when they gave none since) are rulings.
    const spans = judgeSpans(ws, p.name).get(name);
    if (!spans?.length) continue;
    const labels = ws.currentLabels(p.name, name).filter((l) => l.value !== UNSURE && !l.origin.startsWith('import:') && givenWhileJudging(spans, ws.labelGivenAt(l).seq)).length;
    if (labels > 0) out.push({ pool: p.name, labels });
  }
  return out;
}

function rulingsBackNote(name: string, back: ReadonlyArray<{ pool: string; labels: number }>): string[] {
  if (back.length === 0) return [];
  const n = back.reduce((a, b) => a + b.labels, 0);
  const where = back.length === 1 ? back[0]!.pool : back.map((b) => `${b.pool}: ${b.labels}`).join(', ');
  return [`${n} ${n === 1 ? 'label' : 'labels'} ${name} gave there as a judge before (in ${where}) ${n === 1 ? 'is a ruling' : 'are rulings'} again.`];
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
  const back = from !== null && from !== 'judge' && to === 'judge' ? rulingsBackNote(person, rulingsBack(ws, person)) : [];
  return { role: to, notes: [...roleChangeNotes(person, from, to, before), ...back] };
}
