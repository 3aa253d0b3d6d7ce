/**
 * The label state of a pool with several annotators: who annotates it (assignment), who judges,
 * each pair's votes and judge label, and the aggregate under the pool's rule (rules.ts).
 *
 * - The pool's annotators: those it was assigned to (`qpairs assign`), else every annotator of
 *   role `annotator` with a current label in the pool (in order of their first label).
 * - Judges: annotators of role `judge` who are not annotators of this pool.
 * - A pair's votes: current labels of the annotators assigned to its query, decisive ones in
 *   `votes` and "?" (unsure) ones in `unsure` (a vote for no value: see rules.ts); labels of
 *   other annotators do not vote. A pair *needs review* when its decisive votes disagree or
 *   anyone assigned said "?"; the Review queue lists these. The judge label of a pair is the latest current
 *   label any judge gave it ("?" ignored). A judge labels a pair only while it is in dispute, and
 *   never "?" (review.ts checkRuling, for every interactive label); imports may bring back rulings
 *   on any pair.
 * - A ruling rules on the dispute its judge saw: a judge label given before the latest current
 *   label of the pair's assigned annotators (for an imported ruling: the latest not imported; a label an undo
 *   brought back counts as given when the event it restores was) is an *outdated ruling*
 *   (`PairEntry.outdatedRuling`), not the pair's judge label — an annotator changed or added a
 *   vote since, or the label was given before the pair was in dispute at all (judges could, before
 *   checkRuling). The pair is back in the Review queue until a judge rules again (the same value
 *   too: setLabel then appends the event again).
 * - A judge's label given here while they did not judge the pool (judge-spans.ts: before a judge left
 *   out of the pool's assignment, or a person made a judge, after labeling it, or between two spans of
 *   judging it) was a vote or an owner's label, never a ruling: it does not settle the pair (`PairEntry.judgeEarlierVote`), and
 *   checkRuling refuses that judge a ruling on the pair — who voted on a pair is no third judge of it.
 * - `gold` and `system` annotators never vote: a pool's imported gold stays its own source.
 */
import { AGGREGATE, type AggregationRule, type AggregationSummary, type PairStatus } from '../../shared/gold';
import { labelGrade, UNSURE, type LabelScheme } from '../../shared/labels';
import type { PoolInfo, PoolQuery } from '../../shared/types';
import { pairKey, pairOfKey } from '../../shared/ids';
import { NotFoundError } from '../errors';
import type { Workspace } from '../workspace/workspace';
import { resolvePair, type Resolution } from './rules';
import { getAggregation, getAssignment, type AssignmentPlan } from './store';
import { givenWhileJudging, judgeSpans, type JudgeSpan } from './judge-spans';

const isImported = (origin: string): boolean => origin.startsWith('import:');

/** The pair's key in byKey (one function for every map of pairs, imports' run comparison included). */
export { pairKey };

export interface Vote {
  annotator: string;
  value: string;
  seq: number;
}

export interface PairEntry {
  queryId: string;
  candidateId: string;
  queryIndex: number;
  candidateIndex: number;
  /** Annotators assigned to the pair's query. */
  assignees: readonly string[];
  /** Assigned annotators' current decisive labels ("?" left out), in the pool's annotator order. */
  votes: Vote[];
  /** Assigned annotators' current "?" (unsure) labels, in the pool's annotator order. */
  unsure: Vote[];
  /** Every assigned annotator has voted ("?" included). */
  complete: boolean;
  /** Latest current judge label ("?" ignored) given after every current vote or imported, or null. */
  judge: Vote | null;
  /** The latest judge label when it predates an assigned annotator's current label (not counted; see the module comment). */
  outdatedRuling?: Vote;
  /** The latest label of a judge given before they judged the pool (a vote, not a ruling; see the module comment). */
  judgeEarlierVote?: Vote;
  resolution: Resolution;
}

