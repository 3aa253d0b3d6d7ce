import type { AnnotateQueryItem, CandidateView, LabelAck, ParsedArgs, PoolProgress, PoolProgressKind, QueryView } from '../../shared/contract';
import { isReservedRole } from '../../shared/roles';
import { normaliseLabel, schemeValues } from '../../shared/labels';
import type { LabelRecord, PoolQuery } from '../../shared/types';
import { NotFoundError, QPairsError } from '../errors';
import type { Workspace } from '../workspace/workspace';
import { rareSharedTerms, tokenizeForHighlight } from '../bm25/highlight';
import { hashString, seededShuffle } from './seeded';
import { checkNewPersonName, getAssignment } from '../gold/store';
import { checkJudgeDidNotVote, checkRuling } from '../gold/review';
import { loadPoolState, pairKey, type PoolState } from '../gold/state';
import { readDraws, readPoolOrder, type DrawRecord } from '../active/draw-log';
import { isCandidateOrder } from '../../shared/label-order';
import { nextPairFor } from './label-order-candidates';
import { recordTaken, takenBefore } from './label-stamps';
import { annotatorCurrent, poolQueriesKept, poolRunNames, queryCurrentLabels, queryRunScores, type Current } from './annotator-labels';

/**
 * The queries an annotator works on: with a k-per-query assignment, only those assigned to them;
 * otherwise every query of the pool. In pool order, or — for a pool with a labeling order — the
 * drawn queries in draw order first, then the undrawn ones in pool order. In a blind pool only the
 * draws she has reached come first (drawsReached): the others' draws beyond them say how far the
 * others have got.
 */
