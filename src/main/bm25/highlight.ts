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

/**
 * Defaults of {@link rareSharedTerms}: terms in at most 5% of the documents (but never fewer than
 * 3: a shared term is in the query and the candidate at least), at most 12 of them.
 */
export const RARE_TERMS = Object.freeze({ maxDocShare: 0.05, minDocs: 3, maxTerms: 12 });

/**
 * The shared terms worth highlighting (issue 24): only the rarer ones by inverse document
 * frequency over the workspace's BM25 index, so a candidate's highlight points at what it really
 * shares with the query, not at every common word.
 *
 *   idf(t) = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))      (the index's BM25 idf; n(t) = docFreq)
 *   keep t  iff  n(t) ≤ max(minDocs, maxDocShare · N)      (in at most 5% of the documents, or 3)
 *   then the `maxTerms` of highest idf (ties: the order given).
 *
 * A term the index does not know (n = 0: another analyzer's form, or text not indexed yet) counts
 * as rare. With N = 0 (no index) every term is kept, up to `maxTerms`. Pure; O(k log k) for k terms.
 */
export function rareSharedTerms(terms: readonly string[], docFreq: (t: string) => number, N: number, o: { maxDocShare?: number; minDocs?: number; maxTerms?: number } = {}): string[] {
  const share = o.maxDocShare ?? RARE_TERMS.maxDocShare;
  const cap = o.maxTerms ?? RARE_TERMS.maxTerms;
  const limit = Math.max(o.minDocs ?? RARE_TERMS.minDocs, share * N);
  const idf = (n: number): number => Math.log(1 + (N - n + 0.5) / (n + 0.5));
  return terms
    .map((t, i) => ({ t, i, n: N > 0 ? docFreq(t) : 0 }))
    .filter((x) => N === 0 || x.n <= limit)
    .sort((a, b) => idf(b.n) - idf(a.n) || a.i - b.i)
    .slice(0, cap)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.t);
}
