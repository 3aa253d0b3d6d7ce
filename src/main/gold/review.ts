/**
 * The adjudication queue: a pool's disagreements (pairs whose votes differ, state.ts) that no
 * judge has settled yet, ordered by how much settling each one can move the rankers' metrics.
 *
 * Impact of a disagreeing pair (q, c):
 *   for each run r of the pool, rank q's candidates by r (ties in pool order) and compute the
 *   query's AP with c relevant and with c not relevant — one per possible resolution, i.e. per
 *   distinct voted value, relevant iff grade ≥ 1 — the other candidates of q keeping their
 *   current aggregate label (unresolved ones count as not relevant, AP = 0 when q has no
 *   relevant candidate);
 *   ΔAP_r = max − min of those APs and of the query's AP as the pair counts now (0 when every voted
 *   value has the relevance the pair has now: an unresolved pair counts as not relevant, so one whose
 *   votes are all relevant — SemEval PerfectMatch + Relevant — moves MAP once settled);
 *   impact = Σ_r ΔAP_r / (number of queries in the pool).
 * So impact is the most the pair can move MAP (over the pool's queries), summed over the runs.
 * Ties (and pools without runs) keep pool order. Cost: one ranking per run and query with a
 * disagreement, two AP computations per run and pair.
 */
import { REVIEW_TITLE_MAX, type ReviewItem, type ReviewPair, type ReviewPairFigures, type ReviewQueue } from '../../shared/gold';
import { DEFAULT_RELEVANCE_THRESHOLD, labelGrade, schemeValues, UNSURE } from '../../shared/labels';
import { NotFoundError, QPairsError } from '../errors';
import { averagePrecision, rankIndices } from '../metrics';
import type { Workspace } from '../workspace/workspace';
import { annotatorRole } from './store';
import { judgesWhoMaySettle, whenJudgeVoted } from './judge-voted';
import { isDisagreementEntry, loadPoolState, needsReview, overruledRulings, pairKey, type PairEntry, type PoolState } from './state';

export interface ReviewOptions {
  /** Also list disagreements a judge has settled (default false). */
  includeSettled?: boolean;
  /** At most this many items (default all). */
  limit?: number;
  /**
   * A read of part of the queue (the Review screen's refresh after a burst of labels): only the
   * pairs of the queries whose labels changed after the pool's label version `since`
   * (Workspace.labelVersion) and of `queries` (a note changed), with the whole queue's counts. A
   * pair's impact depends only on its own query's labels and runs (pairImpact), so the other
   * pairs' items stand as read before. A `since` later than the pool's version reads it all.
   */
  since?: number;
  queries?: readonly string[];
}

/** Throws unless `judge` may settle disagreements of the pool (role judge, not one of its annotators). */
export function checkJudge(ws: Workspace, s: PoolState, judge: string): void {
  const role = annotatorRole(ws, judge);
  if (role === null) throw new NotFoundError(`no annotator named "${judge}" (mark a judge with: qpairs annotators add W ${judge} --role judge)`);
  if (role !== 'judge') throw new QPairsError(`"${judge}" is not a judge (role ${role}); mark it with: qpairs annotators role W ${judge} judge`);
  if (s.annotators.includes(judge)) throw new QPairsError(`"${judge}" annotates pool "${s.pool.name}" and cannot judge its disagreements`);
}

/**
 * Throws unless a judge of the pool may give pair (queryId, candidateId) the label `value`
 * (normalised to the pool's scheme; null clears a ruling and passes anywhere). A judge's label is
 * a ruling, and state.ts counts it on the pair whenever the pair is in dispute — so:
 * - "?" is refused: state.ts ignores a judge's "?", so it would be saved and settle nothing;
 * - a pair not in dispute (needsReview: decisive votes that differ, or an assigned "?") is
 *   refused, or a label given early would settle a later disagreement its judge never saw.
 * The one check behind every judge's label: setLabel (engine/annotate.ts) runs it for the pool's
 * judges, whichever way the label comes (review.settle, label.set over IPC or HTTP, `qpairs
 * label`). Imports (import/pools.ts) do not: they bring back rulings already made.
 */
