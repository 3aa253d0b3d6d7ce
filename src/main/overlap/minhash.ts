/**
 * MinHash signatures (Broder 1997): for each of n seeded hash functions h_i, the minimum of
 * h_i over a set's elements. For two sets A and B, P[min h_i(A) = min h_i(B)] = J(A, B), so the
 * share of equal signature positions estimates the Jaccard similarity (standard error
 * √(J(1−J)/n)). Here h_i(x) = g(a_i·x + b_i mod 2^32) with a_i odd and b_i from
 * mulberry32(seed), and g(h) = h XOR (h >>> 15): both steps are bijections of uint32, so each h_i
 * is a seeded permutation of the (already well-mixed) shingle hashes.
 */
import { mulberry32 } from '../stats/random';

/** Hash functions per signature: 128 gives an estimate within ±0.03 at J = 0.9 (1 s.e.). */
export const MINHASH_SIZE = 128;

const paramCache = new Map<string, { mul: Uint32Array; add: Uint32Array }>();

function params(numHashes: number, seed: number): { mul: Uint32Array; add: Uint32Array } {
  const key = `${numHashes}:${seed}`;
  let p = paramCache.get(key);
  if (!p) {
    const rng = mulberry32(seed);
    const mul = new Uint32Array(numHashes);
    const add = new Uint32Array(numHashes);
    for (let i = 0; i < numHashes; i++) {
      mul[i] = Math.floor(rng() * 4294967296) | 1;
      add[i] = Math.floor(rng() * 4294967296);
    }
    p = { mul, add };
    paramCache.set(key, p);
  }
  return p;
}

/** The MinHash signature of a set of 32-bit hashes; an empty set gives all 0xFFFFFFFF. */
export function minhashSignature(shingles: Uint32Array, numHashes: number = MINHASH_SIZE, seed = 1): Uint32Array {
  if (!Number.isInteger(numHashes) || numHashes < 1) throw new RangeError(`numHashes must be a positive integer, got ${numHashes}`);
  const { mul, add } = params(numHashes, seed);
  const sig = new Uint32Array(numHashes).fill(0xffffffff);
  for (let j = 0; j < shingles.length; j++) {
    const x = shingles[j]!;
    for (let i = 0; i < numHashes; i++) {
      // a·x + b mod 2^32 (a odd: a bijection), then xor-shift so the low bits of x reach the top.
      let h = (Math.imul(x, mul[i]!) + add[i]!) | 0;
      h = (h ^ (h >>> 15)) >>> 0;
      if (h < sig[i]!) sig[i] = h;
    }
  }
  return sig;
}

/** The share of positions where two signatures (same size and seed) agree: an estimate of Jaccard. */
export function estimatedJaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length !== b.length) throw new RangeError(`signatures differ in size (${a.length} vs ${b.length})`);
  if (a.length === 0) return 0;
  let same = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
  return same / a.length;
}
