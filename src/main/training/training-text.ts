/**
 * The refusal of a training that would have no text to learn from: training pools whose questions
 * were all imported by id only (AskUbuntu's pool files list ids; their texts come from another file).
 * Every model but `fused` learns from the questions' text (ltr's similarity features train skip-gram
 * vectors on it); before this check such a training failed in its worker with "internal error:
 * skipgram: the corpus has no word seen minCount times" and a stack trace. `fused` also learns from
 * the pools' runs (AskUbuntu's Lucene BM25 scores), so it may train on them alone.
 */
import { QPairsError } from '../errors';
import type { Workspace } from '../workspace/workspace';

/** Throws QPairsError, before anything trains, when no question of any training pool has text and `kind` learns from text. */
export function checkTrainingText(ws: Workspace, kind: string, trainPools: readonly string[]): void {
  if (kind === 'fused' || trainPools.length === 0) return;
  const counts = trainPools.map((p) => ws.poolTextCoverage(ws.pool(p).id));
  if (counts.some((c) => c.withText > 0)) return;
  const questions = counts.reduce((n, c) => n + c.questions, 0).toLocaleString('en-US');
  const pools = trainPools.map((p) => `"${p}"`).join(', ');
  throw new QPairsError(
    `${trainPools.length === 1 ? `training pool ${pools} has` : `training pools ${pools} have`} no question text: ` +
      `${trainPools.length === 1 ? 'its' : 'their'} ${questions} questions were imported by id only, and ${kind} learns from text. ` +
      `Import their texts first (AskUbuntu: --format askubuntu-corpus with its text_tokenized file), or train fused, which can learn from the pools' runs alone`,
  );
}
