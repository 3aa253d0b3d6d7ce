/**
 * The Review screen's refresh after a burst of labels: review.queue with `since` answers the pairs
 * of the queries whose labels changed (ReviewQueue.partial), and they replace those queries' pairs
 * in the queue the screen holds — the queue read whole is 0.94 MB for 3,000 disagreements, a
 * query's pairs a few hundred bytes. A pair's impact depends only on its own query's labels and
 * runs, so the other pairs stand; the result is the queue a whole read would give, in its order
 * (impact, highest first, then pool order: ReviewQueue.queryOrder). No Node or DOM imports.
 */
import type { ReviewItem, ReviewQueue } from './gold';

/**
 * `part` merged into `held` (a whole read, or one merged before: it carries queryOrder). A whole
 * read (`part` without `partial`) replaces it; null when `part` cannot follow `held` (another pool
 * or judge, or `held` without the pool's query order): the caller reads the whole queue.
 */
export function mergeReviewQueue(held: ReviewQueue, part: ReviewQueue): ReviewQueue | null {
  if (!part.partial) return part;
  if (held.pool !== part.pool || held.judge !== part.judge || !held.queryOrder) return null;
  const order = held.queryOrder;
  const at = new Map(order.map((q, i) => [q, i]));
  const pos = (i: ReviewItem): number => at.get(i.queryId) ?? order.length;
  const touched = new Set(part.partial.queries);
  const kept = held.items.filter((i) => !touched.has(i.queryId));
  const fresh = part.items;
  // Both lists are in the queue's order, and a query's pairs are all in one of them: one merge.
  const items: ReviewItem[] = [];
  let a = 0;
  let b = 0;
  while (a < kept.length && b < fresh.length) {
    const x = kept[a]!;
    const y = fresh[b]!;
    if (y.impact > x.impact || (y.impact === x.impact && pos(y) < pos(x))) {
      items.push(y);
      b++;
    } else {
      items.push(x);
      a++;
    }
  }
  while (a < kept.length) items.push(kept[a++]!);
  while (b < fresh.length) items.push(fresh[b++]!);
  const { partial: _partial, ...whole } = part;
  return { ...whole, queryOrder: order, items };
}
