/** Which workspace changes make Annotate read the query on screen again (quietly, where the annotator is). */
import type { EventPayloads } from '../../shared/contract';

/**
 * True for a change that may alter the query on screen in pool `pool`: its guidelines, runs or pool
 * settings (switched blind or open), a draw; and an import or its undo that names the pool (a run's
 * scores or a question's text changed in place; engine/work.ts afterImportCommits) or names none.
 */
export function rereadsOpenQuery(change: EventPayloads['workspace.changed'], pool: string): boolean {
  if (change.what === 'guidelines' || change.what === 'run' || change.what === 'pool' || change.what === 'draws') return true;
  return change.what === 'import' && (change.pools === undefined || change.pools.includes(pool));
}
