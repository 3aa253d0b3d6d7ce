import type { Convention, QueryEvaluation } from '../../shared/contract';

/**
 * Why the drill-down's query counts differently from the table above, or not at all: a query
 * without a similar candidate has no AP ("—"), which the table skips or counts 0 by the
 * convention; a partly labeled one counts only with "include partially labeled queries".
 */
export function drillNote(qe: QueryEvaluation, convention: Convention, partial: boolean): string | null {
  const order = qe.rankers[0]?.order ?? [];
  if (order.length === 0) return null;
  const unlabeled = order.filter((o) => o.grade === null).length;
  const similar = order.filter((o) => o.relevant).length;
  if (unlabeled > 0) {
    const part = `${unlabeled} of its ${order.length} candidates ${unlabeled === 1 ? 'has' : 'have'} no label from this source (counted here as not similar)`;
    if (similar === 0) return `${part} and none is similar: AP and RR are undefined (“—”); ${partial ? (convention === 'skip' ? 'the table leaves it out (convention skip)' : 'the table counts it 0 (score 0)') : 'the table leaves it out until every candidate is labeled'}.`;
    return `${part}: ${partial ? 'the table counts it with them as not similar (partially labeled queries included)' : 'the table leaves it out until every candidate is labeled (or “include partially labeled queries”)'}.`;
  }
  if (similar === 0) return `No candidate is similar: AP and RR are undefined (“—”); the table ${convention === 'skip' ? 'leaves this query out (convention skip)' : 'counts them 0 for this query (score 0)'}.`;
  return null;
}
