/**
 * When each person judged each pool (migration 21, pool_judge_spans): a judge's label is a ruling
 * only when given while they judged the pool. A person judges a pool while their role is judge and
 * the pool does not assign them to label it; they stop when made an annotator or owner, or assigned
 * to it, and start again when made a judge or left out of its assignment. A span is a range of the
 * person's own label events in the pool: those after `after` and up to `until` (null: still
 * judging). A person with no span recorded judged every pool they judge from the start (all their
 * labels there are rulings); with spans, their labels outside every span are votes (or an owner's
 * labels), never rulings. Before migration 21 one mark per person and pool said when they last
 * began judging it, so a judge made an annotator and a judge again had her first rulings taken for
 * votes.
 */
import type { Workspace } from '../workspace/workspace';

export interface JudgeSpan {
  /** The person's last label event in the pool when the span began (0: none). */
  after: number;
  /** Their last label event there when it ended; null while they still judge the pool. */
  until: number | null;
}

function lastLabelSeq(ws: Workspace, poolId: number, annotatorId: number): number {
  const r = ws.stmt(`SELECT max(seq) AS seq FROM labels WHERE pool_id = ? AND annotator_id = ?`).get(poolId, annotatorId) as { seq: number | null };
  return r.seq ?? 0;
}

function spansOf(ws: Workspace, poolId: number, annotatorId: number): JudgeSpan[] {
  return (
    ws.stmt(`SELECT after_seq AS after, until_seq AS until FROM pool_judge_spans WHERE pool_id = ? AND annotator_id = ? ORDER BY after_seq`).all(poolId, annotatorId) as Array<{
      after: number;
      until: number | null;
    }>
  ).map((r) => ({ after: r.after, until: r.until }));
}

/**
 * Records that `name` judges pool `poolId` from now on: their labels in it from here are rulings.
 * Nothing when a span is open already, or when they have no span and no label there (all their
 * labels will be rulings, as a judge's from the start); a span that ended at their last label goes on.
 */
export function startJudging(ws: Workspace, poolId: number, name: string): void {
  const id = ws.ensureAnnotator(name);
  const spans = spansOf(ws, poolId, id);
  if (spans.some((s) => s.until === null)) return;
  const last = lastLabelSeq(ws, poolId, id);
  if (spans.length === 0 && last === 0) return;
  const ended = spans.find((s) => s.until === last);
  if (ended) {
    ws.stmt(`UPDATE pool_judge_spans SET until_seq = NULL WHERE pool_id = ? AND annotator_id = ? AND after_seq = ?`).run(poolId, id, ended.after);
    return;
  }
  ws.stmt(`INSERT INTO pool_judge_spans(pool_id, annotator_id, after_seq, until_seq) VALUES (?, ?, ?, NULL)`).run(poolId, id, last);
}

/**
 * Records that `name`, who judges pool `poolId`, stops judging it (made an annotator or owner, or
 * assigned to it): their labels in it so far given while judging stay rulings, and those from here
 * are not. A judge with no span (a judge from the start) gets one from their first label.
 */
export function stopJudging(ws: Workspace, poolId: number, name: string): void {
  const id = ws.ensureAnnotator(name);
  const spans = spansOf(ws, poolId, id);
  const last = lastLabelSeq(ws, poolId, id);
  if (spans.length === 0) {
    if (last > 0) ws.stmt(`INSERT INTO pool_judge_spans(pool_id, annotator_id, after_seq, until_seq) VALUES (?, ?, 0, ?)`).run(poolId, id, last);
    return;
  }
  ws.stmt(`UPDATE pool_judge_spans SET until_seq = ? WHERE pool_id = ? AND annotator_id = ? AND until_seq IS NULL`).run(last, poolId, id);
}

/** Per person with a span recorded in the pool: their spans, earliest first. */
export function judgeSpans(ws: Workspace, pool: string): Map<string, JudgeSpan[]> {
  const rows = ws
    .stmt(
      `SELECT a.name, j.after_seq AS after, j.until_seq AS until FROM pool_judge_spans j JOIN annotators a ON a.id = j.annotator_id
       WHERE j.pool_id = ? ORDER BY a.name, j.after_seq`,
    )
    .all(ws.poolId(pool)) as Array<{ name: string; after: number; until: number | null }>;
  const out = new Map<string, JudgeSpan[]>();
  for (const r of rows) {
    let l = out.get(r.name);
    if (!l) out.set(r.name, (l = []));
    l.push({ after: r.after, until: r.until });
  }
  return out;
}

/** Whether a label event `seq` of a person with these spans was given while they judged the pool (no spans: always). */
export function givenWhileJudging(spans: readonly JudgeSpan[] | undefined, seq: number): boolean {
  if (spans === undefined || spans.length === 0) return true;
  return spans.some((s) => seq > s.after && (s.until === null || seq <= s.until));
}

/** SQL condition: label `l` (of the labels table) was given outside every span of its person in its pool, who has one. */
export const OUTSIDE_JUDGING_SQL = `EXISTS (SELECT 1 FROM pool_judge_spans s WHERE s.pool_id = l.pool_id AND s.annotator_id = l.annotator_id)
  AND NOT EXISTS (SELECT 1 FROM pool_judge_spans s WHERE s.pool_id = l.pool_id AND s.annotator_id = l.annotator_id
                  AND l.seq > s.after_seq AND (s.until_seq IS NULL OR l.seq <= s.until_seq))`;
