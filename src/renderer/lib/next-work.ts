/**
 * Issue 23: an annotator's link opens Annotate on their next assigned unlabeled query. pool.list
 * already holds only the pools they may work in; this picks, once per page load, the first of them
 * (the remembered one first) with a query they have not finished. Annotate then opens that pool's
 * first unfinished query (annotate.query without a query id).
 */
import type { PoolInfo, QPairsClient } from '../../shared/contract';

/** The pool to start in: the preferred one when it still has work, else the first that has; null when all are done. */
export async function poolWithWork(client: QPairsClient, annotator: string, pools: readonly PoolInfo[], preferred: string): Promise<string | null> {
  const ordered = [...pools.filter((p) => p.name === preferred), ...pools.filter((p) => p.name !== preferred)];
  for (const p of ordered) {
    try {
      const list = await client.invoke('annotate.queries', { pool: p.name, annotator });
      if (list.some((q) => !q.done)) return p.name;
    } catch {
      /* a pool they cannot open is skipped */
    }
  }
  return null;
}

/**
 * A judge's link opens on a pool with disagreements left to settle: the preferred (remembered) pool
 * while it has some, else the first that has (its Review queue's `remaining`); null when none has
 * (the judge then stays where she was). Without it a judge's first visit showed the workspace's
 * first pool — often an imported gold set with nothing to settle — and "No disagreements".
 */
export async function poolToJudge(client: QPairsClient, judge: string, pools: readonly PoolInfo[], preferred: string): Promise<string | null> {
  const ordered = [...pools.filter((p) => p.name === preferred), ...pools.filter((p) => p.name !== preferred)];
  for (const p of ordered) {
    try {
      const queue = await client.invoke('review.queue', { pool: p.name, judge, limit: 1 });
      if (queue.remaining > 0) return p.name;
    } catch {
      /* a pool they cannot judge is skipped */
    }
  }
  return null;
}
