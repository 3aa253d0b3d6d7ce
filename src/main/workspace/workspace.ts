import type { Statement } from 'better-sqlite3';
import { NotFoundError, QPairsError } from '../errors';
import type { LabelScheme } from '../../shared/labels';
import { isReservedAnnotatorName } from '../../shared/gold';
import type { LabelRecord, PoolInfo, PoolQuery, Question, RunInfo, WorkspaceStats } from '../../shared/types';
import { openWorkspace, type Db, type OpenedDb, type OpenOptions } from './db';
import { recoverInterruptedImport } from './undo-journal';

export type UpsertResult = 'inserted' | 'updated' | 'unchanged';

/**
 * A question (or answer) id that the workspace already holds from another source. Ids are
 * scoped by source: another source's record with the same id is refused unless the caller
 * asked to replace it (`update`). Importers turn this into an error naming file and line.
 */
export class SourceConflictError extends QPairsError {
  constructor(
    readonly kind: 'question' | 'answer',
    readonly id: string,
    readonly existingSource: string,
    readonly newSource: string,
    /** When and by what the existing record was imported, e.g. `imported 2025-… (stackexchange: Posts.xml)`; null when unknown. */
    readonly origin: string | null,
  ) {
    super(
      `${kind} id "${id}" is already in the workspace from source "${existingSource}"${origin ? ` (${origin})` : ''}, ` +
        `and this ${kind} is from source "${newSource}": ids are scoped by source, so its text was not replaced. ` +
        `Import with --update to replace it on purpose.`,
    );
    this.name = 'SourceConflictError';
  }
}

/** Options of upsertQuestion / upsertAnswer. */
export interface UpsertOptions {
  /** Replace a record of the same id from another source (default: refuse with SourceConflictError). */
  update?: boolean;
}
export type AnnotatorRole = 'annotator' | 'judge' | 'owner' | 'gold' | 'system';

export interface NewQuestion {
  id: string;
  source: string;
  title?: string;
  body?: string;
  tags?: string[];
  author?: string | null;
  created?: string | null;
  category?: string | null;
}

/** An answer or comment: unlabeled text of a thread (see migration 4). */
export interface NewAnswer {
  /** The answer's own id (Stack Exchange post Id, SemEval RELC_ID). */
  id: string;
  /** The question it answers; must be in the workspace. */
  questionId: string;
  source: string;
  body: string;
  author?: string | null;
  created?: string | null;
}

interface AnswerRow {
  question_id: string;
  position: number;
  source: string;
  body: string;
  author: string | null;
  created: string | null;
}

export interface NewPool {
  name: string;
  scheme?: LabelScheme;
  retriever?: string | null;
  depth?: number | null;
  sampling?: string | null;
  guidelines?: string;
  /** Whether annotators label the pool blind (default true). */
  blind?: boolean;
}

export interface LabelInput {
  pool: string;
  queryId: string;
  candidateId: string;
  annotator: string;
  value: string | null;
  origin: string;
}

interface QuestionRow {
  doc: number;
  id: string;
  source: string;
  title: string;
  body: string;
  tags: string;
  author: string | null;
  created: string | null;
  category: string | null;
}

const now = (): string => new Date().toISOString();

function rowToQuestion(r: QuestionRow): Question {
  return {
    id: r.id,
    source: r.source,
    title: r.title,
    body: r.body,
    tags: r.tags ? r.tags.split(' ') : [],
    author: r.author,
    created: r.created,
    category: r.category,
  };
}

/**
 * A QPairs workspace: one SQLite file holding the corpus, user-marked duplicates, pools,
 * annotators, the append-only label history and rankers' runs. Synchronous (better-sqlite3);
 * every write outside an explicit transaction is its own durable transaction.
 */
