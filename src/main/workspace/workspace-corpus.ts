/**
 * The corpus in the workspace (layer 2 of 4): questions (BM25 doc numbers, ids scoped by source),
 * answers and comments as unlabeled text, and user-marked duplicate and negative pairs.
 */
import { QPairsError } from '../errors';
import { QuestionInUseError, SourceConflictError, rowToQuestion, type QuestionUse, type AnswerRow, type NewAnswer, type NewQuestion, type QuestionRow, type UpsertOptions, type UpsertResult } from './workspace-types';
import type { Question } from '../../shared/types';
import { WorkspaceCore } from './workspace-core';

/**
 * The next answer position (1 + the highest one; 0 for none) of some questions, kept by one
 * import so that a new answer to a question it inserted costs one INSERT instead of a scan of
 * the question's answers. Entries come only from `newQuestion` (a question just inserted has no
 * answers: answers reference their question) and are kept right by upsertAnswer, which drops
 * an entry whenever it cannot tell the new value (an answer moved in or out). A bounded cache:
 * past `max` entries the oldest are dropped (their questions are then scanned again), so memory
 * does not grow with the dump (answers follow their question closely in a dump's Id order).
 */
export class AnswerPositions {
  private readonly next = new Map<string, number>();
  constructor(private readonly max = 1 << 16) {}

  /** The question `id` was just inserted (it has no answers). */
  newQuestion(id: string): void {
    this.set(id, 0);
  }

  get(id: string): number | undefined {
    return this.next.get(id);
  }

  set(id: string, n: number): void {
    if (!this.next.has(id) && this.next.size >= this.max) {
      let drop = this.max >> 2;
      for (const k of this.next.keys()) {
        this.next.delete(k);
        if (--drop === 0) break;
      }
    }
    this.next.set(id, n);
  }

  forget(id: string): void {
    this.next.delete(id);
  }
}

export abstract class WorkspaceCorpus extends WorkspaceCore {
  // ---------------------------------------------------------------- questions

