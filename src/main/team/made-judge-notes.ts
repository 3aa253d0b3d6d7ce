/**
 * The notes for a person made a judge (from annotator or owner) about the pools they judge now, read
 * after the change (role-notes.ts setRoleWithNotes): the labels they gave there as a judge in an
 * earlier span of judging, which are rulings again, and those they gave while not judging it, on whose
 * pairs they may not rule (gold/judge-voted.ts).
 */
import { getAssignment } from '../gold/store';
import { judgeSpans } from '../gold/judge-spans';
import type { Workspace } from '../workspace/workspace';
import { count, labeledOpen, NO_THIRD_JUDGE, type PoolCount } from './role-note-words';
import { labelsAsJudge } from './ruling-counts';

/**
 * A person's labels in a pool they judge now that are rulings — given as a judge in an earlier span of judging it
 * (`again`), or imported — and, as the note on an open pool says them apart, the "?" given so (`unsure`: no rulings, no
 * votes set aside either) and the pairs they labeled while not judging it and cleared since (`clearedVotes`: no label
 * now, but no ruling of theirs on those pairs either). See ruling-counts.ts labelsAsJudge.
 */
export interface RulingsBack {
  again: number;
  imported: number;
  unsure: number;
  clearedVotes: number;
}

const isAre = (n: number): string => (n === 1 ? 'is a ruling' : 'are rulings');
const IMPORTED = 'imported (an import brings rulings back)';

/**
 * An annotator made a judge, in open pool `p` where some of their labels are rulings (rulingsBack): one
 * statement of what each part of their labels there is now.
 */
export function rulingsAgainInOpenPool(name: string, p: PoolCount, r: RulingsBack): string {
  const them = (n: number): string => (n === p.labels ? (n === 1 ? 'that label' : 'those labels') : `${n} of them`);
  const parts = [
    ...(r.again ? [`${them(r.again)}, given as a judge before, ${isAre(r.again)} again`] : []),
    ...(r.imported ? [`${them(r.imported)}, ${IMPORTED}, ${isAre(r.imported)}`] : []),
  ];
  if (r.unsure) parts.push(`${them(r.unsure)}, "?" given as a judge before, ${r.unsure === 1 ? 'settles' : 'settle'} nothing (a "?" is no ruling)`);
  const rest = p.labels - r.again - r.imported - r.unsure;
  if (rest > 0) {
    const which = parts.length ? `the other ${count(rest)}` : them(rest);
    parts.push(`${which} ${rest === 1 ? 'stops' : 'stop'} counting in its agreement and gold, and ${rest === 1 ? 'is not a ruling' : 'are not rulings'} either ${NO_THIRD_JUDGE}`);
  }
  const said = parts.join('; ');
  return `${labeledOpen(name, [p])}; as a judge ${name} no longer votes there: ${said}${said.endsWith('.') ? '' : '.'}${clearedVotesSentence(name, r.clearedVotes)}`;
}

/** ` Nor may alice rule on the 2 pairs she labeled there before judging it and cleared since …` (empty for none). */
function clearedVotesSentence(name: string, cleared: number): string {
  if (cleared === 0) return '';
  return ` Nor may ${name} rule on the ${count(cleared, 'pair')} ${name} labeled there before judging it and cleared since: a vote cleared still counts as having voted on the pair.`;
}

/**
 * Made a judge: the labels of `name` that are rulings in each pool they judge now, per pool (read after
 * the change): those given as a judge in an earlier span of judging it (judge-spans.ts), rulings again,
 * and the imported ones, rulings in a judge's hands whenever given (an annotator's import was a vote).
 */
export function rulingsBack(ws: Workspace, name: string): Map<string, RulingsBack> {
  const out = new Map<string, RulingsBack>();
  for (const p of ws.listPools()) {
    if (getAssignment(ws, p.name).annotators.includes(name)) continue;
    // Every label they have there is from before now: those given in a span of judging (the span just
    // begun, or one that goes on when they gave none since) are rulings.
    if (!judgeSpans(ws, p.name).get(name)?.length) continue;
    const { again, imported, unsure, clearedVotes } = labelsAsJudge(ws, p.name, name);
    if (again + imported + unsure + clearedVotes > 0) out.set(p.name, { again, imported, unsure, clearedVotes });
  }
  return out;
}

/**
 * Made a judge: the labels `name` gave while not judging each pool they judge now, other than the open
 * pools roleChangeNotes speaks of (`said`), per pool (read after the change): an annotator's in pools
 * assigned to others, an owner's anywhere. They counted for nothing and still do, but `name` may not rule
 * on their pairs (gold/judge-voted.ts), which nothing said. Imported labels are rulings, left out.
 */
export function votedBeforeJudging(ws: Workspace, name: string, said: ReadonlySet<string>): VotedPool[] {
  const out: VotedPool[] = [];
  for (const p of ws.listPools()) {
    if (said.has(p.name) || getAssignment(ws, p.name).annotators.includes(name)) continue;
    if (!judgeSpans(ws, p.name).get(name)?.length) continue;
    const { votes, clearedVotes } = labelsAsJudge(ws, p.name, name);
    if (votes + clearedVotes > 0) out.push({ pool: p.name, labels: votes, cleared: clearedVotes });
  }
  return out;
}

/** A pool's labels given while not judging it (`labels`, current) and the pairs so labeled whose label was cleared since (`cleared`). */
export type VotedPool = PoolCount & { cleared: number };

export function votedBeforeJudgingNote(name: string, pools: readonly VotedPool[]): string[] {
  if (pools.length === 0) return [];
  const one = pools.length === 1;
  const where = pools.map((p) => `${p.pool} (${[p.labels ? count(p.labels) : '', p.cleared ? `${count(p.cleared, 'pair')} labeled then and cleared since` : ''].filter(Boolean).join(', ')})`).join(', ');
  const cleared = pools.some((p) => p.cleared > 0);
  const labels = pools.some((p) => p.labels > 0);
  const those = labels ? `those labels count for nothing there, as before, and are not rulings either: ${name} may not rule on their pairs` : `${name} may not rule on those pairs`;
  return [
    `${name} labeled ${one ? 'pool' : 'pools'} before judging ${one ? 'it' : 'them'}: ${where}; ${those}` +
      `${cleared && labels ? ', nor on the pairs labeled then and cleared since (a vote cleared still counts as having voted)' : cleared ? ' (a vote cleared still counts as having voted)' : ''}` +
      ` (who voted on a pair is no third judge of it): another judge settles those in dispute.`,
  ];
}

/** The rulings back (rulingsBack) in pools no note of roleChangeNotes named (`said`). */
export function rulingsBackNote(name: string, back: ReadonlyMap<string, RulingsBack>, said: ReadonlySet<string>): string[] {
  const left = [...back].filter(([pool]) => !said.has(pool));
  const note = (n: (r: RulingsBack) => number, say: (labels: string, where: string, total: number) => string): string[] => {
    const some = left.filter(([, r]) => n(r) > 0);
    if (some.length === 0) return [];
    const total = some.reduce((a, [, r]) => a + n(r), 0);
    const where = some.length === 1 ? some[0]![0] : some.map(([pool, r]) => `${pool}: ${n(r)}`).join(', ');
    return [say(`${total} ${total === 1 ? 'label' : 'labels'}`, where, total)];
  };
  return [
    ...note((r) => r.again, (labels, where, n) => `${labels} ${name} gave there as a judge before (in ${where}) ${isAre(n)} again.`),
    ...note((r) => r.imported, (labels, where, n) => `${labels} of ${name}'s in ${where}, ${IMPORTED}, ${isAre(n)} now.`),
  ];
}
