/**
 * Question text as the overlap check compares it: normalised text and hashed word shingles.
 *
 * Normalisation (normaliseQuestionText): title and body joined by a space, Unicode NFKC,
 * lowercased, every run of characters that are not letters, digits or marks (punctuation,
 * symbols, whitespace) replaced by one space, trimmed. So "Visa?  renewal!" and "visa renewal"
 * are the same text; word order and spelling still count.
 *
 * Shingles (shingleHashes): the word k-shingles (default k = 3, SHINGLE_WORDS) of the normalised
 * text — every run of k consecutive words — each hashed to 32 bits, deduplicated and sorted.
 * Three-word shingles are the usual choice for near-duplicate detection of short documents:
 * single words make unrelated questions on one topic look alike, longer shingles make one
 * edited word remove too many shingles. A text of fewer than k words (but at least one) is one
 * shingle of all its words; an empty text has none.
 */
import { fnv1a } from '../../shared/fnv1a';

/** Words per shingle. */
export const SHINGLE_WORDS = 3;

const NOT_WORD = /[^\p{L}\p{N}\p{M}]+/gu;

/** Title + body, NFKC, lowercased, punctuation and whitespace runs as single spaces, trimmed. */
export function normaliseQuestionText(title: string, body: string): string {
  return `${title} ${body}`.normalize('NFKC').toLowerCase().replace(NOT_WORD, ' ').trim();
}

/** murmur3's 32-bit finaliser: a bijection of uint32 that mixes every bit into every other. */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/**
 * The sorted, deduplicated 32-bit hashes of the word k-shingles of `text` (split on spaces, as
 * normaliseQuestionText leaves it). A shingle's hash combines its words' FNV-1a hashes in order.
 */
export function shingleHashes(text: string, k: number = SHINGLE_WORDS): Uint32Array {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`shingle length must be a positive integer, got ${k}`);
  const words = text.split(' ').filter((w) => w.length > 0);
  if (words.length === 0) return new Uint32Array(0);
  const wordHash = words.map(fnv1a);
  const n = Math.max(1, words.length - k + 1);
  const width = Math.min(k, words.length);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let h = 0x9e3779b9 ^ width;
    for (let j = 0; j < width; j++) h = mix32((h ^ wordHash[i + j]!) + j);
    out[i] = h;
  }
  out.sort();
  let m = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[m - 1]) out[m++] = out[i]!;
  return out.slice(0, m);
}

/**
 * Exact Jaccard similarity |A ∩ B| / |A ∪ B| of two sorted, deduplicated hash sets (as
 * shingleHashes returns them). Two empty sets give 0: an empty text is like nothing.
 */
export function exactJaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 || b.length === 0) return 0;
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      common++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return common / (a.length + b.length - common);
}

/**
 * A compact key of a normalised text for storing "same text" without the text: its length and
 * two independent 32-bit FNV-1a hashes (different offset bases), hex. '' for an empty text.
 */
export function textKey(text: string): string {
  if (!text) return '';
  let h2 = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h2 ^= text.charCodeAt(i);
    h2 = Math.imul(h2, 0x01000193);
  }
  return `${text.length.toString(16)}:${fnv1a(text).toString(16)}:${(h2 >>> 0).toString(16)}`;
}
