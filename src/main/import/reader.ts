/**
 * Streaming readers shared by the importers: validated UTF-8 text chunks (transparent gzip),
 * lines, RFC 4180 CSV records and JSON lines, each with 1-based line numbers. Memory is bounded
 * by the chunk size plus the longest line/record (capped at MAX_RECORD_CHARS).
 */
import { closeSync, createReadStream, openSync, readSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { CancelledError, QPairsError, throwIfAborted } from '../errors';
import { isMemberPath, memberSize, openMember } from './archive';
import { fileError } from './file-error';
import { gzipDataError } from './gzip-error';
import { Utf8TextDecoder, type TextChunk } from './utf8-text';
import type { ImportContext } from './types';

export const CHUNK_BYTES = 64 * 1024;
/** Longest line (or multi-line CSV record) accepted, in UTF-16 code units. */
export const MAX_RECORD_CHARS = 64 * 1024 * 1024;

export { fileError } from './file-error';
export { firstInvalidUtf8, type TextChunk } from './utf8-text';

/** The file's name without folders and without its extensions (`a/dev.txt.gz` → `dev`, `x/SemEval-dev.xml` → `SemEval-dev`). */
export function baseName(file: string, stripAll = true): string {
  let b = path.basename(file);
  if (b.toLowerCase().endsWith('.gz')) b = b.slice(0, -3);
  if (!stripAll) {
    const ext = path.extname(b);
    return ext ? b.slice(0, -ext.length) : b;
  }
  const dot = b.indexOf('.');
  return dot > 0 ? b.slice(0, dot) : b;
}

/** True when the file is gzip data (by name `.gz`, or by its magic bytes 1f 8b). */
export function isGzip(file: string): boolean {
  return file.toLowerCase().endsWith('.gz') || hasGzipHeader(file);
}

/** True when the file starts with gzip's magic bytes 1f 8b. */
function hasGzipHeader(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const b = Buffer.alloc(2);
    return readSync(fd, b, 0, 2, 0) === 2 && b[0] === 0x1f && b[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

/** An input the file system refuses, in words (the code stays in brackets for searching). */
export function cannotRead(e: NodeJS.ErrnoException): string {
  const why: Record<string, string> = {
    ENOENT: 'no such file',
    ENOTDIR: 'no such file (a folder on its path is a file)',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EISDIR: 'is a folder, not a file',
    ELOOP: 'too many symbolic links (a loop?)',
  };
  const text = e.code ? why[e.code] : undefined;
  return text ? `cannot read the file: ${text} (${e.code})` : `cannot read the file (${e.code ?? e.message})`;
}

/** Why a path that exists cannot be read as an input file: what it is instead, and what to do. */
function notAFile(st: Stats): string {
  if (st.isDirectory()) return 'is a folder, not a file (give the files in it; only the stackexchange format takes a folder)';
  if (st.isFIFO() || st.isSocket() || st.isCharacterDevice()) {
    // `cat x | qpairs import … /dev/stdin`, `<(zcat x.gz)`: a stream, read once, with no size for progress.
    return 'is a pipe or device, not a file: save the data to a file and import that (.gz files are read as they are)';
  }
  return 'not a file';
}

/** Size of an input in bytes: the file's (compressed for gzip), or an archive member's unpacked size (see ./archive.ts). */
export function fileSize(file: string): number {
  if (isMemberPath(file)) return memberSize(file);
  try {
    const st = statSync(file);
    if (!st.isFile()) throw fileError(file, null, notAFile(st));
    return st.size;
  } catch (e) {
    if (e instanceof QPairsError) throw e;
    throw fileError(file, null, cannotRead(e as NodeJS.ErrnoException));
  }
}

/** A file's bytes (gunzipped when it is gzip data) with the count of bytes read from the file. */
interface ByteSource {
  chunks: AsyncIterable<Uint8Array>;
  /** Bytes read so far: from the file (compressed bytes for gzip), or of the member (unpacked). */
  bytesRead(): number;
  close(): Promise<void> | void;
}

/** Splits a member's blocks (7-Zip writes up to 1 MiB at a time) into CHUNK_BYTES pieces, as a file is read. */
async function* pieces(src: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const b of src) {
    for (let i = 0; i < b.length; i += CHUNK_BYTES) yield b.subarray(i, Math.min(b.length, i + CHUNK_BYTES));
  }
}

function openBytes(ctx: ImportContext, file: string): ByteSource {
  if (isMemberPath(file)) {
    const m = ctx.archiveReads ? ctx.archiveReads.open(file) : openMember(file, ctx.signal);
    let taken = 0;
    async function* counted(): AsyncGenerator<Uint8Array> {
      for await (const p of pieces(m)) {
        taken += p.length;
        yield p;
      }
    }
    return { chunks: counted(), bytesRead: () => taken, close: () => m.close() };
  }
  const size = fileSize(file);
  // By name alone, a `.gz` that holds plain text (a browser often saves a download decompressed,
  // keeping the name) failed as "line 1: corrupt or truncated gzip data (incorrect header check)".
  const gzip = size > 0 && isGzip(file);
  if (gzip && !hasGzipHeader(file)) {
    throw fileError(file, null, 'is named .gz but is not gzip data (it lacks the gzip header; it may have been decompressed already: rename it without .gz)');
  }
  const raw = createReadStream(file, { highWaterMark: CHUNK_BYTES });
  const src: Readable = gzip ? (pipeline(raw, createGunzip({ chunkSize: CHUNK_BYTES }), () => {}) as unknown as Readable) : raw;
  return { chunks: src as AsyncIterable<Buffer>, bytesRead: () => raw.bytesRead, close: () => void raw.destroy() };
}

/**
 * Reads a file (gunzipping it when it is gzip data) or an archive member (a member path, see
 * ./archive.ts) as strictly validated UTF-8 text, in chunks of about CHUNK_BYTES. A leading BOM
 * is dropped. Errors: missing file, invalid UTF-8 (with line and column), corrupt gzip, a
 * truncated or corrupt archive (naming archive and member), and a file holding nothing but
 * whitespace ("empty file", and said so when it held blank lines).
 */
export async function* readTextChunks(ctx: ImportContext, file: string): AsyncGenerator<TextChunk> {
  const text = new Utf8TextDecoder(file);
  for await (const bytes of readByteChunks(ctx, file, () => text.line)) {
    const piece = text.push(bytes);
    if (piece) yield piece;
  }
  text.end();
}

/**
 * A file's (gunzipped) or archive member's bytes in pieces of about CHUNK_BYTES, as readTextChunks
 * reads them before decoding (the dump-parse worker decodes them itself): progress (ctx.fileBytes),
 * cancel, the import's checkpoints between pieces, and the read errors (missing file, corrupt gzip,
 * a truncated or corrupt archive). `lineNow`: the line reached, for a corrupt gzip's error.
 */
export async function* readByteChunks(ctx: ImportContext, file: string, lineNow: () => number | null): AsyncGenerator<Uint8Array> {
  const source = openBytes(ctx, file);
  try {
    for await (const chunk of source.chunks) {
      throwIfAborted(ctx.signal);
      if (ctx.checkpoint) await ctx.checkpoint();
      ctx.fileBytes(source.bytesRead());
      yield chunk;
    }
  } catch (e) {
    if (e instanceof QPairsError || e instanceof CancelledError) throw e;
    const gzipError = gzipDataError(e);
    if (gzipError !== null) throw fileError(file, lineNow(), gzipError);
    throw fileError(file, null, cannotRead(e as NodeJS.ErrnoException));
  } finally {
    await source.close();
  }
  ctx.fileBytes(source.bytesRead());
}

export interface Line {
  text: string;
  line: number;
}

/** The file's lines (without the line break; a trailing CR is dropped), numbered from 1. */
export async function* readLines(ctx: ImportContext, file: string): AsyncGenerator<Line> {
  for await (const l of readLinesWithEnds(ctx, file)) yield { text: l.text, line: l.line };
}

/** A line and whether its line break was CRLF (`cr`: the CR dropped from `text`). */
interface LineWithEnd extends Line {
  cr: boolean;
}

/** readLines, telling which lines ended in CRLF (a quoted CSV field keeps its line breaks as the file has them). */
async function* readLinesWithEnds(ctx: ImportContext, file: string): AsyncGenerator<LineWithEnd> {
  // `rest` is the unfinished last line of the previous chunks; it is on line `line` of the next chunk.
  let rest = '';
  let restLine = 1;
  for await (const { text, line } of readTextChunks(ctx, file)) {
    let start = 0;
    let cur = line;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      let s = text.slice(start, nl);
      if (start === 0 && rest) {
        s = rest + s;
        rest = '';
      }
      const cr = s.endsWith('\r');
      if (cr) s = s.slice(0, -1);
      yield { text: s, line: cur, cr };
      cur++;
      start = nl + 1;
    }
    rest = start === 0 ? rest + text : text.slice(start);
    restLine = cur;
    if (rest.length > MAX_RECORD_CHARS) throw fileError(file, restLine, `line longer than ${MAX_RECORD_CHARS} characters`);
  }
  if (rest) {
    const cr = rest.endsWith('\r');
    if (cr) rest = rest.slice(0, -1);
    yield { text: rest, line: restLine, cr };
  }
}

export interface CsvRecord {
  fields: string[];
  /** Line where the record starts. */
  line: number;
}

/**
 * RFC 4180 CSV records: comma-separated, fields optionally quoted with `"`, a quote inside a
 * quoted field doubled, quoted fields may hold commas and line breaks (kept as the file has them:
 * a CRLF inside a field stays CRLF, an LF stays LF — a stored text is the file's text). A quote inside an unquoted field is kept as text; anything but a comma or the
 * end of the line after a closing quote is an error. Blank lines between records are ignored.
 */
export async function* readCsv(ctx: ImportContext, file: string): AsyncGenerator<CsvRecord> {
  let fields: string[] = [];
  let field = '';
  let inQuotes = false;
  let afterQuote = false;
  let startLine = 0;
  let size = 0;
  // The line break that ended the previous line: inside a quoted field it is part of the field's text.
  let prevBreak = '\n';
  for await (const { text, line, cr } of readLinesWithEnds(ctx, file)) {
    if (inQuotes) {
      field += prevBreak;
    } else {
      if (text.trim() === '') continue;
      fields = [];
      field = '';
      afterQuote = false;
      startLine = line;
      size = 0;
    }
    size += text.length;
    if (size > MAX_RECORD_CHARS) throw fileError(file, startLine, `CSV record longer than ${MAX_RECORD_CHARS} characters (unbalanced quotes?)`);
    const n = text.length;
    let i = 0;
    while (i < n) {
      if (inQuotes) {
        const j = text.indexOf('"', i);
        if (j === -1) {
          field += text.slice(i);
          i = n;
        } else if (text.charCodeAt(j + 1) === 34) {
          field += text.slice(i, j + 1);
          i = j + 2;
        } else {
          field += text.slice(i, j);
          inQuotes = false;
          afterQuote = true;
          i = j + 1;
        }
        continue;
      }
      const ch = text.charCodeAt(i);
      if (ch === 44) {
        fields.push(field);
        field = '';
        afterQuote = false;
        i++;
      } else if (afterQuote) {
        throw fileError(file, line, `unexpected character ${JSON.stringify(text[i])} after a closing quote (field ${fields.length + 1})`);
      } else if (ch === 34 && field === '') {
        inQuotes = true;
        i++;
      } else {
        const j = text.indexOf(',', i);
        const end = j === -1 ? n : j;
        field += text.slice(i, end);
        i = end;
      }
    }
    prevBreak = cr ? '\r\n' : '\n';
    if (!inQuotes) {
      fields.push(field);
      yield { fields, line: startLine };
    }
  }
  if (inQuotes) throw fileError(file, startLine, 'unterminated quoted field (the closing quote is missing)');
}

export interface CsvRow {
  line: number;
  /** Value of a column by (lower-case) name; undefined when the file has no such column. */
  get(name: string): string | undefined;
}

/**
 * CSV with a header row naming the columns (case-insensitive, any order; extra columns ignored).
 * Throws when a required column is missing or a row's field count differs from the header's.
 */
export async function* readCsvTable(ctx: ImportContext, file: string, required: readonly string[]): AsyncGenerator<CsvRow> {
  let index: Map<string, number> | null = null;
  // Names the header gives twice (columns, 1-based): asking for one is an error, since either could be meant
  // (the first was taken silently); a repeated column nobody reads is left alone.
  const twice = new Map<string, [number, number]>();
  let headerLine = 1;
  let width = 0;
  for await (const rec of readCsv(ctx, file)) {
    if (!index) {
      index = new Map();
      headerLine = rec.line;
      rec.fields.forEach((f, i) => {
        const k = f.trim().toLowerCase();
        if (!k) return;
        const first = index!.get(k);
        if (first === undefined) index!.set(k, i);
        else if (!twice.has(k)) twice.set(k, [first + 1, i + 1]);
      });
      width = rec.fields.length;
      for (const r of required) {
        if (!index.has(r)) {
          // A TSV or a semicolon CSV (a spreadsheet's export in many locales) reads as one column.
          const one = rec.fields.length === 1 ? rec.fields[0]! : '';
          const sep = one.includes('\t') ? 'tabs' : one.includes(';') ? 'semicolons' : null;
          // A line of another format (an AskUbuntu file's 61 fields) was quoted whole: the header is cut short.
          const header = rec.fields.map((f) => f.trim()).join(', ');
          const shown = header.length > HEADER_SHOWN ? `${header.slice(0, HEADER_SHOWN)}…` : header;
          throw fileError(
            file,
            rec.line,
            `missing required column "${r}" (the header has: ${shown || 'nothing'}; expected ${required.join(', ')})` +
              (beginsLikeXml(header) ? `: ${XML_HERE}` : sep ? `: its columns are separated by ${sep}, and this format reads commas — save the file as CSV with commas` : ''),
          );
        }
      }
      continue;
    }
    if (rec.fields.length !== width) {
      throw fileError(file, rec.line, `expected ${width} fields as in the header, found ${rec.fields.length}`);
    }
    const f = rec.fields;
    const idx = index;
    yield {
      line: rec.line,
      get: (name: string) => {
        const dup = twice.get(name);
        if (dup) throw fileError(file, headerLine, `the header names column "${name}" twice (columns ${dup[0]} and ${dup[1]}): rename or remove one`);
        const i = idx.get(name);
        return i === undefined ? undefined : f[i];
      },
    };
  }
}

/**
 * JSON.parse's reason for one line of a file: its "at position 37 (line 1 column 38)" counts within the
 * line, so "line 1" contradicted the file's line named before it: said as the line's column instead.
 */
export function jsonLineReason(message: string): string {
  return message.replace(/ in JSON at position (\d+)(?: \(line \d+ column \d+\))?/, (_, pos: string) => ` at column ${Number(pos) + 1}`);
}

/** The header of a CSV file shown in an error, at most (characters). */
const HEADER_SHOWN = 200;

/** Said of a line-based format's file that begins as XML does (a SemEval file or a Stack Exchange dump given the wrong format). */
const XML_HERE = 'the file begins with “<” as XML does: is this the right format for this file? (XML files are semeval and stackexchange)';

function beginsLikeXml(text: string): boolean {
  return text.replace(/^\uFEFF/, '').trimStart().startsWith('<');
}

/** JSON lines: one JSON object per non-blank line. */
export async function* readJsonl(ctx: ImportContext, file: string): AsyncGenerator<{ value: Record<string, unknown>; line: number }> {
  for await (const { text, line } of readLines(ctx, file)) {
    if (text.trim() === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      throw fileError(file, line, `invalid JSON (${jsonLineReason((e as Error).message)})${beginsLikeXml(text) ? `: ${XML_HERE}` : ''}`);
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw fileError(file, line, 'expected a JSON object');
    yield { value: v as Record<string, unknown>, line };
  }
}

/** Non-blank lines split on a separator (tab, or runs of whitespace when `sep` is omitted). */
export async function* readFields(ctx: ImportContext, file: string, sep?: string): AsyncGenerator<{ fields: string[]; line: number }> {
  for await (const { text, line } of readLines(ctx, file)) {
    if (text.trim() === '') continue;
    yield { fields: sep === undefined ? text.trim().split(/\s+/) : text.split(sep), line };
  }
}
