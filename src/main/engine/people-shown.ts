/**
 * Who an annotator is shown in `annotator.list` (access.ts filterResult): herself, and the people and
 * label sources whose labels she may already see — those with a label in a pool that is open (not
 * blind) and that she may use (pool-access.ts). Who else labels a blind pool, who is invited, who
 * judges or owns the workspace is not hers to know; Evaluate, the one screen of hers that lists
 * people, offers them as label sources, and only labels she may see can be evaluated. Of those shown,
 * she is given her own role and a label source's (gold, system: what the labels are), never another
 * person's (which of them judges or owns the workspace): her screens use the names only.
 */
import type { CommandResult } from '../../shared/contract';
import { isReservedRole } from '../../shared/roles';
import type { Workspace } from '../workspace/workspace';
import { usablePools } from './pool-access';

type People = CommandResult<'annotator.list'>;

export function peopleShownTo(ws: Workspace, annotator: string, people: People): People {
  return whoseLabelsSheSees(ws, annotator, people).map((p) => (p.name === annotator || (p.role !== undefined && isReservedRole(p.role)) ? p : { name: p.name }));
}

function whoseLabelsSheSees(ws: Workspace, annotator: string, people: People): People {
  const open = [...usablePools(ws, annotator)].map((name) => ws.findPoolSettings(name)).filter((p) => p !== null && !p.blind).map((p) => p!.id);
  const ids = new Map(ws.listAnnotators().map((a) => [a.name, a.id]));
  // One index seek per person and open pool (labels_current leads with pool_id, annotator_id).
  const labeled = ws.stmt(`SELECT 1 FROM labels WHERE pool_id = ? AND annotator_id = ? LIMIT 1`);
  return people.filter((p) => {
    if (p.name === annotator) return true;
    const id = ids.get(p.name);
    return id !== undefined && open.some((pool) => labeled.get(pool, id) !== undefined);
  });
}
