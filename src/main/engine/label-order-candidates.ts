/**
 * The candidate-level labeling order `decide-rankers-mtc` in the engine (src/main/active/
 * candidate-order.ts): the next (query, candidate) pair an annotator is given, and the rankers'
 * standing for Evaluate. No draws are logged: the pair follows from the pool's seed and the labels so
 * far (the evaluation's label source decides which pairs are judged), so replaying a workspace gives
 * the same pairs. Every assigned annotator is given the same pairs (those they have not labeled yet,
 * in their assigned queries), so agreement stays measurable.
 */
import type { LabelOrderCounting, LabelOrderStanding } from '../../shared/label-order';
import { choosePair } from '../active/candidate-order';
import { candidateOrderStanding, ledgerOf, openedCount, openOrderOf } from '../active/candidate-standing';
import { readPoolOrder } from '../active/draw-log';
import { getAssignment } from '../gold/store';
import type { Workspace } from '../workspace/workspace';
import { judgedPool } from './label-order-view';
import { runsOnBlindLabels } from './run-visibility';

/** Indices of the pool's queries anyone has labeled a pair of (they are open). */
function touchedQueries(ws: Workspace, pool: string, ids: readonly string[]): Set<number> {
  const index = new Map(ids.map((id, i) => [id, i]));
  const out = new Set<number>();
  for (const l of ws.currentLabels(pool)) {
    const i = index.get(l.queryId);
    if (i !== undefined) out.add(i);
  }
  return out;
}

/**
 * The pair `annotator` should label next, among `queryIds` (their queries) and the pairs they have not
 * labeled; null when none is left. With several assigned annotators, a pair another assigned annotator
 * has labeled comes first (in label order), so each pair gets its k labels as assigned; then the
 * order's own choice, made from the runs annotators are shown (the pair is everyone's; run-visibility.ts).
 */
export function nextPairFor(ws: Workspace, pool: string, annotator: string, queryIds: readonly string[]): { queryId: string; candidateId: string } | null {
  const view = judgedPool(ws, pool, undefined, { hiddenRuns: runsOnBlindLabels(ws, pool) });
  const ids = view.queries.map((q) => q.id);
  const mine = new Set(ws.currentLabels(pool, annotator).map((l) => `${l.queryId}\u0000${l.candidateId}`));
  const allowed = new Set(queryIds);
  const team = new Set(getAssignment(ws, pool).annotators);
  if (team.has(annotator))
    for (const l of ws.currentLabels(pool)) if (l.annotator !== annotator && team.has(l.annotator) && allowed.has(l.queryId) && !mine.has(`${l.queryId}\u0000${l.candidateId}`)) return { queryId: l.queryId, candidateId: l.candidateId };
  const ledger = ledgerOf(view.queries, view.judged);
  const order = openOrderOf(ids.length, readPoolOrder(ws, pool).seed);
  const opened = openedCount(order, touchedQueries(ws, pool, ids));
  const eligible = (q: number, c: number) => allowed.has(ids[q]!) && !mine.has(`${ids[q]}\u0000${view.candidates[q]![c]}`);
  let { pick } = choosePair(ledger, order, opened, { eligible });
  // Pairs judged by the source but not by this annotator (k annotators per pair): theirs to label too.
  if (!pick) {
    for (const q of order) {
      if (!allowed.has(ids[q]!)) continue;
      const c = view.candidates[q]!.findIndex((cid) => !mine.has(`${ids[q]}\u0000${cid}`));
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
  return candidateOrderStanding(view, readPoolOrder(ws, pool).seed, touchedQueries(ws, pool, view.queries.map((q) => q.id)), counting);
}
