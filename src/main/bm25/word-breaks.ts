/**
 * Word breaks as Lucene 8's StandardTokenizer finds them (its grammar implements the UAX #29
 * word-break rules, Unicode 9, plus emoji sequences), written as a scanner over character
 * classes. Checked token for token against real Lucene 8.8.1 (tests/fixtures/lucene/).
 *
 * A token is one of:
 *  - a *word*: letters (ALetter, Hebrew_Letter), digits (Numeric) and Katakana joined as UAX #29
 *    says: letter×letter, letter×digit, digit×letter, digit×digit, Katakana×Katakana, anything
 *    word-like × `_` (ExtendNumLet) × anything word-like; letter (`:` `.` `'` `’` `·` …) letter
 *    (MidLetter, MidNumLet, Single_Quote: `node.js`, `url:https`, `don't`); digit (`,` `;` `.`
 *    `'` …) digit (MidNum, MidNumLet: `1,000`, `20;000`, `3.14`); Hebrew letter `'` and Hebrew
 *    letter `"` Hebrew letter. Letter/digit around `.` do not join (`fig3.png` → `fig3`, `png`;
 *    `jan.3` → `jan`, `3`). A run of `_` alone is no token; `c++` and `c#` give `c`.
 *  - an *ideograph* (Han) or a *Hiragana* character: one token each;
 *  - a run of South-East Asian script (Thai, Lao, Myanmar, Khmer…, Line_Break=SA): one token;
 *  - an *emoji*: an emoji character (also text-style symbols such as ♦ ™ © ®), keycap, flag
 *    (two regional indicators), with its modifiers, variation selectors and zero-width-joined
 *    followers.
 * Combining marks and format characters (Extend, Format, ZWJ; e.g. soft hyphen) stay inside the
 * token they follow. Everything else (spaces, punctuation, symbols, superscript digits…) separates
 * tokens and is dropped. A token longer than `max` UTF-16 code units ends at the longest valid
 * token within `max` units and scanning goes on after it (Lucene's maxTokenLength, 255).
 *
 * Character properties come from the JavaScript engine's Unicode tables (newer than Lucene 8's
 * Unicode 9): characters added to Unicode since then may be classed differently.
 */

import { NEWER_THAN_UNICODE_9, PICTOGRAPHS } from './unicode-9-tables';