export interface PoolState {
  pool: PoolInfo;
  scheme: LabelScheme;
  rule: AggregationRule;
  threshold: number;
  plan: AssignmentPlan;
  annotators: string[];
  judges: string[];
  queries: PoolQuery[];
  /** Every pair of the pool, in pool order. */
  pairs: PairEntry[];
  byKey: Map<string, PairEntry>;
  /** Current labels (including "?") by annotator, then pair key. */
  labels: Map<string, Map<string, { value: string; seq: number; origin: string }>>;
  /** Per person with a span of judging the pool recorded: their spans (judge-spans.ts); a judge without one judged it from the start. */
  judgeSpans: Map<string, JudgeSpan[]>;
}

/**
 * Loads a pool's label state and computes the aggregate (one pass over the current labels).
 * `queries`: the pairs of these queries only (queryIndex is then the position in this list), or the
 * pool's queries as already read — the annotators, judges and rule still come from the whole pool,
 * so each pair's entry is what the whole pool's state has for it. Live metrics re-aggregate only
 * the queries a label touched (engine/live-metrics.ts): the whole 60,000-pair pool took ~300 ms.
 */
export function loadPoolState(ws: Workspace, poolName: string, opts: { rule?: AggregationRule; threshold?: number; queries?: readonly PoolQuery[] } = {}): PoolState {
  const pool = ws.pool(poolName);
  const agg = getAggregation(ws, poolName);
  const rule = opts.rule ?? agg.rule;
  const threshold = opts.threshold ?? agg.threshold;
  const plan = getAssignment(ws, poolName);
  const roles = new Map(ws.listAnnotators().map((a) => [a.name, a.role]));
  const labels = new Map<string, Map<string, { value: string; seq: number; origin: string }>>();
  const firstSeq = new Map<string, number>();
  // Row by row, each label's value and origin one shared string: a 400,000-pair pool's labels are
  // not all rows at once, nor 800,000 copies of "1" and "app".
  const shared = stringInterner();
  ws.currentLabels(poolName, undefined, (l) => {
    let m = labels.get(l.annotator);
    if (!m) labels.set(l.annotator, (m = new Map()));
    m.set(pairKey(l.queryId, l.candidateId), { value: shared(l.value), seq: l.seq, origin: shared(l.origin) });
    if (!firstSeq.has(l.annotator)) firstSeq.set(l.annotator, l.seq);
  });
  const { annotators, judges } = poolPeople(plan, roles, labels, (a) => firstSeq.get(a)!);
  const queries = opts.queries ? [...opts.queries] : ws.poolQueries(poolName);
  const s: PoolState = { pool, scheme: pool.scheme, rule, threshold, plan, annotators, judges, queries, pairs: [], byKey: new Map(), labels, judgeSpans: judgeSpans(ws, poolName) };
  queries.forEach((q, qi) => {
    q.candidates.forEach((c, ci) => {
      const key = pairKey(q.queryId, c);
      const e = pairEntry(ws, s, qi, ci, key);
      s.pairs.push(e);
      s.byKey.set(key, e);
    });
  });
  return s;
}

/**
 * A pool's annotators (its assigned ones, else every annotator with a current label in the order
 * of their first one: `firstSeq`) and its judges (role judge, not among them).
 */
export function poolPeople(
  plan: AssignmentPlan,
  roles: ReadonlyMap<string, string>,
  labels: PoolState['labels'],
  firstSeq: (annotator: string) => number,
): { annotators: string[]; judges: string[] } {
  const annotators =
    plan.mode === 'open'
      ? [...labels.keys()].filter((a) => roles.get(a) === 'annotator').sort((x, y) => firstSeq(x) - firstSeq(y))
      : [...plan.annotators];
  const inPool = new Set(annotators);
  const judges = [...roles].filter(([n, r]) => r === 'judge' && !inPool.has(n)).map(([n]) => n);
  return { annotators, judges };
}

/**
 * The entry of the pool's pair (query `qi`, candidate `ci`) from the state's current labels,
 * annotators, judges, plan and rule: what loadPoolState gives it. It reads only that pair's labels
 * (and, for a label an undo brought back, that pair's events: labelGivenAt).
 */
