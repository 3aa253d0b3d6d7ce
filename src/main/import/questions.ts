/** questions-jsonl, questions-csv and askubuntu-corpus: question texts into the corpus. */
import { QPairsError } from '../errors';
import { QuestionInUseError, SourceConflictError, describeUse, type NewAnswer, type NewQuestion } from '../workspace/workspace';
import type { AnswerPositions } from '../workspace/workspace-corpus';
import { baseName, fileError, readCsvTable, readFields, readJsonl } from './reader';
import { numericId, numericIdProblem, parseTags } from './text';
import { optionName, type ImportContext, type Importer } from './types';

/** Where a record was read: file and line (null when the format has no lines, e.g. a pending answer). */
export interface Where {
  file: string;
  line: number | null;
  /** The source was not given (--source) but derived from the file name: the conflict error then suggests --source. */
  derivedSource?: boolean;
  /** Where an earlier file of the same import gave this id (ImportIdLines): another text now is an error, not an update. */
  earlier?: { file: string; line: number } | null;
}

function conflictError(ctx: ImportContext, e: SourceConflictError, at: Where): QPairsError {
  const hint = at.derivedSource
    ? ` (this file's source "${e.newSource}" comes from its name: give ${optionName(ctx, 'source', e.existingSource)} if it is the same corpus)`
    : '';
  return fileError(at.file, at.line, e.message.replace(/ Import with --update/, `${hint} Import with ${optionName(ctx, 'update')}`));
}

/** The workspace's refusal of a question in use, naming the update option as the surface names it. */
function inUseError(ctx: ImportContext, e: QuestionInUseError, at: Where): QPairsError {
  return fileError(at.file, at.line, e.message.replace(/ Import with --update/, ` Import with ${optionName(ctx, 'update')}`));
}

/**
 * Upserts a question and counts what happened: questionsInserted / -Updated / -Unchanged, and
 * questionsReplaced when --update replaced another source's question of the same id. Another
 * source's id without --update is an error naming file and line. A question whose text changed
 * and that is in a pool is counted (questionsUpdatedInPools) and warned about once per import
 * at the end (finishQuestionUpdates): labels given on the old text now stand for the new one.
 * `positions` (an import's AnswerPositions) learns of the questions it inserts.
 */
export function putQuestion(ctx: ImportContext, q: NewQuestion, at: Where, positions?: AnswerPositions): void {
  let r: ReturnType<typeof ctx.ws.upsertQuestion>;
  try {
    r = ctx.ws.upsertQuestion(q, { update: ctx.opts.update });
  } catch (e) {
    if (e instanceof SourceConflictError) throw conflictError(ctx, e, at);
    // Issue 23: a pooled or labeled question's text is never replaced without --update.
    if (e instanceof QuestionInUseError) throw inUseError(ctx, e, at);
    throw e;
  }
  const { result, doc } = r;
  ctx.questionSources.add(q.source);
  if (result === 'updated' && at.earlier) {
    // The last file silently won: two files of one import disagree on a question, as two labels of a pair would.
    throw fileError(
      at.file,
      at.line,
      `question ${q.id} has another title, body or field than ${at.earlier.file}, line ${at.earlier.line} gave it in this import ` +
        `(an id given in two files of one import must be the same question; import the files one at a time to replace it on purpose)`,
    );
  }
  if (result === 'inserted') {
    ctx.count('questionsInserted');
    positions?.newQuestion(q.id);
  }
  else if (r.replacedSource !== undefined) ctx.count('questionsReplaced');
  else if (result === 'updated') ctx.count('questionsUpdated');
  else ctx.count('questionsUnchanged');
  if (result === 'updated') noteUpdateInPools(ctx, q.id, at, r.touched ? describeUse(r.touched) : null);
  // The text as upsertQuestion stores it.
  if (result !== 'unchanged') ctx.changed(doc, q.title ?? '', q.body ?? '');
}

/** Counts (and remembers one example of) an updated question that some pool holds. */
function noteUpdateInPools(ctx: ImportContext, id: string, at: Where, touched: string | null): void {
  const pool = ctx.ws
    .stmt(
      `SELECT p.name FROM pools p WHERE EXISTS (SELECT 1 FROM pool_queries q WHERE q.pool_id = p.id AND q.query_id = @id)
         OR EXISTS (SELECT 1 FROM pool_candidates c WHERE c.pool_id = p.id AND c.candidate_id = @id) ORDER BY p.id LIMIT 1`,
    )
    .get({ id }) as { name: string } | undefined;
  if (!pool) return;
  const n = (ctx.report.counts.questionsUpdatedInPools ?? 0) + 1;
  ctx.count('questionsUpdatedInPools');
  if (n === 1) {
    ctx.warn(
      `${at.line == null ? at.file : `${at.file}, line ${at.line}`}: question ${id} (${touched ?? `in pool "${pool.name}"`}) has a new text (${optionName(ctx, 'update')}; the old one is kept in its history); ` +
        `labels given on the old text now stand for the new one (the import's report counts every such question)`,
    );
  }
}