function annotatorQueries(ws: Workspace, pool: string, annotator: string, draws: readonly DrawRecord[] = readDraws(ws, pool)): PoolQuery[] {
  let all = poolQueriesKept(ws, pool);
  const plan = getAssignment(ws, pool);
  if (plan.mode === 'per-query' && plan.annotators.includes(annotator)) all = all.filter((q) => plan.perQueryAnnotators?.get(q.queryId)?.includes(annotator));
  if (draws.length === 0) return all;
  const shown = ws.pool(pool).blind ? drawsReached(draws, all, currentOf(ws, pool, annotator)) : draws;
  const seq = new Map(shown.map((d) => [d.queryId, d.seq]));
  return all
    .map((q, i) => ({ q, key: seq.get(q.queryId) ?? draws.length + 1 + i }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.q);
}

/**
 * The pool's draws of her queries up to the first she has not done, which is her next: the draws she
 * has reached, whoever made them. Draws are shared (each assigned annotator labels the same drawn
 * queries in the same order), so those past her next were made for someone further on; listing them
 * first showed, in a blind pool, which queries and how many the fastest annotator had reached.
 */
function drawsReached(draws: readonly DrawRecord[], mine: readonly PoolQuery[], cur: Current): DrawRecord[] {
  const byId = new Map(mine.map((q) => [q.queryId, q]));
  const reached: DrawRecord[] = [];
  for (const d of draws) {
    const q = byId.get(d.queryId);
    if (!q) continue;
    reached.push(d);
    if (!isDone(q, cur)) break;
  }
  return reached;
}

/**
 * Whether an annotator of an ordered pool needs a new draw: they have done every drawn query
 * assigned to them, and some query of theirs is neither drawn nor done.
 */
export function annotatorNeedsDraw(ws: Workspace, pool: string, annotator: string, draws: readonly DrawRecord[]): boolean {
  const drawn = new Set(draws.map((d) => d.queryId));
  const cur = currentOf(ws, pool, annotator);
  let undrawnLeft = false;
  for (const q of annotatorQueries(ws, pool, annotator, draws)) {
    if (isDone(q, cur)) continue;
    if (drawn.has(q.queryId)) return false;
    undrawnLeft = true;
  }
  return undrawnLeft;
}

/** Her current labels of the pool (kept and brought forward: annotator-labels.ts); read-only. */
function currentOf(ws: Workspace, pool: string, annotator: string): Current {
  return annotatorCurrent(ws, pool, annotator);
}

/** A query is done for an annotator when every candidate has a label ("?" counts as given). */
function isDone(q: PoolQuery, cur: Current): boolean {
  const m = cur.get(q.queryId);
  return !!m && q.candidates.every((c) => m.has(c));
}

export function poolProgress(ws: Workspace, pool: string): PoolProgress {
  const p = ws.pool(pool);
  const queries = poolQueriesKept(ws, pool);
  const byAnnotator = new Map<string, Current>();
  for (const l of ws.currentLabels(pool)) {
    let cur = byAnnotator.get(l.annotator);
    if (!cur) byAnnotator.set(l.annotator, (cur = new Map()));
    let m = cur.get(l.queryId);
    if (!m) cur.set(l.queryId, (m = new Map()));
    m.set(l.candidateId, l.value);
  }
  // A judge's labels are rulings on disagreements, not progress — unless the pool assigns them to label it.
  const roles = new Map(ws.listAnnotators().map((a) => [a.name, a.role]));
  const assigned = new Set(getAssignment(ws, pool).annotators);
  const kindOf = (name: string): PoolProgressKind => {
    const role = roles.get(name);
    if (role !== undefined && isReservedRole(role)) return 'source';
    return role === 'judge' && !assigned.has(name) ? 'judge' : 'annotator';
  };
  return {
    pool: p.name,
    queries: p.queries,
    pairs: p.pairs,
    annotators: [...byAnnotator].map(([annotator, cur]) => ({
      annotator,
      labeledPairs: [...cur.values()].reduce((s, m) => s + m.size, 0),
      doneQueries: queries.filter((q) => isDone(q, cur)).length,
      kind: kindOf(annotator),
    })),
  };
}

/**
 * An annotator's view of one query. `vocabulary` (the BM25 index's document frequencies) limits
 * each candidate's highlighted shared terms to the rarer ones (rareSharedTerms); without it every
 * shared non-stop word is highlighted.
 */
export function annotateQuery(ws: Workspace, a: ParsedArgs<'annotate.query'>, vocabulary?: { docFreq(term: string): number; N: number } | null): QueryView {
  const pool = ws.pool(a.pool);
  const queries = annotatorQueries(ws, a.pool, a.annotator);
  if (queries.length === 0) throw new QPairsError(`pool "${a.pool}" has no queries${ws.poolQueries(a.pool).length ? ` assigned to ${a.annotator}` : ''}`);
  const cur = currentOf(ws, a.pool, a.annotator);
  let index: number;
  // decide-rankers-mtc: the next item is one pair; its query is served with that candidate first
  // (`focus`) — also when that query is asked for by id (a re-read of the query on screen).
  let focus: string | null = null;
  // The next pair is always one she has not labeled: a query she has done (asked for by id) is never
  // focused, so its view makes no choice of pair (nextPairFor weighs the whole pool).
  const asked = a.queryId ? queries.find((q) => q.queryId === a.queryId) : undefined;
  const next = isCandidateOrder(readPoolOrder(ws, a.pool).order) && !(asked && isDone(asked, cur)) ? nextPairFor(ws, a.pool, a.annotator, queries.map((q) => q.queryId)) : null;
  const pair = next && (!a.queryId || a.queryId === next.queryId) ? next : null;
  if (pair) {
    index = queries.findIndex((q) => q.queryId === pair.queryId);
    focus = pair.candidateId;
  } else if (a.queryId) {
    index = queries.findIndex((q) => q.queryId === a.queryId);
    if (index < 0) throw new NotFoundError(`query ${a.queryId} is not in pool "${a.pool}"${ws.poolQueries(a.pool).some((q) => q.queryId === a.queryId) ? ` for ${a.annotator} (not assigned)` : ''}`);
  } else {
    index = queries.findIndex((q) => !isDone(q, cur));
    if (index < 0) index = 0;
  }
  const q = queries[index]!;
  const texts = ws.getQuestions([q.queryId, ...q.candidates]);
  const query = texts.get(q.queryId) ?? null;
  const queryTerms = new Set(query ? tokenizeForHighlight(`${query.title} ${query.body}`) : []);
  const mine = cur.get(q.queryId) ?? new Map<string, string>();
  // Issue 24: the annotator's own notes only (blind or not: notes are read in Review by judges).
  const myNotes = new Map(ws.labelNotes(a.pool, { annotator: a.annotator, queryId: q.queryId }).map((n) => [n.candidateId, n.note]));

  // Blind is the pool's: its annotators see their own labels only, in their own order, no scores.
  const blind = pool.blind;
  // The query's own rows only: the others' labels and each run's scores of this query, not the pool's.
  const runs = blind ? [] : poolRunNames(ws, a.pool);
  const runScores = runs.map((r) => ({ name: r.name, scores: queryRunScores(ws, r.id, q.queryId) }));
  const rankOf = runScores.map(({ name, scores }) => {
    // 1-based rank by score descending, ties in pool order (the default tie rule).
    const order = q.candidates
      .map((c, pos) => ({ c, pos, s: scores.get(c) }))
      .filter((x) => x.s !== undefined)
      .sort((x, y) => y.s! - x.s! || x.pos - y.pos);
    return { name, scores, ranks: new Map(order.map((x, i) => [x.c, i + 1])) };
  });
  const others = new Map<string, Record<string, string>>();
  if (!blind) {
    for (const l of queryCurrentLabels(ws, a.pool, q.queryId)) {
      if (l.annotator === a.annotator) continue;
      const o = others.get(l.candidateId) ?? {};
      o[l.annotator] = l.value;
      others.set(l.candidateId, o);
    }
  }
  let candidates: CandidateView[] = q.candidates.map((id, position) => {
    const question = texts.get(id) ?? null;
    const terms = question ? tokenizeForHighlight(`${question.title} ${question.body}`) : [];
    const allShared = [...new Set(terms.filter((t) => queryTerms.has(t)))];
    const shared = vocabulary ? rareSharedTerms(allShared, (t) => vocabulary.docFreq(t), vocabulary.N) : allShared;
    const runView: CandidateView['runs'] = {};
    for (const r of rankOf) {
      const s = r.scores.get(id);
      if (s !== undefined) runView[r.name] = { score: s, rank: r.ranks.get(id)! };
    }
    return { id, position, question, runs: runView, label: mine.get(id) ?? null, others: others.get(id) ?? {}, sharedTerms: shared, ...(myNotes.has(id) ? { note: myNotes.get(id)! } : {}) };
  });
  // Blind means blind (issue 23): the position shown is this annotator's own display index, not the retriever's rank.
  if (blind) candidates = seededShuffle(candidates, hashString(`${a.annotator}\u0000${pool.name}\u0000${q.queryId}`)).map((c, i) => ({ ...c, position: i }));
  // The chosen pair's candidate first; the others keep their order (blind: re-indexed, so no rank shows).
  if (focus) {
    candidates = [...candidates.filter((c) => c.id === focus), ...candidates.filter((c) => c.id !== focus)];
    if (blind) candidates = candidates.map((c, i) => ({ ...c, position: i }));
  }

  const totalPairs = queries.reduce((s, x) => s + x.candidates.length, 0);
  const labeledPairs = [...cur.values()].reduce((s, m) => s + m.size, 0);
  return {
    pool: pool.name,
    scheme: pool.scheme,
    queryId: q.queryId,
    query,
    index,
    total: queries.length,
    candidates,
    blind,
    runNames: runs.map((r) => r.name),
    progress: { doneQueries: queries.filter((x) => isDone(x, cur)).length, totalQueries: queries.length, labeledPairs, totalPairs },
    guidelines: pool.guidelines,
    ...(focus ? { focus } : {}),
  };
}

/** The queries an annotator works on in a pool, in order, with titles and whether each is done. */
export function annotatorQueryList(ws: Workspace, a: ParsedArgs<'annotate.queries'>): AnnotateQueryItem[] {
  ws.pool(a.pool);
  const queries = annotatorQueries(ws, a.pool, a.annotator);
  const cur = currentOf(ws, a.pool, a.annotator);
  const texts = ws.getQuestions(queries.map((q) => q.queryId));
  return queries.map((q, index) => ({ id: q.queryId, index, title: texts.get(q.queryId)?.title ?? '', done: isDone(q, cur) }));
}

export function navigate(ws: Workspace, a: ParsedArgs<'annotate.navigate'>, vocabulary?: { docFreq(term: string): number; N: number } | null): QueryView | null {
  const queries = annotatorQueries(ws, a.pool, a.annotator);
  const from = queries.findIndex((q) => q.queryId === a.from);
  if (from < 0) throw new NotFoundError(`query ${a.from} is not in pool "${a.pool}"`);
  const { order } = readPoolOrder(ws, a.pool);
  // decide-rankers-mtc: "next unlabeled" is the order's next pair.
  if (a.direction === 'next-unlabeled' && isCandidateOrder(order)) {
    const v = annotateQuery(ws, { pool: a.pool, annotator: a.annotator }, vocabulary);
    return v.focus ? v : null;
  }
  let target: number;
  if (a.direction === 'next') target = from + 1;
  else if (a.direction === 'previous') target = from - 1;
  else {
    const cur = currentOf(ws, a.pool, a.annotator);
    // A pool with a labeling order hands out its queries by drawing them: "next unlabeled" is a
    // drawn query (the engine draws a new one once every drawn query is done), never the next
    // undrawn one in the list — each assigned annotator labels the same drawn queries.
    const drawn = order === 'pool' ? null : new Set(readDraws(ws, a.pool).map((d) => d.queryId));
    const n = queries.length;
    target = -1;
    for (let k = 1; k <= n; k++) {
      const i = (from + k) % n;
      if (!isDone(queries[i]!, cur) && (!drawn || drawn.has(queries[i]!.queryId))) {
        target = i;
        break;
      }
    }
  }
  if (target < 0 || target >= queries.length) return null;
  return annotateQuery(ws, { pool: a.pool, annotator: a.annotator, queryId: queries[target]!.queryId }, vocabulary);
}

/**
 * Saves one label durably (synchronous=FULL commit) before acknowledging it. A label of one of the
 * pool's judges (role judge, not assigned to label the pool) is a ruling: checkRuling refuses "?"
 * and pairs not in dispute (`state`: the pool's state when the caller has it loaded already).
 */
export function setLabel(ws: Workspace, given: ParsedArgs<'label.set'>, state?: PoolState): LabelAck {
  // The person as stored, or a new name in NFC (`qpairs label --annotator` comes here directly).
  const a = { ...given, annotator: ws.personName(given.annotator) };
  // Its settings only: counting a 60,000-pair pool's rows for pool() took about 2 ms of every label.
  const pool = ws.poolSettings(a.pool);
  let value: string | null = null;
  if (a.value !== null) {
    value = normaliseLabel(pool.scheme, a.value);
    if (value === null) {
      const ok = pool.scheme === 'graded' ? 'an integer grade' : schemeValues(pool.scheme).join(', ');
      const digits = pool.scheme === 'semeval3' ? ' (or 2, 1, 0)' : '';
      throw new QPairsError(`"${a.value}" is not a label of the ${pool.scheme} scheme of pool "${a.pool}": give ${ok}${digits}, or ? (unsure)`);
    }
  }
  const role = ws.listAnnotators().find((x) => x.name === a.annotator)?.role ?? 'annotator';
  // A first label under a new name adds that person (the owner's name field, `qpairs label`): the same names as an invitation.
  checkNewPersonName(ws, a.annotator);
  checkAssigned(ws, a.pool, a.annotator, a.queryId, role);
  // A judge ruling again, with the same value, on a dispute that changed since their ruling: the
  // event is appended again, so the ruling is later than every vote (state.ts outdatedRuling).
  let restate = false;
  if (role === 'judge' && value !== null) {
    const s = state ?? loadPoolState(ws, pool.name);
    if (s.judges.includes(a.annotator)) {
      checkRuling(s, a.queryId, a.candidateId, value);
      checkJudgeDidNotVote(ws, s, a.annotator, a.queryId, a.candidateId);
      const outdated = s.byKey.get(pairKey(a.queryId, a.candidateId))?.outdatedRuling;
      restate = outdated?.annotator === a.annotator && outdated.value === value;
    }
  }
  const stamp = a.stamp;
  const ack = ws.transaction((): LabelAck & { again?: true } => {
    // The outbox's late duplicate, or its resend of a label taken already: nothing saved (label-stamps.ts).
    const taken = stamp ? takenBefore(ws, stamp, String(pool.id), a) : undefined;
    if (taken) return { seq: null, latest: taken.latest, saved: true, record: null, note: noteOn(ws, a), noteChanged: false, again: true };
    if (a.ifLatest !== undefined) {
      const again = redoneAlready(ws, pool.id, a, a.ifLatest, value);
      if (again) return again;
      checkLatest(ws, pool.id, a, a.ifLatest);
    }
    if (a.ifNote !== undefined && !noteRedoneAlready(ws, pool.id, a, value)) checkNote(ws, a, a.ifNote);
    const seq = ws.addLabel({ pool: a.pool, queryId: a.queryId, candidateId: a.candidateId, annotator: a.annotator, value, origin: 'ui', restate }, pool.id);
    // Issue 24: the note rides with the label, in the same commit (omitted: left as it is).
    // A cleared label takes its note with it: an unlabeled pair carries no note (undo puts both back).
    const noteArg = value === null ? null : a.note;
    const noteChanged = noteArg !== undefined && ws.setLabelNote({ pool: a.pool, queryId: a.queryId, candidateId: a.candidateId, annotator: a.annotator, note: noteArg }, pool.id);
    return { seq, ...(seq === null ? { latest: latestEvent(ws, pool.id, a) } : {}), saved: true as const, record: seq === null ? null : ws.labelEvent(seq), note: noteOn(ws, a), noteChanged };
  });
  if (!stamp) return ack;
  const { again, ...answer } = ack;
  if (!again) recordTaken(ws, stamp, String(pool.id), a, answer.seq ?? answer.latest ?? null);
  return answer;
}

/** The annotator's note on the pair (null: none). */
function noteOn(ws: Workspace, a: { pool: string; queryId: string; candidateId: string; annotator: string }): string | null {
  return ws.labelNotes(a.pool, { annotator: a.annotator, queryId: a.queryId }).find((n) => n.candidateId === a.candidateId)?.note ?? null;
}

/** The annotator's latest label event on the pair (before event `before`, when given), null when none (label.set's `latest`, redo's checkLatest). */
function latestEvent(ws: Workspace, poolId: number, a: { queryId: string; candidateId: string; annotator: string }, before = Number.MAX_SAFE_INTEGER): number | null {
  const row = ws
    .stmt(
      `SELECT max(l.seq) AS latest FROM labels l JOIN annotators n ON n.id = l.annotator_id
       WHERE l.pool_id = ? AND l.query_id = ? AND l.candidate_id = ? AND n.name = ? AND l.seq < ?`,
    )
    .get(poolId, a.queryId, a.candidateId, a.annotator, before) as { latest: number | null } | undefined;
  return row?.latest ?? null;
}

/**
 * A redo sent again after its answer was lost (the connection broke once it was saved): the pair's latest event is the
 * redo's — `value`, right after the undo `ifLatest`, the note as asked — so that event is the answer, none added.
 */
function redoneAlready(
  ws: Workspace,
  poolId: number,
  a: { pool: string; queryId: string; candidateId: string; annotator: string; note?: string | null; ifNote?: string | null },
  ifLatest: number,
  value: string | null,
): LabelAck | null {
  const latest = latestEvent(ws, poolId, a);
  if (latest === null || latest === ifLatest) return null;
  const record = ws.labelEvent(latest);
  if (!record || record.value !== value || latestEvent(ws, poolId, a, latest) !== ifLatest) return null;
  const note = ws.labelNotes(a.pool, { annotator: a.annotator, queryId: a.queryId }).find((n) => n.candidateId === a.candidateId)?.note ?? null;
  if (a.note !== undefined && (note ?? '') !== (value === null ? '' : (a.note ?? ''))) return null;
  return { seq: latest, saved: true, record, note, noteChanged: a.ifNote !== undefined && (a.ifNote ?? '') !== (note ?? '') };
}

/**
 * A note's redo sent again after its answer was lost: the pair already has the label and the note it asks for, so
 * the note the undo left is gone because the redo itself was saved — nothing to refuse, and nothing changes.
 */
function noteRedoneAlready(ws: Workspace, poolId: number, a: { pool: string; queryId: string; candidateId: string; annotator: string; note?: string | null }, value: string | null): boolean {
  if (a.note === undefined || value === null) return false;
  const latest = latestEvent(ws, poolId, a);
  if (latest === null || ws.labelEvent(latest)?.value !== value) return false;
  return (noteOn(ws, a) ?? '') === (a.note ?? '').trim();
}

/**
 * Redo's other guard: the annotator's note on the pair (a judge's reason) must still be the one the
 * undo left. A note changed since, in another tab or window, would otherwise be overwritten unseen
 * (a note change appends no label event, so checkLatest cannot see it).
 */
function checkNote(ws: Workspace, a: { pool: string; queryId: string; candidateId: string; annotator: string }, expected: string | null): void {
  const now = ws.labelNotes(a.pool, { annotator: a.annotator, queryId: a.queryId }).find((n) => n.candidateId === a.candidateId)?.note ?? null;
  if ((now ?? '') !== (expected ?? '')) {
    throw new QPairsError(
      `cannot redo on ${a.queryId} → ${a.candidateId}: its note changed since the undo (from another tab or window, or a script). Write the note you want instead.`,
    );
  }
}

/**
 * Redo's guard: the annotator's latest event on the pair must still be `seq` (the undo being
 * redone). A change made since — in another tab or window, or by a script — is refused, as undo
 * refuses an event that is no longer the latest.
 */
function checkLatest(ws: Workspace, poolId: number, a: { queryId: string; candidateId: string; annotator: string }, seq: number): void {
  const latest = latestEvent(ws, poolId, a);
  if (latest !== seq) {
    throw new QPairsError(
      `cannot redo on ${a.queryId} → ${a.candidateId}: its label changed since the undo` +
        (latest !== null && latest > seq ? ` (event ${latest}, from another tab or window, or a script)` : '') +
        `. Set the label you want instead.`,
    );
  }
}

/**
 * The event to announce for a label call (label.changed): its new label event, or — when only the
 * note changed (issue 24) — the pair's current label event again, so screens showing notes reload;
 * null when nothing changed.
 */
export function changedRecord(ws: Workspace, a: { pool: string; queryId: string; candidateId: string; annotator: string }, ack: LabelAck): LabelRecord | null {
  if (ack.record) return ack.record;
  if (!ack.noteChanged) return null;
  const last = ws.labelHistory(a.pool, { annotator: a.annotator }).find((r) => r.queryId === a.queryId && r.candidateId === a.candidateId);
  return last ?? null;
}

/**
 * Once a pool is assigned, only its assigned annotators label it (each only their queries under
 * k-per-query); judges, `gold` and system annotators are exempt (they settle or import labels).
 */
function checkAssigned(ws: Workspace, pool: string, annotator: string, queryId: string, role: string): void {
  const plan = getAssignment(ws, pool);
  if (plan.mode === 'open') return;
  if (role !== 'annotator') return;
  const assigned = plan.mode === 'full' ? plan.annotators.includes(annotator) : !!plan.perQueryAnnotators?.get(queryId)?.includes(annotator);
  if (!assigned) {
    throw new QPairsError(
      plan.annotators.includes(annotator)
        ? `query ${queryId} of pool "${pool}" is not assigned to ${annotator}`
        : `${annotator} is not assigned to pool "${pool}" (assigned: ${plan.annotators.join(', ')})`,
    );
  }
}

/**
 * Undoes one of the annotator's own label events (issue 23): only while it is that pair's latest
 * event of theirs — then the pair gets back the value it had just before. Later events that were
 * themselves undone do not count (undo, undo again walks back one label at a time); an older event
 * still in force behind a newer label is refused (undoing it would silently clear or overwrite the
 * newer label), and so is an event already undone. A refusal never tells whether someone else's
 * event exists, nor whose it is.
 */
export function undoLabel(
  ws: Workspace,
  seq: number,
  annotator: string,
  note?: string | null,
  pair?: { pool: string; queryId: string; candidateId: string },
): LabelRecord {
  const ev = ws.labelEvent(seq);
  if (!ev || ev.annotator !== annotator) throw new NotFoundError(`no label event ${seq} of ${annotator}`);
  if (pair && (ev.pool !== pair.pool || ev.queryId !== pair.queryId || ev.candidateId !== pair.candidateId)) {
    throw new QPairsError(
      `label event ${seq} is not your label of ${pair.queryId} → ${pair.candidateId} in pool "${pair.pool}" any more ` +
        `(label events were taken out since, as an import's undo does): nothing was undone. Set the label you want.`,
    );
  }
  const later = ws
    .stmt(
      `SELECT l.seq, l.origin FROM labels l JOIN labels e ON e.seq = @seq
       WHERE l.pool_id = e.pool_id AND l.annotator_id = e.annotator_id AND l.query_id = e.query_id AND l.candidate_id = e.candidate_id
         AND l.seq > @seq ORDER BY l.seq`,
    )
    .all({ seq }) as Array<{ seq: number; origin: string }>;
  const undoneBy = (r: { origin: string }): number | null => (/^undo:\d+$/.test(r.origin) ? Number(r.origin.slice(5)) : null);
  const undoneAt = later.find((r) => undoneBy(r) === seq);
  if (undoneAt) {
    // Sent again after its answer was lost (the connection broke once the undo was saved): while that undo is still the
    // pair's latest event, it is the answer again — nothing is undone twice.
    if (undoneAt === later[later.length - 1]) return ws.labelEvent(undoneAt.seq)!;
    throw new QPairsError(`label event ${seq} (${ev.queryId} → ${ev.candidateId}) is already undone`);
  }
  const undone = new Set(later.map(undoneBy).filter((x): x is number => x !== null));
  const inForce = later.filter((r) => !undone.has(r.seq) && (undoneBy(r) === null || undoneBy(r)! < seq));
  if (inForce.length > 0) {
    const latest = inForce[inForce.length - 1]!.seq;
    throw new QPairsError(
      `label event ${seq} (${ev.queryId} → ${ev.candidateId}) is not your latest label of that pair: event ${latest} changed it since ` +
        `(from another tab or window, or a script). Undo that change where it was made, or set the label you want.`,
    );
  }
  return ws.transaction(() => {
    const rec = ws.undoLabel(seq);
    // The note goes back with the label (a cleared label took it along); an unlabeled pair keeps none.
    const back = rec.value === null ? null : note;
    if (back !== undefined) ws.setLabelNote({ pool: rec.pool, queryId: rec.queryId, candidateId: rec.candidateId, annotator, note: back });
    return rec;
  });
}
