import { mulberry32 } from '../stats/random';
import { fnv1a } from '../../shared/fnv1a';

/** FNV-1a 32-bit hash of a string (stable seeds from names). */
export const hashString = fnv1a;

export { mulberry32 };

/** Fisher–Yates shuffle of a copy, driven by a seeded PRNG. */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const out = items.slice();
  const rnd = mulberry32(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
