/**
 * Within-query permutation feature importance: for feature f, shuffle column f among the candidates
 * of each query (seeded), rescore, and report
 *
 *   importance(f) = MAP(original rows) − mean over repeats of MAP(rows with f shuffled within queries)
 *
 * (MAP with AP = 0 for a list without relevant candidates). Shuffling within a query keeps the
 * feature's per-query distribution, so it measures how much the model relies on f to order
 * candidates of the same query.
 */
import { apRr, rankOrder } from './dev-eval';
import type { RankList } from './ranksvm';
import { Rng } from './rng';

/** MAP of the lists ranked by scoreRow (ties keep list order; AP = 0 without a relevant candidate). */
export function meanAveragePrecision(lists: readonly RankList[], scoreRow: (row: ArrayLike<number>) => number): number {
  if (!lists.length) return 0;
  let sum = 0;
  for (const l of lists) {
    const scores = l.rows.map((r) => scoreRow(r));
    sum += apRr(rankOrder(scores).map((k) => l.rel[k] > 0)).ap;
  }
  return sum / lists.length;
}

export function permutationImportance(
  lists: readonly RankList[],
  scoreRow: (row: ArrayLike<number>) => number,
  names: readonly string[],
  o: { repeats?: number; seed?: number } = {},
): Array<{ feature: string; importance: number }> {
  const base = meanAveragePrecision(lists, scoreRow);
  const rng = new Rng(o.seed ?? 1);
  const repeats = o.repeats ?? 5;
  return names.map((feature, f) => {
    let drop = 0;
    for (let r = 0; r < repeats; r++) {
      const shuffled = lists.map((l) => {
        const perm = rng.shuffle(l.rows.map((_, i) => i));
        const rows = l.rows.map((row, i) => {
          const copy = Array.from(row);
          copy[f] = l.rows[perm[i]][f];
          return copy;
        });
        return { rows, rel: l.rel };
      });
      drop += base - meanAveragePrecision(shuffled, scoreRow);
    }
    return { feature, importance: drop / repeats };
  });
}