export class Workspace {
  private readonly stmts = new Map<string, Statement>();
  private savepoints = 0;
  /** Bumped by every write to runs through this connection (invalidates runScoreCache). */
  private runWrites = 0;
  private readonly runScoreCache = new Map<number, { key: string; scores: Map<string, Map<string, number>> }>();
  /** PRAGMA data_version when this connection last looked (see noticeExternalChanges). */
  private dataVersion: number;
  private readonly externalListeners = new Set<() => void>();
  readonly db: Db;
  /**
   * True when the workspace was opened read-only (it cannot be written, or `readonly` was
   * asked for): reading works, every write throws a QPairsError saying so.
   */
  readonly readonly: boolean;
  /** Why it is read-only (e.g. "the file is not writable"), else null. */
  readonly readonlyReason: string | null;

  private constructor(
    opened: OpenedDb,
    readonly path: string,
  ) {
    this.db = opened.db;
    this.readonly = opened.readonly;
    this.readonlyReason = opened.readonlyReason;
    this.dataVersion = this.readDataVersion();
  }

  static create(path: string): Workspace {
    return new Workspace(openWorkspace(path, { create: true }), path);
  }

  /**
   * Opens a workspace. One that cannot be written opens read-only (see `readonly`); a path that
   * is not a workspace (a directory, an empty or foreign file, another application's database)
   * is a QPairsError naming it.
   */
  static open(path: string, opts: Omit<OpenOptions, 'create'> = {}): Workspace {
    const ws = new Workspace(openWorkspace(path, opts), path);
    if (!ws.readonly) {
      // An import interrupted by a crash or kill is rolled back first (see undo-journal.ts).
      try {
        recoverInterruptedImport(ws.db);
      } catch (e) {
        ws.close();
        throw e;
      }
    }
    return ws;
  }

  /** The user-facing error for a write to a read-only workspace. */
  readonlyError(): QPairsError {
    return new QPairsError(`workspace ${this.path} is read-only (${this.readonlyReason ?? 'opened read-only'}): it cannot be changed`, {
      file: this.path,
    });
  }

  private readDataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  /**
   * Notices commits made by OTHER connections (another process, or the engine's own import
   * connection) since the last call, through SQLite's PRAGMA data_version, which changes only
   * then. When there were some, drops what this object caches (run scores) and calls the
   * listeners (onExternalChange: e.g. the engine's BM25 index), so the next use reloads; returns
   * whether there were. Cheap: call it before serving each request.
   */
  noticeExternalChanges(): boolean {
    if (!this.db.open) return false;
    const v = this.readDataVersion();
    if (v === this.dataVersion) return false;
    this.dataVersion = v;
    this.runScoreCache.clear();
    for (const fn of [...this.externalListeners]) fn();
    return true;
  }