export function pairEntry(ws: Workspace, s: Omit<PoolState, 'pairs' | 'byKey'>, qi: number, ci: number, key = pairKey(s.queries[qi]!.queryId, s.queries[qi]!.candidates[ci]!)): PairEntry {
  const q = s.queries[qi]!;
  const c = q.candidates[ci]!;
  const { plan, annotators, judges, labels, rule, threshold, judgeSpans: spans } = s;
  const assignees = plan.perQueryAnnotators ? (plan.perQueryAnnotators.get(q.queryId) ?? NO_ONE) : annotators;
  let votes: Vote[] = NO_VOTES;
  let unsure: Vote[] = NO_VOTES;
  let latestVote = 0;
  let latestVoteNotImported = 0;
  for (const a of assignees) {
    const l = labels.get(a)?.get(key);
    if (!l) continue;
    const vote = { annotator: a, value: l.value, seq: l.seq };
    if (l.value !== UNSURE) votes = votes === NO_VOTES ? [vote] : [...votes, vote];
    else unsure = unsure === NO_VOTES ? [vote] : [...unsure, vote];
    // A label an undo brought back was given when the event it restores was.
    const at = ws.labelGivenAt(l);
    latestVote = Math.max(latestVote, at.seq);
    if (!isImported(at.origin)) latestVoteNotImported = Math.max(latestVoteNotImported, at.seq);
  }
  let judge: Vote | null = null;
  let judgeLabel: { seq: number; origin: string } | null = null;
  let judgeEarlierVote: Vote | undefined;
  for (const j of judges) {
    const l = labels.get(j)?.get(key);
    if (!l || l.value === UNSURE) continue;
    if (givenWhileNotJudging(ws, spans, j, l)) {
      if (!judgeEarlierVote || l.seq > judgeEarlierVote.seq) judgeEarlierVote = { annotator: j, value: l.value, seq: l.seq };
      continue;
    }
    if (!judge || l.seq > judge.seq) {
      judge = { annotator: j, value: l.value, seq: l.seq };
      judgeLabel = l;
    }
  }
  // An imported ruling came with its votes (their order in the files says nothing); a vote given here after it outdates it.
  const ruled = judgeLabel ? ws.labelGivenAt(judgeLabel) : null;
  let outdatedRuling: Vote | undefined;
  if (judge && ruled && ruled.seq < (isImported(ruled.origin) ? latestVoteNotImported : latestVote)) {
    outdatedRuling = judge;
    judge = null;
  }
  const complete = assignees.length > 0 && votes.length + unsure.length === assignees.length;
  const resolution = sharedResolution(
    resolvePair(
      votes.map((v) => v.value),
      judge?.value ?? null,
      { rule, scheme: s.scheme, threshold, complete, unsure: unsure.length },
    ),
  );
  // One shape for every entry (the optional fields added after): spread-in fields made each a larger object.
  const e: PairEntry = { queryId: q.queryId, candidateId: c, queryIndex: qi, candidateIndex: ci, assignees, votes, unsure, complete, judge, resolution };
  if (outdatedRuling) e.outdatedRuling = outdatedRuling;
  if (judgeEarlierVote) e.judgeEarlierVote = judgeEarlierVote;
  return e;
}

// A big pool's entries share what is the same in many: no votes (frozen: never pushed to), no assignees, resolutions.
const NO_VOTES = Object.freeze([]) as unknown as Vote[];
const NO_ONE: readonly string[] = Object.freeze([]);
const resolutions = new Map<string, Resolution>();

/** One frozen object per (status, value) resolution (a `mean` one, with its mean, is its own). */
function sharedResolution(r: Resolution): Resolution {
  if (r.mean !== undefined) return r;
  const k = `${r.status}\u0000${r.value ?? ''}\u0000${r.value === null ? 0 : 1}`;
  let kept = resolutions.get(k);
  if (!kept) resolutions.set(k, (kept = Object.freeze({ value: r.value, status: r.status })));
  return kept;
}

/** A function giving one string per distinct value it is given. */
function stringInterner(): (s: string) => string {
  const seen = new Map<string, string>();
  return (s) => {
    const kept = seen.get(s);
    if (kept !== undefined) return kept;
    seen.set(s, s);
    return s;
  };
}

