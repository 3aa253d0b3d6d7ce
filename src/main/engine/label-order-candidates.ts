/**
 * The candidate-level labeling order `decide-rankers-mtc` in the engine (src/main/active/
 * candidate-order.ts): the next (query, candidate) pair an annotator is given, and the rankers'
 * standing for Evaluate. No draws are logged: the pair follows from the pool's seed and the labels so
 * far (the evaluation's label source decides which pairs are judged), so replaying a workspace gives
 * the same pairs. Every assigned annotator is given the same pairs (those they have not labeled yet,
 * in their assigned queries), so agreement stays measurable.
 */
import type { LabelOrderCounting, LabelOrderStanding } from '../../shared/label-order';
import { CandidateLedger, choosePair } from '../active/candidate-order';
import { candidateOrderStanding, ledgerOf, openedCount, openOrderOf } from '../active/candidate-standing';
import { readPoolOrder } from '../active/draw-log';
import { KeptPoolState } from '../gold/kept-state';
import { defaultLabelSourceIn, loadPoolState, sourceLabelsIn, type PoolState } from '../gold/state';
import { getAssignment } from '../gold/store';
import { pairOfKey } from '../../shared/ids';
import type { PoolQuery } from '../../shared/types';
import { historyMark, onlyLabelsAppended, type HistoryMark } from '../workspace/label-history';
import { StampedCache } from '../workspace/stamped-cache';
import type { Workspace } from '../workspace/workspace';
import { annotatorCurrent } from './annotator-labels';
import { judgedPairs, judgedPool, rankedPool, type RankedPool } from './label-order-view';
import { runsOnBlindLabels } from './run-visibility';

/** Indices of the pool's queries (`ids`) among `labeled` (the queries of the pool's current labels): anyone has labeled a pair of them (they are open). */
function touchedQueries(ids: readonly string[], labeled: Iterable<string>): Set<number> {
  const index = new Map(ids.map((id, i) => [id, i]));
  const out = new Set<number>();
  for (const q of labeled) {
    const i = index.get(q);
    if (i !== undefined) out.add(i);
  }
  return out;
}

/** The queries of every current label in the pool's label state. */
function* labeledQueriesIn(labels: PoolState['labels']): Iterable<string> {
  for (const m of labels.values()) for (const key of m.keys()) yield pairOfKey(key)[0];
}

/** What nextPairFor reads and computes of the pool, whoever asks: the same for every annotator of it. */
interface PoolPairState {
  view: ReturnType<typeof judgedPool>;
  ids: string[];
  /** Everyone's current labels of the pool (the kept label state's: read-only, and only while this state is). */
  labels: PoolState['labels'];
  ledger: ReturnType<typeof ledgerOf>;
  order: number[];
  opened: number;
}

/** What follows from the pool's queries and shown runs alone: their rankings, and the bounds with nothing judged (CandidateLedger.zeroLabel). */
interface PoolRankings {
  ranked: RankedPool;
  zero: ReturnType<typeof CandidateLedger.zeroLabel>;
}

/** Per workspace, per pool: its PoolRankings as read at `mark` with those runs hidden. */
const keptRankings = new WeakMap<Workspace, Map<string, { mark: HistoryMark; hidden: string; rankings: PoolRankings }>>();

/**
 * The pool's rankings and bounds with nothing judged: they follow from its queries and the runs' scores
 * alone (seconds at 3,000 queries x 20, ~90 ms of it the rankings), so they are kept while only label
 * events were appended since (label-history.ts) and the same runs are hidden; one pool per workspace.
 */
function rankingsOf(ws: Workspace, pool: string, queries: readonly PoolQuery[], mark: HistoryMark | null): PoolRankings {
  const hiddenRuns = runsOnBlindLabels(ws, pool);
  const hidden = JSON.stringify([...hiddenRuns].sort());
  const k = keptRankings.get(ws)?.get(pool);
  if (k && mark !== null && k.hidden === hidden && onlyLabelsAppended(k.mark, mark)) return k.rankings;
  const ranked = rankedPool(ws, pool, { hiddenRuns }, queries);
  const rankings = { ranked, zero: CandidateLedger.zeroLabel(ranked.queries) };
  if (mark !== null) keptRankings.set(ws, new Map([[pool, { mark, hidden, rankings }]]));
  return rankings;
}

/** Per workspace: the label state of the pool last asked for, brought forward label by label (gold/kept-state.ts). */
const keptLabelStates = new WeakMap<Workspace, KeptPoolState>();

/**
 * The pool's label state: read once for the judged pairs (the evaluation's default source, from it) and
 * everyone's labels. Kept and brought forward over new label events (the pairs they touch computed
 * again), anything else read from scratch; inside a transaction, which may yet roll back, read afresh.
 */
function poolLabelState(ws: Workspace, pool: string): PoolState {
  if (ws.db.inTransaction) return loadPoolState(ws, pool);
  let kept = keptLabelStates.get(ws);
  if (!kept) keptLabelStates.set(ws, (kept = new KeptPoolState(ws)));
  return kept.get(pool);
}

/**
 * The oldest current label by someone in `team` other than `annotator` that passes `wanted`, from the
 * pool's label state (by annotator, then pair key): its pair, or null.
 */