  /** Calls fn whenever noticeExternalChanges finds another connection's commits; returns an unsubscribe. */
  onExternalChange(fn: () => void): () => void {
    this.externalListeners.add(fn);
    return () => this.externalListeners.delete(fn);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** A cached prepared statement. */
  stmt(sql: string): Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      if (this.readonly && !s.readonly) throw this.readonlyError();
      this.stmts.set(sql, s);
    }
    return s;
  }

  /** Runs fn in one IMMEDIATE transaction (synchronous work only). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * Runs async fn inside one transaction: BEGIN IMMEDIATE, then COMMIT when fn resolves or
   * ROLLBACK when it throws, so a failure leaves nothing behind. Nested calls use a SAVEPOINT.
   * Nothing else may write through this connection while it runs, and other connections wait
   * for all of it: imports instead commit in bounded chunks that stay undoable (runUndoable in
   * undo-journal.ts), which falls back to this inside a transaction the caller opened.
   */
  async transactionAsync<T>(fn: () => Promise<T>): Promise<T> {
    const nested = this.db.inTransaction;
    const sp = `qp_${++this.savepoints}`;
    this.db.exec(nested ? `SAVEPOINT ${sp}` : 'BEGIN IMMEDIATE');
    try {
      const out = await fn();
      this.db.exec(nested ? `RELEASE ${sp}` : 'COMMIT');
      return out;
    } catch (e) {
      if (this.db.inTransaction) this.db.exec(nested ? `ROLLBACK TO ${sp}; RELEASE ${sp}` : 'ROLLBACK');
      throw e;
    }
  }

  getMeta(key: string): string | null {
    const r = this.stmt(`SELECT value FROM meta WHERE key = ?`).get(key) as { value: string } | undefined;
    return r?.value ?? null;
  }

  setMeta(key: string, value: string): void {
    this.stmt(`INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(key, value);
  }

  // ---------------------------------------------------------------- questions

  /**
   * Inserts or updates a question by id; reports what happened (re-imports are idempotent).
   * Ids are scoped by source: when the id is held by a question from ANOTHER source, this throws
   * SourceConflictError (naming that source and the import that brought it), unless
   * `opts.update`, which replaces it (`replacedSource` names the source it had). The same
   * source giving new text for its id updates it (a newer dump corrects its posts).
   */
  upsertQuestion(q: NewQuestion, opts: UpsertOptions = {}): { result: UpsertResult; doc: number; replacedSource?: string } {
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
    this.stmt(
      `UPDATE questions SET source = @source, title = @title, body = @body, tags = @tags, author = @author,
       created = @created, category = @category WHERE id = @id`,
    ).run(row);
    return old.source !== row.source ? { result: 'updated', doc: old.doc, replacedSource: old.source } : { result: 'updated', doc: old.doc };
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
   * question). Throws when the question is not in the workspace.
   */
  upsertAnswer(a: NewAnswer, opts: UpsertOptions = {}): UpsertResult {
    const row = { id: a.id, question_id: a.questionId, source: a.source, body: a.body, author: a.author ?? null, created: a.created ?? null };
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
      if (info.changes === 1) return 'inserted';
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

  // ---------------------------------------------------------------- pools

  createPool(p: NewPool): PoolInfo {
    if (!p.name.trim()) throw new QPairsError('a pool needs a name');
    if (this.findPool(p.name)) throw new QPairsError(`pool "${p.name}" already exists`);
    const at = now();
    const blind = p.blind ?? true ? 1 : 0;
    const info = this.stmt(
      `INSERT INTO pools(name, scheme, retriever, depth, sampling, guidelines, created, blind) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(p.name, p.scheme ?? 'binary', p.retriever ?? null, p.depth ?? null, p.sampling ?? null, p.guidelines ?? '', at, blind);
    this.stmt(`INSERT INTO pool_blind_history(pool_id, blind, at) VALUES (?, ?, ?)`).run(Number(info.lastInsertRowid), blind, at);
    return this.pool(p.name);
  }

  /** Switches a pool's blind labeling on or off; the change is recorded in its history (no-op when unchanged). */
  setPoolBlind(name: string, blind: boolean): PoolInfo {
    const p = this.pool(name);
    if (p.blind === blind) return p;
    this.transaction(() => {
      this.stmt(`UPDATE pools SET blind = ? WHERE id = ?`).run(blind ? 1 : 0, p.id);
      this.stmt(`INSERT INTO pool_blind_history(pool_id, blind, at) VALUES (?, ?, ?)`).run(p.id, blind ? 1 : 0, now());
    });
    return this.pool(name);
  }

  /** A pool's blind setting over time, oldest first (the first entry is the pool's creation). */
  poolBlindHistory(name: string): Array<{ blind: boolean; at: string }> {
    const p = this.pool(name);
    return (this.stmt(`SELECT blind, at FROM pool_blind_history WHERE pool_id = ? ORDER BY at`).all(p.id) as Array<{ blind: number; at: string }>).map(
      (r) => ({ blind: r.blind === 1, at: r.at }),
    );
  }

  /** The named pool, creating it with these settings when it does not exist. */
  ensurePool(p: NewPool): PoolInfo {
    return this.findPool(p.name) ?? this.createPool(p);
  }

  findPool(name: string): PoolInfo | null {
    const r = this.stmt(
      `SELECT p.*, (SELECT count(*) FROM pool_queries q WHERE q.pool_id = p.id) AS queries,
              (SELECT count(*) FROM pool_candidates c WHERE c.pool_id = p.id) AS pairs
       FROM pools p WHERE p.name = ?`,
    ).get(name) as (Omit<PoolInfo, 'scheme' | 'blind'> & { scheme: LabelScheme; blind: number }) | undefined;
    return r ? { ...r, blind: r.blind === 1 } : null;
  }

  /** The named pool; throws a user-facing error listing the pools when it is missing. */
  pool(name: string): PoolInfo {
    const p = this.findPool(name);
    if (!p) {
      const names = this.listPools().map((x) => x.name);
      throw new NotFoundError(`no pool named "${name}"` + (names.length ? ` (pools: ${names.join(', ')})` : ' (the workspace has no pools)'));
    }
    return p;
  }

  listPools(): PoolInfo[] {
    return (this.stmt(`SELECT name FROM pools ORDER BY id`).all() as Array<{ name: string }>).map((r) => this.pool(r.name));
  }

  setGuidelines(pool: string, markdown: string): void {
    this.stmt(`UPDATE pools SET guidelines = ? WHERE id = ?`).run(markdown, this.pool(pool).id);
  }

  /**
   * Adds a query with its ranked candidates to a pool. Existing candidates keep their position;
   * new ones are appended after them (so re-importing is idempotent). Returns the number of new
   * candidates.
   */
  addPoolQuery(pool: string, queryId: string, candidates: readonly string[]): number {
    const p = this.pool(pool);
    const has = this.stmt(`SELECT 1 FROM pool_queries WHERE pool_id = ? AND query_id = ?`).get(p.id, queryId);
    if (!has) {
      const pos = (this.stmt(`SELECT coalesce(max(position), -1) + 1 AS n FROM pool_queries WHERE pool_id = ?`).get(p.id) as { n: number }).n;
      this.stmt(`INSERT INTO pool_queries(pool_id, query_id, position) VALUES (?, ?, ?)`).run(p.id, queryId, pos);
    }
    let next = (this.stmt(`SELECT coalesce(max(position), -1) + 1 AS n FROM pool_candidates WHERE pool_id = ? AND query_id = ?`).get(
      p.id,
      queryId,
    ) as { n: number }).n;
    const ins = this.stmt(`INSERT OR IGNORE INTO pool_candidates(pool_id, query_id, candidate_id, position) VALUES (?, ?, ?, ?)`);
    let added = 0;
    for (const c of candidates) {
      if (c === queryId) continue;
      if (ins.run(p.id, queryId, c, next).changes > 0) {
        next++;
        added++;
      }
    }
    return added;
  }

  /** The pool's queries in order, each with its candidates in the pool's original order. */
  poolQueries(pool: string): PoolQuery[] {
    const p = this.pool(pool);
    const rows = this.stmt(
      `SELECT q.query_id, c.candidate_id FROM pool_queries q
       LEFT JOIN pool_candidates c ON c.pool_id = q.pool_id AND c.query_id = q.query_id
       WHERE q.pool_id = ? ORDER BY q.position, c.position`,
    ).all(p.id) as Array<{ query_id: string; candidate_id: string | null }>;
    const out: PoolQuery[] = [];
    let cur: PoolQuery | null = null;
    for (const r of rows) {
      if (!cur || cur.queryId !== r.query_id) {
        cur = { queryId: r.query_id, candidates: [] };
        out.push(cur);
      }
      if (r.candidate_id != null) cur.candidates.push(r.candidate_id);
    }
    return out;
  }

  hasPoolPair(poolId: number, queryId: string, candidateId: string): boolean {
    return !!this.stmt(`SELECT 1 FROM pool_candidates WHERE pool_id = ? AND query_id = ? AND candidate_id = ?`).get(
      poolId,
      queryId,
      candidateId,
    );
  }

  // ---------------------------------------------------------------- annotators

  ensureAnnotator(name: string, role: AnnotatorRole = name === 'gold' ? 'gold' : 'annotator'): number {
    const n = name.trim();
    if (!n) throw new QPairsError('annotator name is empty');
    const r = this.stmt(`SELECT id FROM annotators WHERE name = ?`).get(n) as { id: number } | undefined;
    if (!r && isReservedAnnotatorName(n)) throw new QPairsError(`annotator names starting with "@" are reserved ("${n}")`);
    if (r) return r.id;
    return Number(this.stmt(`INSERT INTO annotators(name, role, created) VALUES (?, ?, ?)`).run(n, role, now()).lastInsertRowid);
  }

  listAnnotators(): Array<{ id: number; name: string; role: AnnotatorRole }> {
    return this.stmt(`SELECT id, name, role FROM annotators ORDER BY id`).all() as Array<{ id: number; name: string; role: AnnotatorRole }>;
  }

  setAnnotatorRole(name: string, role: AnnotatorRole): void {
    const id = this.ensureAnnotator(name, role);
    this.stmt(`UPDATE annotators SET role = ? WHERE id = ?`).run(role, id);
  }

  // ---------------------------------------------------------------- labels

  /**
   * Appends a label event. Skips (returns null) when the annotator's current label for the pair
   * already has this value, so re-importing a labels file adds nothing. The pair must be in the
   * pool. Returns the new event's seq.
   */
  addLabel(l: LabelInput, poolId = this.pool(l.pool).id): number | null {
    if (!this.hasPoolPair(poolId, l.queryId, l.candidateId)) {
      throw new NotFoundError(`pair ${l.queryId} → ${l.candidateId} is not in pool "${l.pool}"`);
    }
    const annotatorId = this.ensureAnnotator(l.annotator);
    const cur = this.stmt(
      `SELECT value FROM labels WHERE pool_id = ? AND annotator_id = ? AND query_id = ? AND candidate_id = ? ORDER BY seq DESC LIMIT 1`,
    ).get(poolId, annotatorId, l.queryId, l.candidateId) as { value: string | null } | undefined;
    if ((cur?.value ?? null) === l.value) return null;
    const info = this.stmt(
      `INSERT INTO labels(pool_id, query_id, candidate_id, annotator_id, value, at, origin) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(poolId, l.queryId, l.candidateId, annotatorId, l.value, now(), l.origin);
    return Number(info.lastInsertRowid);
  }

  /**
   * Undoes label event `seq`: appends an event restoring the value the annotator had for that
   * pair just before it (or clearing it). Returns the new event.
   */
  undoLabel(seq: number, origin = `undo:${seq}`): LabelRecord {
    const ev = this.stmt(`SELECT * FROM labels WHERE seq = ?`).get(seq) as
      | { pool_id: number; query_id: string; candidate_id: string; annotator_id: number }
      | undefined;
    if (!ev) throw new NotFoundError(`no label event ${seq}`);
    const prev = this.stmt(
      `SELECT value FROM labels WHERE pool_id = ? AND annotator_id = ? AND query_id = ? AND candidate_id = ? AND seq < ?
       ORDER BY seq DESC LIMIT 1`,
    ).get(ev.pool_id, ev.annotator_id, ev.query_id, ev.candidate_id, seq) as { value: string | null } | undefined;
    const info = this.stmt(
      `INSERT INTO labels(pool_id, query_id, candidate_id, annotator_id, value, at, origin) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(ev.pool_id, ev.query_id, ev.candidate_id, ev.annotator_id, prev?.value ?? null, now(), origin);
    return this.labelEvent(Number(info.lastInsertRowid))!;
  }

  labelEvent(seq: number): LabelRecord | null {
    const r = this.stmt(
      `SELECT l.seq, p.name AS pool, l.query_id AS queryId, l.candidate_id AS candidateId, a.name AS annotator, l.value, l.at, l.origin
       FROM labels l JOIN pools p ON p.id = l.pool_id JOIN annotators a ON a.id = l.annotator_id WHERE l.seq = ?`,
    ).get(seq) as LabelRecord | undefined;
    return r ?? null;
  }

  /**
   * Current labels of a pool: the latest event per (query, candidate, annotator), cleared ones
   * left out. Optionally for one annotator only.
   */
  currentLabels(pool: string, annotator?: string): Array<{ queryId: string; candidateId: string; annotator: string; value: string; seq: number }> {
    const p = this.pool(pool);
    const rows = this.stmt(
      `SELECT l.query_id AS queryId, l.candidate_id AS candidateId, a.name AS annotator, l.value, l.seq
       FROM labels l JOIN annotators a ON a.id = l.annotator_id
       WHERE l.pool_id = @pool AND (@ann IS NULL OR a.name = @ann)
         AND l.seq = (SELECT max(seq) FROM labels m WHERE m.pool_id = l.pool_id AND m.annotator_id = l.annotator_id
                      AND m.query_id = l.query_id AND m.candidate_id = l.candidate_id)
         AND l.value IS NOT NULL
       ORDER BY l.seq`,
    ).all({ pool: p.id, ann: annotator ?? null }) as Array<{ queryId: string; candidateId: string; annotator: string; value: string; seq: number }>;
    return rows;
  }

  labelHistory(pool: string, opts: { annotator?: string; limit?: number } = {}): LabelRecord[] {
    const p = this.pool(pool);
    return this.stmt(
      `SELECT l.seq, @name AS pool, l.query_id AS queryId, l.candidate_id AS candidateId, a.name AS annotator, l.value, l.at, l.origin
       FROM labels l JOIN annotators a ON a.id = l.annotator_id
       WHERE l.pool_id = @pool AND (@ann IS NULL OR a.name = @ann) ORDER BY l.seq DESC LIMIT @limit`,
    ).all({ name: p.name, pool: p.id, ann: opts.annotator ?? null, limit: opts.limit ?? -1 }) as LabelRecord[];
  }

  // ---------------------------------------------------------------- runs

  /** Creates the run, or returns the existing one (its scores are then replaced pair by pair). */
  /** Records that this connection changed runs or run scores (cached scores are then reread). */
  touchRuns(): void {
    this.runWrites++;
  }

  ensureRun(pool: string, name: string, kind: string, config: unknown = {}): number {
    this.touchRuns();
    const p = this.pool(pool);
    const r = this.stmt(`SELECT id FROM runs WHERE pool_id = ? AND name = ?`).get(p.id, name) as { id: number } | undefined;
    if (r) return r.id;
    return Number(
      this.stmt(`INSERT INTO runs(pool_id, name, kind, config, created) VALUES (?, ?, ?, ?, ?)`).run(p.id, name, kind, JSON.stringify(config), now())
        .lastInsertRowid,
    );
  }

  setRunScore(runId: number, queryId: string, candidateId: string, score: number): void {
    if (!Number.isFinite(score)) throw new QPairsError(`score for ${queryId} → ${candidateId} is not a finite number`);
    this.touchRuns();
    this.stmt(
      `INSERT INTO run_scores(run_id, query_id, candidate_id, score) VALUES (?, ?, ?, ?)
       ON CONFLICT(run_id, query_id, candidate_id) DO UPDATE SET score = excluded.score`,
    ).run(runId, queryId, candidateId, score);
  }

  listRuns(pool: string): RunInfo[] {
    const p = this.pool(pool);
    return this.stmt(
      `SELECT r.id, @name AS pool, r.name, r.kind, r.created, (SELECT count(*) FROM run_scores s WHERE s.run_id = r.id) AS pairs
       FROM runs r WHERE r.pool_id = @pool ORDER BY r.id`,
    ).all({ name: p.name, pool: p.id }) as RunInfo[];
  }

  /** The names and kinds of a pool's runs (listRuns without counting their scores). */
  runKinds(pool: string): Array<{ name: string; kind: string }> {
    return this.stmt(`SELECT r.name, r.kind FROM runs r JOIN pools p ON p.id = r.pool_id WHERE p.name = ? ORDER BY r.id`).all(pool) as Array<{ name: string; kind: string }>;
  }

  /**
   * A run's scores: queryId → (candidateId → score). Cached until the run data changes — through
   * this connection (touchRuns) or a commit by another one (SQLite's data_version) — since the
   * Evaluate screen rereads every run on each label. Treat the result as read-only.
   */
  runScores(runId: number): Map<string, Map<string, number>> {
    const key = `${this.db.pragma('data_version', { simple: true }) as number}:${this.runWrites}`;
    const hit = this.runScoreCache.get(runId);
    if (hit && hit.key === key) return hit.scores;
    const out = new Map<string, Map<string, number>>();
    for (const r of this.stmt(`SELECT query_id, candidate_id, score FROM run_scores WHERE run_id = ?`).iterate(runId) as IterableIterator<{
      query_id: string;
      candidate_id: string;
      score: number;
    }>) {
      let m = out.get(r.query_id);
      if (!m) out.set(r.query_id, (m = new Map()));
      m.set(r.candidate_id, r.score);
    }
    this.runScoreCache.set(runId, { key, scores: out });
    return out;
  }

  deleteRun(pool: string, name: string): boolean {
    const p = this.pool(pool);
    this.touchRuns();
    return this.stmt(`DELETE FROM runs WHERE pool_id = ? AND name = ?`).run(p.id, name).changes > 0;
  }

  // ---------------------------------------------------------------- imports & stats

  /**
   * Records an import in the audit table. The stored report also gets `maxDoc`, the highest
   * question doc number after the import, so questionOrigin can tell which import brought a
   * question.
   */
  recordImport(format: string, files: string[], report: unknown): void {
    const maxDoc = (this.stmt(`SELECT coalesce(max(doc), 0) AS n FROM questions`).get() as { n: number }).n;
    const stored = report && typeof report === 'object' && !Array.isArray(report) ? { ...(report as Record<string, unknown>), maxDoc } : report;
    this.stmt(`INSERT INTO imports(format, files, at, report) VALUES (?, ?, ?, ?)`).run(format, JSON.stringify(files), now(), JSON.stringify(stored));
  }

  listImports(): Array<{ id: number; format: string; files: string[]; at: string; report: unknown }> {
    return (this.stmt(`SELECT * FROM imports ORDER BY id`).all() as Array<{ id: number; format: string; files: string; at: string; report: string }>).map(
      (r) => ({ ...r, files: JSON.parse(r.files) as string[], report: JSON.parse(r.report) as unknown }),
    );
  }

  stats(): WorkspaceStats {
    const one = (sql: string): number => (this.stmt(sql).get() as { n: number }).n;
    const sources: Record<string, number> = {};
    for (const r of this.stmt(`SELECT source, count(*) AS n FROM questions GROUP BY source ORDER BY source`).all() as Array<{
      source: string;
      n: number;
    }>)
      sources[r.source] = r.n;
    return {
      questions: one(`SELECT count(*) AS n FROM questions`),
      answers: one(`SELECT count(*) AS n FROM answers`),
      duplicatePairs: one(`SELECT count(*) AS n FROM (SELECT DISTINCT lo, hi FROM duplicate_pairs)`),
      pools: one(`SELECT count(*) AS n FROM pools`),
      labels: one(
        `SELECT count(*) AS n FROM labels l WHERE l.value IS NOT NULL AND l.seq = (SELECT max(seq) FROM labels m
         WHERE m.pool_id = l.pool_id AND m.annotator_id = l.annotator_id AND m.query_id = l.query_id AND m.candidate_id = l.candidate_id)`,
      ),
      labelEvents: one(`SELECT count(*) AS n FROM labels`),
      annotators: one(`SELECT count(*) AS n FROM annotators`),
      runs: one(`SELECT count(*) AS n FROM runs`),
      indexedQuestions: this.indexedCount(),
      sources,
    };
  }

  private indexedCount(): number {
    try {
      return (this.stmt(`SELECT count(*) AS n FROM bm25_docs`).get() as { n: number }).n;
    } catch {
      return 0;
    }
  }
}