/** Token types, as Lucene's StandardTokenizer names them. */
export const TOKEN_TYPES = ['<ALPHANUM>', '<NUM>', '<SOUTHEAST_ASIAN>', '<IDEOGRAPHIC>', '<HIRAGANA>', '<KATAKANA>', '<HANGUL>', '<EMOJI>'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

// Character classes.
const OTHER = 0;
const AL = 1; // ALetter
const HL = 2; // Hebrew_Letter
const NU = 3; // Numeric
const KA = 4; // Katakana
const ENL = 5; // ExtendNumLet
const EX = 6; // Extend, Format, ZWJ
const ML = 7; // MidLetter
const MNL = 8; // MidNumLet
const MN = 9; // MidNum
const SQ = 10; // '
const DQ = 11; // "
const SA = 12; // Line_Break=Complex_Context
const HAN = 13;
const HIRA = 14;
const RI = 15; // regional indicator
const EMO = 16; // emoji, not a letter
const EMOAL = 17; // emoji that is also a letter (ℹ Ⓜ): a letter inside words
const MOD = 18; // emoji skin-tone modifier
const KEYCAP = 19; // # * (keycap bases that are not digits)
const HANGUL_AL = 20; // ALetter of the Hangul script (a letter; typed <HANGUL>)
const SA_MARK = 21; // combining mark of a South-East Asian script: Extend after other letters, SA in SA runs

const UNKNOWN = 255;

const RE_SA = /^[\p{Script=Thai}\p{Script=Lao}\p{Script=Myanmar}\p{Script=Khmer}\p{Script=Tai_Le}\p{Script=New_Tai_Lue}\p{Script=Tai_Tham}\p{Script=Tai_Viet}\p{Script=Ahom}]$/u;
const RE_LM = /^[\p{L}\p{M}]$/u;
const RE_MARK = /^\p{M}$/u;
const RE_EXTEND = /^[\p{M}\p{Cf}]$/u;
const RE_PC = /^\p{Pc}$/u;
const RE_KATAKANA = /^\p{Script=Katakana}$/u;
const RE_HIRAGANA = /^\p{Script=Hiragana}$/u;
const RE_HEBREW_LETTER = /^\p{Script=Hebrew}$/u;
const RE_LO = /^\p{Lo}$/u;
const RE_ND = /^\p{Nd}$/u;
const RE_ALPHABETIC = /^\p{Alphabetic}$/u;
const RE_IDEOGRAPHIC = /^\p{Ideographic}$/u;
const RE_HAN = /^\p{Script=Han}$/u;
const RE_HANGUL = /^\p{Script=Hangul}$/u;
const RE_EMOJI = /^\p{Emoji}$/u;

const MID_LETTER = new Set([0x3a, 0xb7, 0x2d7, 0x387, 0x5f4, 0x2027, 0xfe13, 0xfe55, 0xff1a]);
const MID_NUM_LET = new Set([0x2e, 0x2018, 0x2019, 0x2024, 0xfe52, 0xff07, 0xff0e]);
const MID_NUM = new Set([0x2c, 0x3b, 0x37e, 0x589, 0x60c, 0x60d, 0x66c, 0x7f8, 0x2044, 0xfe10, 0xfe14, 0xfe50, 0xfe54, 0xff0c, 0xff1b]);
const KATAKANA_EXTRA = new Set([0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x309b, 0x309c, 0x30a0, 0x30fc, 0xff70]);
/** Line_Break=SA symbols and digits (no letters or marks) that Lucene keeps in South-East Asian runs. */
const SA_OTHER: ReadonlyArray<readonly [number, number]> = [
  [0x109e, 0x109f], [0x19da, 0x19da], [0x19de, 0x19df], [0x1aa0, 0x1aa6], [0x1aa8, 0x1aad], [0xaa77, 0xaa79], [0xaade, 0xaadf], [0x1173a, 0x1173b], [0x1173f, 0x1173f],
];

function inRanges(cp: number, ranges: ReadonlyArray<readonly [number, number]>): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid]!;
    if (cp < r[0]) hi = mid - 1;
    else if (cp > r[1]) lo = mid + 1;
    else return true;
  }
  return false;
}

function classify(cp: number): number {
  if (cp >= 0x1f1e6 && cp <= 0x1f1ff) return RI;
  if (cp >= 0x1f3fb && cp <= 0x1f3ff) return MOD;
  if (cp === 0x27) return SQ;
  if (cp === 0x22) return DQ;
  if (cp === 0x23 || cp === 0x2a) return KEYCAP;
  if (MID_LETTER.has(cp)) return ML;
  if (MID_NUM_LET.has(cp)) return MNL;
  if (MID_NUM.has(cp)) return MN;
  if (cp === 0x200b || (cp >= 0xd800 && cp <= 0xdfff)) return OTHER; // zero-width space, lone surrogates
  if (inRanges(cp, NEWER_THAN_UNICODE_9)) return OTHER;
  if (inRanges(cp, PICTOGRAPHS)) return EMO;
  if (cp === 0x66b) return NU; // Arabic decimal separator
  if (cp === 0x1a7f || cp === 0x1cf2 || cp === 0x1cf3) return EX; // Extend in Unicode 9
  const ch = String.fromCodePoint(cp);
  if (RE_PC.test(ch) || cp === 0x202f) return ENL;
  if (RE_SA.test(ch) && RE_LM.test(ch)) return RE_MARK.test(ch) ? SA_MARK : SA;
  if (inRanges(cp, SA_OTHER)) return SA;
  if (RE_EXTEND.test(ch) || cp === 0xff9e || cp === 0xff9f) return EX;
  if (RE_KATAKANA.test(ch) || KATAKANA_EXTRA.has(cp)) return KA;
  if (RE_HIRAGANA.test(ch)) return HIRA;
  if (RE_HEBREW_LETTER.test(ch) && RE_LO.test(ch)) return HL;
  if (RE_ND.test(ch)) return NU;
  if ((RE_ALPHABETIC.test(ch) && !RE_IDEOGRAPHIC.test(ch)) || cp === 0x5f3) {
    if (RE_EMOJI.test(ch)) return EMOAL;
    return RE_HANGUL.test(ch) ? HANGUL_AL : AL;
  }
  if (RE_HAN.test(ch)) return HAN;
  if (RE_EMOJI.test(ch)) return EMO;
  return OTHER;
}

