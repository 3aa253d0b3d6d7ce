/**
 * review.settle's refusal when a pair was settled by another judge after its judge last saw it
 * (`ifRuling`, the ruling Review showed): two judges racing on one pair, the later ruling silently
 * overruled the earlier one, whose judge Review had not shown. One wording for the engine, which
 * refuses (gold/ruling-seen.ts), and for Review, which recognises the refusal and asks as it does
 * before overruling a ruling it shows.
 */

/** The ruling a judge last saw on a pair: a judge and their value, or null (unsettled). */
export interface SeenRuling {
  judge: string;
  value: string;
}

const MARK = 'was settled meanwhile';

export function rulingChangedMessage(o: { pair: string; pool: string; by: SeenRuling; seen: SeenRuling | null; yours: string }): string {
  const saw = o.seen ? `${o.seen.judge}'s ruling ${o.seen.value}` : 'it unsettled';
  return (
    `pair ${o.pair} of pool "${o.pool}" ${MARK}: ${o.by.judge} ruled ${o.by.value} after you saw ${saw}; ` +
    `your ruling ${o.yours} was not saved — rule again to overrule ${o.by.judge}, or leave ${o.by.judge}'s ruling`
  );
}

/** Whether an error message is that refusal (Review's outbox keeps the message only). */
export function isRulingChanged(message: string | undefined): boolean {
  return rulingChangedBy(message) !== null;
}

/** The ruling that refusal names (who ruled what meanwhile), else null: not that refusal. */
export function rulingChangedBy(message: string | undefined): SeenRuling | null {
  const m = message ? new RegExp(` ${MARK}: (.+) ruled (\\S+) after you saw `).exec(message) : null;
  return m ? { judge: m[1]!, value: m[2]! } : null;
}
