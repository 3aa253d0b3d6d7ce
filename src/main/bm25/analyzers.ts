/**
 * The named analyzers a workspace's BM25 index can use, each the same chain as a Lucene 8
 * analyzer (checked against real Lucene 8.8.1: tests/fixtures/lucene/):
 *
 * | name | Lucene | chain |
 * |---|---|---|
 * | `lucene-standard-stop` (default) | custom chain | StandardTokenizer → EnglishPossessiveFilter → LowerCaseFilter → StopFilter(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET) |
 * | `lucene-standard` | `new StandardAnalyzer()` | StandardTokenizer → LowerCaseFilter → StopFilter(empty set: no stop words since Lucene 8) |
 * | `lucene-english` | `new EnglishAnalyzer()` | StandardTokenizer → EnglishPossessiveFilter → LowerCaseFilter → StopFilter(ENGLISH_STOP_WORDS_SET) → PorterStemFilter |
 *
 * StandardTokenizer with its default maxTokenLength 255 (see ./word-breaks.ts).
 */

import { ANALYZER_NAMES, DEFAULT_ANALYZER, type AnalyzerName } from '../../shared/analyzers';

export { ANALYZER_NAMES, DEFAULT_ANALYZER, type AnalyzerName };

export interface AnalyzerChain {
  /** EnglishPossessiveFilter: a trailing 's ’s ＇s (or S) is dropped. */
  possessive: boolean;
  /** StopFilter with the 33 English stop words. */
  englishStopWords: boolean;
  /** PorterStemFilter. */
  porterStem: boolean;
  /** The Lucene classes, for documentation and datasheets. */
  lucene: string;
}

export const ANALYZERS: Readonly<Record<AnalyzerName, AnalyzerChain>> = Object.freeze({
  'lucene-standard-stop': {
    possessive: true,
    englishStopWords: true,
    porterStem: false,
    lucene: 'StandardTokenizer, EnglishPossessiveFilter, LowerCaseFilter, StopFilter(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET)',
  },
  'lucene-standard': {
    possessive: false,
    englishStopWords: false,
    porterStem: false,
    lucene: 'StandardAnalyzer(): StandardTokenizer, LowerCaseFilter, StopFilter(empty set)',
  },
  'lucene-english': {
    possessive: true,
    englishStopWords: true,
    porterStem: true,
    lucene: 'EnglishAnalyzer(): StandardTokenizer, EnglishPossessiveFilter, LowerCaseFilter, StopFilter(ENGLISH_STOP_WORDS_SET), PorterStemFilter',
  },
});

export function isAnalyzerName(s: unknown): s is AnalyzerName {
  return typeof s === 'string' && (ANALYZER_NAMES as readonly string[]).includes(s);
}
