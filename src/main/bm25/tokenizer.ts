/**
 * The BM25 tokenizer: lowercase, Unicode-aware, deterministic, and fast (it is the indexing
 * bottleneck, so it scans char codes with a class table instead of running a regex per char).
 *
 * Rules (close to Lucene's StandardTokenizer / UAX #29 word breaks, plus two forum-friendly extras):
 *  1. The text is lowercased with `String.prototype.toLowerCase` (locale-independent).
 *     No Unicode normalisation is applied: importers should hand over NFC text. HTML is stripped
 *     upstream (importers).
 *  2. A token is a maximal run of word characters: letters `\p{L}`, combining marks `\p{M}`,
 *     digits/numbers `\p{N}` of any script, and `_` (so `snake_case` and `__init__` stay whole).
 *  3. Inside a token these join two word characters (UAX #29 MidLetter/MidNumLet):
 *     `.` → `node.js`, `asp.net`, `3.14`, `e.g` (also `thanks.anyone` when a space was forgotten,
 *     exactly as Lucene does); `'` and `’` → `don't` (`’` is normalised to `'`).
 *     `,` joins two digits only (UAX #29 MidNum): `1,000`.
 *  4. Possessive `'s` at the end of a token is dropped (Lucene's EnglishPossessiveFilter):
 *     `user's` → `user`, `it's` → `it` (then a stop word).
 *  5. Extra for programming forums: a token directly followed by `++` or `#` that is not itself
 *     followed by a word character, `+` or `#` keeps it: `c++`, `g++`, `notepad++`, `c#`, `f#`.
 *     (`a+b` → `a`, `b`; `c++11` → `c`, `11`; `.net` → `net`.)
 *  6. Han ideographs and Hiragana are emitted one character per token (as Lucene's
 *     StandardTokenizer does); Katakana, Hangul and other scripts form runs. Scripts written
 *     without spaces (Thai, Lao, Khmer, Myanmar) are NOT word-segmented: a run is one token.
 *  7. Tokens longer than `maxTokenLength` UTF-16 code units (default 64) are dropped
 *     (base64 blobs, hashes, long URLs) — Lucene splits at 255 instead.
 *  8. Stop words (after steps 1–7) are removed; the default is Lucene's English stop set
 *     (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET, 33 words). `'none'` keeps everything, or pass a list.
 *
 * Document length for BM25 is the number of tokens left after stop-word removal (as in Lucene,
 * where stop words never reach the index).
 */

import { QPairsError } from '../errors';
import { TermDict } from './term-dict';

/** Lucene's `EnglishAnalyzer.ENGLISH_STOP_WORDS_SET` (the default of StandardAnalyzer before 8). */
export const ENGLISH_STOP_WORDS: readonly string[] = Object.freeze([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not',
  'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was',
  'will', 'with',
]);

export interface TokenizerOptions {
  /** `'english'` (default): {@link ENGLISH_STOP_WORDS}; `'none'`: keep every token; or your own list. */
  stopWords?: 'english' | 'none' | readonly string[];
  /** Tokens longer than this (UTF-16 code units) are dropped. Default 64. */
  maxTokenLength?: number;
}

// Character classes (bit flags: WORD marks letters and digits).
const OTHER = 0;
const WORD = 1;
const DIGIT_BIT = 2;
const LETTER = WORD; // \p{L}, \p{M}, '_'
const DIGIT = WORD | DIGIT_BIT; // \p{N}
const IDEO = 4; // Han, Hiragana: one token per character
const JOIN = 8; // . ' ’ : join two word chars
const COMMA = 16; // , : join two digits
const UNKNOWN = 255; // not yet classified (BMP table only)

const RE_IDEO = /^[\p{Script=Han}\p{Script=Hiragana}]$/u;
const RE_DIGIT = /^\p{N}$/u;
const RE_LETTER = /^[\p{L}\p{M}]$/u;

function classifyCodePoint(cp: number): number {
  if (cp === 0x2019) return JOIN;
  if (cp >= 0xd800 && cp <= 0xdfff) return OTHER; // lone surrogate
  const ch = String.fromCodePoint(cp);
  if (RE_IDEO.test(ch)) return IDEO;
  if (RE_DIGIT.test(ch)) return DIGIT;
  if (RE_LETTER.test(ch)) return LETTER;
  return OTHER;
}

