/**
 * A fast scanner for XML files made of `<row … />` elements directly inside the root, as in Stack
 * Exchange data dumps (Posts.xml, PostLinks.xml: one self-closing row a line, double-quoted,
 * entity-escaped attributes), with saxes as the reference parser and fallback.
 *
 * How the two share the work, so that every file yields exactly what saxes alone would (the same
 * elements, attributes, lines, and the same errors on the same lines):
 * - saxes reads the prolog and the root's start tag (the exact text of the file up to it);
 * - then the scanner reads what it fully understands: whitespace (counting lines as saxes does:
 *   CRLF and a lone CR are one line end) and self-closing `<row>` elements with ASCII attribute
 *   names and double-quoted values holding plain characters and the entities XML predefines
 *   (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;`, `&#N;`, `&#xH;` of an XML character);
 * - at anything else — a close tag (the root's end), another element, text, a comment, a single
 *   quote, a tab or line break inside a value (normalised by XML), a control character, a
 *   repeated attribute, a malformed entity, the end of the file mid-element — saxes takes over
 *   for the rest of the file, fed line breaks standing for the rows already read (so its line
 *   numbers go on) and then the text from the first unread character. Whatever the scanner
 *   declines is judged by saxes, so malformed XML fails with saxes' reason on the right line.
 */
import { SaxesParser } from 'saxes';
import { readTextChunks, type TextChunk } from './reader';
import type { ImportContext } from './types';
import { closeXml, lastNonBlankLine, xmlChunks, xmlError, type XmlHandlers } from './xml';

/** Attributes of one row: an object without inherited members (like saxes'), but with fast properties. */
const Attrs = function Attrs(this: object) {} as unknown as { new (): Record<string, string> };
Attrs.prototype = Object.create(null) as Record<string, string>;

/** Characters the scanner leaves to saxes inside a value: `<`, tab, CR, LF, other C0 controls, U+FFFE, U+FFFF. */
const RARE = /[\x00-\x1f<\ufffe\uffff]/g;

const isNameStart = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 58;
const isNameChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 58 || c === 45 || c === 46;
/** The XML 1.0 Char production. */
const isXmlChar = (cp: number): boolean =>
  cp === 9 || cp === 10 || cp === 13 || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);

/** Unread text the row mode carries over (an incomplete row) at most; more is left to saxes. */
const MAX_PENDING = 4 << 20;

/** Prolog text (before the root's start tag ends) looked through at most; past it saxes reads the file. */
const MAX_PROLOG = 1 << 20;

/** Why a scan stopped. */
export const NEED_MORE = 0;
export const HAND_OVER = 1;

/**
 * Reads complete rows from `text` (one piece of the file after the root's start tag), calling
 * `row` for each. Stops where more text is needed (NEED_MORE) or where saxes must take over
 * (HAND_OVER); `pos` and `line` are then the first unread character and its line.
 */
export class RowScanner {
  pos = 0;
  line = 1;
  private amp = -1;
  private rare = -1;

  /** Where skipSpace stopped: the first non-space character and its line. */
  private spaceEnd = 0;
  private spaceLine = 1;

  constructor(private readonly row: (attrs: Record<string, string>, line: number) => void) {}

  /**
   * Skips spaces, tabs and line ends from `p` (line `ln`), counting lines as saxes does (CRLF and a
   * lone CR are one line end); sets spaceEnd/spaceLine. False when a CR ends the text: whether it
   * starts a CRLF is not known yet (more text needed).
   */
  private skipSpace(text: string, p: number, ln: number): boolean {
    const n = text.length;
    let c = text.charCodeAt(p);
    while (c === 32 || c === 10 || c === 13 || c === 9) {
      if (c === 10) ln++;
      else if (c === 13) {
        if (p + 1 >= n) return false;
        if (text.charCodeAt(p + 1) !== 10) ln++;
      }
      c = text.charCodeAt(++p);
    }
    this.spaceEnd = p;
    this.spaceLine = ln;
    return true;
  }

