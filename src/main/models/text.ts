/** Tokenisation shared by the models (kept local so models do not change when bm25/ does). */
import type { QText } from './types';

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

/** FNV-1a 32-bit hash of a string (cache keys). */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
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
