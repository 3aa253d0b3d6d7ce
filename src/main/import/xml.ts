/** Streaming XML (saxes) over the validated text chunks of a file. */
import { SaxesParser } from 'saxes';
import { CancelledError, QPairsError } from '../errors';
import { fileError, readTextChunks, type TextChunk } from './reader';
import type { ImportContext } from './types';

export interface XmlHandlers {
  /** An element opened; `line` is where its start tag ends. Attribute values are entity-decoded. */
  open?(name: string, attrs: Record<string, string>, line: number): void;
  /** Character data (entity-decoded; one text node may come in several pieces). */
  text?(text: string): void;
  close?(name: string, line: number): void;
  /** The document ended well-formed. */
  end?(line: number): void;
}

/**
 * Parses an XML file in bounded memory, calling the handlers as elements stream by. A syntax
 * error (including a truncated file: an unclosed element) becomes a QPairsError naming file,
 * line and saxes' reason; errors thrown by the handlers pass through unchanged.
 */
export function parseXml(ctx: ImportContext, file: string, h: XmlHandlers): Promise<void> {
  return parseXmlChunks(readTextChunks(ctx, file), file, h);
}

/**
 * The chunks as they come, but a file whose first non-blank character is not "<" is refused at once,
 * on the line where it begins, as not XML: saxes would call it "text data outside of root node" only
 * where that text ends (a JSON lines file given as a dump: on its last line).
 */
export async function* xmlChunks(chunks: AsyncIterable<TextChunk>, file: string): AsyncGenerator<TextChunk> {
  let checked = false;
  /** Not XML: the line it begins on and its first characters so far (read on to 40, whatever the chunks). */
  let bad: { line: number; begins: string } | null = null;
  const refuse = (b: { line: number; begins: string }): QPairsError => {
    const begins = b.begins.split(/\r?\n/)[0]!.slice(0, 40);
    const cut = begins.length === 40 ? '…' : '';
    return fileError(file, b.line, `not XML: the file begins with “${begins}${cut}” where XML begins with “<”: is this the right format for this file?`);
  };
  for await (const chunk of chunks) {
    if (bad) {
      bad.begins += chunk.text;
    } else if (!checked) {
      const m = /\S/.exec(chunk.text);
      if (m) {
        checked = true;
        if (m[0] !== '<') bad = { line: chunk.line + (chunk.text.slice(0, m.index).match(/\n/g)?.length ?? 0), begins: chunk.text.slice(m.index) };
      }
    }
    if (bad) {
      if (bad.begins.length >= 40 || /\n/.test(bad.begins)) throw refuse(bad);
      continue;
    }
    yield chunk;
  }
  if (bad) throw refuse(bad);
}

/** parseXml over text chunks already read (`line`: the line of each chunk's first character). */
export async function parseXmlChunks(chunks: AsyncIterable<TextChunk>, file: string, h: XmlHandlers): Promise<void> {
  const parser = new SaxesParser({ position: true });
  if (h.open) {
    const open = h.open;
    parser.on('opentag', (n) => open(n.name, n.attributes as Record<string, string>, parser.line));
  }
  if (h.text) {
    parser.on('text', h.text);
    parser.on('cdata', h.text);
  }
  if (h.close) {
    const close = h.close;
    parser.on('closetag', (n) => close(n.name, parser.line));
  }
  // Line of the last non-blank character so far: where a truncated file ends.
  let lastLine = 1;
  for await (const { text, line } of xmlChunks(chunks, file)) {
    lastLine = lastNonBlankLine(text, line) ?? lastLine;
    try {
      parser.write(text);
    } catch (e) {
      throw xmlError(e, file, parser.line);
    }
  }
  closeXml(parser, file, lastLine, h);
}

/**
 * A saxes error as a QPairsError naming file and line (saxes' own "LINE:COL: reason" line, else
 * `line`); our errors and cancels (thrown by handlers) pass through unchanged.
 */
export function xmlError(e: unknown, file: string, line: number): unknown {
  if (e instanceof QPairsError || e instanceof CancelledError) return e;
  const msg = (e as Error).message ?? String(e);
  const m = /^(\d+):(\d+): ([\s\S]*)$/.exec(msg);
  return fileError(file, m ? Number(m[1]) : line, `malformed XML: ${m ? m[3] : msg}`);
}

/** The line of the last non-blank character of a chunk that starts on line `line` (null: all blank). */
export function lastNonBlankLine(text: string, line: number): number | null {
  let end = text.length - 1;
  while (end >= 0 && /\s/.test(text[end]!)) end--;
  if (end < 0) return null;
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return line + n;
}

/**
 * Ends a parse: closes saxes (an unclosed element means the file ends early, reported at its last
 * non-blank line) and calls `end` with the last line.
 */
export function closeXml(parser: SaxesParser, file: string, lastLine: number, h: Pick<XmlHandlers, 'end'>): void {
  try {
    parser.close();
  } catch (e) {
    if (e instanceof QPairsError || e instanceof CancelledError) throw e;
    const msg = ((e as Error).message ?? String(e)).replace(/^\d+:\d+: /, '');
    throw fileError(file, lastLine, `malformed XML: ${msg} (the file ends early: truncated?)`);
  }
  h.end?.(parser.line);
}