  /** Scans `text` from `pos` (line `line`); returns NEED_MORE or HAND_OVER. */
  scan(text: string, pos: number, line: number): number {
    const n = text.length;
    this.amp = -1;
    this.rare = -1;
    for (;;) {
      this.pos = pos;
      this.line = line;
      // Whitespace before the next element.
      if (!this.skipSpace(text, pos, line)) return NEED_MORE;
      let p = this.spaceEnd;
      let ln = this.spaceLine;
      let c = text.charCodeAt(p);
      if (p + 4 >= n) return NEED_MORE;
      if (c !== 60 || text.charCodeAt(p + 1) !== 114 || text.charCodeAt(p + 2) !== 111 || text.charCodeAt(p + 3) !== 119) return this.handOver(p, ln);
      // `<row`: the name must end here.
      p += 4;
      const attrs = new Attrs();
      let prev = '';
      for (;;) {
        // Whitespace, then `/>` or an attribute.
        const p0 = p;
        if (!this.skipSpace(text, p, ln)) return NEED_MORE;
        p = this.spaceEnd;
        ln = this.spaceLine;
        c = text.charCodeAt(p);
        if (p >= n) return NEED_MORE;
        if (c === 47) {
          if (p + 1 >= n) return NEED_MORE;
          if (text.charCodeAt(p + 1) !== 62) return this.handOver(pos, line);
          p += 2;
          break;
        }
        if (p === p0) return this.handOver(pos, line);
        // Rows name their attributes in the same order: try the name that followed the previous one last time.
        let name = this.next.get(prev);
        let q: number;
        if (name !== undefined && text.startsWith(name, p) && text.charCodeAt((q = p + name.length)) === 61) {
          // (q is the '=' after the name)
        } else {
          if (!isNameStart(c)) return this.handOver(pos, line);
          q = p + 1;
          while (isNameChar(text.charCodeAt(q))) q++;
          if (q >= n) return NEED_MORE;
          if (text.charCodeAt(q) !== 61) return this.handOver(pos, line);
          name = this.name(text, p, q);
          this.next.set(prev, name);
        }
        if (q + 1 >= n) return NEED_MORE;
        if (text.charCodeAt(q + 1) !== 34) return this.handOver(pos, line);
        prev = name;
        const vs = q + 2;
        const ve = text.indexOf('"', vs);
        if (ve < 0) return NEED_MORE;
        if (this.rare < vs) {
          RARE.lastIndex = vs;
          this.rare = RARE.exec(text)?.index ?? n;
        }
        if (this.rare < ve) return this.handOver(pos, line);
        if (this.amp < vs) {
          const a = text.indexOf('&', vs);
          this.amp = a < 0 ? n : a;
        }
        let value: string;
        if (this.amp < ve) {
          const v = this.decode(text, vs, ve);
          if (v === null) return this.handOver(pos, line);
          value = v;
        } else value = text.slice(vs, ve);
        if (attrs[name] !== undefined) return this.handOver(pos, line);
        attrs[name] = value;
        p = ve + 1;
      }
      this.row(attrs, ln);
      pos = p;
      line = ln;
    }
  }

  /** Attribute names seen so far, by length and first character: a row's names are the same strings each time (cheap property keys). */
  private readonly names = new Map<number, string[]>();
  /** The attribute name that followed each name (and '': the first one) in the last row that had it. */
  private readonly next = new Map<string, string>();

  private name(text: string, p: number, q: number): string {
    const key = (q - p) * 128 + text.charCodeAt(p);
    const list = this.names.get(key);
    if (list !== undefined) {
      for (const s of list) if (text.startsWith(s, p)) return s;
    }
    const s = text.slice(p, q);
    if (list === undefined) this.names.set(key, [s]);
    else if (list.length < 8) list.push(s);
    return s;
  }

  private handOver(pos: number, line: number): number {
    this.pos = pos;
    this.line = line;
    return HAND_OVER;
  }

