/** questions-jsonl, questions-csv and askubuntu-corpus: question texts into the corpus. */
import type { NewAnswer, NewQuestion } from '../workspace/workspace';
import { baseName, fileError, readCsvTable, readFields, readJsonl } from './reader';
import { parseTags } from './text';
import type { ImportContext, Importer } from './types';

/** Upserts a question and counts what happened. */
export function putQuestion(ctx: ImportContext, q: NewQuestion): void {
  const { result, doc } = ctx.ws.upsertQuestion(q);
  if (result === 'inserted') ctx.count('questionsInserted');
  else if (result === 'updated') ctx.count('questionsUpdated');
  else ctx.count('questionsUnchanged');
  if (result !== 'unchanged') ctx.changed(doc);
}

/** Upserts an answer (or comment) and counts what happened (answersInserted/-Updated/-Unchanged). */
export function putAnswer(ctx: ImportContext, a: NewAnswer): void {
  const result = ctx.ws.upsertAnswer(a);
  if (result === 'inserted') ctx.count('answersInserted');
  else if (result === 'updated') ctx.count('answersUpdated');
  else ctx.count('answersUnchanged');
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

function idOf(file: string, line: number, v: unknown, what = 'id'): string {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
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
    const ids = new IdLines(file);
    const defaultSource = ctx.opts.source ?? baseName(file);
    for await (const { value: o, line } of readJsonl(ctx, file)) {
      const id = idOf(file, line, o.id);
      ids.add(id, line);
      if (!('title' in o) && !('body' in o)) throw fileError(file, line, `question "${id}" has neither "title" nor "body"`);
      if (o.tags !== undefined && o.tags !== null && typeof o.tags !== 'string' && !Array.isArray(o.tags)) {
        throw fileError(file, line, '"tags" must be an array or a space-separated string');
      }
      putQuestion(ctx, {
        id,
        source: emptyToNull(optText(file, line, o.source, 'source')) ?? defaultSource,
        title: optText(file, line, o.title, 'title') ?? '',
        body: optText(file, line, o.body, 'body') ?? '',
        tags: parseTags(o.tags),
        author: emptyToNull(optText(file, line, o.author, 'author')),
        created: emptyToNull(optText(file, line, o.created, 'created')),
        category: emptyToNull(optText(file, line, o.category, 'category')),
      });
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
    const ids = new IdLines(file);
    const defaultSource = ctx.opts.source ?? baseName(file);
    let rows = 0;
    for await (const r of readCsvTable(ctx, file, ['id', 'title', 'body'])) {
      const id = r.get('id')!.trim();
      if (!id) throw fileError(file, r.line, 'missing id');
      ids.add(id, r.line);
      putQuestion(ctx, {
        id,
        source: emptyToNull(r.get('source')) ?? defaultSource,
        title: r.get('title')!,
        body: r.get('body')!,
        tags: parseTags(r.get('tags') ?? ''),
        author: emptyToNull(r.get('author')),
        created: emptyToNull(r.get('created')),
        category: emptyToNull(r.get('category')),
      });
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
    const ids = new IdLines(file);
    const source = ctx.opts.source ?? 'askubuntu';
    for await (const { fields, line } of readFields(ctx, file, '\t')) {
      if (fields.length < 2 || fields.length > 3) {
        throw fileError(file, line, `expected 3 tab-separated fields (id, title, body), found ${fields.length}`);
      }
      const id = fields[0]!.trim();
      if (!id) throw fileError(file, line, 'missing id');
      ids.add(id, line);
      putQuestion(ctx, { id, source, title: fields[1]!.trim(), body: (fields[2] ?? '').trim() });
      ctx.tick();
    }
  },
};
