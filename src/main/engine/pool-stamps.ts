/**
 * Which pools an import (or its undo) wrote to: each pool's stamp — its id, its queries, pairs,
 * runs and labels counted — before the job and after it, compared (afterImportCommits). The
 * `workspace.changed` `import` event names them (`pools`), so an annotator is told of an import only
 * when it touched a pool open to her (access.ts). A run's scores given again in place, or a question's
 * text updated, change no stamp: the import's report names those pools (poolsChangedInPlace, kept in its
 * audit row for its undo), which the event names too (work.ts afterImportCommits).
 */
import type { Workspace } from '../workspace/workspace';

export type PoolStamps = ReadonlyMap<string, string>;

/** Every pool's stamp, by name (one query; counts over the pools' own index ranges). */
export function poolStamps(ws: Workspace): PoolStamps {
  const rows = ws
    .stmt(
      `SELECT p.name AS name, p.id || ':' ||
              (SELECT count(*) FROM pool_queries q WHERE q.pool_id = p.id) || ':' ||
              (SELECT count(*) FROM pool_candidates c WHERE c.pool_id = p.id) || ':' ||
              (SELECT count(*) || '/' || coalesce(max(r.id), 0) FROM runs r WHERE r.pool_id = p.id) || ':' ||
              (SELECT count(*) || '/' || coalesce(max(l.seq), 0) FROM labels l WHERE l.pool_id = p.id) AS stamp
       FROM pools p`,
    )
    .all() as Array<{ name: string; stamp: string }>;
  return new Map(rows.map((r) => [r.name, r.stamp]));
}

/** The pools whose stamp differs between two readings: made, changed or gone (sorted). */
export function poolsChanged(before: PoolStamps, after: PoolStamps): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((n) => before.get(n) !== after.get(n)).sort();
}