export function checkRuling(s: PoolState, queryId: string, candidateId: string, value: string | null): void {
  if (value === null) return;
  const e = s.byKey.get(pairKey(queryId, candidateId));
  if (!e) throw new NotFoundError(`pair ${queryId} → ${candidateId} is not in pool "${s.pool.name}"`);
  if (value.trim() === UNSURE) {
    const labels = s.scheme === 'graded' ? 'an integer grade' : schemeValues(s.scheme).join(', ');
    throw new QPairsError(`a ruling must be one of the pool's labels (${labels}); "?" settles nothing — leave the pair for another judge or discuss it`);
  }
  if (!needsReview(e)) {
    throw new QPairsError(
      `pair ${queryId} → ${candidateId} is not a disagreement or unsure pair of pool "${s.pool.name}" (nothing to settle): ` +
        'a judge labels a pair only while it is in dispute (Review, qpairs adjudicate), so no ruling settles a disagreement its judge has not seen',
    );
  }
}

/**
 * Throws when `judge` labeled pair (queryId, candidateId) of the pool while not judging it (before, or
 * between two spans of judging it: PoolState.judgeSpans), whatever that label is now: who voted on a
 * pair is not its third judge, and a ruling would only replace their own vote. Another judge rules on it.
 */
export function checkJudgeDidNotVote(ws: Workspace, s: PoolState, judge: string, queryId: string, candidateId: string): void {
  const others = judgesWhoMaySettle(ws, s, judge, { pair: { queryId, candidateId } }).get(pairKey(queryId, candidateId));
  if (others === undefined) return;
  throw new QPairsError(
    `${judge} labeled pair ${queryId} → ${candidateId} of pool "${s.pool.name}" ` +
      `${whenJudgeVoted(ws, s, judge, queryId, candidateId) === 'before' ? 'before judging the pool' : 'between two spans of judging the pool'}, so ${judge} is not a third judge of it: ` +
      (others.length ? `another of its judges (${others.join(', ')}) settles it` : 'make someone else a judge to settle it (qpairs annotators role W NAME judge)'),
  );
}

const isRelevant = (value: string): boolean => (labelGrade(value) ?? -Infinity) >= DEFAULT_RELEVANCE_THRESHOLD;

/** AP of a query with the given relevance per candidate index, over a ranking (indices). */
function apOf(ranking: readonly number[], rel: readonly boolean[]): number {
  let R = 0;
  for (const r of rel) if (r) R++;
  const list = ranking.map((i) => (rel[i] ? 1 : 0));
  return averagePrecision(list, R);
}

/** Whether each candidate of query `qi` is relevant by its current aggregate label (unresolved: not relevant), in pool order. */
export function queryRelevance(s: PoolState, qi: number): boolean[] {
  const q = s.queries[qi]!;
  return q.candidates.map((c) => {
    const v = s.byKey.get(pairKey(q.queryId, c))!.resolution.value;
    return v !== null && isRelevant(v);
  });
}

/**
 * Per run: the largest |ΔAP| of the pair's query between the possible resolutions of the pair.
 * `base`: queryRelevance of the pair's query, when the caller has it (the queue computes it once
 * per query, not once per pair).
 */
export function pairImpact(
  e: PairEntry,
  s: PoolState,
  rankings: ReadonlyArray<{ run: string; ranking: number[] }>,
  base: readonly boolean[] = queryRelevance(s, e.queryIndex),
): { apChange: Record<string, number>; impact: number } {
  // A "?" vote leaves the pair open either way: a judge may settle it relevant or not. Otherwise the
  // voted values' relevance, and the pair's as it counts now: an unresolved SemEval PerfectMatch +
  // Relevant counts as not similar until settled, so settling it moves MAP (it read 0, last in the queue).
  const options = e.unsure.length > 0 ? [true, false] : [...new Set([...e.votes.map((v) => isRelevant(v.value)), base[e.candidateIndex]!])];
  const apChange: Record<string, number> = {};
  let sum = 0;
  for (const { run, ranking } of rankings) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const relevant of options) {
      const rel = base.slice();
      rel[e.candidateIndex] = relevant;
      const ap = apOf(ranking, rel);
      lo = Math.min(lo, ap);
      hi = Math.max(hi, ap);
    }
    const d = options.length > 1 ? hi - lo : 0;
    apChange[run] = d;
    sum += d;
  }
  return { apChange, impact: s.queries.length > 0 ? sum / s.queries.length : 0 };
}