/**
 * Whether judge `j`'s label `l` was given here while `j` did not judge the pool (a vote as one of its
 * annotators, or an owner's label): never a ruling. An imported label still is one (imports bring
 * back rulings already made), and a label an undo brought back was given when the event it restores was.
 */
function givenWhileNotJudging(ws: Workspace, spans: ReadonlyMap<string, readonly JudgeSpan[]>, j: string, l: { seq: number; origin: string }): boolean {
  const own = spans.get(j);
  if (own === undefined) return false;
  const at = ws.labelGivenAt(l);
  return !isImported(at.origin) && !givenWhileJudging(own, at.seq);
}

/** A pair whose decisive votes hold two or more different values. */
export function isDisagreementEntry(e: PairEntry): boolean {
  return e.votes.some((v) => v.value !== e.votes[0]!.value);
}

/**
 * The rulings on a settled pair that do not count: other judges' current labels on it that differ
 * from the counting one (the latest ruling counts; an earlier one another judge gave stays theirs),
 * leaving out labels given before their judge judged the pool (not rulings).
 */
export function overruledRulings(ws: Workspace, s: Pick<PoolState, 'judges' | 'labels' | 'judgeSpans'>, e: PairEntry): Vote[] {
  if (!e.judge) return [];
  const key = pairKey(e.queryId, e.candidateId);
  const out: Vote[] = [];
  for (const j of s.judges) {
    if (j === e.judge.annotator) continue;
    const l = s.labels.get(j)?.get(key);
    if (!l || l.value === UNSURE || l.value === e.judge.value || givenWhileNotJudging(ws, s.judgeSpans, j, l)) continue;
    out.push({ annotator: j, value: l.value, seq: l.seq });
  }
  return out;
}

/** A pair for the Review queue: its decisive votes disagree, or an assigned annotator said "?". */
export function needsReview(e: PairEntry): boolean {
  return e.unsure.length > 0 || isDisagreementEntry(e);
}

export function aggregationSummary(s: PoolState): AggregationSummary {
  const byStatus: Record<PairStatus, number> = { unlabeled: 0, agreed: 0, majority: 0, mean: 0, adjudicated: 0, unresolved: 0 };
  const distribution: Record<string, number> = {};
  let disagreements = 0;
  let settled = 0;
  let unsure = 0;
  let unsureSettled = 0;
  let unsureUnresolved = 0;
  for (const e of s.pairs) {
    byStatus[e.resolution.status]++;
    if (e.resolution.value !== null) distribution[e.resolution.value] = (distribution[e.resolution.value] ?? 0) + 1;
    if (isDisagreementEntry(e)) {
      disagreements++;
      if (e.judge) settled++;
    }
    if (e.unsure.length > 0) {
      unsure++;
      if (e.judge) unsureSettled++;
      if (e.resolution.value === null) unsureUnresolved++;
    }
  }
  const resolved = s.pairs.filter((e) => e.resolution.value !== null).length;
  return {
    pool: s.pool.name,
    scheme: s.scheme,
    rule: s.rule,
    threshold: s.threshold,
    annotators: s.annotators,
    judges: s.judges,
    pairs: s.pairs.length,
    labeled: s.pairs.length - byStatus.unlabeled,
    resolved,
    unresolved: byStatus.unresolved,
    disagreements,
    settled,
    unsure: { pairs: unsure, settled: unsureSettled, unresolved: unsureUnresolved },
    byStatus,
    distribution,
    goldLabels: s.labels.get('gold')?.size ?? 0,
  };
}

// ------------------------------------------------------------------ label sources

/** A pool's labels from one source (an annotator, or the aggregate). */
export interface SourceLabels {
  /** The source's name (an annotator name or "@aggregate"). */
  source: string;
  /** queryId → candidateId → value; only pairs with a value ("?" kept as given by an annotator). */
  values: Map<string, Map<string, string>>;
  /** queryId → latest label event behind this query's values (ordering "first n labeled queries"). */
  lastSeq: Map<string, number>;
}

