/**
 * Grouped k-fold assignment: whole clusters go to folds, so near-duplicate questions are never
 * in a training fold and its held-out fold at once. Clusters are shuffled with a seeded
 * generator (mulberry32), then, largest first (a stable sort keeps the shuffled order among
 * equal sizes), each goes to the fold with the fewest items so far (ties: the lowest fold
 * number). Folds thus differ in size by at most the largest cluster, and the same seed gives the
 * same folds.
 */
import { QPairsError } from '../errors';
import { mulberry32 } from '../stats/random';

/** k folds over clusters (seeded, balanced by item count), never splitting a cluster: fold → ids (in input order). */
export function groupedFolds(clusterOf: ReadonlyMap<string, number>, k: number, seed: number): string[][] {
  if (!Number.isInteger(k) || k < 2) throw new QPairsError(`cross-validation needs at least 2 folds (got ${k})`);
  const members = new Map<number, string[]>();
  for (const [id, c] of clusterOf) {
    let list = members.get(c);
    if (!list) members.set(c, (list = []));
    list.push(id);
  }
  if (k > members.size) {
    throw new QPairsError(
      clusterOf.size === 1
        ? `--cv ${k} needs at least ${k} groups of distinct questions, but there is only 1 training query`
        : `--cv ${k} needs at least ${k} groups of distinct questions, but the ${clusterOf.size} training queries form only ${members.size} (near-duplicates are grouped)`,
    );
  }
  const clusters = [...members.keys()];
  const rng = mulberry32(seed);
  for (let i = clusters.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [clusters[i], clusters[j]] = [clusters[j]!, clusters[i]!];
  }
  clusters.sort((a, b) => members.get(b)!.length - members.get(a)!.length);
  const foldOf = new Map<number, number>();
  const sizes = new Array<number>(k).fill(0);
  for (const c of clusters) {
    let f = 0;
    for (let i = 1; i < k; i++) if (sizes[i]! < sizes[f]!) f = i;
    foldOf.set(c, f);
    sizes[f] = sizes[f]! + members.get(c)!.length;
  }
  const folds: string[][] = Array.from({ length: k }, () => []);
  for (const [id, c] of clusterOf) folds[foldOf.get(c)!]!.push(id);
  return folds;
}