/** The review queue of a pool for a judge (null: anyone, no role check). See the module comment. */
export function reviewQueue(ws: Workspace, pool: string, judge: string | null, o: ReviewOptions = {}, state?: PoolState): ReviewQueue {
  const s = state ?? loadPoolState(ws, pool);
  if (judge !== null) checkJudge(ws, s, judge);
  if (o.queries !== undefined && o.since === undefined) throw new QPairsError('a read of some queries of the review queue needs the label version it follows (since)');
  const labels = ws.labelVersion(pool, o.since);
  let only: Set<string> | null = null;
  if (o.since !== undefined && o.since <= labels.version) {
    if (o.limit !== undefined) throw new QPairsError('a read of some queries of the review queue takes no limit');
    only = new Set([...(o.queries ?? []), ...labels.queries]);
  }
  const disagreements = s.pairs.filter(needsReview);
  const settledCount = disagreements.filter((e) => e.judge).length;
  const decisive = disagreements.filter(isDisagreementEntry).length;
  const listed = (o.includeSettled ? disagreements : disagreements.filter((e) => !e.judge)).filter((e) => only === null || only.has(e.queryId));
  const runs = ws.listRuns(pool).map((r) => ({ name: r.name, scores: ws.runScores(r.id) }));
  // Per query, once for all its pairs: each run's ranking and the candidates' current relevance.
  const byQuery = new Map<number, { rankings: Array<{ run: string; ranking: number[] }>; base: boolean[] }>();
  const queryOf = (qi: number): { rankings: Array<{ run: string; ranking: number[] }>; base: boolean[] } => {
    let r = byQuery.get(qi);
    if (!r) {
      const q = s.queries[qi]!;
      r = { rankings: runs.map((run) => ({ run: run.name, ranking: rankIndices(q.candidates, run.scores.get(q.queryId)) })), base: queryRelevance(s, qi) };
      byQuery.set(qi, r);
    }
    return r;
  };
  const scored = listed.map((e) => {
    const q = queryOf(e.queryIndex);
    return { e, ...pairImpact(e, s, q.rankings, q.base) };
  });
  scored.sort((x, y) => y.impact - x.impact || x.e.queryIndex - y.e.queryIndex || x.e.candidateIndex - y.e.candidateIndex);
  const take = o.limit !== undefined ? scored.slice(0, o.limit) : scored;
  // Titles only (cut to REVIEW_TITLE_MAX): the texts and the votes' notes come per pair (reviewPair).
  const titles = ws.getQuestionTitles([...new Set(take.flatMap(({ e }) => [e.queryId, e.candidateId]))], REVIEW_TITLE_MAX);
  // Issue 24: which voters wrote a note, and the judges' reasons (judges and owners see them all).
  const noteAt = pairNotes(ws, pool, only ?? undefined);
  const notePart = (note: string | null): { note?: string } => (note === null ? {} : { note });
  const noteOf = (e: PairEntry, who: string): string | null => noteAt(e.queryId, e.candidateId, who);
  // The pairs the asking judge voted on while not judging the pool: her ruling there is refused (checkJudgeDidNotVote).
  const votedByJudge = judge !== null ? judgesWhoMaySettle(ws, s, judge, only === null ? undefined : { queries: only }) : new Map<string, string[]>();
  // Said as the refusal says it (checkJudgeDidNotVote): before she first judged the pool, or between two spans of judging it.
  const votedByYou = (e: PairEntry, judges: string[]): NonNullable<ReviewItem['votedByYou']> =>
    judge !== null && whenJudgeVoted(ws, s, judge, e.queryId, e.candidateId) === 'between' ? { judges, between: true } : { judges };
  const overrules = (e: PairEntry): { overrules?: Array<{ judge: string; value: string }> } => {
    const o = overruledRulings(ws, s, e);
    return o.length ? { overrules: o.map((v) => ({ judge: v.annotator, value: v.value })) } : {};
  };
  const items: ReviewItem[] = take.map(({ e, impact }) => ({
    queryId: e.queryId,
    candidateId: e.candidateId,
    queryTitle: titles.get(e.queryId) ?? null,
    candidateTitle: titles.get(e.candidateId) ?? null,
    reason: isDisagreementEntry(e) ? 'disagreement' : 'unsure',
    labels: [...e.votes, ...e.unsure]
      .sort((x, y) => s.annotators.indexOf(x.annotator) - s.annotators.indexOf(y.annotator))
      .map((v) => {
        const noted = noteOf(e, v.annotator) !== null;
        return noted ? { annotator: v.annotator, value: v.value, noted: true as const } : { annotator: v.annotator, value: v.value };
      }),
    impact,
    settled: e.judge ? { judge: e.judge.annotator, value: e.judge.value, seq: e.judge.seq, ...notePart(noteOf(e, e.judge.annotator)), ...overrules(e) } : null,
    ...(votedByJudge.has(pairKey(e.queryId, e.candidateId)) ? { votedByYou: votedByYou(e, votedByJudge.get(pairKey(e.queryId, e.candidateId))!) } : {}),
    ...(e.outdatedRuling ? { outdatedRuling: { judge: e.outdatedRuling.annotator, value: e.outdatedRuling.value } } : {}),
    ...(judge && noteOf(e, judge) !== null ? { judgeNote: noteOf(e, judge) } : {}),
  }));
  const note =
    s.rule === 'mean' || s.rule === 'unanimous'
      ? `pool "${s.pool.name}" aggregates by the ${s.rule} rule, which ignores judges' labels; set the rule to adjudicated or majority for settled pairs to count`
      : undefined;
  return {
    pool: s.pool.name,
    judge: judge ?? '',
    scheme: s.scheme,
    rule: s.rule,
    values: s.scheme === 'graded' ? [...new Set(disagreements.flatMap((e) => e.votes.map((v) => v.value)))].sort((a, b) => Number(a) - Number(b)) : schemeValues(s.scheme),
    total: disagreements.length,
    disagreements: decisive,
    unsure: disagreements.length - decisive,
    settled: settledCount,
    remaining: disagreements.length - settledCount,
    items,
    ...(note ? { note } : {}),
    version: labels.version,
    ...(only === null ? { queryOrder: s.queries.map((q) => q.queryId) } : { partial: { queries: [...only] } }),
  };
}