/**
 * The labels of a source: an annotator's current labels, or with `@aggregate` the aggregate's
 * resolved values (unresolved and unlabeled pairs are absent, i.e. unjudged).
 */
export function sourceLabels(ws: Workspace, pool: string, source: string, state?: PoolState): SourceLabels {
  if (source === AGGREGATE) return sourceLabelsIn(state ?? loadPoolState(ws, pool), source);
  checkSource(source);
  const out = emptySource(source);
  const shared = stringInterner();
  ws.currentLabels(pool, source, (l) => putLabel(out, l.queryId, l.candidateId, shared(l.value), l.seq));
  return out;
}

/**
 * sourceLabels from a pool's state as already read (loadPoolState, or a KeptPoolState's): the
 * aggregate's resolved values, or an annotator's current labels from state.labels — the pool's
 * labels are not read again.
 */
export function sourceLabelsIn(state: Pick<PoolState, 'labels' | 'pairs'>, source: string): SourceLabels {
  checkSource(source);
  const out = emptySource(source);
  if (source === AGGREGATE) {
    for (const e of state.pairs) {
      if (e.resolution.value === null) continue;
      let seq = e.judge?.seq ?? 0;
      for (const v of e.votes) seq = Math.max(seq, v.seq);
      putLabel(out, e.queryId, e.candidateId, e.resolution.value, seq);
    }
  } else {
    // In seq order, as Workspace.currentLabels gives them (the order of each query's values).
    const own = [...(state.labels.get(source) ?? [])].sort((x, y) => x[1].seq - y[1].seq);
    for (const [key, l] of own) {
      const [q, c] = pairOfKey(key);
      putLabel(out, q, c, l.value, l.seq);
    }
  }
  return out;
}

function checkSource(source: string): void {
  if (source !== AGGREGATE && source.startsWith('@')) throw new NotFoundError(`unknown label source "${source}" (use an annotator name or ${AGGREGATE})`);
}

const emptySource = (source: string): SourceLabels => ({ source, values: new Map(), lastSeq: new Map() });

function putLabel(src: SourceLabels, q: string, c: string, v: string, seq: number): void {
  let m = src.values.get(q);
  if (!m) src.values.set(q, (m = new Map()));
  m.set(c, v);
  src.lastSeq.set(q, Math.max(src.lastSeq.get(q) ?? 0, seq));
}

/** Grades of a source's labels ("?" and unknown values → undefined = unjudged). */
export function sourceGrades(src: SourceLabels): Map<string, Map<string, number | undefined>> {
  const out = new Map<string, Map<string, number | undefined>>();
  for (const [q, m] of src.values) {
    const g = new Map<string, number | undefined>();
    for (const [c, v] of m) g.set(c, labelGrade(v) ?? undefined);
    out.set(q, g);
  }
  return out;
}

/**
 * The default label source of a pool for eval and export: `gold` when the pool has current labels
 * by the annotator `gold` (imported gold: AskUbuntu, SemEval, qrels), else the aggregate when some
 * annotator of the pool has labeled, else `gold` (an empty evaluation, as before).
 */
export function defaultLabelSource(ws: Workspace, pool: string): string {
  return defaultLabelSourceOf(ws, pool).source;
}

/** defaultLabelSource, with the pool state it loaded to decide (to aggregate from without loading it again). */
export function defaultLabelSourceOf(ws: Workspace, pool: string, opts: { queries?: readonly PoolQuery[] } = {}): { source: string; state?: PoolState } {
  if (ws.currentLabels(pool, 'gold').length > 0) return { source: 'gold' };
  const state = loadPoolState(ws, pool, opts);
  return { source: defaultLabelSourceIn(state), state };
}

/** defaultLabelSource from a state already loaded (its labels are the whole pool's, whatever its queries). */
export function defaultLabelSourceIn(state: Pick<PoolState, 'labels' | 'annotators'>): string {
  return (state.labels.get('gold')?.size ?? 0) > 0 || state.annotators.length === 0 ? 'gold' : AGGREGATE;
}
