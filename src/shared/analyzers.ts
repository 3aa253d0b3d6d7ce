/** The BM25 analyzers a workspace or pool can use (their Lucene chains: src/main/bm25/analyzers.ts). */
export const ANALYZER_NAMES = ['lucene-standard-stop', 'lucene-standard', 'lucene-english'] as const;
export type AnalyzerName = (typeof ANALYZER_NAMES)[number];
export const DEFAULT_ANALYZER: AnalyzerName = 'lucene-standard-stop';

/** One line per analyzer, for the Pools screen (the Lucene class chain). */
export const ANALYZER_HELP: Record<AnalyzerName, string> = {
  'lucene-standard-stop': 'StandardTokenizer → EnglishPossessiveFilter → LowerCaseFilter → StopFilter (33 English stop words)',
  'lucene-standard': 'Lucene 8 new StandardAnalyzer(): StandardTokenizer → LowerCaseFilter, no stop words',
  'lucene-english': 'Lucene 8 new EnglishAnalyzer(): StandardTokenizer → EnglishPossessiveFilter → LowerCaseFilter → StopFilter (33 words) → PorterStemFilter',
};
