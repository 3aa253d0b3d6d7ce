import type { LiveStatus } from '../../shared/live';
import { queuedTrainingNote } from '../../shared/models';

/**
 * The Live panel's first sentence: whether a retrain waits for a training slot or runs (`progress`:
 * its job's last message, `waiting`: it is queued), else how far the labels are from the next one.
 * An annotator's status never says a retrain runs (access.ts: how long it read so timed the others'
 * trainings), so labels at the count read as a retrain due or under way, not as "the next starts at"
 * a count already passed.
 */
export function liveStatusSentence(status: Pick<LiveStatus, 'running' | 'enabled' | 'labelsSinceLast' | 'everyLabels' | 'idleSeconds' | 'queuedBehind'>, progress: string | null, waiting: boolean): string {
  if (waiting) return `Retrain waiting for a training slot (${progress ?? queuedTrainingNote(status.queuedBehind ?? 0)}); labeling goes on.`;
  if (status.running) return `Retraining in the background${progress ? ` — ${progress}` : ''}; labeling goes on.`;
  if (!status.enabled) return 'Off: the models change only when retrained by hand.';
  const n = `${status.labelsSinceLast} label${status.labelsSinceLast === 1 ? '' : 's'} since the last retrain`;
  if (status.labelsSinceLast >= status.everyLabels) return `${n}: a retrain is due or under way in the background; labeling goes on.`;
  return `${n}; the next starts at ${status.everyLabels}${status.idleSeconds ? ` or ${status.idleSeconds} s after the last label` : ''}.`;
}
