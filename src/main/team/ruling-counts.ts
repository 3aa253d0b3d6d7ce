/** How many of a judge's labels in a pool are rulings, for the notes of role changes and assignments. */
import { givenWhileJudging, judgeSpans } from '../gold/judge-spans';
import { pairsVotedOutsideJudging } from '../gold/judge-voted';
import { pairKey } from '../../shared/ids';
import { UNSURE } from '../../shared/labels';
import type { Workspace } from '../workspace/workspace';

/** How many of judge `name`'s labels in `pool` are rulings: decisive, given while judging it (judge-spans.ts) or imported. */
export function rulingsIn(ws: Workspace, pool: string, name: string): number {
  const l = labelsAsJudge(ws, pool, name);
  return l.again + l.imported;
}

/**
 * What each of a judge's labels in a pool is, for the notes: `again`, decisive and given while judging it, and
 * `imported`, decisive — rulings; `unsure`, a "?" given while judging it or imported — no ruling, and no vote that bars
 * one; `votes`, labels given while not judging it (judge-spans.ts) — no rulings, and she may not rule on their pairs;
 * `clearedVotes`, pairs she labeled while not judging it whose label she cleared (or replaced) since: no label of hers
 * now, yet they bar her ruling as a vote does (gold/judge-voted.ts). Current labels counted alone missed those pairs,
 * and counted a "?" given while judging among the votes.
 */
export interface LabelsAsJudge {
  again: number;
  imported: number;
  unsure: number;
  votes: number;
  clearedVotes: number;
}

export function labelsAsJudge(ws: Workspace, pool: string, name: string): LabelsAsJudge {
  const spans = judgeSpans(ws, pool).get(name);
  const out: LabelsAsJudge = { again: 0, imported: 0, unsure: 0, votes: 0, clearedVotes: 0 };
  const votePairs = new Set<string>();
  for (const l of ws.currentLabels(pool, name)) {
    const imported = l.origin.startsWith('import:');
    if (!imported && !givenWhileJudging(spans, ws.labelGivenAt(l).seq)) {
      out.votes++;
      votePairs.add(pairKey(l.queryId, l.candidateId));
    } else if (l.value === UNSURE) out.unsure++;
    else if (imported) out.imported++;
    else out.again++;
  }
  if (spans?.length) for (const key of pairsVotedOutsideJudging(ws, pool, name)) if (!votePairs.has(key)) out.clearedVotes++;
  return out;
}
