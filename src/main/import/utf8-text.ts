/**
 * A file's bytes as strictly validated UTF-8 text, piece by piece (reader.ts readTextChunks on the
 * import's thread; the dump-parse worker on the bytes the import's thread sends it): a sequence
 * split between two pieces is carried to the next, a leading BOM is dropped, each piece of text
 * knows its first line. Errors name the file and line: invalid UTF-8 (with the byte and its place
 * in the line), and a file of nothing but white space ("empty file").
 */
import { fileError } from './file-error';

export interface TextChunk {
  text: string;
  /** Line number of text[0]. */
  line: number;
}

/**
 * Byte offset of the first invalid UTF-8 sequence in `b` (an incomplete sequence at the end counts
 * as invalid), or -1. Follows the WHATWG decoder: no overlongs, no surrogates, nothing above U+10FFFF.
 */
export function firstInvalidUtf8(b: Uint8Array): number {
  const n = b.length;
  let i = 0;
  while (i < n) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) need = 2;
    else if (c >= 0xf0 && c <= 0xf4) need = 3;
    else return i;
    let lo = 0x80;
    let hi = 0xbf;
    if (c === 0xe0) lo = 0xa0;
    else if (c === 0xed) hi = 0x9f;
    else if (c === 0xf0) lo = 0x90;
    else if (c === 0xf4) hi = 0x8f;
    if (i + 1 >= n || b[i + 1]! < lo || b[i + 1]! > hi) return i;
    for (let k = 2; k <= need; k++) if (i + k >= n || (b[i + k]! & 0xc0) !== 0x80) return i;
    i += need + 1;
  }
  return -1;
}

/** Length of the longest prefix of `b` that does not end inside a (possibly valid) multi-byte sequence. */
function completePrefix(b: Uint8Array): number {
  const n = b.length;
  let i = n - 1;
  let k = 0;
  while (i >= 0 && k < 3 && (b[i]! & 0xc0) === 0x80) {
    i--;
    k++;
  }
  if (i < 0) return n;
  const c = b[i]!;
  const len = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 1;
  return n - i < len ? i : n;
}

/** The line breaks (LF bytes) in `b` before `end`, and the offset of the last one (-1 for none). */
export function lineBreaks(b: Uint8Array, end = b.length): { lines: number; lastNl: number } {
  const buf = Buffer.from(b.buffer, b.byteOffset, Math.min(end, b.byteLength));
  let lines = 0;
  let lastNl = -1;
  for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, i + 1)) {
    lines++;
    lastNl = i;
  }
  return { lines, lastNl };
}

/** Decodes one file's bytes, given piece by piece in file order (see the top). */
export class Utf8TextDecoder {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private carry: Uint8Array | null = null;
  private nextLine = 1;
  private first = true;
  private content = false;
  /** Whether any character came (a BOM aside): a file of only white space is told from one of none. */
  private anyText = false;
  /** Bytes of the current line in the pieces decoded so far (after their last line break). */
  private lineBytes = 0;

  constructor(private readonly file: string) {}

  /** The line the next piece of text starts on (where a read error that stops the file is). */
  get line(): number {
    return this.nextLine;
  }

  /** The text of the next piece of the file (with what the previous one left unfinished); null when it completes no character. */
  push(bytes: Uint8Array): TextChunk | null {
    const buf: Uint8Array = this.carry ? Buffer.concat([this.carry, bytes]) : bytes;
    const cut = completePrefix(buf);
    this.carry = cut < buf.length ? Uint8Array.prototype.slice.call(buf, cut) : null;
    const whole = buf.subarray(0, cut);
    let text = this.decode(whole);
    // Counted on the bytes (an LF byte is an LF character in valid UTF-8): lines, and where the last one begins.
    const { lines, lastNl } = lineBreaks(whole);
    this.lineBytes = lastNl === -1 ? this.lineBytes + whole.length : whole.length - 1 - lastNl;
    if (this.first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      this.first = false;
    }
    if (text.length > 0) this.anyText = true;
    if (!this.content && /\S/.test(text)) this.content = true;
    if (text.length === 0) return null;
    const line = this.nextLine;
    this.nextLine += lines;
    return { text, line };
  }

  /** The file ended: a sequence left unfinished is invalid UTF-8, and a file of only white space is an error. */
  end(): void {
    if (this.carry) this.decode(this.carry);
    // Blank lines are said as such (it said "empty file" for a file of them, which looks like the wrong file was given).
    if (!this.content) throw fileError(this.file, null, this.anyText ? 'empty file: nothing but blank lines and white space' : 'empty file');
  }

  private decode(piece: Uint8Array): string {
    try {
      return this.decoder.decode(piece);
    } catch {
      const at = firstInvalidUtf8(piece);
      const { lines, lastNl } = lineBreaks(piece, Math.max(at, 0));
      const byte = at >= 0 && at < piece.length ? ` 0x${piece[at]!.toString(16).padStart(2, '0')}` : '';
      // 1-based byte of the line, which may have begun in an earlier piece.
      const column = lastNl === -1 ? this.lineBytes + at + 1 : at - lastNl;
      // A spreadsheet's "Unicode text" is UTF-16: its byte order mark opens the file.
      if (this.first && at === 0 && piece.length >= 2 && ((piece[0] === 0xff && piece[1] === 0xfe) || (piece[0] === 0xfe && piece[1] === 0xff))) {
        throw fileError(this.file, 1, `the file is UTF-16 (it begins with a UTF-16 byte order mark), not UTF-8: save or convert it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)`);
      }
      throw fileError(
        this.file,
        this.nextLine + lines,
        `invalid UTF-8 (byte${byte} at byte ${column} of the line): the file must be UTF-8 — save it as UTF-8, or convert it (e.g. iconv -f WINDOWS-1252 -t UTF-8 for Latin-1 text)`,
      );
    }
  }
}
