/**
 * The notes for a person made a judge (from annotator or owner) about the pools they judge now, read
 * after the change (role-notes.ts setRoleWithNotes): the labels they gave there as a judge in an
 * earlier span of judging, which are rulings again, and those they gave while not judging it, on whose
 * pairs they may not rule (gold/judge-voted.ts).
 */
import { getAssignment } from '../gold/store';
import { givenWhileJudging, judgeSpans } from '../gold/judge-spans';
import { UNSURE } from '../../shared/labels';
import type { Workspace } from '../workspace/workspace';
import { count, inPools, labeledOpen, NO_THIRD_JUDGE, type PoolCount } from './role-note-words';

/**
 * An annotator made a judge, in open pool `p` where `again` of their labels were given as a judge in an
 * earlier span (rulingsBack): one statement of what each part of their labels there is now.
 */
export function rulingsAgainInOpenPool(name: string, p: PoolCount, again: number): string {
  const head = `${labeledOpen(name, [p])}; as a judge ${name} no longer votes there: `;
  const rest = p.labels - again;
  if (rest === 0) return `${head}${p.labels === 1 ? 'that label' : 'those labels'}, given as a judge before, ${again === 1 ? 'is a ruling' : 'are rulings'} again.`;
  return (
    `${head}${again} of them, given as a judge before, ${again === 1 ? 'is a ruling' : 'are rulings'} again; the other ${count(rest)} ` +
    `${rest === 1 ? 'stops' : 'stop'} counting in its agreement and gold, and ${rest === 1 ? 'is not a ruling' : 'are not rulings'} either ${NO_THIRD_JUDGE}`
  );
}

/**
 * Made a judge again: the labels `name` gave as a judge in an earlier span of judging each pool they
 * judge now (judge-spans.ts), which are rulings again, per pool (read after the change). Imported
 * labels are left out (they are rulings in any role).
 */
export function rulingsBack(ws: Workspace, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of ws.listPools()) {
    if (getAssignment(ws, p.name).annotators.includes(name)) continue;
    // Every label they have there is from before now: those given in a span of judging (the span just
    // begun, or one that goes on when they gave none since) are rulings.
    const spans = judgeSpans(ws, p.name).get(name);
    if (!spans?.length) continue;
    const labels = ws.currentLabels(p.name, name).filter((l) => l.value !== UNSURE && !l.origin.startsWith('import:') && givenWhileJudging(spans, ws.labelGivenAt(l).seq)).length;
    if (labels > 0) out.set(p.name, labels);
  }
  return out;
}

/**
 * Made a judge: the labels `name` gave while not judging each pool they judge now, other than the open
 * pools roleChangeNotes speaks of (`said`), per pool (read after the change): an annotator's in pools
 * assigned to others, an owner's anywhere. They counted for nothing and still do, but `name` may not rule
 * on their pairs (gold/judge-voted.ts), which nothing said. Imported labels are rulings, left out.
 */
export function votedBeforeJudging(ws: Workspace, name: string, said: ReadonlySet<string>): PoolCount[] {
  const out: PoolCount[] = [];
  for (const p of ws.listPools()) {
    if (said.has(p.name) || getAssignment(ws, p.name).annotators.includes(name)) continue;
    const spans = judgeSpans(ws, p.name).get(name);
    if (!spans?.length) continue;
    const labels = ws.currentLabels(p.name, name).filter((l) => !l.origin.startsWith('import:') && !givenWhileJudging(spans, ws.labelGivenAt(l).seq)).length;
    if (labels > 0) out.push({ pool: p.name, labels });
  }
  return out;
}

export function votedBeforeJudgingNote(name: string, pools: readonly PoolCount[]): string[] {
  if (pools.length === 0) return [];
  const one = pools.length === 1;
  return [
    `${name} labeled ${one ? 'pool' : 'pools'} before judging ${one ? 'it' : 'them'}: ${inPools(pools)}; those labels count for nothing there, as before, and are not rulings either: ` +
      `${name} may not rule on their pairs (who voted on a pair is no third judge of it): another judge settles those in dispute.`,
  ];
}

/** The rulings back (rulingsBack) in pools no note of roleChangeNotes named (`said`). */
export function rulingsBackNote(name: string, back: ReadonlyMap<string, number>, said: ReadonlySet<string>): string[] {
  const left = [...back].filter(([pool]) => !said.has(pool));
  if (left.length === 0) return [];
  const n = left.reduce((a, [, labels]) => a + labels, 0);
  const where = left.length === 1 ? left[0]![0] : left.map(([pool, labels]) => `${pool}: ${labels}`).join(', ');
  return [`${n} ${n === 1 ? 'label' : 'labels'} ${name} gave there as a judge before (in ${where}) ${n === 1 ? 'is a ruling' : 'are rulings'} again.`];
}
