/**
 * The BM25 analysis chain: Lucene 8's StandardTokenizer word breaks (./word-breaks.ts), then,
 * as the chosen analyzer says (./analyzers.ts), EnglishPossessiveFilter, LowerCaseFilter,
 * StopFilter and PorterStemFilter — token for token what Lucene 8 produces (fixtures from real
 * Lucene in tests/fixtures/lucene/).
 *
 *  - Possessive: a token ending in `'s`, `’s` or `＇s` (s or S) loses those two characters
 *    (`user's` → `user`); applied before lowercasing, as Lucene does. `’` is not normalised.
 *  - Lowercase: per character, locale-independent, without context (Java's Character.toLowerCase:
 *    `İ` → `i`, a final `Σ` → `σ`).
 *  - Stop words: the analyzer's (33 English words or none), or a list given in the options.
 *  - Tokens longer than `maxTokenLength` (default 255 UTF-16 units) are cut as Lucene cuts them.
 *
 * Document length for BM25 is the number of tokens left after stop-word removal (stop words never
 * reach a Lucene index either). Speed: plain ASCII text is scanned from a class table with no
 * per-character regex; other characters are classified once and cached.
 */

import { QPairsError } from '../errors';
import { ANALYZERS, DEFAULT_ANALYZER, isAnalyzerName, type AnalyzerName } from './analyzers';
import { porterStem } from './porter-stemmer';
import { TermDict } from './term-dict';
import { scanTokens, TOKEN_TYPES, type TokenType } from './word-breaks';

/** Lucene's `EnglishAnalyzer.ENGLISH_STOP_WORDS_SET` (33 words). */
export const ENGLISH_STOP_WORDS: readonly string[] = Object.freeze([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not',
  'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was',
  'will', 'with',
]);

export interface TokenizerOptions {
  /** The analysis chain (default `lucene-standard-stop`, see ./analyzers.ts). */
  analyzer?: AnalyzerName;
  /** Overrides the analyzer's stop words: `'english'`, `'none'` or your own list. */
  stopWords?: 'english' | 'none' | readonly string[];
  /** Longer tokens are cut (UTF-16 code units). Default 255, Lucene's. */
  maxTokenLength?: number;
}

/** Lowercase per character, as Java's Character.toLowerCase (same length as the input). */
export function lowerCase(text: string): string {
  // String.prototype.toLowerCase differs only for İ (→ "i̇", two units) and a word-final Σ (→ ς).
  if (/[\u0130\u03a3]/.test(text)) text = text.replace(/[\u0130\u03a3]/g, (c) => (c === '\u0130' ? 'i' : '\u03c3'));
  return text.toLowerCase();
}

function isApostrophe(c: number): boolean {
  return c === 0x27 || c === 0x2019 || c === 0xff07;
}

const STEM_CACHE_MAX = 200_000;

export class Tokenizer {
  readonly analyzer: AnalyzerName;
  readonly stopWords: ReadonlySet<string>;
  readonly maxTokenLength: number;
  /** Canonical description of the settings (stored with a persisted index). */
  readonly signature: string;
  private readonly possessive: boolean;
  private readonly stem: boolean;
  private readonly stopDict = new TermDict();
  private readonly stems = new Map<string, string>();
  /** Token boundaries of the last scan: start, end pairs. */
  private readonly bounds = { buf: new Int32Array(1024) };

  constructor(opts: TokenizerOptions = {}) {
    const analyzer = opts.analyzer ?? DEFAULT_ANALYZER;
    if (!isAnalyzerName(analyzer)) throw new QPairsError(`unknown analyzer "${String(analyzer)}"`, { reason: 'bad analyzer' });
    const chain = ANALYZERS[analyzer];
    this.analyzer = analyzer;
    this.possessive = chain.possessive;
    this.stem = chain.porterStem;
    const sw = opts.stopWords ?? (chain.englishStopWords ? 'english' : 'none');
    const list = sw === 'english' ? ENGLISH_STOP_WORDS : sw === 'none' ? [] : sw.map((w) => lowerCase(w));
    this.stopWords = new Set(list);
    for (const w of this.stopWords) this.stopDict.intern(w);
    const max = opts.maxTokenLength ?? 255;
    if (!Number.isInteger(max) || max < 1)
      throw new QPairsError(`tokenizer maxTokenLength must be a positive integer, got ${max}`, { reason: 'bad maxTokenLength' });
    this.maxTokenLength = max;
    this.signature = JSON.stringify({ v: 2, analyzer, stopWords: [...this.stopWords].sort(), maxTokenLength: max });
  }

