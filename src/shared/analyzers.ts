/** The BM25 analyzers a workspace or pool can use (their Lucene chains: src/main/bm25/analyzers.ts). */
export const ANALYZER_NAMES = ['lucene-standard-stop', 'lucene-standard', 'lucene-english'] as const;
export type AnalyzerName = (typeof ANALYZER_NAMES)[number];
export const DEFAULT_ANALYZER: AnalyzerName = 'lucene-standard-stop';
