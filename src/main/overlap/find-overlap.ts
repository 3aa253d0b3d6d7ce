/**
 * Which evaluated questions a training set already holds: for each evaluated item, the
 * strongest reason it overlaps training — the same id, else the same normalised text (not
 * empty), else a near-duplicate (Jaccard ≥ threshold over word 3-shingles, confirmed exactly
 * after MinHash banding) — and the training item it matches (for a near-duplicate, the one with
 * the highest Jaccard; ties: the first in training order).
 */
import { bandRows, fingerprint, forEachBandCollision, NEAR_DUPLICATE_JACCARD, type Fingerprint, type OverlapItem } from './fingerprint';
import { checkThreshold } from './clusters';
import { exactJaccard } from './text';

export type OverlapReason = 'same-id' | 'same-text' | 'near-duplicate';

export interface OverlapMatch {
  /** The evaluated item's id. */
  query: string;
  reason: OverlapReason;
  trainingId: string;
  /** Exact Jaccard of the two shingle sets (1 for the same text; for the same id, of their texts). */
  jaccard: number;
}

/** Which evaluated queries overlap training: one match per overlapping evaluated item, in evaluated order. */
export function findOverlap(
  training: readonly OverlapItem[],
  evaluated: readonly OverlapItem[],
  opts: { threshold?: number } = {},
): OverlapMatch[] {
  const threshold = opts.threshold ?? NEAR_DUPLICATE_JACCARD;
  checkThreshold(threshold);
  const train = training.map(fingerprint);
  const evals = evaluated.map(fingerprint);
  const byId = new Map<string, number>();
  const byText = new Map<string, number>();
  train.forEach((f, i) => {
    if (!byId.has(f.id)) byId.set(f.id, i);
    if (f.text && !byText.has(f.text)) byText.set(f.text, i);
  });
  const best: Array<OverlapMatch | null> = evals.map((e) => {
    const sameId = byId.get(e.id);
    if (sameId !== undefined) return { query: e.id, reason: 'same-id', trainingId: e.id, jaccard: sameTextJaccard(e, train[sameId]!) };
    const sameText = e.text ? byText.get(e.text) : undefined;
    if (sameText !== undefined) return { query: e.id, reason: 'same-text', trainingId: train[sameText]!.id, jaccard: 1 };
    return null;
  });
  // Near-duplicates: band the training and the still unmatched evaluated items together and
  // confirm the pairs that cross the two sets.
  const signatures: Array<Uint32Array | null> = [
    ...train.map((f) => (f.shingles.length ? f.signature : null)),
    ...evals.map((f, j) => (best[j] === null && f.shingles.length ? f.signature : null)),
  ];
  const n = train.length;
  const checked = new Set<number>();
  forEachBandCollision(signatures, bandRows(threshold), (a, b) => {
    if (a >= n || b < n) return; // both training, or both evaluated
    const j = b - n;
    const key = a * evals.length + j;
    if (checked.has(key)) return;
    checked.add(key);
    const jac = exactJaccard(train[a]!.shingles, evals[j]!.shingles);
    if (jac < threshold) return;
    const cur = best[j];
    if (!cur || jac > cur.jaccard || (jac === cur.jaccard && a < (byId.get(cur.trainingId) ?? Infinity))) {
      best[j] = { query: evals[j]!.id, reason: 'near-duplicate', trainingId: train[a]!.id, jaccard: jac };
    }
  });
  return best.filter((m): m is OverlapMatch => m !== null);
}

function sameTextJaccard(a: Fingerprint, b: Fingerprint): number {
  if (a.text && a.text === b.text) return 1;
  return exactJaccard(a.shingles, b.shingles);
}
