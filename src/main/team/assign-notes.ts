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
 *   Review, gold and eval figures changed with no word); so is one still listed whose labeled
 *   queries K per query gives to others;
 * - a judge (or owner) newly assigned who labeled the pool before — a judge's labels there were
 *   rulings — is said so: those labels vote from now on and settle nothing (the pairs they settled
 *   went back to Review in silence).
 */
import { getAssignment, type AssignmentPlan } from '../gold/store';
import { labelingPeople, newPersonNote } from './new-person';
import { labelsAsJudge, rulingsIn } from './ruling-counts';
import type { Workspace } from '../workspace/workspace';

/** The labels that vote in a pool, by annotator and query: read before an assignment, for assignmentNotes. */
export interface PoolVoters {
  pool: string;
  /** annotator → query → current labels there ("?" included). */
  labels: Map<string, Map<string, number>>;
}

/**
 * The labels that vote in `pool` now — those of its assigned annotators on the queries assigned to
 * them, else of every annotator who labeled it, as the pool's label state takes them.
 */
export function poolVoters(ws: Workspace, pool: string): PoolVoters {
  const plan = getAssignment(ws, pool);
  const roles = new Map(ws.listAnnotators().map((x) => [x.name, x.role]));
  const labels = new Map<string, Map<string, number>>();
  for (const l of ws.currentLabels(pool)) {
    if (!votes(plan, roles, l.annotator, l.queryId)) continue;
    const m = labels.get(l.annotator) ?? new Map<string, number>();
    m.set(l.queryId, (m.get(l.queryId) ?? 0) + 1);
    labels.set(l.annotator, m);
  }
  return { pool, labels };
}

function votes(plan: AssignmentPlan, roles: ReadonlyMap<string, string>, annotator: string, queryId: string): boolean {
  if (plan.mode === 'open') return roles.get(annotator) === 'annotator';
  if (plan.perQueryAnnotators) return plan.perQueryAnnotators.get(queryId)?.includes(annotator) ?? false;
  return plan.annotators.includes(annotator);
}

/**
 * The notes for assigning `names`; `known` are the people of the workspace before the assignment,
 * `votersBefore` the labels that voted in the pool then (poolVoters).
 */
