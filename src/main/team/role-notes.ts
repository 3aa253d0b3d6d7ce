/**
 * What a role change means for the labels a person already gave, said by annotator.setRole (engine)
 * and `qpairs annotators role`. A pool nobody is assigned to (open) takes as votes the labels of
 * people of role annotator, and as rulings those of its judges: so an annotator made a judge stops
 * voting there (and their votes are not rulings either: gold/judge-spans.ts), and a judge made
 * an annotator votes there with their rulings, which settle nothing any more. A pool assigned to
 * others takes a judge's labels as rulings and nobody else's: a judge made an annotator or owner
 * rules there no more, and their rulings count for nothing. All of it happened without a word: the
 * pools' agreement, Review and gold changed. Made a judge again, the labels they gave in an earlier
 * span of judging are rulings again, said per pool in the same note as the labels that are not; and
 * a judge made an annotator or owner is told apart which of their labels in an open pool were rulings.
 * Made a judge, the labels they gave while not judging a pool they judge now are said too
 * (made-judge-notes.ts): they may not rule on those pairs.
 */
import { annotatorRole, getAssignment, setAnnotatorRole } from '../gold/store';
import type { AnnotatorRole, Workspace } from '../workspace/workspace';
import { rulingsAgainInOpenPool, rulingsBack, rulingsBackNote, votedBeforeJudging, votedBeforeJudgingNote, type RulingsBack } from './made-judge-notes';
import { rulingsIn } from './ruling-counts';
import { count, inPools, labeledOpen, NO_THIRD_JUDGE, type PoolCount } from './role-note-words';

/** An open pool's labels of a person; `rulings`: how many of them are a judge's rulings there (rulingsIn). */
type OpenPoolCount = PoolCount & { rulings: number };

/** The labels `name` has now in each open pool, and, for a judge, how many are rulings: read before the role changes, for roleChangeNotes. */
function openPoolLabels(ws: Workspace, name: string, judge: boolean): OpenPoolCount[] {
  const out: OpenPoolCount[] = [];
  for (const p of ws.listPools()) {
    if (getAssignment(ws, p.name).mode !== 'open') continue;
    const labels = ws.currentLabels(p.name, name).length;
    if (labels > 0) out.push({ pool: p.name, labels, rulings: judge ? rulingsIn(ws, p.name, name) : 0 });
  }
  return out;
}

/**
 * The rulings judge `name` has now in each pool assigned to others (read before the role changes):
 * decisive labels given while judging it (judge-spans.ts) or imported, which stop counting when
 * they are no longer a judge — not assigned to the pool, their labels there are no votes either.
 */
function assignedPoolRulings(ws: Workspace, name: string): PoolCount[] {
  const out: PoolCount[] = [];
  for (const p of ws.listPools()) {
    const a = getAssignment(ws, p.name);
    if (a.mode === 'open' || a.annotators.includes(name)) continue;
    const labels = rulingsIn(ws, p.name, name);
    if (labels > 0) out.push({ pool: p.name, labels });
  }
  return out;
}

/**
 * A judge made an annotator or owner, in open pool `p` where only some of their labels were rulings
 * (p.rulings < p.labels: the others given while they did not judge it, or `?`): what each part is now.
 */
function someRulingsInOpenPool(name: string, to: AnnotatorRole, p: OpenPoolCount): string[] {
  const rest = p.labels - p.rulings;
  const were = `${p.rulings} of them ${p.rulings === 1 ? 'was a ruling and settles' : 'were rulings and settle'} nothing any more`;
  const others = `the other ${count(rest)} ${rest === 1 ? 'was not a ruling' : 'were not rulings'}`;
  const back = `and the disagreements ${name} settled are back in Review`;
  if (to === 'annotator') {
    const votes = `those labels now count as ${name}'s votes (in agreement, given seeing everyone's labels, and in the gold)`;
    return [p.rulings === 0 ? `${labeledOpen(name, [p])}; ${votes}: none of them was a ruling.` : `${labeledOpen(name, [p])}; ${votes}: ${were}, ${back}; ${others}.`];
  }
  // An owner's labels there neither vote nor rule: the labels that were not rulings counted for nothing and still do.
  return p.rulings === 0 ? [] : [`${labeledOpen(name, [p])}; ${were} (an owner's labels there neither vote nor rule), ${back}; ${others} and ${rest === 1 ? 'counts' : 'count'} for nothing still.`];
}

