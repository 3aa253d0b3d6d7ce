/**
 * FNV-1a, 32 bits, over a string's UTF-16 code units: the models' cache keys, the overlap checks' text
 * fingerprints and the seed of each annotator's blind candidate order. One function for all (the models
 * and the overlap checks each had their own copy): changing it would reorder every blind pool's candidates.
 */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
