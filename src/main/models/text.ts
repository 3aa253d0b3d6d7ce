/** Tokenisation shared by the models (kept local so models do not change when bm25/ does; the Porter stemmer is bm25's). */
import { porterStem } from '../bm25/porter-stemmer';
import type { QText } from './types';
import { fnv1a } from '../../shared/fnv1a';

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-cased runs of letters/digits ("Don't use Wi-Fi" → don, t, use, wi, fi). */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** A common English stop-word list (function words only). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each few for from further had has have ' +
    'having he her here hers herself him himself his how i if in into is it its itself just me more most ' +
    'my myself no nor not now of off on once only or other our ours ourselves out over own same she should ' +
    'so some such than that the their theirs them themselves then there these they this those through to ' +
    'too under until up very was we were what when where which while who whom why will with would you ' +
    'your yours yourself yourselves s t d ll m re ve don doesn didn isn aren wasn weren hasn haven hadn ' +
    'won wouldn shouldn couldn can cannot also get got im'
  ).split(/\s+/),
);

export function contentWords(tokens: readonly string[]): string[] {
  return tokens.filter((t) => !STOP_WORDS.has(t));
}

/**
 * The extended stop list: STOP_WORDS plus scikit-learn's ENGLISH_STOP_WORDS (Glasgow IR group's list,
 * 318 words: also "however", "whereas", "thus", number words, "please", "may", …).
 */
export const EXTENDED_STOP_WORDS: ReadonlySet<string> = new Set([
  ...STOP_WORDS,
  ...(
    'a about above across after afterwards again against all almost alone along already also although ' +
    'always am among amongst amoungst amount an and another any anyhow anyone anything anyway anywhere ' +
    'are around as at back be became because become becomes becoming been before beforehand behind being ' +
    'below beside besides between beyond bill both bottom but by call can cannot cant co con could ' +
    'couldnt cry de describe detail do done down due during each eg eight either eleven else elsewhere ' +
    'empty enough etc even ever every everyone everything everywhere except few fifteen fifty fill find ' +
    'fire first five for former formerly forty found four from front full further get give go had has ' +
    'hasnt have he hence her here hereafter hereby herein hereupon hers herself him himself his how ' +
    'however hundred i ie if in inc indeed interest into is it its itself keep last latter latterly least ' +
    'less ltd made many may me meanwhile might mill mine more moreover most mostly move much must my ' +
    'myself name namely neither never nevertheless next nine no nobody none noone nor not nothing now ' +
    'nowhere of off often on once one only onto or other others otherwise our ours ourselves out over own ' +
    'part per perhaps please put rather re same see seem seemed seeming seems serious several she should ' +
    'show side since sincere six sixty so some somehow someone something sometime sometimes somewhere ' +
    'still such system take ten than that the their them themselves then thence there thereafter thereby ' +
    'therefore therein thereupon these they thick thin third this those though three through throughout ' +
    'thru thus to together too top toward towards twelve twenty two un under until up upon us very via ' +
    'was we well were what whatever when whence whenever where whereafter whereas whereby wherein ' +
    'whereupon wherever whether which while whither who whoever whole whom whose why will with within ' +
    'without would yet you your yours yourself yourselves'
  ).split(' '),
]);

/** How a text becomes the words of the embedding features (fused) and their PPMI-SVD vectors. */
export interface WordOptions {
  /** 'basic': STOP_WORDS; 'extended': EXTENDED_STOP_WORDS. */
  stopWords: 'basic' | 'extended';
  /** Porter-stem each kept word (src/main/bm25/porter-stemmer.ts, Lucene's variant). */
  stem: boolean;
}

/** The chosen default (fused, by grouped CV on SemEval-2016): extended stop list, stemmed. */
export const STEMMED_WORDS: WordOptions = { stopWords: 'extended', stem: true };
/** The former words: basic stop list, not stemmed (models saved before the option). */
export const PLAIN_WORDS: WordOptions = { stopWords: 'basic', stem: false };

/**
 * Content words of tokens under `o`: w ∉ stop list, then stem(w) when o.stem
 * (["The", "routers", "are", "routing"] tokenised → router, rout with STEMMED_WORDS).
 */
export function wordsOf(tokens: readonly string[], o: WordOptions): string[] {
  const stop = o.stopWords === 'extended' ? EXTENDED_STOP_WORDS : STOP_WORDS;
  const out: string[] = [];
  for (const t of tokens) if (!stop.has(t)) out.push(o.stem ? stem(t) : t);
  return out;
}

/** porterStem, memoised (a corpus repeats its words; the memo empties itself past 200,000 words). */
const stems = new Map<string, string>();
function stem(t: string): string {
  let s = stems.get(t);
  if (s === undefined) {
    if (stems.size >= 200_000) stems.clear();
    stems.set(t, (s = porterStem(t)));
  }
  return s;
}

/** Word n-grams of orders minN..maxN joined by a space. */
export function ngrams(tokens: readonly string[], minN: number, maxN: number): string[] {
  const out: string[] = [];
  for (let n = minN; n <= maxN; n++) {
    for (let i = 0; i + n <= tokens.length; i++) {
      out.push(n === 1 ? tokens[i] : tokens.slice(i, i + n).join(' '));
    }
  }
  return out;
}

export function fullText(q: QText): string {
  return `${q.title}\n${q.body}`;
}

/** Cache key of a question's text: id plus a hash of its content, so edited texts re-encode. */
export function textKey(q: QText): string {
  return `${q.id}\u0000${fnv1a(q.title)}\u0000${fnv1a(q.body)}\u0000${q.title.length + q.body.length}`;
}

/** Counts of each item. */
export function countMap(items: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of items) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}
