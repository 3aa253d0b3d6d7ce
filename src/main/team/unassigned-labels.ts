/**
 * Labels imported for someone an assigned pool is not assigned to: they are stored, but only the
 * assigned annotators vote (gold/state.ts), so a third annotator's labels file imported into a pool
 * assigned to alice and bob changed none of its agreement, Review or gold — and the import said
 * nothing. The import report now warns, per pool, naming them and how to count them.
 */
import { CLI_IMPORT_CONTROLS, type ImportControls } from '../../shared/import-controls';
import type { Workspace } from '../workspace/workspace';

/** The last label event's seq now: read before an import, for unassignedLabelNotes. */
export function lastLabelSeq(ws: Workspace): number {
  return ws.db.prepare(`SELECT coalesce(max(seq), 0) FROM labels`).pluck().get() as number;
}

/**
 * One note per assigned pool that labels after `seqBefore` went to people (annotators, owners) it is
 * not assigned to; judges' labels are rulings, and gold and reference systems never vote. How to assign
 * them is said as the surface running the import names it (`controls`: the CLI's command, the Team panel).
 */
export function unassignedLabelNotes(ws: Workspace, seqBefore: number, controls: ImportControls = CLI_IMPORT_CONTROLS): string[] {
  const rows = ws.db
    .prepare(
      `SELECT p.id AS poolId, p.name AS pool, a.name AS person, count(*) AS n
       FROM labels l JOIN annotators a ON a.id = l.annotator_id JOIN pools p ON p.id = l.pool_id
       WHERE l.seq > ? AND l.value IS NOT NULL AND a.role IN ('annotator', 'owner')
         AND EXISTS (SELECT 1 FROM pool_annotators pa WHERE pa.pool_id = l.pool_id)
         AND NOT EXISTS (SELECT 1 FROM pool_annotators pa WHERE pa.pool_id = l.pool_id AND pa.annotator_id = l.annotator_id)
       GROUP BY p.id, a.id ORDER BY p.name, min(l.seq)`,
    )
    .all(seqBefore) as Array<{ poolId: number; pool: string; person: string; n: number }>;
  const byPool = new Map<string, { poolId: number; people: Array<{ person: string; n: number }> }>();
  for (const r of rows) {
    const entry = byPool.get(r.pool) ?? { poolId: r.poolId, people: [] };
    entry.people.push({ person: r.person, n: r.n });
    byPool.set(r.pool, entry);
  }
  return [...byPool].map(([pool, { poolId, people }]) => {
    const assigned = ws.db
      .prepare(`SELECT a.name FROM pool_annotators pa JOIN annotators a ON a.id = pa.annotator_id WHERE pa.pool_id = ? ORDER BY pa.position`)
      .pluck()
      .all(poolId) as string[];
    const labels = people.reduce((s, p) => s + p.n, 0);
    const names = people.map((p) => p.person);
    return (
      `pool "${pool}" is assigned to ${assigned.join(', ')}: the ${labels} label${labels === 1 ? '' : 's'} this import gave ${names.join(', ')} ` +
      `${labels === 1 ? 'is' : 'are'} stored but do${labels === 1 ? 'es' : ''} not vote in its agreement, Review or gold (@aggregate) until ` +
      `${names.length === 1 ? names[0]! : 'they'} ${names.length === 1 ? 'is' : 'are'} assigned too (${controls.assign(ws.path, pool, [...assigned, ...names])})`
    );
  });
}