/** A judge made an annotator or owner, in open pools where every label of theirs was a ruling. */
function judgeNotes(name: string, to: AnnotatorRole, pools: readonly PoolCount[]): string[] {
  const where = labeledOpen(name, pools);
  const back = `and the disagreements ${name} settled are back in Review.`;
  if (to === 'annotator') {
    return [`${where}; those labels were rulings and now count as ${name}'s votes (in agreement, given seeing everyone's labels, and in the gold): they settle nothing any more, ${back}`];
  }
  return [`${where}; those labels were rulings and settle nothing any more (an owner's labels there neither vote nor rule), ${back}`];
}

/**
 * The notes for `name`'s role going `from` → `to`, given their labels in open pools before (openPoolLabels)
 * and, made a judge, the labels given as a judge before that are rulings again, per pool (rulingsBack).
 */
function roleChangeNotes(name: string, from: AnnotatorRole | null, to: AnnotatorRole, before: readonly OpenPoolCount[], again: ReadonlyMap<string, RulingsBack>): string[] {
  if (before.length === 0 || from === null || from === to) return [];
  if (from === 'judge') {
    // The pools where only some of a judge's labels were rulings get a note each (someRulingsInOpenPool).
    const onlyRulings = before.filter((p) => p.rulings === p.labels);
    const some = before.filter((p) => p.rulings < p.labels).flatMap((p) => someRulingsInOpenPool(name, to, p));
    return [...(onlyRulings.length ? judgeNotes(name, to, onlyRulings) : []), ...some];
  }
  const one = before.length === 1;
  const where = labeledOpen(name, before);
  if (from === 'annotator' && to === 'judge') {
    const votesOnly = before.filter((p) => !again.get(p.pool));
    const notes = votesOnly.length
      ? [
          `${labeledOpen(name, votesOnly)}; as a judge ${name} no longer votes there: those labels stop counting in ${votesOnly.length === 1 ? 'its' : 'their'} agreement and gold, ` +
            `and they are not rulings either ${NO_THIRD_JUDGE}`,
        ]
      : [];
    for (const p of before) if (again.get(p.pool)) notes.push(rulingsAgainInOpenPool(name, p, again.get(p.pool)!));
    return notes;
  }
  if (from === 'annotator') return [`${where}; as an owner ${name} no longer votes there: those labels stop counting in ${one ? 'its' : 'their'} agreement and gold.`];
  if (to === 'annotator') return [`${where}; those labels, given as an owner seeing everyone's labels, now count as ${name}'s votes there (in agreement and in the gold).`];
  return [];
}

/** A judge made an annotator or owner, with rulings in pools assigned to others (assignedPoolRulings): those rulings count for nothing now. */
function assignedRulingsNote(name: string, to: AnnotatorRole, rulings: readonly PoolCount[]): string[] {
  if (rulings.length === 0) return [];
  const one = rulings.length === 1;
  return [
    `${name} ruled in ${one ? 'pool' : 'pools'} assigned to others: ${inPools(rulings, 'ruling')}; as ${to === 'owner' ? 'an owner' : 'an annotator'} ${name} judges ${one ? 'it' : 'them'} no more ` +
      `and is not assigned to label ${one ? 'it' : 'them'}: those rulings settle nothing any more and are not votes either (they count again if ${name} is made a judge again), ` +
      `and the disagreements ${name} settled are back in Review.`,
  ];
}

/**
 * Sets `name`'s role (setAnnotatorRole; `signsIn` as there) and says what that does to the labels they gave
 * (roleChangeNotes, assignedRulingsNote; made a judge, made-judge-notes.ts): annotator.setRole and `qpairs annotators role`.
 */
export function setRoleWithNotes(ws: Workspace, name: string, role: AnnotatorRole, opts: { signsIn?: boolean } = {}): { role: AnnotatorRole; notes: string[] } {
  const person = ws.personName(name);
  const from = annotatorRole(ws, person);
  const before = openPoolLabels(ws, person, from === 'judge');
  const rulings = from === 'judge' && role !== 'judge' ? assignedPoolRulings(ws, person) : [];
  const to = setAnnotatorRole(ws, name, role, opts);
  const madeJudge = from !== null && from !== 'judge' && to === 'judge';
  const back = madeJudge ? rulingsBack(ws, person) : new Map<string, RulingsBack>();
  const notes = roleChangeNotes(person, from, to, before, back);
  // The open pools roleChangeNotes spoke of to an annotator made a judge, rulings again included (made-judge-notes.ts leaves them out).
  const said = new Set(from === 'annotator' ? before.map((p) => p.pool) : []);
  return {
    role: to,
    notes: [
      ...notes,
      ...(from === 'judge' && to !== 'judge' ? assignedRulingsNote(person, to, rulings) : []),
      ...(madeJudge ? votedBeforeJudgingNote(person, votedBeforeJudging(ws, person, said)) : []),
      ...rulingsBackNote(person, back, said),
    ],
  };
}
