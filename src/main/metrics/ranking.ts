/**
 * Turning a run's scores over a query's candidate pool into a ranked list.
 *
 * Rules (deterministic; the sort comparator is a total order, so the result never depends on
 * the sort algorithm's stability):
 * 1. Scored candidates come first, by score descending.
 * 2. Equal scores are broken by the tie rule:
 *    - `'pool-order'` (default): the candidate that comes first in the pool keeps the better rank
 *      (the retriever's order; this is how the published AskUbuntu BM25 numbers come out);
 *    - `'trec-eval'`: trec_eval's rule (form_res_rels.c, comp_sim_docno): doc id *descending*,
 *      compared as C `strcmp` on the docno bytes, i.e. by UTF-8 bytes = by Unicode code points
 *      (not by UTF-16 code units, which differ for astral characters). trec_eval ignores the
 *      rank column of a run file, so the pool order plays no part here.
 * 3. Candidates without a score (absent, or a non-number / NaN score) are, by `unscored`:
 *    - `'append'` (default): ranked after all scored candidates, in pool order, whatever the tie
 *      rule. So an empty run (no score at all) ranks the pool in its original order;
 *    - `'drop'`: not retrieved at all (as trec_eval treats documents missing from a run file):
 *      they are absent from the ranked list, but still count as relevant in R if judged so.
 * Scores ±Infinity are ordinary scores.
 */
import { QPairsError } from '../errors';
import { DEFAULT_TIES } from '../../shared/stat-defaults';

export type TieRule = 'pool-order' | 'trec-eval';
export type UnscoredRule = 'append' | 'drop';

/** A run's scores for one query: candidate id → score. */
export type Scores = ReadonlyMap<string, number> | Readonly<Record<string, number>>;

export interface RankOptions {
  /** Tie rule for equal scores; default `'pool-order'`. */
  ties?: TieRule;
  /** Where candidates without a score go; default `'append'`. */
  unscored?: UnscoredRule;
}

/** Score of `id`, or NaN when the run has none (absent, not a number, or NaN). */
export function scoreOf(scores: Scores | undefined, id: string): number {
  if (scores === undefined) return NaN;
  let v: unknown;
  if (scores instanceof Map) v = scores.get(id);
  else if (Object.hasOwn(scores, id)) v = (scores as Record<string, unknown>)[id];
  return typeof v === 'number' ? v : NaN;
}

/**
 * Compare two strings as C `strcmp` compares their UTF-8 bytes (= Unicode code point order).
 * Returns < 0, 0 or > 0.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 order differs from code point order only when one unit is a surrogate
    // (0xD800–0xDFFF, astral characters) and the other is in 0xE000–0xFFFF.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/**
 * Rank a query's candidates by a run's scores; returns the ranked candidates as indices into
 * `candidates` (best first). Its length is `candidates.length`, or the number of scored
 * candidates under `unscored: 'drop'`. See the module comment for the rules.
 *
 * `scoreBuf`, when given (length ≥ candidates.length), is used as scratch to avoid an allocation.
 */
export function rankIndices(
  candidates: readonly string[],
  scores: Scores | undefined,
  options: RankOptions = {},
  scoreBuf?: Float64Array,
): number[] {
  const ties = options.ties ?? DEFAULT_TIES;
  const unscored = options.unscored ?? 'append';
  if (ties !== 'pool-order' && ties !== 'trec-eval') {
    throw new QPairsError(`rank: unknown tie rule ${JSON.stringify(ties)} (expected 'pool-order' or 'trec-eval')`);
  }
  if (unscored !== 'append' && unscored !== 'drop') {
    throw new QPairsError(`rank: unknown unscored rule ${JSON.stringify(unscored)} (expected 'append' or 'drop')`);
  }
  const n = candidates.length;
  const s = scoreBuf !== undefined && scoreBuf.length >= n ? scoreBuf : new Float64Array(n);
  const scored: number[] = [];
  const rest: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = scoreOf(scores, candidates[i]);
    s[i] = v;
    if (v === v) scored.push(i);
    else rest.push(i);
  }
  if (ties === 'pool-order') {
    scored.sort((i, j) => (s[j] > s[i] ? 1 : s[j] < s[i] ? -1 : i - j));
  } else {
    scored.sort((i, j) => {
      if (s[j] > s[i]) return 1;
      if (s[j] < s[i]) return -1;
      const c = compareCodePoints(candidates[j], candidates[i]); // docno descending
      return c !== 0 ? c : i - j;
    });
  }
  if (unscored === 'append') for (let t = 0; t < rest.length; t++) scored.push(rest[t]);
  return scored;
}

/** Rank a query's candidates by a run's scores; returns candidate ids, best first. See rankIndices. */
export function rankCandidates(candidates: readonly string[], scores: Scores | undefined, options: RankOptions = {}): string[] {
  return rankIndices(candidates, scores, options).map((i) => candidates[i]);
}

/** Number of candidates that have a score in the run. */
export function countScored(candidates: readonly string[], scores: Scores | undefined): number {
  let c = 0;
  for (let i = 0; i < candidates.length; i++) if (!Number.isNaN(scoreOf(scores, candidates[i]))) c++;
  return c;
}

/**
 * True when at least two scored candidates of the pool have exactly the same score (so the tie
 * rule can matter). Unscored candidates are not counted as tied.
 */
export function hasTiedScores(candidates: readonly string[], scores: Scores | undefined): boolean {
  const seen = new Set<number>();
  for (let i = 0; i < candidates.length; i++) {
    const v = scoreOf(scores, candidates[i]);
    if (Number.isNaN(v)) continue;
    if (seen.has(v)) return true;
    seen.add(v);
  }
  return false;
}

/**
 * True when two or more candidates are scored and every scored candidate has the same score: the
 * run tells none of them apart, so its ranking of the query is the tie rule's order (pool order by
 * default), however well that order does. A run that scores one candidate, or none, is not uniform.
 */
export function hasUniformScores(candidates: readonly string[], scores: Scores | undefined): boolean {
  let first = Number.NaN;
  let scored = 0;
  for (let i = 0; i < candidates.length; i++) {
    const v = scoreOf(scores, candidates[i]);
    if (Number.isNaN(v)) continue;
    if (scored > 0 && v !== first) return false;
    first = v;
    scored++;
  }
  return scored >= 2;
}