/**
 * The notes on a pool's pairs (all of them, or those of `queries`' pairs), looked up by pair and
 * annotator: a voter's note or a judge's reason, null when none.
 */
export function pairNotes(ws: Workspace, pool: string, queries?: Iterable<string>): (queryId: string, candidateId: string, annotator: string) => string | null {
  const rows = queries === undefined ? ws.labelNotes(pool) : [...queries].flatMap((queryId) => ws.labelNotes(pool, { queryId }));
  const notes = new Map(rows.map((n) => [`${n.queryId}\u0000${n.candidateId}\u0000${n.annotator}`, n.note]));
  return (queryId, candidateId, annotator) => notes.get(`${queryId}\u0000${candidateId}\u0000${annotator}`) ?? null;
}

/**
 * One pair of a judge's review queue with both questions' texts and every vote with its note
 * (review.pair): the queue carries titles only, and the Review screen asks for the pair it shows.
 * The same checks as the queue's (checkJudge: a judge, not one of the pool's annotators), and only
 * a pair in the queue (in dispute, settled or not) is given: no other pair's votes.
 */
export function reviewPair(ws: Workspace, pool: string, judge: string | null, queryId: string, candidateId: string, state?: PoolState): ReviewPair {
  const s = state ?? loadPoolState(ws, pool);
  if (judge !== null) checkJudge(ws, s, judge);
  const e = s.byKey.get(pairKey(queryId, candidateId));
  if (!e) throw new NotFoundError(`pair ${queryId} → ${candidateId} is not in pool "${s.pool.name}"`);
  if (!needsReview(e)) throw new NotFoundError(`pair ${queryId} → ${candidateId} is not in the review queue of pool "${s.pool.name}" (its votes do not disagree, or it has no "?")`);
  const texts = ws.getQuestions([queryId, candidateId]);
  const figures = pairFigures(ws, s, queryId, candidateId);
  const noteAt = pairNotes(ws, pool, [queryId]);
  return {
    pool: s.pool.name,
    queryId,
    candidateId,
    query: texts.get(queryId) ?? null,
    candidate: texts.get(candidateId) ?? null,
    ...figures,
    labels: [...e.votes, ...e.unsure]
      .sort((x, y) => s.annotators.indexOf(x.annotator) - s.annotators.indexOf(y.annotator))
      .map((v) => {
        const note = noteAt(queryId, candidateId, v.annotator);
        return note === null ? { annotator: v.annotator, value: v.value } : { annotator: v.annotator, value: v.value, note };
      }),
  };
}

/** A pair's positions, |ΔAP| per run (pairImpact) and what the pool's rule gives now: the figures the queue leaves to review.pair. */
export function pairFigures(ws: Workspace, s: PoolState, queryId: string, candidateId: string): ReviewPairFigures {
  const e = s.byKey.get(pairKey(queryId, candidateId));
  if (!e) throw new NotFoundError(`pair ${queryId} → ${candidateId} is not in pool "${s.pool.name}"`);
  const q = s.queries[e.queryIndex]!;
  const rankings = ws.listRuns(s.pool.name).map((r) => ({ run: r.name, ranking: rankIndices(q.candidates, ws.runScores(r.id).get(q.queryId)) }));
  return { queryPosition: e.queryIndex, candidatePosition: e.candidateIndex, apChange: pairImpact(e, s, rankings).apChange, ruleValue: e.resolution.value };
}