/** Class of every BMP code unit, filled lazily (ASCII up front). */
const BMP = new Uint8Array(65536).fill(UNKNOWN);
for (let c = 0; c < 128; c++) BMP[c] = classify(c);
const ASTRAL = new Map<number, number>();

/** Width (1 or 2 code units) of the char whose class `classAt` returned last. */
let lastWidth = 1;

/** Class of the character starting at `i` (< s.length); sets `lastWidth`. */
function classAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) {
    lastWidth = 1;
    const k = BMP[c]!;
    if (k !== UNKNOWN) return k;
    return (BMP[c] = classify(c));
  }
  const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
  if (d < 0xdc00 || d > 0xdfff) {
    lastWidth = 1;
    return OTHER; // lone high surrogate
  }
  lastWidth = 2;
  const cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  let k = ASTRAL.get(cp);
  if (k === undefined) ASTRAL.set(cp, (k = classify(cp)));
  return k;
}

function isLetter(k: number): boolean {
  return k === AL || k === HL || k === EMOAL || k === HANGUL_AL;
}

// Word scanner states: what the word ended with so far.
const S_NONE = 0;
const S_LETTER = 1;
const S_HEBREW = 2;
const S_NUM = 3;
const S_KATAKANA = 4;
const S_UNDERSCORE = 5; // ExtendNumLet
const S_HEBREW_QUOTE = 6; // Hebrew letter + '

// What a word contained (for its type).
const HAS_LETTER = 1;
const HAS_NUM = 2;
const HAS_KATAKANA = 4;
const HAS_HANGUL = 8;
const HAS_UNDERSCORE = 16;
const HAS_EMOJI_LETTER = 32;
const HAS_OTHER_UNIT = 64; // a second core unit (for the single-emoji-letter rule)

let wordFlags = 0;

/** The state after a core character of class k following state st, or -1 when they do not join. */
function join(st: number, k: number): number {
  if (isLetter(k)) return st === S_KATAKANA ? -1 : k === HL ? S_HEBREW : S_LETTER;
  if (k === NU) return st === S_KATAKANA ? -1 : S_NUM;
  if (k === KA) return st === S_NONE || st === S_KATAKANA || st === S_UNDERSCORE ? S_KATAKANA : -1;
  if (k === ENL) return S_UNDERSCORE;
  return -1;
}

function flagOf(k: number): number {
  return k === NU ? HAS_NUM : k === KA ? HAS_KATAKANA : k === ENL ? HAS_UNDERSCORE : k === HANGUL_AL ? HAS_HANGUL : k === EMOAL ? HAS_EMOJI_LETTER : HAS_LETTER;
}

/** Position after the Extend/Format characters starting at j (not beyond lim). */
function skipExtend(s: string, j: number, n: number): number {
  while (j < n) {
    const c = s.charCodeAt(j);
    if (c < 128) return j;
    const k = classAt(s, j);
    if (k !== EX && k !== SA_MARK) return j;
    j += lastWidth;
  }
  return j;
}

