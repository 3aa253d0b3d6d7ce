import { ENGLISH_STOP_WORDS, Tokenizer } from './tokenizer';

/**
 * Function words that carry no topic: shared-term highlighting skips them, on top of the index's
 * own 33 stop words (Lucene's set leaves "i", "can", "how", "my"… in, and highlighting those would
 * mark half of every question). Retrieval is not affected.
 */
export const HIGHLIGHT_STOP_WORDS: readonly string[] = Object.freeze([
  ...ENGLISH_STOP_WORDS,
  ...`i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his himself she her hers herself
  its itself them theirs themselves what which who whom whose this those am were been being have has had having do does did
  doing would should could can cannot may might must shall ought about above after again against all also any because before
  below between both down during each few from further here how just more most much many other out over own same so some
  than too under until up very when where why while only nor off once anyone anything everyone everything someone something
  get got getting make made need want know like use used using i'm i've i'd i'll don't doesn't didn't can't won't isn't aren't wasn't hi hello
  thanks thank please anybody somebody one ones way yes via etc`.split(/\s+/),
]);

const highlighter = new Tokenizer({ stopWords: HIGHLIGHT_STOP_WORDS });

/**
 * Tokens of `text` as the BM25 index sees them (lowercased, the same word rules), minus
 * {@link HIGHLIGHT_STOP_WORDS}, for highlighting terms a candidate shares with its query.
 * Duplicates kept.
 */
export function tokenizeForHighlight(text: string): string[] {
  return highlighter.tokenize(text);
}