/** Class of every BMP code unit, filled lazily (ASCII up front). */
const BMP = new Uint8Array(65536).fill(UNKNOWN);
for (let c = 0; c < 128; c++) BMP[c] = OTHER;
for (let c = 0x61; c <= 0x7a; c++) BMP[c] = LETTER;
for (let c = 0x41; c <= 0x5a; c++) BMP[c] = LETTER;
for (let c = 0x30; c <= 0x39; c++) BMP[c] = DIGIT;
BMP[0x5f] = LETTER; // _
BMP[0x2e] = JOIN; // .
BMP[0x27] = JOIN; // '
BMP[0x2c] = COMMA; // ,
const ASCII = BMP.slice(0, 128);
const ASTRAL = new Map<number, number>();

/** Width (1 or 2 code units) of the char whose class `classAt` returned last. */
let lastWidth = 1;

/** Class of the character starting at `i` (which must be < s.length); sets `lastWidth`. */
function classAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) {
    lastWidth = 1;
    const k = BMP[c]!;
    if (k !== UNKNOWN) return k;
    return (BMP[c] = c >= 0xdc00 && c <= 0xdfff ? OTHER : classifyCodePoint(c));
  }
  const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
  if (d < 0xdc00 || d > 0xdfff) {
    lastWidth = 1;
    return OTHER; // lone high surrogate
  }
  lastWidth = 2;
  const cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  let k = ASTRAL.get(cp);
  if (k === undefined) ASTRAL.set(cp, (k = classifyCodePoint(cp)));
  return k;
}

/** True when position j holds a word char, ideograph, '+' or '#' (blocks a `++`/`#` suffix). */
function blocksSuffix(s: string, j: number): boolean {
  if (j >= s.length) return false;
  const c = s.charCodeAt(j);
  if (c === 0x2b || c === 0x23) return true;
  const k = classAt(s, j);
  return (k & WORD) !== 0 || k === IDEO;
}

/** True when the character just before position i is a digit. */
function digitBefore(s: string, i: number): boolean {
  const c = s.charCodeAt(i - 1);
  if (c < 128) return (ASCII[c]! & DIGIT_BIT) !== 0;
  const j = c >= 0xdc00 && c <= 0xdfff && i >= 2 && s.charCodeAt(i - 2) >= 0xd800 && s.charCodeAt(i - 2) <= 0xdbff ? i - 2 : i - 1;
  return (classAt(s, j) & DIGIT_BIT) !== 0;
}

export class Tokenizer {
  readonly stopWords: ReadonlySet<string>;
  readonly maxTokenLength: number;
  /** Canonical description of the settings (stored with a persisted index). */
  readonly signature: string;
  private readonly stopDict = new TermDict();
  /** Token boundaries of the last scan: start, end pairs; end is negated when the token has a ’. */
  private bounds: Int32Array = new Int32Array(1024);

  constructor(opts: TokenizerOptions = {}) {
    const sw = opts.stopWords ?? 'english';
    const list = sw === 'english' ? ENGLISH_STOP_WORDS : sw === 'none' ? [] : sw.map((w) => w.toLowerCase());
    this.stopWords = new Set(list);
    for (const w of this.stopWords) this.stopDict.intern(w);
    const max = opts.maxTokenLength ?? 64;
    if (!Number.isInteger(max) || max < 1)
      throw new QPairsError(`tokenizer maxTokenLength must be a positive integer, got ${max}`, { reason: 'bad maxTokenLength' });
    this.maxTokenLength = max;
    this.signature = JSON.stringify({ v: 1, stopWords: [...this.stopWords].sort(), maxTokenLength: max });
  }

  /**
   * Tokens of `text` in order (duplicates kept), appended to `out` (a new array by default).
   * Empty or whitespace-only text gives no tokens.
   */
  tokenize(text: string, out: string[] = []): string[] {
    const s = text.toLowerCase();
    const n = this.scan(s);
    const b = this.bounds;
    const stop = this.stopDict;
    const checkStop = stop.size > 0;
    for (let i = 0; i < n; i += 2) {
      const start = b[i]!;
      const end = b[i + 1]!;
      if (end < 0) {
        const tok = s.slice(start, -end).replace(/\u2019/g, "'");
        if (!checkStop || stop.get(tok) < 0) out.push(tok);
        continue;
      }
      if (checkStop && stop.find(s, start, end, TermDict.hash(s, start, end)) >= 0) continue;
      out.push(s.slice(start, end));
    }
    return out;
  }

