/**
 * Which pools an annotator may work in (issue 23), for access.ts — the one place that decides:
 *
 * - a pool with an assignment (pool.assign): its assigned annotators only;
 * - a pool without one: every annotator, unless it holds imported labels (a gold pool made by
 *   importing qrels, a labels file, SemEval or AskUbuntu data): those are closed to annotators
 *   until the owner assigns them.
 *
 * Judges and owners are not limited. "Holds imported labels" is a label event whose origin is
 * `import:…` (src/main/import/pools.ts); labels are append-only, so the answer is cached per pool
 * and only newer events are looked at on the next call.
 */
import { getAssignment } from '../gold/store';
import type { Workspace } from '../workspace/workspace';

interface ImportedCache {
  /** Highest label seq looked at. */
  seq: number;
  imported: boolean;
}

const caches = new WeakMap<Workspace, Map<number, ImportedCache>>();

/** Whether a pool holds labels that came from an import (a gold pool); cached per workspace and pool. */
export function holdsImportedLabels(ws: Workspace, poolId: number): boolean {
  let byPool = caches.get(ws);
  if (!byPool) {
    const pools = (byPool = new Map<number, ImportedCache>());
    caches.set(ws, pools);
    // Another connection's commits (an import's chunks, its rollback, an import's undo) may have taken
    // imported labels out: a pool found holding some is looked at again from the start.
    ws.onExternalChange(() => {
      for (const [id, c] of pools) if (c.imported) pools.delete(id);
    });
  }
  const c = byPool.get(poolId) ?? { seq: 0, imported: false };
  if (!c.imported) {
    const max = (ws.stmt(`SELECT coalesce(max(seq), 0) FROM labels`).pluck().get() as number) ?? 0;
    // A smaller max means events were rolled back (an undone import): look again from the start.
    const from = max < c.seq ? 0 : c.seq;
    if (max !== from) {
      c.imported = !!ws.stmt(`SELECT 1 FROM labels WHERE seq > ? AND seq <= ? AND pool_id = ? AND origin LIKE 'import:%' LIMIT 1`).get(from, max, poolId);
    }
    c.seq = max;
    byPool.set(poolId, c);
  }
  return c.imported;
}

/** Why an annotator may not use a pool, or null when they may. */
export function poolClosedReason(ws: Workspace, poolName: string, annotator: string): string | null {
  const pool = ws.findPoolSettings(poolName);
  if (!pool) return null; // the handler answers not-found
  const plan = getAssignment(ws, poolName);
  if (plan.mode !== 'open') return plan.annotators.includes(annotator) ? null : `pool "${pool.name}" is not assigned to "${annotator}"`;
  if (holdsImportedLabels(ws, pool.id)) return `pool "${pool.name}" holds imported labels and is closed to annotators until the owner assigns it`;
  return null;
}

/** The pools of `names` an annotator may use. */
export function usablePools(ws: Workspace, annotator: string): Set<string> {
  // Names only: listPools() counts every pool's rows.
  const names = ws.stmt(`SELECT name FROM pools ORDER BY id`).all().map((r) => (r as { name: string }).name);
  return new Set(names.filter((name) => poolClosedReason(ws, name, annotator) === null));
}
