/**
 * Near-duplicate clusters: the connected components of "same question" links between items —
 * the same id, the same normalised text (not empty), or Jaccard ≥ threshold over word
 * 3-shingles. Candidate pairs come from MinHash banding and every one is confirmed with the
 * exact Jaccard of the shingle sets, so a cluster never rests on an estimate; a pair at the
 * threshold is missed by the banding with probability ≤ 1e-9 (bandRows). Links are transitive:
 * A ≈ B and B ≈ C put A, B and C in one cluster even when A and C are further apart.
 *
 * Cost: one fingerprint per distinct text (shingling + 128 MinHash functions), 25 sorts of the
 * items for the bands, and one exact Jaccard per distinct colliding pair.
 */
import { QPairsError } from '../errors';
import { bandRows, fingerprint, NEAR_DUPLICATE_JACCARD, forEachBandCollision, type OverlapItem } from './fingerprint';
import { exactJaccard } from './text';
import { UnionFind } from './union-find';

export function checkThreshold(threshold: number): void {
  if (!(threshold > 0 && threshold <= 1)) throw new QPairsError(`the near-duplicate threshold must be in (0, 1], got ${threshold}`);
}

/**
 * Clusters of questions that are the same id, the same normalised text or near-duplicates
 * (Jaccard ≥ threshold, default NEAR_DUPLICATE_JACCARD), by union-find: id → cluster index.
 * Cluster indexes are 0, 1, 2, … in the order of each cluster's first item.
 */
export function nearDuplicateClusters(items: readonly OverlapItem[], opts: { threshold?: number } = {}): Map<string, number> {
  const threshold = opts.threshold ?? NEAR_DUPLICATE_JACCARD;
  checkThreshold(threshold);
  // One node per distinct id; an id met again is the same node (same id ⇒ same cluster).
  const node = new Map<string, number>();
  const ids: string[] = [];
  const texts: OverlapItem[][] = [];
  for (const it of items) {
    let i = node.get(it.id);
    if (i === undefined) {
      i = ids.length;
      node.set(it.id, i);
      ids.push(it.id);
      texts.push([]);
    }
    texts[i]!.push(it);
  }
  const uf = new UnionFind(ids.length);
  // Same normalised text: one representative per text takes part in the banding.
  const byText = new Map<string, number>();
  const reps: number[] = [];
  const shingles: Uint32Array[] = [];
  const signatures: Array<Uint32Array | null> = [];
  for (let i = 0; i < ids.length; i++) {
    for (const it of texts[i]!) {
      const f = fingerprint(it);
      if (!f.text) continue;
      const seen = byText.get(f.text);
      if (seen !== undefined) {
        uf.union(seen, i);
        continue;
      }
      byText.set(f.text, i);
      reps.push(i);
      shingles.push(f.shingles);
      signatures.push(f.shingles.length ? f.signature : null);
    }
  }
  const rows = bandRows(threshold);
  forEachBandCollision(signatures, rows, (a, b) => {
    const x = reps[a]!;
    const y = reps[b]!;
    if (uf.find(x) === uf.find(y)) return;
    if (exactJaccard(shingles[a]!, shingles[b]!) >= threshold) uf.union(x, y);
  });
  const clusterOfRoot = new Map<number, number>();
  const out = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) {
    const root = uf.find(i);
    let c = clusterOfRoot.get(root);
    if (c === undefined) {
      c = clusterOfRoot.size;
      clusterOfRoot.set(root, c);
    }
    out.set(ids[i]!, c);
  }
  return out;
}

/** The number of distinct clusters in an id → cluster map. */
export function clusterCount(clusterOf: ReadonlyMap<string, number>): number {
  return new Set(clusterOf.values()).size;
}

