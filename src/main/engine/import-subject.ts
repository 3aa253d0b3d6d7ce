import path from 'node:path';
import type { ImportSubject, ParsedArgs } from '../../shared/contract';

/**
 * What an import job imports, for its events and for an undo asked for meanwhile: the files as the
 * user named them — an upload by the name it was uploaded under, a path on the engine's machine by
 * its base name only (no client, remote or not, learns a server path from it).
 */
export function importSubject(a: ParsedArgs<'import.start'>, startedBy: string | null): ImportSubject {
  return {
    format: a.format,
    files: a.sources.map((s) => ('path' in s ? path.basename(s.path) : s.name)),
    ...(a.pool === undefined ? {} : { pool: a.pool }),
    startedBy,
    started: new Date().toISOString(),
  };
}

/** An import subject as an import's journal names it: `questions-jsonl import of a.jsonl, b.jsonl`. */
export function importWhat(s: ImportSubject): string {
  return `${s.format} import of ${s.files.join(', ')}`;
}
