import { Tokenizer } from './tokenizer';

const highlighter = new Tokenizer();

/**
 * Tokens of `text` as the BM25 index sees them (default settings: lowercased, English stop
 * words removed), for highlighting terms a candidate shares with its query. Duplicates kept.
 */
export function tokenizeForHighlight(text: string): string[] {
  return highlighter.tokenize(text);
}