  /** The value text[vs, ve) with its entities decoded (the first `&` is at this.amp), or null for one left to saxes. */
  private decode(text: string, vs: number, ve: number): string | null {
    let out = '';
    let last = vs;
    let i = this.amp;
    while (i < ve) {
      out += text.slice(last, i);
      const c = text.charCodeAt(i + 1);
      let ch: string;
      if (c === 108 /* l */ && text.charCodeAt(i + 2) === 116 && text.charCodeAt(i + 3) === 59) {
        ch = '<';
        i += 4;
      } else if (c === 103 /* g */ && text.charCodeAt(i + 2) === 116 && text.charCodeAt(i + 3) === 59) {
        ch = '>';
        i += 4;
      } else if (c === 97 /* a */) {
        if (text.charCodeAt(i + 2) === 109 && text.charCodeAt(i + 3) === 112 && text.charCodeAt(i + 4) === 59) {
          ch = '&';
          i += 5;
        } else if (text.startsWith('pos;', i + 2)) {
          ch = "'";
          i += 6;
        } else return null;
      } else if (c === 113 /* q */ && text.startsWith('uot;', i + 2)) {
        ch = '"';
        i += 6;
      } else if (c === 35 /* # */) {
        let j = i + 2;
        let cp = 0;
        if (text.charCodeAt(j) === 120 /* x */) {
          j++;
          const d0 = j;
          for (;;) {
            const d = text.charCodeAt(j);
            const v = d >= 48 && d <= 57 ? d - 48 : d >= 97 && d <= 102 ? d - 87 : d >= 65 && d <= 70 ? d - 55 : -1;
            if (v < 0) break;
            cp = cp * 16 + v;
            if (cp > 0x10ffff) return null;
            j++;
          }
          if (j === d0) return null;
        } else {
          const d0 = j;
          for (;;) {
            const d = text.charCodeAt(j);
            if (d < 48 || d > 57) break;
            cp = cp * 10 + (d - 48);
            if (cp > 0x10ffff) return null;
            j++;
          }
          if (j === d0) return null;
        }
        if (text.charCodeAt(j) !== 59 || !isXmlChar(cp)) return null;
        ch = String.fromCodePoint(cp);
        i = j + 1;
      } else return null;
      out += ch;
      last = i;
      i = text.indexOf('&', i);
      if (i < 0) i = text.length;
    }
    this.amp = i;
    return out + text.slice(last, ve);
  }
}

/**
 * Like parseXml (./xml.ts) for files of rows (no text handler): the same events, lines and errors,
 * read by a RowScanner between saxes reading the prolog and saxes reading from the first
 * construct the scanner leaves to it (the root's end tag, in a well-formed dump).
 */
