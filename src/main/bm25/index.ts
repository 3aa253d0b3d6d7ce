/** BM25: analysis (Lucene 8's analyzers), inverted index (Lucene BM25 scoring), persistence, batch retrieval. */
export { Tokenizer, tokenize, ENGLISH_STOP_WORDS, type TokenizerOptions } from './tokenizer';
export { ANALYZER_NAMES, ANALYZERS, DEFAULT_ANALYZER, isAnalyzerName, type AnalyzerName, type AnalyzerChain } from './analyzers';
export { CORPUS_FORMATS, corpusLines, isCorpusFormat, type CorpusFormat } from './corpus-export';
export {
  Bm25Index,
  type Bm25Document,
  type Bm25Hit,
  type Bm25Options,
  type Bm25Stats,
  type AddOptions,
  type SearchOptions,
  type PersistResult,
  type ProgressOptions,
} from './bm25-index';
export { topKForQueries, questionDocuments, syncedInSlices, syncWithQuestions, type QueryHits, type SyncResult } from './queries';
export { tokenizeForHighlight } from './highlight';
