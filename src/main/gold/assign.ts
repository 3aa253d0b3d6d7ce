/**
 * Seeded assignment of a pool's queries to annotators (pure).
 *
 * - Full overlap (`perQuery` null): every annotator labels every query.
 * - k per query: queries are taken in pool order; each gets the k annotators with the fewest
 *   queries assigned so far, ties broken by a fresh seeded random order per query
 *   (mulberry32(seed)). Loads therefore differ by at most one query, the pairs of annotators
 *   that share queries vary, and the same queries, annotators, k and seed always give the same
 *   assignment.
 */
import { QPairsError } from '../errors';
import { counted } from '../../shared/plural';
import { mulberry32 } from '../stats/random';

export function planAssignment(
  queryIds: readonly string[],
  annotators: readonly string[],
  perQuery: number | null,
  seed = 1,
): Map<string, string[]> {
  if (annotators.length === 0) throw new QPairsError('an assignment needs at least one annotator');
  if (new Set(annotators).size !== annotators.length) throw new QPairsError('an annotator is listed twice');
  const out = new Map<string, string[]>();
  if (perQuery === null) {
    for (const q of queryIds) out.set(q, [...annotators]);
    return out;
  }
  if (!Number.isInteger(perQuery) || perQuery < 1) throw new QPairsError(`annotators per query must be a positive whole number (got ${perQuery})`);
  if (perQuery > annotators.length) {
    throw new QPairsError(`cannot assign ${perQuery} annotators per query: only ${counted(annotators.length, 'annotator')} given`);
  }
  const rnd = mulberry32(seed);
  const load = annotators.map(() => 0);
  for (const q of queryIds) {
    const prio = annotators.map(() => rnd());
    const order = annotators.map((_, j) => j).sort((x, y) => load[x]! - load[y]! || prio[x]! - prio[y]! || x - y);
    const chosen = order.slice(0, perQuery).sort((x, y) => x - y);
    for (const j of chosen) load[j]!++;
    out.set(q, chosen.map((j) => annotators[j]!));
  }
  return out;
}