function oldestLabelOfOthers(labels: PoolState['labels'], team: ReadonlySet<string>, annotator: string, wanted: (queryId: string, candidateId: string) => boolean): { queryId: string; candidateId: string } | null {
  let best: { seq: number; queryId: string; candidateId: string } | null = null;
  for (const [who, m] of labels) {
    if (who === annotator || !team.has(who)) continue;
    for (const [key, l] of m) {
      if (best && l.seq >= best.seq) continue;
      const [queryId, candidateId] = pairOfKey(key);
      if (wanted(queryId, candidateId)) best = { seq: l.seq, queryId, candidateId };
    }
  }
  return best && { queryId: best.queryId, candidateId: best.candidateId };
}

function readPoolPairState(ws: Workspace, pool: string): PoolPairState {
  const mark = historyMark(ws);
  const state = poolLabelState(ws, pool);
  const { ranked, zero } = rankingsOf(ws, pool, state.queries, mark);
  // The judged pairs by the evaluation's default source (evalLabelSource's rule), from the label state read.
  const judged = judgedPairs(state.queries, sourceLabelsIn(state, defaultLabelSourceIn(state)));
  const view: PoolPairState['view'] = { ...ranked, candidates: state.queries.map((q) => [...q.candidates]), judged };
  const ids = view.queries.map((q) => q.id);
  const labels = state.labels;
  const order = openOrderOf(ids.length, readPoolOrder(ws, pool).seed);
  const ledger = ledgerOf(view.queries, view.judged, zero);
  return { view, ids, labels, ledger, order, opened: openedCount(order, touchedQueries(ids, labeledQueriesIn(labels))) };
}

/**
 * Per workspace: the PoolPairState of the pool last asked for, kept while nothing was committed since
 * (StampedCache). One pool only: ~130 MB of heap at 3,000 queries x 20 candidates x 3 runs (mostly its
 * ledger's bounds and label effects).
 */
const keptPairStates = new WeakMap<Workspace, StampedCache<string, PoolPairState>>();

/**
 * The pool's PoolPairState: the runs' rankings, the labels of the evaluation's source and its ledger
 * (seconds on a 60,000-pair pool) are computed once per change, not for every annotator's view of it.
 * Inside a transaction (which may yet roll back what it read) it is read afresh and not kept.
 */
function poolPairState(ws: Workspace, pool: string): PoolPairState {
  if (ws.db.inTransaction) return readPoolPairState(ws, pool);
  let kept = keptPairStates.get(ws);
  if (!kept) keptPairStates.set(ws, (kept = new StampedCache<string, PoolPairState>(ws, 1)));
  return kept.get(pool, () => readPoolPairState(ws, pool));
}

/**
 * The pair `annotator` should label next, among `queryIds` (their queries) and the pairs they have not
 * labeled; null when none is left. With several assigned annotators, a pair another assigned annotator
 * has labeled comes first (in label order), so each pair gets its k labels as assigned; then the
 * order's own choice, made from the runs annotators are shown (the pair is everyone's; run-visibility.ts).
 */
export function nextPairFor(ws: Workspace, pool: string, annotator: string, queryIds: readonly string[]): { queryId: string; candidateId: string } | null {
  const { view, ids, labels, ledger, order, opened } = poolPairState(ws, pool);
  // Her current labels, kept and brought forward (annotator-labels.ts): queryId -> candidateId -> value.
  const current = annotatorCurrent(ws, pool, annotator);
  const mine = { has: (queryId: string, candidateId: string) => current.get(queryId)?.has(candidateId) ?? false };
  const allowed = new Set(queryIds);
  const team = new Set(getAssignment(ws, pool).annotators);
  if (team.has(annotator)) {
    const first = oldestLabelOfOthers(labels, team, annotator, (q, c) => allowed.has(q) && !mine.has(q, c));
    if (first) return first;
  }
  const eligible = (q: number, c: number) => allowed.has(ids[q]!) && !mine.has(ids[q]!, view.candidates[q]![c]!);
  let { pick } = choosePair(ledger, order, opened, { eligible });
  // Pairs judged by the source but not by this annotator (k annotators per pair): theirs to label too.
  if (!pick) {
    for (const q of order) {
      if (!allowed.has(ids[q]!)) continue;
      const c = view.candidates[q]!.findIndex((cid) => !mine.has(ids[q]!, cid));
      if (c >= 0) return { queryId: ids[q]!, candidateId: view.candidates[q]![c]! };
    }
    return null;
  }
  return { queryId: ids[pick.query]!, candidateId: view.candidates[pick.query]![pick.candidate]! };
}

/**
 * Where the pool's runs stand under decide-rankers-mtc, by the counting's label source, tie rule and
 * threshold. Its AP bounds already cover the missing labels of every opened query, and a query without
 * a relevant candidate counts 0 in them: `partial` and convention skip do not apply (the note says so).
 */
export function candidateStandingOf(ws: Workspace, pool: string, counting: LabelOrderCounting, hiddenRuns?: ReadonlySet<string>): LabelOrderStanding {
  const view = judgedPool(ws, pool, counting.annotator, { ...counting, ...(hiddenRuns ? { hiddenRuns } : {}) });
  return candidateOrderStanding(view, readPoolOrder(ws, pool).seed, touchedQueries(view.queries.map((q) => q.id), ws.currentLabels(pool).map((l) => l.queryId)), counting);
}
