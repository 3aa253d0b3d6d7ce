/**
 * The pools whose pairs an import changed without changing what they hold: the text of a question
 * they hold, inserted (a pool listing its id without text) or updated, its answers or comments (added,
 * updated or moved), a note on a label (labels.ts putNotes), and a run's scores given again with other values. Their queries, pairs, runs and labels count as before, so the engine's pool stamps
 * (engine/pool-stamps.ts) miss them; the import's report names them (ImportReport.poolsChangedInPlace),
 * and so does its event, and its undo's (read from the imports audit).
 */
import type { Workspace } from '../workspace/workspace';

/**
 * The pools holding (as a query or a candidate) a question of `docs`, sorted: one pass over the
 * pools' pairs, each pool's stopping at its first such question. Asked only when some pool holds one
 * (the import counted questionsUpdatedInPools): 100 ms for 255,000 pairs in 5 pools.
 */
export function poolsHoldingDocs(ws: Workspace, docs: readonly number[]): string[] {
  if (docs.length === 0) return [];
  const held = `q.doc IN (SELECT value FROM json_each(@docs))`;
  return ws.db
    .prepare(
      `SELECT p.name FROM pools p
       WHERE EXISTS (SELECT 1 FROM pool_queries x JOIN questions q ON q.id = x.query_id WHERE x.pool_id = p.id AND ${held})
          OR EXISTS (SELECT 1 FROM pool_candidates x JOIN questions q ON q.id = x.candidate_id WHERE x.pool_id = p.id AND ${held})
       ORDER BY p.name`,
    )
    .pluck()
    .all({ docs: JSON.stringify(docs) }) as string[];
}

/**
 * The pools holding (as a query or a candidate) a question whose answers or comments an import changed, sorted: one
 * given an answer (rowid above `answerRowidBefore`: the import's inserts; null when it inserted none) or one of
 * `updatedOf` (an answer of it updated, or moved to or from it). Annotate shows no answers; Browse's question shows
 * their count (question.show), read again on an event naming a pool open to her. One pass over the pools' pairs, each
 * pool's stopping at its first such question, one probe of index answers_question per pair.
 */
export function poolsHoldingAnsweredQuestions(ws: Workspace, answerRowidBefore: number | null, updatedOf: ReadonlySet<string>): string[] {
  const answered = (column: string): string =>
    `(x.${column} IN (SELECT value FROM json_each(@updated)) OR EXISTS (SELECT 1 FROM answers a WHERE a.question_id = x.${column} AND a.rowid > @before))`;
  return ws.db
    .prepare(
      `SELECT p.name FROM pools p
       WHERE EXISTS (SELECT 1 FROM pool_queries x WHERE x.pool_id = p.id AND ${answered('query_id')})
          OR EXISTS (SELECT 1 FROM pool_candidates x WHERE x.pool_id = p.id AND ${answered('candidate_id')})
       ORDER BY p.name`,
    )
    .pluck()
    .all({ updated: JSON.stringify([...updatedOf]), before: answerRowidBefore ?? Number.MAX_SAFE_INTEGER }) as string[];
}

/**
 * What an import's report names (ImportReport.poolsChangedInPlace): the pools of the runs it rescored,
 * those it gave text to questions they listed without, those holding questions it updated, those holding
 * questions whose answers it changed, and those whose notes on labels it set; sorted.
 */
export function poolsChangedInPlace(...sets: ReadonlyArray<Iterable<string>>): string[] {
  return [...new Set(sets.flatMap((s) => [...s]))].sort();
}