/**
 * Upserts an answer (or comment) and counts what happened (answersInserted/-Updated/-Unchanged), in
 * the data's own noun: `comments` counts commentsInserted/-Updated/-Unchanged (SemEval's threads hold
 * comments, and its report said them twice, as comments read and as answers added).
 * `positions`: the import's next answer positions of the questions it inserted (given to
 * putQuestion too), which spares a new answer the scan of its question's answers.
 */
export function putAnswer(ctx: ImportContext, a: NewAnswer, at: Where, positions?: AnswerPositions, noun: 'answers' | 'comments' = 'answers'): void {
  let result: ReturnType<typeof ctx.ws.upsertAnswer>;
  try {
    result = ctx.ws.upsertAnswer(a, { update: ctx.opts.update, onAnswerUpdated: (ids) => ids.forEach((id) => ctx.answersUpdatedOf.add(id)) }, positions);
  } catch (e) {
    if (e instanceof SourceConflictError) throw conflictError(ctx, e, at);
    throw e;
  }
  const comments = noun === 'comments';
  if (result === 'inserted') ctx.count(comments ? 'commentsInserted' : 'answersInserted');
  else if (result === 'updated') ctx.count(comments ? 'commentsUpdated' : 'answersUpdated');
  else ctx.count(comments ? 'commentsUnchanged' : 'answersUnchanged');
}

/**
 * The question ids an import of several files has read, across its files (id → file number and
 * line), so that a question given again by a later file is told from an update: the same text is
 * unchanged, another is an error naming both places. An import of one file keeps nothing here.
 */
export class ImportIdLines {
  private static readonly byImport = new WeakMap<ImportContext, Map<string, number>>();
  private readonly seen: Map<string, number>;
  private readonly fileNo: number;
  private constructor(
    private readonly ctx: ImportContext,
    file: string,
  ) {
    let m = ImportIdLines.byImport.get(ctx);
    if (!m) ImportIdLines.byImport.set(ctx, (m = new Map()));
    this.seen = m;
    this.fileNo = ctx.report.files.indexOf(file);
  }

  /** The tracker of this file of the import, or null for an import of one file. */
  static of(ctx: ImportContext, file: string): ImportIdLines | null {
    return ctx.report.files.length > 1 ? new ImportIdLines(ctx, file) : null;
  }

  /** Records the id at this line; returns where an earlier file of the import gave it (null: none did). */
  add(id: string, line: number): { file: string; line: number } | null {
    const prev = this.seen.get(id);
    this.seen.set(id, this.fileNo * 2 ** 32 + line);
    if (prev === undefined) return null;
    const f = Math.floor(prev / 2 ** 32);
    return f === this.fileNo ? null : { file: this.ctx.report.files[f]!, line: prev % 2 ** 32 };
  }
}

/**
 * Remembers the line of every id in one file, so a repeated id is an error naming both lines
 * (memory: one map entry per question of the file).
 */
export class IdLines {
  private readonly seen = new Map<string, number>();
  constructor(private readonly file: string) {}
  add(id: string, line: number, what = 'question id'): void {
    const prev = this.seen.get(id);
    if (prev !== undefined) throw fileError(this.file, line, `duplicate ${what} "${id}" (also on line ${prev})`);
    this.seen.set(id, line);
  }
  has(id: string): boolean {
    return this.seen.has(id);
  }
}

/**
 * The questions of one file of an import, for the question importers: an id repeated in the file is an error
 * naming both lines (IdLines), an id an earlier file of the import gave is passed on to putQuestion
 * (ImportIdLines), and a question without a source of its own takes --source, else the file's `fallback`
 * source (`fromFileName`: the fallback is the file's name, which a source conflict's error then says).
 */
class FileQuestions {
  private readonly ids: IdLines;
  private readonly across: ImportIdLines | null;
  private readonly source: string;
  constructor(
    private readonly ctx: ImportContext,
    private readonly file: string,
    fallback: string,
    private readonly fromFileName: boolean,
  ) {
    this.ids = new IdLines(file);
    this.across = ImportIdLines.of(ctx, file);
    this.source = ctx.opts.source ?? fallback;
  }

  /** Takes the id read at `line` (refused when the file gave it already); returns what puts its question, once the record is checked. */
  take(id: string, line: number): (q: Omit<NewQuestion, 'id' | 'source'>, ownSource?: string | null) => void {
    this.ids.add(id, line);
    const earlier = this.across?.add(id, line) ?? null;
    return (q, ownSource = null) => {
      const derivedSource = !ownSource && this.fromFileName && this.ctx.opts.source === undefined;
      putQuestion(this.ctx, { id, source: ownSource ?? this.source, ...q }, { file: this.file, line, derivedSource, earlier });
    };
  }
}