  /**
   * Inserts or updates a question by id; reports what happened (re-imports are idempotent).
   * Ids are scoped by source: when the id is held by a question from ANOTHER source, this throws
   * SourceConflictError (naming that source and the import that brought it), unless
   * `opts.update`, which replaces it (`replacedSource` names the source it had). The same
   * source giving new text for its id updates it (a newer dump corrects its posts).
   */
  upsertQuestion(q: NewQuestion, opts: UpsertOptions = {}): { result: UpsertResult; doc: number; replacedSource?: string; touched?: QuestionUse } {
    const tags = (q.tags ?? []).filter(Boolean).join(' ');
    const row = {
      id: q.id,
      source: q.source,
      title: q.title ?? '',
      body: q.body ?? '',
      tags,
      author: q.author ?? null,
      created: q.created ?? null,
      category: q.category ?? null,
    };
    // A new id (an import's common case) is one statement; a taken one is read and compared.
    if (!this.readonly) {
      const info = this.stmt(
        `INSERT INTO questions(id, source, title, body, tags, author, created, category)
         VALUES (@id, @source, @title, @body, @tags, @author, @created, @category) ON CONFLICT(id) DO NOTHING`,
      ).run(row);
      if (info.changes === 1) return { result: 'inserted', doc: Number(info.lastInsertRowid) };
    }
    const old = this.stmt(`SELECT * FROM questions WHERE id = ?`).get(q.id) as QuestionRow | undefined;
    if (!old) {
      const info = this.stmt(
        `INSERT INTO questions(id, source, title, body, tags, author, created, category)
         VALUES (@id, @source, @title, @body, @tags, @author, @created, @category)`,
      ).run(row);
      return { result: 'inserted', doc: Number(info.lastInsertRowid) };
    }
    const same =
      old.source === row.source &&
      old.title === row.title &&
      old.body === row.body &&
      old.tags === row.tags &&
      old.author === row.author &&
      old.created === row.created &&
      old.category === row.category;
    if (same) return { result: 'unchanged', doc: old.doc };
    if (old.source !== row.source && !opts.update) {
      throw new SourceConflictError('question', q.id, old.source, row.source, this.questionOrigin(old.doc));
    }
    // Issue 23: a text others work on (in a pool, or labeled) is replaced only on purpose, and kept.
    let touched: QuestionUse | undefined;
    if (old.title !== row.title || old.body !== row.body || old.tags !== row.tags) {
      const use = this.questionUse(q.id);
      if (use.pools.length > 0 || use.labels > 0) {
        if (!opts.update) throw new QuestionInUseError(q.id, use);
        this.stmt(
          `INSERT INTO question_text_history(question_id, source, title, body, tags, replaced_at, touched) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        ).run(q.id, old.source, old.title, old.body, old.tags, new Date().toISOString(), JSON.stringify(use));
        touched = use;
      }
    }
    this.stmt(
      `UPDATE questions SET source = @source, title = @title, body = @body, tags = @tags, author = @author,
       created = @created, category = @category WHERE id = @id`,
    ).run(row);
    const out = old.source !== row.source ? { result: 'updated' as const, doc: old.doc, replacedSource: old.source } : { result: 'updated' as const, doc: old.doc };
    return touched ? { ...out, touched } : out;
  }

  /** The pools a question is in (as a query or a candidate) and the label events on its pairs (issue 23). */
  questionUse(id: string): QuestionUse {
    const pools = this.stmt(
      `SELECT p.name FROM pools p WHERE EXISTS (SELECT 1 FROM pool_queries q WHERE q.pool_id = p.id AND q.query_id = @id)
         OR EXISTS (SELECT 1 FROM pool_candidates c WHERE c.pool_id = p.id AND c.candidate_id = @id) ORDER BY p.id`,
    )
      .pluck()
      .all({ id }) as string[];
    const labels = pools.length === 0 ? 0 : (this.stmt(`SELECT count(*) FROM labels WHERE query_id = @id OR candidate_id = @id`).pluck().get({ id }) as number);
    return { pools, labels };
  }

  /** A question's earlier texts, oldest first: what `--update` imports replaced while it was in use (issue 23). */
  questionTextHistory(id: string): Array<{ source: string; title: string; body: string; tags: string; replacedAt: string; touched: QuestionUse }> {
    return (
      this.stmt(`SELECT source, title, body, tags, replaced_at, touched FROM question_text_history WHERE question_id = ? ORDER BY seq`).all(id) as Array<{
        source: string;
        title: string;
        body: string;
        tags: string;
        replaced_at: string;
        touched: string;
      }>
    ).map((r) => ({ source: r.source, title: r.title, body: r.body, tags: r.tags, replacedAt: r.replaced_at, touched: JSON.parse(r.touched) as QuestionUse }));
  }

  /**
   * When and by which import the question with this doc number came into the workspace, as
   * "imported AT by a FORMAT import of FILES" (null when no recorded import brought it: it came
   * in through the running import or outside imports). Each import records the highest doc
   * number after it (`maxDoc`; older imports: estimated from their questionsInserted count).
   */
  questionOrigin(doc: number): string | null {
    let prevMax = 0;
    for (const r of this.stmt(`SELECT at, format, files, report FROM imports ORDER BY id`).all() as Array<{ at: string; format: string; files: string; report: string }>) {
      let rep: { maxDoc?: unknown; counts?: { questionsInserted?: unknown } } = {};
      try {
        rep = JSON.parse(r.report) as typeof rep;
      } catch {
        /* not ours to judge */
      }
      const max = typeof rep.maxDoc === 'number' ? rep.maxDoc : prevMax + (typeof rep.counts?.questionsInserted === 'number' ? rep.counts.questionsInserted : 0);
      if (doc <= max && doc > prevMax) {
        let files: string[] = [];
        try {
          files = JSON.parse(r.files) as string[];
        } catch {
          files = [];
        }
        const names = files.map((f) => f.split(/[\\/]/).pop()).join(', ');
        return `imported ${r.at} by a ${r.format} import${names ? ` of ${names}` : ''}`;
      }
      prevMax = Math.max(prevMax, max);
    }
    return null;
  }

  getQuestion(id: string): Question | null {
    const r = this.stmt(`SELECT * FROM questions WHERE id = ?`).get(id) as QuestionRow | undefined;
    return r ? rowToQuestion(r) : null;
  }

  /** Questions by id, in the order asked; ids without text are absent from the map. */
  getQuestions(ids: readonly string[]): Map<string, Question> {
    const out = new Map<string, Question>();
    const s = this.stmt(`SELECT * FROM questions WHERE id = ?`);
    for (const id of ids) {
      const r = s.get(id) as QuestionRow | undefined;
      if (r) out.set(id, rowToQuestion(r));
    }
    return out;
  }

  /**
   * Questions' titles by id, each cut to at most `max` characters (a longer one ends in "…"),
   * without reading their bodies into JavaScript; ids without text are absent from the map.
   */
  getQuestionTitles(ids: readonly string[], max: number): Map<string, string> {
    const out = new Map<string, string>();
    if (ids.length === 0) return out;
    // One statement for all of them (the ids as a JSON array): one per id took 160-690 ms for the
    // 5,500 titles of a 3,000-pair review queue, this 55-110 ms.
    const rows = this.stmt(
      `SELECT q.id, CASE WHEN length(q.title) > @max THEN substr(q.title, 1, @max - 1) || '…' ELSE q.title END AS title
       FROM json_each(@ids) j JOIN questions q ON q.id = j.value`,
    ).all({ ids: JSON.stringify(ids), max }) as Array<{ id: string; title: string }>;
    for (const r of rows) out.set(r.id, r.title);
    return out;
  }

  docOf(id: string): number | null {
    const r = this.stmt(`SELECT doc FROM questions WHERE id = ?`).get(id) as { doc: number } | undefined;
    return r?.doc ?? null;
  }

  idOfDoc(doc: number): string | null {
    const r = this.stmt(`SELECT id FROM questions WHERE doc = ?`).get(doc) as { id: string } | undefined;
    return r?.id ?? null;
  }

  questionCount(): number {
    return (this.stmt(`SELECT count(*) AS n FROM questions`).get() as { n: number }).n;
  }

  /** Iterates all questions in doc order (streaming). */
  *iterateQuestions(fromDoc = 0): IterableIterator<QuestionRow> {
    yield* this.db.prepare(`SELECT * FROM questions WHERE doc > ? ORDER BY doc`).iterate(fromDoc) as IterableIterator<QuestionRow>;
  }

  // ---------------------------------------------------------------- answers

  /**
   * Inserts or updates an answer by id (re-imports are idempotent). A new answer is placed after
   * the question's other answers; an updated one keeps its position (unless it moved to another
   * question). Throws when the question is not in the workspace. `positions`: an import's
   * cache of next positions (see AnswerPositions), kept up to date here.
   */
  upsertAnswer(a: NewAnswer, opts: UpsertOptions = {}, positions?: AnswerPositions): UpsertResult {
    const row = { id: a.id, question_id: a.questionId, source: a.source, body: a.body, author: a.author ?? null, created: a.created ?? null };
    const next = positions?.get(row.question_id);
    if (next !== undefined && !this.readonly) {
      // The question's next position is known (it came in with this import): a new answer is
      // one plain INSERT (the foreign key checks that the question is still there). When the id
      // is taken (an answer moved here, or repeated) or the question is gone, the general path.
      let inserted = false;
      try {
        inserted =
          this.stmt(
            `INSERT INTO answers(id, question_id, position, source, body, author, created) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING`,
          ).run(row.id, row.question_id, next, row.source, row.body, row.author, row.created).changes === 1;
      } catch (e) {
        if ((e as { code?: string }).code !== 'SQLITE_CONSTRAINT_FOREIGNKEY') throw e;
        positions!.forget(row.question_id);
      }
      if (inserted) {
        positions!.set(row.question_id, next + 1);
        return 'inserted';
      }
    }
    const old = this.stmt(`SELECT question_id, position, source, body, author, created FROM answers WHERE id = ?`).get(a.id) as AnswerRow | undefined;
    if (!old && !this.readonly) {
      // A new answer (the common case of an import): its question's next position from a plain
      // scan of the question's positions (max() in SQL takes a slower path), then one INSERT that
      // also checks that the question exists. When it does not, nothing is inserted and the
      // general path below reports it.
      let position = 0;
      for (const p of this.stmt(`SELECT position FROM answers WHERE question_id = ?`).pluck().all(row.question_id) as number[]) if (p >= position) position = p + 1;
      const info = this.stmt(
        `INSERT INTO answers(id, question_id, position, source, body, author, created)
         SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM questions WHERE id = ?) ON CONFLICT(id) DO NOTHING`,
      ).run(row.id, row.question_id, position, row.source, row.body, row.author, row.created, row.question_id);
      if (info.changes === 1) {
        positions?.forget(row.question_id);
        return 'inserted';
      }
    }
    if (
      old &&
      old.question_id === row.question_id &&
      old.source === row.source &&
      old.body === row.body &&
      old.author === row.author &&
      old.created === row.created
    ) {
      return 'unchanged';
    }
    if (old && old.source !== row.source && !opts.update) throw new SourceConflictError('answer', a.id, old.source, row.source, null);
    if (this.docOf(a.questionId) === null) throw new QPairsError(`answer ${a.id}: its question ${a.questionId} is not in the workspace`);
    const position =
      old && old.question_id === row.question_id
        ? old.position
        : (this.stmt(`SELECT coalesce(max(position), -1) + 1 AS n FROM answers WHERE question_id = ?`).get(a.questionId) as { n: number }).n;
    this.stmt(
      `INSERT INTO answers(id, question_id, position, source, body, author, created)
       VALUES (@id, @question_id, @position, @source, @body, @author, @created)
       ON CONFLICT(id) DO UPDATE SET question_id = excluded.question_id, position = excluded.position, source = excluded.source,
         body = excluded.body, author = excluded.author, created = excluded.created`,
    ).run({ ...row, position });
    // The highest position of either question may have changed: ask the table next time.
    positions?.forget(row.question_id);
    if (old) positions?.forget(old.question_id);
    if (old) opts.onAnswerUpdated?.(old.question_id === row.question_id ? [row.question_id] : [row.question_id, old.question_id]);
    return old ? 'updated' : 'inserted';
  }

  /** The answers of a question, in position order. */
  answersOf(questionId: string): Array<{ id: string; position: number; source: string; body: string; author: string | null; created: string | null }> {
    return this.stmt(`SELECT id, position, source, body, author, created FROM answers WHERE question_id = ? ORDER BY position`).all(questionId) as Array<{
      id: string;
      position: number;
      source: string;
      body: string;
      author: string | null;
      created: string | null;
    }>;
  }

  answerCount(): number {
    return (this.stmt(`SELECT count(*) AS n FROM answers`).get() as { n: number }).n;
  }

  /** Iterates the answers' bodies in insertion (rowid) order (streaming). */
  *iterateAnswerBodies(): IterableIterator<string> {
    for (const r of this.db.prepare(`SELECT body FROM answers ORDER BY rowid`).iterate() as IterableIterator<{ body: string }>) yield r.body;
  }

  // ---------------------------------------------------------------- pairs

  /** Records a user-marked duplicate; returns false when it was already known (either direction). */
  addDuplicatePair(questionId: string, originalId: string, source: string): boolean {
    if (questionId === originalId) return false;
    const lo = questionId < originalId ? questionId : originalId;
    const hi = questionId < originalId ? originalId : questionId;
    const known = this.stmt(`SELECT 1 FROM duplicate_pairs WHERE lo = ? AND hi = ? AND source = ?`).get(lo, hi, source);
    if (known) return false;
    this.stmt(`INSERT INTO duplicate_pairs(question_id, original_id, source) VALUES (?, ?, ?)`).run(questionId, originalId, source);
    return true;
  }

  addNegativePair(queryId: string, candidateId: string, source: string): boolean {
    const info = this.stmt(`INSERT OR IGNORE INTO negative_pairs(query_id, candidate_id, source) VALUES (?, ?, ?)`).run(
      queryId,
      candidateId,
      source,
    );
    return info.changes > 0;
  }

  /** Distinct unordered duplicate pairs (over all sources). */
  duplicatePairs(): Array<[string, string]> {
    return (this.stmt(`SELECT DISTINCT lo, hi FROM duplicate_pairs ORDER BY lo, hi`).all() as Array<{ lo: string; hi: string }>).map(
      (r) => [r.lo, r.hi],
    );
  }

  negativePairs(): Array<[string, string]> {
    return (this.stmt(`SELECT DISTINCT query_id, candidate_id FROM negative_pairs`).all() as Array<{ query_id: string; candidate_id: string }>).map(
      (r) => [r.query_id, r.candidate_id],
    );
  }
}
