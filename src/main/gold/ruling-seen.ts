/**
 * Two judges racing on one pair: Review asks before a judge overrules another's ruling it shows,
 * but a ruling given meanwhile by another judge was not shown, and the later ruling overruled it
 * without a word. review.settle's `ifRuling` names the ruling the client last saw (null: none);
 * the engine refuses the ruling when the pair's counting ruling is another judge's, of another
 * value, and not that one. Without `ifRuling` (qpairs label, scripts) nothing is checked: the
 * latest ruling counts, as before.
 */
import { normaliseLabel } from '../../shared/labels';
import { rulingChangedMessage, type SeenRuling } from '../../shared/ruling-changed';
import { QPairsError } from '../errors';
import { pairKey, type PoolState } from './state';

export function checkRulingSeen(s: PoolState, judge: string, pair: { queryId: string; candidateId: string }, value: string | null, seen: SeenRuling | null | undefined): void {
  if (seen === undefined || value === null) return;
  const now = s.byKey.get(pairKey(pair.queryId, pair.candidateId))?.judge;
  if (!now || now.annotator === judge) return;
  const yours = normaliseLabel(s.scheme, value) ?? value;
  if (now.value === yours) return;
  if (seen && seen.judge === now.annotator && (normaliseLabel(s.scheme, seen.value) ?? seen.value) === now.value) return;
  throw new QPairsError(
    rulingChangedMessage({ pair: `${pair.queryId} → ${pair.candidateId}`, pool: s.pool.name, by: { judge: now.annotator, value: now.value }, seen, yours }),
  );
}