  /**
   * Term ids (in `dict`) of the tokens of `text`, stop words removed, appended to `out`;
   * returns the number appended. With `add`, unknown terms are added to `dict`; without, they
   * are skipped. Same tokens as {@link tokenize}, but no string is created for known terms.
   */
  tokenizeToIds(text: string, dict: TermDict, add: boolean, out: number[]): number {
    const s = text.toLowerCase();
    const n = this.scan(s);
    const b = this.bounds;
    const stop = this.stopDict;
    const checkStop = stop.size > 0;
    const before = out.length;
    for (let i = 0; i < n; i += 2) {
      const start = b[i]!;
      let end = b[i + 1]!;
      let str = s;
      let from = start;
      if (end < 0) {
        str = s.slice(start, -end).replace(/\u2019/g, "'");
        from = 0;
        end = str.length;
      }
      const h = TermDict.hash(str, from, end);
      if (checkStop && stop.find(str, from, end, h) >= 0) continue;
      let id = dict.find(str, from, end, h);
      if (id < 0) {
        if (!add) continue;
        // A fresh flat copy: a plain slice could keep the whole document text alive.
        id = dict.insertNew(str === s ? (' ' + s.slice(from, end)).slice(1) : str, h);
      }
      out.push(id);
    }
    return out.length - before;
  }

  /** Scans lowercased text into `bounds`; returns 2 × the number of tokens. */
  private scan(s: string): number {
    const n = s.length;
    const max = this.maxTokenLength;
    const A = ASCII;
    let bounds = this.bounds;
    let nb = 0;
    let i = 0;
    while (i < n) {
      const c0 = s.charCodeAt(i);
      let w = 1;
      if (c0 < 128) {
        if ((A[c0]! & WORD) === 0) {
          i++;
          continue;
        }
      } else {
        const k = classAt(s, i);
        w = lastWidth;
        if (k === IDEO) {
          if (nb + 2 > bounds.length) bounds = this.growBounds();
          bounds[nb++] = i;
          bounds[nb++] = i + w;
          i += w;
          continue;
        }
        if ((k & WORD) === 0) {
          i += w;
          continue;
        }
      }
      const start = i;
      let curly = false;
      i += w;
      for (;;) {
        // ASCII fast path through the word
        while (i < n) {
          const c = s.charCodeAt(i);
          if (c >= 128 || (A[c]! & WORD) === 0) break;
          i++;
        }
        if (i >= n) break;
        const c = s.charCodeAt(i);
        let k: number;
        if (c >= 128) {
          k = classAt(s, i);
          if ((k & WORD) !== 0) {
            i += lastWidth;
            continue;
          }
        } else k = A[c]!;
        if ((k & (JOIN | COMMA)) !== 0 && i + 1 < n) {
          const k2 = classAt(s, i + 1);
          if ((k2 & WORD) !== 0 && (k === JOIN || ((k2 & DIGIT_BIT) !== 0 && digitBefore(s, i)))) {
            if (c === 0x2019) curly = true;
            i += 1 + lastWidth;
            continue;
          }
        }
        break;
      }
      let end = i;
      if (end < n) {
        const c = s.charCodeAt(end);
        if (c === 0x2b) {
          if (end + 1 < n && s.charCodeAt(end + 1) === 0x2b && !blocksSuffix(s, end + 2)) end += 2;
        } else if (c === 0x23) {
          if (!blocksSuffix(s, end + 1)) end += 1;
        }
      }
      const next = end;
      if (end === i && end - start >= 3 && s.charCodeAt(end - 1) === 0x73 /* s */) {
        const a = s.charCodeAt(end - 2);
        if (a === 0x27 || a === 0x2019) end -= 2;
      }
      i = next;
      if (end - start > max) continue;
      if (nb + 2 > bounds.length) bounds = this.growBounds();
      bounds[nb++] = start;
      bounds[nb++] = curly ? -end : end;
    }
    return nb;
  }

  private growBounds(): Int32Array {
    const b = new Int32Array(this.bounds.length * 2);
    b.set(this.bounds);
    return (this.bounds = b);
  }
}

let defaultTokenizer: Tokenizer | undefined;

/** Tokens of `text` with the default settings (English stop words removed). */
export function tokenize(text: string, opts?: TokenizerOptions): string[] {
  if (opts) return new Tokenizer(opts).tokenize(text);
  return (defaultTokenizer ??= new Tokenizer()).tokenize(text);
}