/** End of the word starting at `start` (start when there is none); sets `wordFlags`. */
function scanWord(s: string, start: number, n: number, lim: number): number {
  let st = S_NONE;
  let end = start;
  let core = false;
  let flags = 0;
  let units = 0;
  let i = start;
  while (i < n) {
    // Fast path: a run of ASCII letters and digits.
    if (st !== S_KATAKANA) {
      while (i < lim) {
        const c = s.charCodeAt(i);
        if (c >= 128) break;
        const k = BMP[c]!;
        if (k === AL) {
          st = S_LETTER;
          flags |= HAS_LETTER;
        } else if (k === NU) {
          st = S_NUM;
          flags |= HAS_NUM;
        } else break;
        units++;
        core = true;
        end = ++i;
      }
      if (i >= n) break;
    }
    const c = s.charCodeAt(i);
    let k: number;
    let w = 1;
    if (c < 128) k = BMP[c]!;
    else {
      k = classAt(s, i);
      w = lastWidth;
    }
    if (i + w > lim) break;
    if (k === EX || k === SA_MARK) {
      i += w;
      if (core) end = i;
      continue;
    }
    const nx = join(st, k);
    if (nx >= 0) {
      i += w;
      st = nx;
      if (k !== ENL) {
        core = true;
        units++;
      }
      flags |= flagOf(k);
      if (core) end = i;
      continue;
    }
    // Mid characters join two letters or two digits (and Hebrew quotes).
    if (k >= ML && k <= DQ && st !== S_NONE) {
      const j = skipExtend(s, i + w, n);
      if (j < n) {
        const k2 = classAt(s, j);
        const w2 = lastWidth;
        const letters = (st === S_LETTER || st === S_HEBREW) && (k === ML || k === MNL || k === SQ) && isLetter(k2);
        const digits = st === S_NUM && (k === MN || k === MNL || k === SQ) && k2 === NU;
        const hebrew = st === S_HEBREW && k === DQ && k2 === HL;
        if ((letters || digits || hebrew) && j + w2 <= lim) {
          i = j + w2;
          st = k2 === NU ? S_NUM : k2 === HL ? S_HEBREW : S_LETTER;
          flags |= flagOf(k2);
          units++;
          end = i;
          continue;
        }
      }
      if (st === S_HEBREW && k === SQ) {
        i += w;
        st = S_HEBREW_QUOTE;
        end = i;
        continue;
      }
    }
    break;
  }
  wordFlags = flags | (units > 1 ? HAS_OTHER_UNIT : 0);
  return core ? end : start;
}

function isEmojiStart(k: number): boolean {
  return k === EMO || k === EMOAL || k === MOD;
}

/** End of the emoji sequence starting at `start` (start when there is none). */
function scanEmoji(s: string, start: number, n: number, lim: number): number {
  const k0 = classAt(s, start);
  let i = start + lastWidth;
  if (k0 === RI) {
    if (i >= n || classAt(s, i) !== RI) return start;
    i += lastWidth;
  } else if (k0 === NU || k0 === KEYCAP) {
    // keycap: [0-9#*] FE0F? 20E3
    let j = i;
    if (j < n && s.charCodeAt(j) === 0xfe0f) j++;
    if (j < n && s.charCodeAt(j) === 0x20e3) i = j + 1;
    else return start;
  } else if (!isEmojiStart(k0)) return start;
  if (i > lim) return start;
  for (;;) {
    if (i >= n) break;
    const c = s.charCodeAt(i);
    if (c < 128) break;
    const k = classAt(s, i);
    const w = lastWidth;
    if (i + w > lim) break;
    if (k === EX || k === MOD) {
      i += w;
      if (c === 0x200d && i < n) {
        const k2 = classAt(s, i);
        if (isEmojiStart(k2) && i + lastWidth <= lim) i += lastWidth;
      }
      continue;
    }
    break;
  }
  return i;
}

/** ASCII characters after which no word goes on (1): not a letter, digit, `_` or a Mid character. */
const ENDS_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const k = BMP[c]!;
  ENDS_WORD[c] = k === OTHER || k === KEYCAP || k === DQ ? 1 : 0;
}

