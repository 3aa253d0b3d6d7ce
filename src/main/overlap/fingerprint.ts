/**
 * A question's fingerprint for the overlap check: its normalised text, its shingle set and the
 * set's MinHash signature, plus the band layout that finds near-duplicate candidates (LSH).
 */
import { normaliseQuestionText, shingleHashes } from './text';
import { MINHASH_SIZE, minhashSignature } from './minhash';

/**
 * Questions at Jaccard ≥ 0.9 over word 3-shingles are near-duplicates: the same question
 * re-posted or copied with small edits (a changed word in a sentence of ten touches three
 * shingles; a forum signature or "thanks" added to a long post touches a few percent). On
 * SemEval-2016 every training copy of a dev question has Jaccard 1; distinct questions on one
 * topic stay far below (two different visa questions share few 3-word runs), so 0.9 separates
 * "the same question" from "a similar question", which is what a ranker must find and
 * what must not leak between training and evaluation.
 */
export const NEAR_DUPLICATE_JACCARD = 0.9;

export interface OverlapItem {
  id: string;
  title: string;
  body: string;
}

export interface Fingerprint {
  id: string;
  text: string;
  shingles: Uint32Array;
  signature: Uint32Array;
}

/**
 * The item's fingerprint. Those of the last RECENT_TEXTS texts (title and body) are kept and
 * handed out again — the same arrays, which no caller changes: fingerprinting costs about 0.9 ms
 * a question, and the overlap checks of trainings made one after another (learn-as-we-label's
 * retrains, a team's trainings on the same pools) fingerprint the same training and dev queries
 * again, on the thread that acknowledges labels.
 */
export function fingerprint(item: OverlapItem): Fingerprint {
  const key = `${item.title}\u0000${item.body}`;
  let f = recentTexts.get(key);
  if (f) recentTexts.delete(key); // to the newest end
  else {
    const text = normaliseQuestionText(item.title, item.body);
    const shingles = shingleHashes(text);
    f = { text, shingles, signature: minhashSignature(shingles) };
    if (recentTexts.size >= RECENT_TEXTS) recentTexts.delete(recentTexts.keys().next().value!);
  }
  recentTexts.set(key, f);
  return { id: item.id, ...f };
}

/** How many texts' fingerprints `fingerprint` keeps (about 2-3 KB each for a forum question). */
export const RECENT_TEXTS = 8192;
const recentTexts = new Map<string, Omit<Fingerprint, 'id'>>();

/**
 * Rows per LSH band for a Jaccard threshold t: the most rows r (fewest false candidates) such
 * that a pair at exactly t is missed by every one of the ⌊n/r⌋ bands with probability
 * (1 − t^r)^⌊n/r⌋ ≤ 1e-9. With n = 128 and t = 0.9: r = 5, 25 bands, miss ≤ 2·10⁻¹⁰ (pairs
 * above t are missed even less often). For t below ~0.15 no layout reaches 1e-9 and r = 1.
 */
export function bandRows(threshold: number, signatureSize: number = MINHASH_SIZE): number {
  let best = 1;
  for (let r = 1; r <= Math.min(16, signatureSize); r++) {
    const bands = Math.floor(signatureSize / r);
    if ((1 - threshold ** r) ** bands <= 1e-9) best = r;
  }
  return best;
}

/**
 * Candidate near-duplicate pairs by MinHash banding (locality-sensitive hashing): items whose
 * signatures agree on every row of some band. Each band's rows are hashed to 32 bits and the
 * items sorted by that hash, so one band costs a sort; `visit(i, j)` (i < j, indexes into
 * `signatures`) is called once per band in which the pair collides, and may be called for pairs
 * that only collide on the 32-bit band hash: callers confirm every pair with the exact Jaccard.
 * Items with an empty signature list entry (`null`) take no part.
 */
export function forEachBandCollision(
  signatures: ReadonlyArray<Uint32Array | null>,
  rows: number,
  visit: (i: number, j: number) => void,
): void {
  const n = signatures.length;
  const members: number[] = [];
  for (let i = 0; i < n; i++) if (signatures[i]) members.push(i);
  if (members.length < 2) return;
  const size = signatures[members[0]!]!.length;
  const bands = Math.floor(size / rows);
  const m = members.length;
  const keys = new Float64Array(m);
  // hash · 2^shift + position packs (hash, position) into one exact double when m ≤ 2^21.
  const shift = Math.max(1, Math.ceil(Math.log2(m + 1)));
  const packed = shift <= 21;
  const mult = 2 ** shift;
  const hashes = new Uint32Array(m);
  const order = new Uint32Array(m);
  for (let b = 0; b < bands; b++) {
    for (let p = 0; p < m; p++) {
      const sig = signatures[members[p]!]!;
      let h = 0x2545f491 ^ b;
      for (let r = b * rows; r < (b + 1) * rows; r++) h = mixInto(h, sig[r]!);
      hashes[p] = h;
    }
    if (packed) {
      for (let p = 0; p < m; p++) keys[p] = hashes[p]! * mult + p;
      keys.sort();
      for (let p = 0; p < m; p++) order[p] = keys[p]! % mult;
    } else {
      const idx = Array.from({ length: m }, (_, p) => p).sort((x, y) => hashes[x]! - hashes[y]! || x - y);
      for (let p = 0; p < m; p++) order[p] = idx[p]!;
    }
    let start = 0;
    while (start < m) {
      let end = start + 1;
      const h = hashes[order[start]!]!;
      while (end < m && hashes[order[end]!] === h) end++;
      for (let x = start; x < end; x++)
        for (let y = x + 1; y < end; y++) {
          const i = members[order[x]!]!;
          const j = members[order[y]!]!;
          if (i < j) visit(i, j);
          else visit(j, i);
        }
      start = end;
    }
  }
}

function mixInto(h: number, v: number): number {
  h = Math.imul(h ^ v, 0x9e3779b1);
  return (h ^ (h >>> 15)) >>> 0;
}
