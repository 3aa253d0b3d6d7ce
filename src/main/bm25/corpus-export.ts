/**
 * The workspace's questions as the BM25 index reads them (title and body exactly as stored), for
 * `qpairs corpus export`: to build other indexes on the same texts (the Lucene reference fixtures
 * are made from it) or to take the corpus elsewhere. In doc order, which is the index's tie order.
 *
 * Formats, one question per line, UTF-8:
 *  - `tsv`: `id \t title \t body`, with backslash escapes in every field: `\\` `\t` `\n` `\r`;
 *  - `jsonl`: `{"id", "source", "title", "body"}`.
 */
import type { Database } from 'better-sqlite3';

export const CORPUS_FORMATS = ['tsv', 'jsonl'] as const;
export type CorpusFormat = (typeof CORPUS_FORMATS)[number];

export function isCorpusFormat(s: string): s is CorpusFormat {
  return (CORPUS_FORMATS as readonly string[]).includes(s);
}

/** A TSV field: backslash, tab, newline and carriage return escaped. */
export function tsvField(s: string): string {
  return /[\\\t\n\r]/.test(s) ? s.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : s;
}

interface CorpusRow {
  id: string;
  source: string;
  title: string;
  body: string;
}

/** One line (without its newline) of the corpus file. */
export function corpusLine(r: CorpusRow, format: CorpusFormat): string {
  return format === 'tsv' ? `${tsvField(r.id)}\t${tsvField(r.title)}\t${tsvField(r.body)}` : JSON.stringify({ id: r.id, source: r.source, title: r.title, body: r.body });
}

/** The lines of the corpus (all questions, or those of one source), in doc order. */
export function* corpusLines(db: Database, format: CorpusFormat, source?: string): Generator<string> {
  const rows = (
    source === undefined
      ? db.prepare(`SELECT id, source, title, body FROM questions ORDER BY doc`).iterate()
      : db.prepare(`SELECT id, source, title, body FROM questions WHERE source = ? ORDER BY doc`).iterate(source)
  ) as IterableIterator<CorpusRow>;
  for (const r of rows) yield corpusLine(r, format);
}