export function assignmentNotes(ws: Workspace, names: readonly string[], known: ReadonlySet<string>, votersBefore: PoolVoters): string[] {
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
  const count = (m: ReadonlyMap<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
  const left = [...votersBefore.labels].filter(([n]) => !assigned.has(n)).map(([n, m]) => [n, count(m)] as const);
  // Still listed, but K per query gives some of their labeled queries to others: those labels stop voting too.
  const plan = getAssignment(ws, votersBefore.pool);
  const moved = [...votersBefore.labels]
    .filter(([n]) => assigned.has(n))
    .map(([n, m]) => [n, count(new Map([...m].filter(([q]) => !votes(plan, roles, n, q))))] as const)
    .filter(([, c]) => c > 0);
  // A judge (or owner) newly labeling the pool: the labels they gave it before — a judge's rulings — are their votes from now on.
  const rulings = trimmed
    .filter((n) => (roles.get(n) === 'judge' || roles.get(n) === 'owner') && !votersBefore.labels.has(n))
    .map((n) => [n, ws.currentLabels(votersBefore.pool, n).length] as const)
    .filter(([, c]) => c > 0);
  // A judge left out judges the pool from now on: their votes there are not rulings either (gold/judge-spans.ts), but the
  // labels they gave as a judge before they were assigned (or imported) are rulings again — said apart, per judge.
  const judgesLeft = left.filter(([n]) => roles.get(n) === 'judge').map(([n]) => [n, rulingsIn(ws, votersBefore.pool, n)] as const);
  const votesOnly = judgesLeft.filter(([, r]) => r === 0).map(([n]) => n);
  const judgesLeftNote = [
    ...(votesOnly.length
      ? [
          `${votesOnly.join(', ')} ${votesOnly.length === 1 ? 'is a judge and judges' : 'are judges and judge'} this pool from now on: ${votesOnly.length === 1 ? 'those votes are' : 'their votes are'} not rulings either, ` +
            `and who voted on a pair may not rule on it (another judge settles it).`,
        ]
      : []),
    ...judgesLeft.filter(([, r]) => r > 0).map(([n, r]) => rulingsAgainNote(ws, votersBefore.pool, n, r)),
  ];
  return [
    ...addedNotes,
    ...roleNotes,
    ...(rulings.length ? [rulingsNote(rulings, roles, (n) => rulingsIn(ws, votersBefore.pool, n))] : []),
    ...(left.length ? [leftOutNote(left)] : []),
    ...judgesLeftNote,
    ...(moved.length ? [movedNote(moved)] : []),
  ];
}

/**
 * A judge left out of the pool who ruled on it before being assigned (or whose labels there are imported):
 * those `rulings` are rulings again, and only the others (given as its annotator) are not.
 */
function rulingsAgainNote(ws: Workspace, pool: string, judge: string, rulings: number): string {
  // A "?" given as a judge is no ruling and no vote either; a vote cleared since still bars her ruling on its pair (ruling-counts.ts).
  const { unsure, votes, clearedVotes } = labelsAsJudge(ws, pool, judge);
  const labels = (n: number): string => (n === 1 ? '1 label' : `${n} labels`);
  const again = `${labels(rulings)} ${judge} gave here as a judge before being assigned, or imported, ${rulings === 1 ? 'is a ruling' : 'are rulings'} again`;
  const q = unsure ? `; ${unsure === 1 ? 'a "?"' : `${unsure} "?"`} given as a judge ${unsure === 1 ? 'settles' : 'settle'} nothing (a "?" is no ruling)` : '';
  const others = votes ? `; the other ${labels(votes)} ${votes === 1 ? 'is not a ruling' : 'are not rulings'}` : '';
  const barred = votes ? ', and who voted on a pair may not rule on it (another judge settles it)' : '';
  const pairs = clearedVotes === 1 ? 'the 1 pair' : `the ${clearedVotes} pairs`;
  const cleared = clearedVotes ? `; ${judge} may not rule either on ${pairs} ${judge} labeled as its annotator and cleared since (a vote cleared still counts as having voted)` : '';
  return `${judge} is a judge and judges this pool from now on: ${again}${q}${others}${barred}${cleared}.`;
}

/**
 * `judy (3 labels) labeled this pool before being assigned to it …` — what becomes of a judge's (or owner's) labels once
 * they label the pool: votes from now on. A judge's rulings among them (`rulingsOf`: given while judging, or imported)
 * no longer settle pairs; when some are not rulings (votes given between spans of judging, set aside already), the
 * note counts the rulings per judge instead of calling every label one.
 */
function rulingsNote(people: ReadonlyArray<readonly [string, number]>, roles: ReadonlyMap<string, string>, rulingsOf: (name: string) => number): string {
  const one = people.length === 1;
  const judges = people.filter(([n]) => roles.get(n) === 'judge').map(([n, c]) => [n, c, rulingsOf(n)] as const);
  const allRulings = judges.every(([, c, r]) => r === c);
  const ruled = judges.some(([, , r]) => r > 0) || judges.length < people.length;
  const who = allRulings
    ? `${namesWithCounts(people)} labeled this pool before ${one ? 'being' : 'they were'} assigned to it${judges.length ? ' (a judge: rulings)' : ''}`
    : `${joinNames(
        people.map(([n, c]) => {
          const r = judges.find(([jn]) => jn === n)?.[2];
          const of = r === undefined ? '' : c === 1 ? (r === 1 ? ', a ruling' : ', not a ruling') : `, ${r === 0 ? 'none' : r === c ? 'all' : r} of them ${r === 1 ? 'a ruling' : 'rulings'}`;
          return `${n} (${c === 1 ? '1 label' : `${c} labels`}${of})`;
        }),
      )} labeled this pool before ${one ? 'being' : 'they were'} assigned to it`;
  return (
    `${who}: ${one ? 'those labels' : 'their labels'} now count as votes — in its agreement (given seeing everyone's labels) and gold` +
    (ruled
      ? ` — and no longer settle ${one ? 'any pair' : 'pairs'}; the disagreements ${one ? people[0]![0] : 'they'} settled are back in Review for the pool's other judges.`
      : ` — where they were votes set aside, given between spans of judging it.`)
  );
}

/** `alice (10 labels) and bob (10 labels) labeled queries this assignment gives to others: …`. */
function movedNote(moved: ReadonlyArray<readonly [string, number]>): string {
  return (
    `${namesWithCounts(moved)} labeled queries this assignment gives to others: those labels stay but no longer count as votes ` +
    `in its agreement, Review and gold (@aggregate), nor in eval; full overlap (no per-query count) keeps every label counting.`
  );
}

function namesWithCounts(people: ReadonlyArray<readonly [string, number]>): string {
  return joinNames(people.map(([n, c]) => `${n} (${c} label${c === 1 ? '' : 's'})`));
}

/** `a`, `a and b`, `a, b and c`. */
function joinNames(who: readonly string[]): string {
  return who.length === 1 ? who[0]! : `${who.slice(0, -1).join(', ')} and ${who[who.length - 1]!}`;
}

/** `bob (20 labels) is no longer one of the pool's annotators: …`. */
function leftOutNote(left: ReadonlyArray<readonly [string, number]>): string {
  const list = namesWithCounts(left);
  const one = left.length === 1;
  return (
    `${list} ${one ? 'is' : 'are'} no longer one of this pool's annotators (an assignment replaces the earlier one): ` +
    `${one ? 'those labels stay' : 'their labels stay'} but no longer count as votes in its agreement, Review and gold (@aggregate), nor in eval; ` +
    `to keep them counting, assign again with ${one ? left[0]![0] : 'them'} in the list.`
  );
}
