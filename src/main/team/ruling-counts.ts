/** How many of a judge's labels in a pool are rulings, for the notes of role changes and assignments. */
import { givenWhileJudging, judgeSpans } from '../gold/judge-spans';
import { UNSURE } from '../../shared/labels';
import type { Workspace } from '../workspace/workspace';

/** How many of judge `name`'s labels in `pool` are rulings: decisive, given while judging it (judge-spans.ts) or imported. */
export function rulingsIn(ws: Workspace, pool: string, name: string): number {
  const spans = judgeSpans(ws, pool).get(name);
  return ws.currentLabels(pool, name).filter((l) => l.value !== UNSURE && (l.origin.startsWith('import:') || givenWhileJudging(spans, ws.labelGivenAt(l).seq))).length;
}