function idOf(file: string, line: number, v: unknown, what = 'id'): string {
  if (typeof v === 'number' && Number.isFinite(v)) {
    const id = numericId(v);
    if (id === null) throw fileError(file, line, numericIdProblem(what, v));
    return id;
  }
  if (typeof v === 'string' && v.trim()) return v.trim();
  if (v === undefined || v === null || v === '') throw fileError(file, line, `missing ${what}`);
  throw fileError(file, line, `${what} must be a string or a number, not ${JSON.stringify(v)}`);
}

function optText(file: string, line: number, v: unknown, field: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw fileError(file, line, `"${field}" must be a string, not ${JSON.stringify(v)}`);
}

function emptyToNull(s: string | null | undefined): string | null {
  return s == null || s.trim() === '' ? null : s.trim();
}

/**
 * One JSON object per line: `id` (string or number), `title`, `body` (at least one of them),
 * optional `tags` (array or space-separated string), `author`, `created`, `category`, `source`.
 * Source: the record's `source`, else opts.source, else the file's base name.
 */
export const questionsJsonl: Importer = {
  name: 'questions-jsonl',
  description: 'questions as JSON lines: {id, title, body, tags?, author?, created?, source?}',
  async importFile(ctx, file) {
    const questions = new FileQuestions(ctx, file, baseName(file), true);
    for await (const { value: o, line } of readJsonl(ctx, file)) {
      const id = idOf(file, line, o.id);
      const put = questions.take(id, line);
      if (!('title' in o) && !('body' in o)) throw fileError(file, line, `question "${id}" has neither "title" nor "body"`);
      if (o.tags !== undefined && o.tags !== null && typeof o.tags !== 'string' && !Array.isArray(o.tags)) {
        throw fileError(file, line, '"tags" must be an array or a space-separated string');
      }
      // An element that is not text was stored as String(element): {"x":1} became the tag "[object-Object]".
      const badTag = Array.isArray(o.tags) ? (o.tags as unknown[]).find((t) => typeof t !== 'string' && !(typeof t === 'number' && Number.isFinite(t))) : undefined;
      if (badTag !== undefined) throw fileError(file, line, `"tags" must hold strings, not ${JSON.stringify(badTag)}`);
      const ownSource = emptyToNull(optText(file, line, o.source, 'source'));
      put({
        title: optText(file, line, o.title, 'title') ?? '',
        body: optText(file, line, o.body, 'body') ?? '',
        tags: parseTags(o.tags),
        author: emptyToNull(optText(file, line, o.author, 'author')),
        created: emptyToNull(optText(file, line, o.created, 'created')),
        category: emptyToNull(optText(file, line, o.category, 'category')),
      }, ownSource);
      ctx.tick();
    }
  },
};

/**
 * CSV with a header: `id,title,body` required; `tags` (space-separated), `author`, `created`,
 * `category`, `source` optional; other columns ignored.
 */
export const questionsCsv: Importer = {
  name: 'questions-csv',
  description: 'questions as CSV with a header: id,title,body[,tags,author,created,category,source]',
  async importFile(ctx, file) {
    const questions = new FileQuestions(ctx, file, baseName(file), true);
    let rows = 0;
    for await (const r of readCsvTable(ctx, file, ['id', 'title', 'body'])) {
      const id = r.get('id')!.trim();
      if (!id) throw fileError(file, r.line, 'missing id');
      questions.take(id, r.line)({
        title: r.get('title')!,
        body: r.get('body')!,
        tags: parseTags(r.get('tags') ?? ''),
        author: emptyToNull(r.get('author')),
        created: emptyToNull(r.get('created')),
        category: emptyToNull(r.get('category')),
      }, emptyToNull(r.get('source')));
      rows++;
      ctx.tick();
    }
    if (rows === 0) ctx.warn(`${file}: no questions (only a header)`);
  },
};

/**
 * AskUbuntu `text_tokenized.txt(.gz)`: `id \t title \t body` (already tokenized and lower-cased
 * by the dataset's authors; kept as is). Source `askubuntu` (or opts.source).
 */
export const askubuntuCorpus: Importer = {
  name: 'askubuntu-corpus',
  description: 'AskUbuntu text_tokenized.txt(.gz): id <tab> title <tab> body',
  async importFile(ctx, file) {
    const questions = new FileQuestions(ctx, file, 'askubuntu', false);
    for await (const { fields, line } of readFields(ctx, file, '\t')) {
      if (fields.length < 2 || fields.length > 3) {
        throw fileError(file, line, `expected 3 tab-separated fields (id, title, body), found ${fields.length}`);
      }
      const id = fields[0]!.trim();
      if (!id) throw fileError(file, line, 'missing id');
      questions.take(id, line)({ title: fields[1]!.trim(), body: (fields[2] ?? '').trim() });
      ctx.tick();
    }
  },
};