export async function parseRowsXmlChunks(chunks: AsyncIterable<TextChunk>, file: string, h: Pick<XmlHandlers, 'open' | 'close' | 'end'>): Promise<void> {
  const parser = new SaxesParser({ position: true });
  let opened = 0;
  let closed = 0;
  parser.on('opentag', (t) => {
    opened++;
    h.open?.(t.name, t.attributes as Record<string, string>, parser.line);
  });
  parser.on('closetag', (t) => {
    closed++;
    h.close?.(t.name, parser.line);
  });
  let rowLine = 1;
  const scanner = new RowScanner((attrs, line) => {
    rowLine = line;
    h.open?.('row', attrs, line);
    h.close?.('row', line);
  });

  // 'prolog': collecting the text up to the root's start tag; 'rows': the scanner reads; 'saxes': saxes reads.
  let mode: 'prolog' | 'rows' | 'saxes' = 'prolog';
  let pending = '';
  let pendingLine = 1;
  const toSaxes = (text: string): void => {
    try {
      parser.write(text);
    } catch (e) {
      throw xmlError(e, file, parser.line);
    }
  };
  const handOver = (rest: string, line: number): void => {
    mode = 'saxes';
    pending = '';
    toSaxes('\n'.repeat(Math.max(0, line - parser.line)) + rest);
  };
  const scan = (text: string, pos: number, line: number): number => {
    try {
      return scanner.scan(text, pos, line);
    } catch (e) {
      throw xmlError(e, file, rowLine);
    }
  };
  /**
   * Scans the next piece of text after the pending text (an incomplete row, if any). Lines are
   * counted here, as saxes counts them (the reader's chunk lines count LF only).
   */
  const scanRows = (text: string): void => {
    let start = 0;
    let line = pendingLine;
    if (pending) {
      // The incomplete row joined with just enough of `text` to complete it (joining all of
      // `text` would copy every chunk once more), growing the piece taken until it does.
      for (let j = Math.min(text.length, 1024); ; j = Math.min(text.length, j * 4)) {
        const head = pending + text.slice(0, j);
        if (scan(head, 0, pendingLine) === HAND_OVER) return handOver(head.slice(scanner.pos) + text.slice(j), scanner.line);
        if (scanner.pos >= pending.length) {
          start = scanner.pos - pending.length;
          line = scanner.line;
          break;
        }
        if (j === text.length) {
          pending = head.slice(scanner.pos);
          pendingLine = scanner.line;
          return;
        }
      }
    }
    if (scan(text, start, line) === HAND_OVER) handOver(text.slice(scanner.pos), scanner.line);
    else {
      pending = text.slice(scanner.pos);
      pendingLine = scanner.line;
    }
  };
  /** Where the root's start tag ends in the prolog text (the index after its `>`), -1 for more text, -2 to leave it all to saxes. */
  const rootEnd = (t: string): number => {
    let p = 0;
    for (;;) {
      while (p < t.length && (t[p] === ' ' || t[p] === '\n' || t[p] === '\r' || t[p] === '\t')) p++;
      if (p + 4 > t.length) return -1;
      if (t.startsWith('<?', p)) {
        const e = t.indexOf('?>', p + 2);
        if (e < 0) return -1;
        p = e + 2;
      } else if (t.startsWith('<!--', p)) {
        const e = t.indexOf('-->', p + 4);
        if (e < 0) return -1;
        p = e + 3;
      } else if (t[p] === '<' && isNameStart(t.charCodeAt(p + 1))) {
        const e = t.indexOf('>', p);
        if (e < 0) return -1;
        const tag = t.slice(p, e + 1);
        return tag.includes('"') || tag.includes("'") || tag.endsWith('/>') ? -2 : e + 1;
      } else return -2;
    }
  };

  let lastLine = 1;
  for await (const { text, line } of xmlChunks(chunks, file)) {
    lastLine = lastNonBlankLine(text, line) ?? lastLine;
    if (mode === 'saxes') {
      toSaxes(text);
      continue;
    }
    if (mode === 'rows') {
      // A row longer than MAX_PENDING (none is, in real dumps) would be rescanned chunk after chunk: saxes reads it instead.
      if (pending.length > MAX_PENDING) handOver(pending + text, pendingLine);
      else scanRows(text);
      continue;
    }
    // The prolog: saxes reads it as it comes (in the same pieces as parseXml would give it, on
    // which some of its error lines depend), up to the end of the root's start tag.
    const fed = pending.length;
    pending += text;
    const e = rootEnd(pending);
    if (e <= fed) {
      // No root start tag yet (or not one the scanner can follow): saxes takes this piece, and the rest of the file unless the prolog goes on.
      toSaxes(text);
      if (e !== -1 || opened > 0 || pending.length > MAX_PROLOG) {
        mode = 'saxes';
        pending = '';
      }
      continue;
    }
    toSaxes(pending.slice(fed, e));
    const rest = pending.slice(e);
    pending = '';
    if (opened !== 1 || closed !== 0) {
      handOver(rest, parser.line);
      continue;
    }
    mode = 'rows';
    pendingLine = parser.line;
    scanRows(rest);
  }
  if (mode === 'rows') handOver(pending, pendingLine);
  closeXml(parser, file, lastLine, h);
}

/** parseRowsXmlChunks over a file's validated text chunks (./reader.ts readTextChunks). */
export function parseRowsXml(ctx: ImportContext, file: string, h: Pick<XmlHandlers, 'open' | 'close' | 'end'>): Promise<void> {
  return parseRowsXmlChunks(readTextChunks(ctx, file), file, h);
}