/** Writes a token's [start, end) at bounds.buf[nb] (growing it); returns the new nb. */
function emit(bounds: { buf: Int32Array }, nb: number, start: number, end: number): number {
  let buf = bounds.buf;
  if (nb + 2 > buf.length) {
    const g = new Int32Array(Math.max(64, buf.length * 2));
    g.set(buf.subarray(0, nb));
    buf = bounds.buf = g;
  }
  buf[nb] = start;
  buf[nb + 1] = end;
  return nb + 2;
}

/**
 * Scans `s` and appends each token's [start, end) to `bounds` (from index 0); returns the
 * number of ints written (2 per token). With `types`, each token's type index (TOKEN_TYPES) is
 * pushed too.
 */
export function scanTokens(s: string, max: number, bounds: { buf: Int32Array }, types?: number[]): number {
  const n = s.length;
  let nb = 0;
  let i = 0;
  while (i < n) {
    const c0 = s.charCodeAt(i);
    let k: number;
    let w = 1;
    if (c0 < 128) {
      k = BMP[c0]!;
      if (k === OTHER || k === SQ || k === DQ || k === ML || k === MN || k === MNL) {
        i++;
        continue;
      }
    } else {
      k = classAt(s, i);
      w = lastWidth;
    }
    const lim = Math.min(n, i + max);
    if (k === AL || k === NU) {
      // Fast path: ASCII letters and digits ended by an ASCII character that ends any word.
      let j = i + 1;
      let letters = k === AL;
      while (j < lim) {
        const c = s.charCodeAt(j);
        if (c >= 128) break;
        const kc = BMP[c]!;
        if (kc === AL) letters = true;
        else if (kc !== NU) break;
        j++;
      }
      if (j === n || (j < lim && s.charCodeAt(j) < 128 && ENDS_WORD[s.charCodeAt(j)] === 1)) {
        nb = emit(bounds, nb, i, j);
        if (types) types.push(letters ? 0 : 1);
        i = j;
        continue;
      }
    }
    if (isLetter(k) || k === NU || k === KA || k === ENL) {
      const e = scanWord(s, i, n, lim);
      const f = wordFlags;
      const em = k === NU || k === EMOAL ? scanEmoji(s, i, n, lim) : i;
      if (em > i && em >= e) {
        nb = emit(bounds, nb, i, em);
        if (types) types.push(7);
        i = em;
      } else if (e > i) {
        const type =
          (f & (HAS_LETTER | HAS_KATAKANA | HAS_HANGUL | HAS_EMOJI_LETTER)) === 0
            ? 1
            : f === HAS_HANGUL || f === (HAS_HANGUL | HAS_OTHER_UNIT)
              ? 6
              : f === HAS_KATAKANA || f === (HAS_KATAKANA | HAS_OTHER_UNIT)
                ? 5
                : f === HAS_EMOJI_LETTER
                  ? 7
                  : 0;
        nb = emit(bounds, nb, i, e);
        if (types) types.push(type);
        i = e;
      } else i += w;
      continue;
    }
    if (k === HAN || k === HIRA) {
      const e = Math.min(skipExtend(s, i + w, n), lim);
      nb = emit(bounds, nb, i, e);
      if (types) types.push(k === HAN ? 3 : 4);
      i = e;
      continue;
    }
    if (k === SA || k === SA_MARK) {
      let e = i + w;
      while (e < lim && (classAt(s, e) === SA || classAt(s, e) === SA_MARK) && e + lastWidth <= lim) e += lastWidth;
      nb = emit(bounds, nb, i, e);
      if (types) types.push(2);
      i = e;
      continue;
    }
    if (k === EMO || k === MOD || k === RI || k === KEYCAP) {
      const e = scanEmoji(s, i, n, lim);
      if (e > i) {
        nb = emit(bounds, nb, i, e);
        if (types) types.push(7);
        i = e;
        continue;
      }
    }
    i += w;
  }
  return nb;
}
