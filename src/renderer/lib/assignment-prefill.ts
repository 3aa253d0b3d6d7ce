/**
 * The Pools screen's assignment form starts from the pool's current plan, read when the pool is
 * chosen. That read can come back after the user has begun typing (a loaded machine, a slow
 * server): it then fills nothing, so names, overlap, K and seed typed for this pool are never
 * replaced under the user's hands. Before, a late read of an open pool emptied the names just
 * typed and set the overlap back to "everyone".
 */
import type { AssignmentView } from '../../shared/contract';

/** What the form shows for a pool's plan: names, overlap, and K and seed where the plan has them. */
export interface AssignmentFormFill {
  names: string;
  mode: 'full' | 'k';
  k?: number;
  seed?: number;
}

/**
 * The fill for `pool` from the plan read, or null when there is nothing to fill: the read is of
 * another pool, the form was already filled for this pool, or the user edited it for this pool
 * (`editedPool`) before the read came.
 */
export function assignmentPrefill(
  assignment: AssignmentView | null,
  pool: string | null,
  filledPool: string | null,
  editedPool: string | null,
): AssignmentFormFill | null {
  if (!assignment || !pool || assignment.pool !== pool || filledPool === pool || editedPool === pool) return null;
  const fill: AssignmentFormFill = {
    names: assignment.mode === 'open' ? '' : assignment.annotators.join(', '),
    mode: assignment.mode === 'per-query' ? 'k' : 'full',
  };
  if (assignment.mode === 'per-query' && assignment.perQuery) fill.k = assignment.perQuery;
  if (assignment.seed != null) fill.seed = assignment.seed;
  return fill;
}
