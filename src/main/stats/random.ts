/**
 * Seeded pseudo-random numbers: mulberry32 (Tommy Ettinger, public domain), a 32-bit state
 * generator with period 2^32. Each call returns `u / 2^32` for a uint32 `u`, so values lie in
 * [0, 1). Good enough for bootstrap and permutation resampling; not for cryptography.
 *
 * The generator is re-implemented in tests/reference/*.py so that fixture values computed in
 * Python replay exactly the same resamples.
 */
export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = ((t + Math.imul(t ^ (t >>> 7), 61 | t)) | 0) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform integer in [0, n): `floor(rng() * n)`. */
export function randomIndex(rng: Rng, n: number): number {
  return Math.floor(rng() * n);
}