  /**
   * Tokens of `text` in order (duplicates kept), appended to `out` (a new array by default).
   * Empty or whitespace-only text gives no tokens.
   */
  tokenize(text: string, out: string[] = []): string[] {
    this.analyze(text, (t) => out.push(t));
    return out;
  }

  /** Tokens with their StandardTokenizer types (as Lucene's TypeAttribute gives them). */
  tokenizeWithTypes(text: string): Array<[string, TokenType]> {
    const types: number[] = [];
    const out: Array<[string, TokenType]> = [];
    this.analyze(text, (t, i) => out.push([t, TOKEN_TYPES[types[i]!]!]), types);
    return out;
  }

  private analyze(text: string, emit: (term: string, index: number) => void, types?: number[]): void {
    const n = scanTokens(text, this.maxTokenLength, this.bounds, types);
    const b = this.bounds.buf;
    const lower = lowerCase(text);
    const stop = this.stopDict;
    for (let i = 0; i < n; i += 2) {
      const start = b[i]!;
      const end = this.tokenEnd(text, start, b[i + 1]!);
      if (stop.size > 0 && stop.find(lower, start, end, TermDict.hash(lower, start, end)) >= 0) continue;
      const term = lower.slice(start, end);
      emit(this.stem ? this.stemOf(term) : term, i >> 1);
    }
  }

  /** End of the token after EnglishPossessiveFilter. */
  private tokenEnd(text: string, start: number, end: number): number {
    if (this.possessive && end - start >= 2) {
      const c = text.charCodeAt(end - 1);
      if ((c === 0x73 || c === 0x53) && isApostrophe(text.charCodeAt(end - 2))) return end - 2;
    }
    return end;
  }

  private stemOf(term: string): string {
    let s = this.stems.get(term);
    if (s === undefined) {
      if (this.stems.size >= STEM_CACHE_MAX) this.stems.clear();
      s = porterStem(term);
      // A fresh flat copy: a slice could keep the whole document text alive in the cache.
      this.stems.set((' ' + term).slice(1), s === term ? term : s);
    }
    return s;
  }

  /**
   * Term ids (in `dict`) of the tokens of `text`, stop words removed, appended to `out`;
   * returns the number appended. With `add`, unknown terms are added to `dict`; without, they
   * are skipped. Same tokens as {@link tokenize}, but no string is created for known terms
   * (except with stemming).
   */
  tokenizeToIds(text: string, dict: TermDict, add: boolean, out: number[]): number {
    const n = scanTokens(text, this.maxTokenLength, this.bounds);
    const b = this.bounds.buf;
    const lower = lowerCase(text);
    const stop = this.stopDict;
    const checkStop = stop.size > 0;
    const before = out.length;
    for (let i = 0; i < n; i += 2) {
      const start = b[i]!;
      const end = this.tokenEnd(text, start, b[i + 1]!);
      const h = TermDict.hash(lower, start, end);
      if (checkStop && stop.find(lower, start, end, h) >= 0) continue;
      let id: number;
      if (this.stem) {
        const term = this.stemOf(lower.slice(start, end));
        id = dict.get(term);
        if (id < 0) {
          if (!add) continue;
          id = dict.intern(term);
        }
      } else {
        id = dict.find(lower, start, end, h);
        if (id < 0) {
          if (!add) continue;
          // A fresh flat copy: a plain slice could keep the whole document text alive.
          id = dict.insertNew((' ' + lower.slice(start, end)).slice(1), h);
        }
      }
      out.push(id);
    }
    return out.length - before;
  }
}

let defaultTokenizer: Tokenizer | undefined;

/** Tokens of `text` with the default analyzer (or the given options). */
export function tokenize(text: string, opts?: TokenizerOptions): string[] {
  if (opts) return new Tokenizer(opts).tokenize(text);
  return (defaultTokenizer ??= new Tokenizer()).tokenize(text);
}
