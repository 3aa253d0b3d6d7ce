/**
 * Lucene 8's one-byte document-length norm (SmallFloat.intToByte4 / byte4ToInt, as
 * BM25Similarity stores and reads it): lengths 0–23 are stored as themselves; a longer length
 * L is stored as 24 + (L − 24) rounded DOWN to 4 significant bits. Decoded lengths are therefore
 * exact up to 40 tokens and then up to ~11% shorter (41 → 40, 100 → 96, 1000 → 984).
 * BM25 in Lucene scores with the decoded length; avgdl stays exact (sum of lengths / doc count).
 */

/** Byte codes below this are lengths as they are. */
const FREE_VALUES = 24;

/** 4-significant-bit floating-point code of a non-negative integer (Lucene's longToInt4). */
function toInt4(i: number): number {
  const bits = 32 - Math.clz32(i);
  if (bits < 4) return i;
  const shift = bits - 4;
  return ((i >>> shift) & 0x07) | ((shift + 1) << 3);
}

/** Inverse of toInt4 (Lucene's int4ToLong). */
function fromInt4(code: number): number {
  const bits = code & 0x07;
  const shift = (code >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}

/** The byte (0–255) Lucene stores for a document of `length` tokens (0 ≤ length < 2^31). */
export function encodeLength(length: number): number {
  return length < FREE_VALUES ? length : FREE_VALUES + toInt4(length - FREE_VALUES);
}

/** The length Lucene reads back from a stored byte. */
export function decodeLength(code: number): number {
  return code < FREE_VALUES ? code : Math.min(FREE_VALUES + fromInt4(code - FREE_VALUES), 2 ** 31 - 1);
}

/** decodeLength of every byte, for per-document lookups. */
export const DECODED_LENGTHS: Float64Array = Float64Array.from({ length: 256 }, (_, b) => decodeLength(b));

/** The length BM25 scores with: Lucene's rounded length, or the exact one. */
export function scoredLength(length: number, exact: boolean): number {
  return exact ? length : DECODED_LENGTHS[encodeLength(length)]!;
}
